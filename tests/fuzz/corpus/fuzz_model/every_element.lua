-- every_element.lua - a test mechanism (not physical data) that uses every element kind once,
-- so the derivative test covers prismatic joints, dampers (linear and quadratic), rotational
-- springs, body-frame and time-dependent forces, torques, and both driver forms.
name "every_element"
gravity { 0.5, -9.81 }
ground { O = { 0, 0 }, P = { 1, 0.5 }, R = { -0.4, 0.9 } }

body "a" { mass = 2, inertia = 0.3, angle = 0.3, points = { O = { -0.5, 0 }, E = { 0.5, 0.1 } },
           position = { 0.4, 0.15 } }
body "b" { mass = 3, inertia = 0.4, angle = -0.2, points = { E = { -0.4, 0 }, F = { 0.6, 0.05 } },
           position = { 1.2, 0.2 } }
body "s" { mass = 1, inertia = 0.1, angle = 0.1, points = { P = { 0, 0 }, Q = { 0.2, 0 } },
           position = { 1, 0.5 } }
body "w" { mass = 0.5, inertia = 0.05, angle = 0, points = { C = { 0, 0 }, T = { 0.3, 0 } },
           position = { -0.4, 0.9 } }

revolute "A" { "ground.O", "a.O" }
revolute "B" { "a.E", "b.E" }
prismatic "P" { "ground.P", "s.P", axis = { 0.6, 0.8 }, angle = -0.1 }
revolute "W" { "ground.R", "w.C" }
spring "S1" { "b.F", "s.Q", k = 100, l0 = 0.3, c = 2, c2 = 0.5 }
spring "S2" { "ground.P", "b.F", k = 50, l0 = 0.1 }
rotspring "R" { "a", "b", k = 7, theta0 = 0.2, c = 0.3 }
rotspring "Rg" { "ground", "w", k = 3, c = 0.1 }
force "F1" { "b.F", fx = function(t) return 3 * sin(2 * t) end, fy = 1.5, frame = "body" }
force "F2" { "s.Q", fx = 2, fy = ramp { t0 = 0.2, t1 = 0.9, to = 4 } }
force "F3" { "w.T", fx = sine { amplitude = 2, period = 0.7, phase = 0.3 }, fy = step { time = 0.5, after = -1 } }
torque "T" { "b", tau = function(t) return exp(-t) * cos(t) + sqrt(1 + t * t) end }
driver "D1" { joint = "A", f = function(t) return 0.3 + 0.5 * sin(t) + t ^ 3 / 6 end }
driver "D2" { coord = "w.phi", f = function(t) return 0.2 * t + log(1 + t) * tan(0.3 * t) - abs(t - 1) end }

assembly { lock = { "a.phi" }, velocity = { ["s.x"] = 0.1 } }
