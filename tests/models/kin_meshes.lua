-- kin_meshes.lua - a rack and pinion and a planetary stage on a moving carrier, both driven
-- (no degree of freedom left) for kinematic analysis against closed forms (tests/test_joints.sh):
-- the rack travels r theta (pinion radius r, the rack below it: radius > 0); with the sun held,
-- the planet turns at w_p = w_arm (1 + r_s / r_p). Made-up data, SI units.
name "kin_meshes"
gravity { 0, -9.81 }
local r, rs, rp = 0.05, 0.03, 0.02

-- rack and pinion: the pinion turns at 3 rad/s plus a wobble; the rack slides along X below it
ground { O = { 0, 0 }, S = { 0, -r } }
body "pinion" { mass = 0.2, inertia = 2.5e-4, points = { C = { 0, 0 } } }
body "rack" { mass = 1, inertia = 0.01, position = { 0, -r }, points = { P = { 0, 0 } } }
revolute "J" { "ground.O", "pinion.C" }
prismatic "P" { "ground.S", "rack.P", axis = { 1, 0 } }
rack "RP" { "J", "P", radius = r }
driver "Dp" { joint = "J", f = function(t) return 3 * t + 0.2 * sin(5 * t) end }

-- planetary: the arm turns about A at 2 rad/s; the sun (on the arm, at A) is held at angle 0
ground { A = { 1, 0 } }
body "arm" { mass = 0.5, inertia = 0.002, position = { 1 + (rs + rp) / 2, 0 },
             points = { A = { -(rs + rp) / 2, 0 }, B = { (rs + rp) / 2, 0 } } }
body "sun" { mass = 0.1, inertia = 5e-5, position = { 1, 0 }, points = { C = { 0, 0 } } }
body "planet" { mass = 0.05, inertia = 1e-5, position = { 1 + rs + rp, 0 }, points = { C = { 0, 0 } } }
revolute "Ja" { "ground.A", "arm.A" }
revolute "Js" { "arm.A", "sun.C" }
revolute "Jp" { "arm.B", "planet.C" }
gear "G" { "Js", "Jp", ratio = rp / rs }
driver "Da" { joint = "Ja", f = function(t) return 2 * t end }
driver "Ds" { coord = "sun.phi", f = 0 }
