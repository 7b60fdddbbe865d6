-- cam_redundant_roller.lua - a roller follower held on a turning cam by two roller cams of the
-- same spline profile (made-up data): the second cam's equation (the contact angle's implicit
-- function, generator/cam.lua) repeats the first's, named as a cam (tests/test_redundant.sh).
name "cam_redundant_roller"
gravity { 0, -9.81 }
ground { O = { 0, 0 }, G = { 0, 0.1 } }
body "cam" { mass = 0.5, inertia = 2e-4, angle = 0.4, points = { O = { 0, 0 } } }
body "fol" { mass = 0.2, inertia = 1e-4, position = { 0, 0.08 }, points = { C = { 0, -0.02 } } }
revolute "J" { "ground.O", "cam.O" }
prismatic "guide" { "ground.G", "fol.C", axis = { 0, 1 } }
local lobe = { { 0, 0.05 }, { 1.5, 0.045 }, { 3, 0.04 }, { 4.5, 0.044 } }
cam "C1" { "cam.O", "fol.C", profile = { spline = lobe }, roller = 0.01 }
cam "C2" { "cam.O", "fol.C", profile = { spline = lobe }, roller = 0.01 }
spring "S" { "ground.G", "fol.C", k = 100, l0 = 0.1 }
torque "T" { "cam", tau = 0.02 }
