-- audit_slider_offset.lua - an offset slider-crank on an inclined slide, driven by a torque,
-- the piston held by a spring-damper (the claims audit, tests/test_audit.sh).
-- Data: crank r = 0.08 m, 0.4 kg; rod l = 0.25 m, 0.9 kg (uniform bars, J = m L^2 / 12);
--   piston 1.5 kg (J = 2e-3, its angle is fixed by the slide); the slide axis makes 15 deg with
--   X and passes e = 0.03 m from the crank pivot O (the rod is longer than crank + offset, so
--   there is no singular position); torque on the crank 0.3 + 0.2 sin(7 t) N m; spring-damper
--   from the piston to the ground point G on the slide axis, k = 300 N/m, l0 = 0.2 m,
--   c = 4 N s/m; gravity [0, -9.81]. Starts at crank angle 40 deg, turning at 5 rad/s.
-- Equations: revolute joints (thesis 2.4), a prismatic joint, a point spring-damper, a torque;
--   energy balance T + V - E0 = W (torque work minus damper dissipation).
name "audit_slider_offset"
gravity { 0, -9.81 }

local r, l, e, beta = 0.08, 0.25, 0.03, 15 * pi / 180
local ux, uy = cos(beta), sin(beta)            -- slide direction
local sx, sy = -e * uy, e * ux                 -- S: the foot of the axis nearest O
local th = 40 * pi / 180
local ax, ay = r * cos(th), r * sin(th)        -- crank pin A
-- piston pin B = S + s u with |B - A| = l (the root ahead of A)
local dx, dy = sx - ax, sy - ay
local bq = dx * ux + dy * uy
local s = -bq + math.sqrt(bq * bq - (dx * dx + dy * dy - l * l))
local bx, by = sx + s * ux, sy + s * uy

ground { O = { 0, 0 }, S = { sx, sy }, G = { sx + 0.6 * ux, sy + 0.6 * uy } }

body "crank" { mass = 0.4, inertia = 0.4 * r * r / 12, angle = th,
               position = { ax / 2, ay / 2 },
               points = { O = { -r / 2, 0 }, A = { r / 2, 0 } } }
body "rod"   { mass = 0.9, inertia = 0.9 * l * l / 12, angle = math.atan(by - ay, bx - ax),
               position = { (ax + bx) / 2, (ay + by) / 2 },
               points = { A = { -l / 2, 0 }, B = { l / 2, 0 } } }
body "piston" { mass = 1.5, inertia = 2e-3, angle = 0, position = { bx, by },
                points = { B = { 0, 0 } } }

revolute "O" { "ground.O", "crank.O" }
revolute "A" { "crank.A", "rod.A" }
revolute "B" { "rod.B", "piston.B" }
prismatic "slide" { "ground.S", "piston.B", axis = { ux, uy } }
spring "hold" { "piston.B", "ground.G", k = 300, l0 = 0.2, c = 4 }
torque "motor" { "crank", tau = function(t) return 0.3 + 0.2 * sin(7 * t) end }

assembly { lock = { "crank.phi" }, velocity = { ["crank.phi"] = 5 } }
