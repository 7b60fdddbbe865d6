-- anl_slider_driven.lua - the slider-crank of models/slider_crank.lua with its crank driven at a
-- constant speed: zero degrees of freedom, for kinematic and inverse-dynamic analysis
-- (tests/test_analysis.c, tests/test_analyses.sh; docs/analyses.md).
-- Data: crank r = 0.1 m, 0.5 kg; rod l = 0.3 m, 1.0 kg; piston 2.0 kg; gravity [0, -9.81];
--   the crank angle is theta(t) = pi/6 + 20 t (driver "drive").
-- Closed forms: piston x_B = r cos(theta) + sqrt(l^2 - r^2 sin^2(theta)) and its derivatives;
--   the driver's torque from the power balance tau w = d(T + V)/dt.
name "anl_slider_driven"
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
driver "drive" { coord = "crank.phi", f = function(t) return pi / 6 + 20 * t end }

-- sensors (the analyses' out.* columns, tests/test_analyses.sh): the piston's position and
-- velocity, the driver's torque and a pin's reaction, which kinematic and inverse analysis give
sensor "xp" { value = pos("piston.B").x }
sensor "vp" { value = vel("piston.B").x }
sensor "torque" { value = "drive.effort" }
sensor "Ofy" { value = reaction("O").fy }
