-- cam_redundant.lua - a follower held on a turning cam by two cams of the same profile (made-up
-- data): the second cam's equation repeats the first's, named as a cam (tests/test_redundant.sh).
-- A torque turns the cam; a spring presses the follower down.
name "cam_redundant"
gravity { 0, -9.81 }
ground { O = { 0, 0 }, G = { 0, 0.1 } }
body "cam" { mass = 0.5, inertia = 2e-4, angle = 0.4, points = { O = { 0, 0 } } }
body "fol" { mass = 0.2, inertia = 1e-4, position = { 0, 0.07 }, points = { P = { 0, -0.02 } } }
revolute "J" { "ground.O", "cam.O" }
prismatic "guide" { "ground.G", "fol.P", axis = { 0, 1 } }
cam "C1" { "cam.O", "fol.P", profile = { a0 = 0.045, a = { 0.005 }, b = { 0, 0.001 } } }
cam "C2" { "cam.O", "fol.P", profile = { a0 = 0.045, a = { 0.005 }, b = { 0, 0.001 } } }
spring "S" { "ground.G", "fol.P", k = 100, l0 = 0.1 }
torque "T" { "cam", tau = 0.02 }
