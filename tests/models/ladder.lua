-- ladder.lua - a closed-loop chain for the ordering benchmark (make bench-ordering): a ladder of
-- N square loops hanging from two ground pins (N = param("N", 4), mbgen -D N=...).
-- Source: made up, for the sparsity of closed chains (docs/linear-systems.md, "Orderings"); not a
--   physical benchmark. Two rails of N links each (left l_i, right r_i, vertical, 0.1 m, 0.1 kg,
--   J = m L^2 / 12) hang from the ground points OL = (0, 0), OR = (0.1, 0); rung c_i (the same
--   bar, horizontal) joins the lower ends of l_i and r_i. Loop i (l_i, c_i, r_i, c_(i-1) or the
--   ground) is a parallelogram four-bar: one degree of freedom per loop, no redundant equation.
--   Released at rest with the rails tilted 0.4 rad from the vertical, so that it swings.
-- Equations: revolute joints Phi = r_i + R_i s_i - r_j - R_j s_j (thesis 2.4); V = -m g^T r.

local N = param("N", 4)
if math.type(N) ~= "integer" or N < 1 or N > 1000 then
  error("N must be an integer between 1 and 1000, got " .. tostring(N))
end

name "ladder"
gravity { 0, -9.81 }

local L, m = 0.1, 0.1
ground { OL = { 0, 0 }, OR = { L, 0 } }

local th = 0.4                         -- rails tilted by th from the vertical
local dx, dy = sin(th), -cos(th)        -- unit vector down a rail, from A to B
for i = 1, N do
  local px, py = (i - 0.5) * L * dx, (i - 0.5) * L * dy
  body("l" .. i) { mass = m, inertia = m * L * L / 12, angle = th - pi / 2,
                   position = { px, py }, points = { A = { -L / 2, 0 }, B = { L / 2, 0 } } }
  body("r" .. i) { mass = m, inertia = m * L * L / 12, angle = th - pi / 2,
                   position = { px + L, py }, points = { A = { -L / 2, 0 }, B = { L / 2, 0 } } }
  body("c" .. i) { mass = m, inertia = m * L * L / 12, angle = 0,
                   position = { i * L * dx + L / 2, i * L * dy },
                   points = { A = { -L / 2, 0 }, B = { L / 2, 0 } } }
end

-- joints level by level (the natural order then runs down the ladder)
for i = 1, N do
  local above_l, above_r = "ground.OL", "ground.OR"
  if i > 1 then above_l, above_r = "l" .. (i - 1) .. ".B", "r" .. (i - 1) .. ".B" end
  revolute("JL" .. i) { above_l, "l" .. i .. ".A" }
  revolute("JR" .. i) { above_r, "r" .. i .. ".A" }
  revolute("CL" .. i) { "l" .. i .. ".B", "c" .. i .. ".A" }
  revolute("CR" .. i) { "c" .. i .. ".B", "r" .. i .. ".B" }
end
