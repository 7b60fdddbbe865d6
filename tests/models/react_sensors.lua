-- react_sensors.lua - sensors that read reactions (docs/model-language.md, "Reactions in
-- sensors"), one of each kind: revolute, driver, prismatic, rod, slot, gear, rack, cam.
-- Closed form (tests/test_react_sensors.sh): the arm (mass m, CoM at a from its pivot J) turned
--   by driver D at a constant rate w, angle theta = w t from X: the pin's force on the arm is
--   m (acc of the CoM) - m g = (-m w^2 a cos theta, -m w^2 a sin theta + m g), and the driver
--   holds the torque m g a cos theta (theta'' = 0).
-- The rest (gears, a rack, a slot, a rod, a prismatic joint) is checked against the CSV's
--   reaction columns; the formula sensors check dy/dlambda of a nonlinear use.
name "react_sensors"
gravity { 0, -9.81 }
simulate { t_end = 0.5, h = 1e-3 }

local m, a, w = 2, 0.3, 3
ground { O = { 0, 0 }, O1 = { 1, 0 }, O2 = { 1.3, 0 }, O4 = { 2, 0 }, R = { 2, -0.1 },
         S = { 4, 0 }, T = { 4, 1 }, A = { 1.5, 0.6 } }
body "arm" { mass = m, inertia = 0.01, position = { a, 0 }, angle = 0,
             points = { P = { -a, 0 }, T = { a, 0 } } }
revolute "J" { "ground.O", "arm.P" }
driver "D" { joint = "J", f = function(t) return w * t end }

body "g1" { mass = 1, inertia = 0.02, position = { 1, 0 }, points = { C = { 0, 0 } } }
body "g2" { mass = 2, inertia = 0.08, position = { 1.3, 0 }, angle = 0.1, points = { C = { 0, 0 } } }
revolute "J1" { "ground.O1", "g1.C" }
revolute "J2" { "g2.C", "ground.O2" }
gear "G12" { "J1", "J2", ratio = 2 }
torque "Tg" { "g1", tau = sine { amplitude = 0.3, period = 1.3 } }

body "pinion" { mass = 0.3, inertia = 0.004, position = { 2.05, 0 }, points = { C = { -0.05, 0 } } }
body "rack" { mass = 0.8, inertia = 0.03, position = { 2, -0.1 }, points = { P = { 0, 0 }, Q = { 0.3, 0 } } }
revolute "Jpin" { "ground.O4", "pinion.C" }
prismatic "Pr" { "rack.P", "ground.R", axis = { 1, 0 } }
rack "RP" { "Jpin", "Pr", radius = 0.1 }
spring "Sr" { "ground.A", "rack.Q", k = 30, l0 = 0.9, c = 0.2 }

particle "pin" { mass = 0.2, x = 4.3, y = 0.4 }
slot "Sg" { "ground.S", "pin", axis = { 0.6, 0.8 } }
rod "Rd" { "ground.T", "pin", length = math.sqrt(0.3 ^ 2 + 0.6 ^ 2) }

-- an eccentric cam (a base circle of 1.5 m, eccentricity 0.3 m: sized like the rest, so that
-- the finite differences of tests/test_derivs.c see its curvature) turned by a driver lifts a
-- follower on a vertical guide against a spring (models/cam_follower.lua's arrangement)
ground { CO = { 6, 0 }, CG = { 6, 2 }, CH = { 6, 2.5 } }
body "cam" { mass = 3, inertia = 1, position = { 6, 0 }, angle = pi / 2, points = { O = { 0, 0 } } }
body "fol" { mass = 1, inertia = 0.01, position = { 6, 1.8 }, points = { P = { 0, 0 }, S = { 0, 0.1 } } }
revolute "Jc" { "ground.CO", "cam.O" }
prismatic "Pg" { "ground.CG", "fol.P", axis = { 0, 1 } }
cam "Cm" { "cam.O", "fol.P", profile = { a0 = 1.5, a = { 0.3 } } }
spring "Sv" { "ground.CH", "fol.S", k = 200, l0 = 0.7 }
driver "Dc" { joint = "Jc", f = function(t) return pi / 2 + 2 * t end }

sensor "Jfx" { value = "J.fx" }
sensor "Jfy" { value = reaction("J").fy }
sensor "Deffort" { value = "D.effort" }
sensor "load" { value = sqrt(reaction("J").fx ^ 2 + reaction("J").fy ^ 2) * cos(angle("J")) }
sensor "G12" { value = "G12.mesh.lambda" }
sensor "RP" { value = reaction("RP").lambda }
sensor "Prfn" { value = "Pr.fn" }
sensor "Prmoment" { value = reaction("Pr").moment * 2 + rate("J1") }
sensor "Sg" { value = "Sg.lambda" }
sensor "Rd" { value = reaction("Rd").tension }
sensor "Cm" { value = "Cm.normal" }
sensor "Cm2" { value = reaction("Cm").normal * reaction("Pg").moment }
