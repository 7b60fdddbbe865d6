-- walker.lua - a Jansen walker (Theo Jansen's Strandbeest linkage) that walks on the ground:
-- four legs on one crank, driven by a DC motor through a gear, the frame a free body under
-- gravity, each foot a circle in Hunt-Crossley contact with Coulomb friction.
-- Source: T. Jansen, The Great Pretender (2007): the leg's "holy numbers" a = 38, b = 41.5,
--   c = 39.3, d = 40.1, e = 55.8, f = 39.4, g = 36.7, h = 65.7, i = 49, j = 50, k = 61.9,
--   l = 7.8, m = 15, here in centimetres (the crank m = 0.15 m, a leg 0.92 m tall); masses and
--   motor made up, SI units.
-- Data: the frame (20 kg, 1.2 kg m^2) carries the crank axle O and the fixed pivots
--   B = (-a, -l) and its mirror (a, -l). The crank (2 kg) has two pins 180 deg apart, A1 and
--   A2, at m from O. Four legs: on each pin a leg on the left (pivot B at -a) and its mirror on
--   the right, the left and right feet on the ground in turn. A leg is two triangles, B-C-E
--   (b, d, e: it turns about B) and F-D-G (g, i, h: G is the foot), and four massless rods:
--   j (A-C), k (A-D), c (B-D), f (E-F). The triangles are bars of 1 kg/m. Feet: circles of
--   r = 0.02 m, k = 1e7 N/m^1.5, restitution 0.5 at 0.5 m/s, mu_s = 0.8, mu_d = 0.6,
--   v_stick = 0.01 m/s. Motor (steady electrics): torque gear kt (V - ke gear w) / R on the crank
--   (and its reaction on the frame), kt = ke = 0.05 N m/A, R = 1 ohm, gear 60, V the input "V"
--   (default 12 V); it turns the crank clockwise, so the walker walks towards +x.
-- Equations: revolute joints, rods, contacts (docs/model-language.md); 4 degrees of freedom
--   (the frame's x, y, phi and the crank). The initial configuration is solved below from the
--   holy numbers (circle intersections), the left foot of pin A1 and the right foot of pin A2
--   on the ground mid-stride.
-- Validated (tests/test_walker.sh, docs/validation.md section 13): it walks: the frame advances
--   1.3755 m per crank turn, the same within 2 % on turns 2 to 5 and 2.03 times the foot's
--   stride relative to the frame (0.679 m; two feet push on each side per turn); baumgarte with
--   dop853 and events agrees to 5e-6; the frame stays upright (|phi| < 0.01 rad) and up; the
--   energy balance closes. Try: make run MODEL=walker TRACE=lowL1.G (a foot's path), or
--   RUN_ARGS="--t-end 20" with the input V set lower in a table (--input-file) to walk slower.

name "walker"
gravity { 0, -9.81 }

local U = 0.01                             -- metres per unit of the holy numbers
local a, b, c, d, e = 38 * U, 41.5 * U, 39.3 * U, 40.1 * U, 55.8 * U
local f, g, h, i, j = 39.4 * U, 36.7 * U, 65.7 * U, 49 * U, 50 * U
local k, l, m = 61.9 * U, 7.8 * U, 15 * U
local rf = 0.02                            -- the feet's radius
local rho = 1.0                            -- kg/m of the triangles' bars
local th0 = 0                              -- the crank's initial angle

-- the two intersections of circle(P, r1) and circle(Q, r2)
local function cc(P, r1, Q, r2)
  local dx, dy = Q[1] - P[1], Q[2] - P[2]
  local D = math.sqrt(dx * dx + dy * dy)
  local x = (r1 * r1 - r2 * r2 + D * D) / (2 * D)
  local y = math.sqrt(r1 * r1 - x * x)
  local ux, uy = dx / D, dy / D
  return { P[1] + x * ux - y * uy, P[2] + x * uy + y * ux },
         { P[1] + x * ux + y * uy, P[2] + x * uy - y * ux }
end
local function pick(key, p, q) if key(p) < key(q) then return p else return q end end
-- a leg's joints about O at crank angle th; s = 1 on the left, -1 its mirror
local function leg(th, s)
  local A, B = { m * cos(th), m * sin(th) }, { -s * a, -l }
  local C = pick(function(p) return -p[2] end, cc(B, b, A, j))   -- the upper
  local D = pick(function(p) return p[2] end, cc(B, c, A, k))    -- the lower
  local E = pick(function(p) return s * p[1] end, cc(B, d, C, e)) -- the outer
  local F = pick(function(p) return s * p[1] end, cc(E, f, D, g))
  local G = pick(function(p) return p[2] end, cc(F, h, D, i))
  return { A = A, B = B, C = C, D = D, E = E, F = F, G = G }
end

-- the frame's axle at the height that puts the lowest feet on the ground (y = 0)
local y0 = -leg(th0, 1).G[2] + rf

ground { O = { 0, 0 } }
body "frame" { mass = 20, inertia = 1.2, position = { 0, y0 },
               points = { O = { 0, 0 }, BL = { -a, -l }, BR = { a, -l } } }
body "crank" { mass = 2, inertia = 2 * (2 * m) ^ 2 / 12, position = { 0, y0 }, angle = th0,
               points = { O = { 0, 0 }, A1 = { m, 0 }, A2 = { -m, 0 } } }
revolute "axle" { "frame.O", "crank.O" }

-- a triangle of bars through three points (global, at the initial pose): the body with its
-- centre of mass and inertia, its points relative to the centre (angle 0)
local function triangle(name, pts)
  local M, cx, cy = 0, 0, 0
  local edges = { { pts[1][2], pts[2][2] }, { pts[2][2], pts[3][2] }, { pts[3][2], pts[1][2] } }
  for _, ed in ipairs(edges) do
    local L = math.sqrt((ed[2][1] - ed[1][1]) ^ 2 + (ed[2][2] - ed[1][2]) ^ 2)
    M = M + rho * L
    cx = cx + rho * L * (ed[1][1] + ed[2][1]) / 2
    cy = cy + rho * L * (ed[1][2] + ed[2][2]) / 2
  end
  cx, cy = cx / M, cy / M
  local J = 0
  for _, ed in ipairs(edges) do
    local L = math.sqrt((ed[2][1] - ed[1][1]) ^ 2 + (ed[2][2] - ed[1][2]) ^ 2)
    local mx, my = (ed[1][1] + ed[2][1]) / 2 - cx, (ed[1][2] + ed[2][2]) / 2 - cy
    J = J + rho * L * (L * L / 12 + mx * mx + my * my)
  end
  local points = {}
  for _, p in ipairs(pts) do points[p[1]] = { p[2][1] - cx, p[2][2] - cy } end
  body(name) { mass = M, inertia = J, position = { cx, cy + y0 }, points = points }
end

for pin = 1, 2 do
  for _, side in ipairs { { "L", 1 }, { "R", -1 } } do
    local s = side[2]
    local P = leg(th0 + (pin - 1) * pi, s)
    local n = side[1] .. pin
    triangle("up" .. n, { { "B", P.B }, { "C", P.C }, { "E", P.E } })
    triangle("low" .. n, { { "F", P.F }, { "D", P.D }, { "G", P.G } })
    revolute("B" .. n) { "frame.B" .. side[1], "up" .. n .. ".B" }
    rod("j" .. n) { "crank.A" .. pin, "up" .. n .. ".C", length = j }
    rod("k" .. n) { "crank.A" .. pin, "low" .. n .. ".D", length = k }
    rod("c" .. n) { "frame.B" .. side[1], "low" .. n .. ".D", length = c }
    rod("f" .. n) { "up" .. n .. ".E", "low" .. n .. ".F", length = f }
    contact("foot" .. n) { "low" .. n .. ".G", "ground.O", radius = rf, line = { 1, 0 },
                           k = 1e7, exponent = 1.5, restitution = 0.5, velocity = 0.5,
                           mu_s = 0.8, mu_d = 0.6, v_stick = 1e-2 }
  end
end

-- the DC motor between the frame and the crank; wc the crank's clockwise speed
local kt, ke, R, gear = 0.05, 0.05, 1.0, 60
local V = input "V" { default = 12, unit = "V" }
local wc = -rate("axle")
local current = (V - ke * gear * wc) / R
torque "motor" { joint = "axle", tau = -gear * kt * current }
sensor "current" { value = current, unit = "A" }
sensor "crank_turns" { value = -angle("axle") / (2 * pi), unit = "1" }

simulate { t_end = 10, h = 1e-4 }
