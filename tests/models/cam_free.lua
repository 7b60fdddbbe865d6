-- cam_free.lua - a cam flywheel spinning freely (50 rad/s at t = 0) lifts a spring-loaded
-- follower (made-up data, SI units, no gravity, no damping): the cam's force does no work, so
-- T + V stays constant while the flywheel trades speed with the follower's motion and spring
-- (tests/test_cam.sh: the energy balance of a free run).
name "cam_free"
gravity { 0, 0 }
ground { O = { 0, 0 }, G = { 0, 0.05 }, H = { 0, 0.1 } }
body "cam" { mass = 1, inertia = 2e-3, angle = 0.3, velocity = { 0, 0, 50 },
             points = { O = { 0, 0 } } }
body "follower" { mass = 0.1, inertia = 1e-5, position = { 0, 0.06 }, points = { P = { 0, -0.02 } } }
revolute "O" { "ground.O", "cam.O" }
prismatic "guide" { "ground.G", "follower.P", axis = { 0, 1 } }
cam "C" { "cam.O", "follower.P", profile = { a0 = 0.035, a = { 0.005, 0.001 }, b = { 0, 0.0005 } } }
spring "valve" { "ground.H", "follower.P", k = 2000, l0 = 0.08 }
simulate { t_end = 0.5, h = 1e-4 }
