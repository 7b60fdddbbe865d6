-- audit_chain3.lua - a 3-link pendulum of unequal links with rotational spring-dampers at the
-- joints and a point spring-damper from its tip to the ground (the claims audit,
-- tests/test_audit.sh).
-- Data: links 0.5, 0.4, 0.3 m of 1.2, 0.8, 0.5 kg (uniform bars, J = m L^2 / 12), hanging from
--   ground.O, released at rest at 60, 20, -30 deg from the horizontal; rotational springs
--   k = 5, 3, 2 N m/rad (theta0 0), dampers c = 0.05, 0.03, 0.02 N m s/rad at O, J1, J2;
--   a spring-damper from the tip to ground.W = (0.9, -0.6), k = 40 N/m, l0 = 0.3 m,
--   c = 0.5 N s/m; gravity [0, -9.81].
-- Equations: revolute joints (thesis 2.4), rotational and point spring-dampers; energy balance
--   T + V - E0 = W (the dampers' dissipation).
name "audit_chain3"
gravity { 0, -9.81 }

local Ls, ms = { 0.5, 0.4, 0.3 }, { 1.2, 0.8, 0.5 }
local angs = { 60 * pi / 180, 20 * pi / 180, -30 * pi / 180 }
local ks, cs = { 5, 3, 2 }, { 0.05, 0.03, 0.02 }
ground { O = { 0, 0 }, W = { 0.9, -0.6 } }
local x, y = 0, 0
for i = 1, 3 do
  local L = Ls[i]
  local cx, cy = x + L / 2 * cos(angs[i]), y + L / 2 * sin(angs[i])
  body("l" .. i) { mass = ms[i], inertia = ms[i] * L * L / 12, angle = angs[i],
                   position = { cx, cy },
                   points = { P = { -L / 2, 0 }, D = { L / 2, 0 } } }
  x, y = x + L * cos(angs[i]), y + L * sin(angs[i])
end
revolute "O"  { "ground.O", "l1.P" }
revolute "J1" { "l1.D", "l2.P" }
revolute "J2" { "l2.D", "l3.P" }
rotspring "K0" { "ground", "l1", k = ks[1], theta0 = 0, c = cs[1] }
rotspring "K1" { "l1", "l2", k = ks[2], theta0 = 0, c = cs[2] }
rotspring "K2" { "l2", "l3", k = ks[3], theta0 = 0, c = cs[3] }
spring "tip" { "l3.D", "ground.W", k = 40, l0 = 0.3, c = 0.5 }
assembly { lock = { "l1.phi", "l2.phi", "l3.phi" } }
