-- net.lua - a square net of K x K cells of pin-jointed bars hanging from its top row of nodes
-- (K = param("K", 3), mbgen -D K=...): a two-dimensional mechanism, the case nested dissection
-- is made for, as a contrast in the ordering benchmark (make bench-ordering,
-- docs/linear-systems.md "Orderings"); the shipped mechanisms are chains and loops of chains.
-- Source: made up; not a physical benchmark. Nodes (i, j), i, j = 0 .. K, 0.1 m apart; the top
--   row j = K is pinned to the ground. Bars of 0.1 m, 0.1 kg, J = m L^2 / 12: vertical bars
--   v_i_j from node (i, j) up to (i, j + 1), horizontal bars h_i_j from (i, j) to (i + 1, j) for
--   the rows j < K (a bar between two ground pins could not move). At every node the bar ends
--   are pinned to the first one there (or to the ground point): one revolute per extra end.
--   Released at rest sheared: the "vertical" bars tilted 0.4 rad, every cell a parallelogram, so
--   that the net swings.
-- Equations: revolute joints Phi = r_i + R_i s_i - r_j - R_j s_j (thesis 2.4); V = -m g^T r.

local K = param("K", 3)
if math.type(K) ~= "integer" or K < 1 or K > 30 then
  error("K must be an integer between 1 and 30, got " .. tostring(K))
end

name "net"
gravity { 0, -9.81 }

local L, m = 0.1, 0.1
local ends = {}            -- ends[node key] = list of "body.point" meeting there
local function at(i, j, p)
  local key = i .. "_" .. j
  ends[key] = ends[key] or {}
  table.insert(ends[key], p)
end

local th = 0.4                         -- shear: "vertical" bars tilted by th
local ux, uy = sin(th), cos(th)         -- unit vector up a "vertical" bar
local function node(i, j) return i * L - (K - j) * L * ux, K * L - (K - j) * L * uy end

local top = {}
for i = 0, K do top["T" .. i] = { node(i, K) } end
ground(top)
for i = 0, K do at(i, K, "ground.T" .. i) end

local pts = { A = { -L / 2, 0 }, B = { L / 2, 0 } }
for j = 0, K - 1 do
  for i = 0, K do          -- "vertical" bar: A at (i, j), B at (i, j + 1)
    local b = "v" .. i .. "_" .. j
    local x, y = node(i, j)
    body(b) { mass = m, inertia = m * L * L / 12, angle = pi / 2 - th,
              position = { x + L / 2 * ux, y + L / 2 * uy }, points = pts }
    at(i, j, b .. ".A")
    at(i, j + 1, b .. ".B")
  end
  for i = 0, K - 1 do      -- horizontal bar: A at (i, j), B at (i + 1, j)
    local b = "h" .. i .. "_" .. j
    local x, y = node(i, j)
    body(b) { mass = m, inertia = m * L * L / 12, angle = 0,
              position = { x + L / 2, y }, points = pts }
    at(i, j, b .. ".A")
    at(i + 1, j, b .. ".B")
  end
end

for j = 0, K do
  for i = 0, K do
    local e = ends[i .. "_" .. j]
    for n = 2, #e do
      revolute("P" .. i .. "_" .. j .. "_" .. n) { e[1], e[n] }
    end
  end
end
