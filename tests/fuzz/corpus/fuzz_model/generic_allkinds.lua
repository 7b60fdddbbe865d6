-- generic_allkinds.lua - a test mechanism with every element kind, for the generic evaluator's
-- agreement test (tests/test_generic.c): revolute, prismatic (body-body and ground-body),
-- springs with and without dampers (c, c2), rotational springs, global and body-frame point
-- forces and a torque that depend on time (sine, step, ramp, formulas), coordinate and joint
-- drivers with formulas in t (their first and second derivatives enter Phi_t and Gamma).
-- Data: made up, SI units; not a physical benchmark.

name "generic_allkinds"
gravity { 0.3, -9.81 }
ground { O = { 0, 0 }, G = { 3, 2 } }

body "a" { mass = 2, inertia = 0.3, angle = 0.3, position = { 0.5, 0 },
           points = { P = { 0.5, 0.1 }, Q = { -0.5, 0 }, C = { 0, 0 } } }
body "b" { mass = 1.5, inertia = 0.2, angle = 0.3, position = { 1.3, 0.4 },
           points = { P = { 0.3, -0.2 }, Q = { -0.3, 0.05 } } }
body "c" { mass = 1, inertia = 0.1, angle = 1.0, position = { 2, -0.5 },
           points = { P = { 0.2, 0 }, Q = { 0, 0.1 } } }
body "d" { mass = 0.5, inertia = 0.05, angle = 0, position = { 2.9, 1.9 },
           points = { P = { 0.1, 0.1 } } }

revolute "J1" { "ground.O", "a.Q" }
prismatic "PR" { "a.P", "b.Q", axis = { 0.6, 0.8 }, angle = 0 }
prismatic "PG" { "ground.G", "d.P", axis = { 1, 0 } }
revolute "J2" { "b.P", "c.Q" }
spring "S1" { "c.P", "d.P", k = 100, l0 = 0.4, c = 3, c2 = 0.7 }
spring "S2" { "ground.G", "c.Q", k = 50, l0 = 1.1 }
spring "S3" { "a.C", "ground.O", k = 10, l0 = 0.1, c = 1 }
rotspring "R1" { "b", "c", k = 7, theta0 = 0.2, c = 0.5 }
rotspring "R2" { "ground", "a", k = 3 }
force "F1" { "c.P", fx = sine { amplitude = 10, period = 2, phase = 0.2 }, fy = -2 }
force "F2" { "d.P", fx = 1.5, fy = function(t) return t * t + exp(-t) end, frame = "body" }
torque "T1" { "b", tau = function(t) return 2 * step { time = 0.5, after = 1 }(t) + abs(cos(t)) end }
torque "T2" { "c", tau = ramp { t0 = 0.2, t1 = 1.5, from = 0, to = 3 } }
driver "D1" { coord = "a.phi", f = function(t) return 0.3 + 0.5 * sin(2 * t) * sqrt(1 + t) end }
driver "D2" { joint = "J2", f = function(t) return 0.3 * t ^ 3 - t / 7 + tan(0.1 * t) + log(2 + t) end }
