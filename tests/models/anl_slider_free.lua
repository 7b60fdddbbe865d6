-- anl_slider_free.lua - the slider-crank of tests/models/anl_slider_driven.lua without its
-- driver: one degree of freedom, for the inverse-dynamics consistency check of
-- tests/test_analysis.c (forward dynamics driven by the driven model's inverse-dynamics effort,
-- applied as a torque on crank.phi, must reproduce the prescribed crank angle pi/6 + 20 t).
-- Data: as anl_slider_driven.lua (keep the two in step): crank r = 0.1 m, 0.5 kg; rod
--   l = 0.3 m, 1.0 kg; piston 2.0 kg; gravity [0, -9.81]; the same bodies in the same order,
--   so both models have the same coordinates.
name "anl_slider_free"
gravity { 0, -9.81 }

local r, l = 0.1, 0.3
local th = pi / 6
local ax, ay = r * cos(th), r * sin(th)
local bx = ax + math.sqrt(l * l - ay * ay)
local psi = math.atan(-ay, bx - ax)

ground { O = { 0, 0 }, S = { 0, 0 } }
body "crank" { mass = 0.5, inertia = 0.5 * r * r / 12, angle = th,
               position = { ax / 2, ay / 2 },
               points = { O = { -r / 2, 0 }, A = { r / 2, 0 } } }
body "rod"   { mass = 1.0, inertia = 1.0 * l * l / 12, angle = psi,
               position = { (ax + bx) / 2, ay / 2 },
               points = { A = { -l / 2, 0 }, B = { l / 2, 0 } } }
body "piston" { mass = 2.0, inertia = 1e-3, angle = 0, position = { bx, 0 },
                points = { B = { 0, 0 } } }

revolute "O" { "ground.O", "crank.O" }
revolute "A" { "crank.A", "rod.A" }
revolute "B" { "rod.B", "piston.B" }
prismatic "slide" { "ground.S", "piston.B", axis = { 1, 0 } }

assembly { lock = { "crank.phi" }, velocity = { ["crank.phi"] = 20 } }
