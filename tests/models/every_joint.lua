-- every_joint.lua - a test mechanism (made-up data, SI units) with every coupling joint: gears
-- (external on the ground; external and internal on a moving carrier, the planetary stage),
-- racks and pinions (the frame second on the ground, first on a swinging sled), slots on a moving lever and
-- on the ground (a particle as the pin). For the derivative test (tests/test_derivs.c) and the
-- generic evaluator's agreement test (tests/test_generic.c).
name "every_joint"
gravity { 0.4, -9.81 }
ground { O1 = { 0, 0 }, O2 = { 0.3, 0 }, O3 = { 1, 0 }, O4 = { 2, 0 }, R = { 2, -0.1 },
         O5 = { 3, -0.5 }, O6 = { 3, 0 }, S = { 4, 0 }, T = { 4, 1 } }

-- two gears on ground shafts, 2:1
body "g1" { mass = 1, inertia = 0.02, points = { C = { 0, 0 }, T = { 0.1, 0 } } }
body "g2" { mass = 2, inertia = 0.08, position = { 0.3, 0 }, angle = 0.1, points = { C = { 0, 0 } } }
revolute "J1" { "ground.O1", "g1.C" }
revolute "J2" { "g2.C", "ground.O2" }          -- the carrier second: the mesh takes it either way
gear "G12" { "J1", "J2", ratio = 2 }
torque "Tg" { "g1", tau = sine { amplitude = 0.3, period = 1.3 } }

-- a planetary stage on a swinging arm: sun and ring at A, planet at B
body "arm" { mass = 1.5, inertia = 0.05, position = { 1.2, 0 }, angle = -0.3,
             points = { A = { -0.2, 0 }, B = { 0.2, 0 } } }
body "sun" { mass = 0.5, inertia = 0.01, position = { 1, 0 }, points = { C = { 0, 0 } } }
body "planet" { mass = 0.4, inertia = 0.008, position = { 1.4, 0 }, angle = 0.2,
                points = { C = { 0, 0 }, E = { 0.05, 0 } } }
body "ring" { mass = 2, inertia = 0.5, position = { 1, 0 }, angle = 0.4, points = { C = { 0, 0 } } }
revolute "Ja" { "ground.O3", "arm.A" }
revolute "Js" { "arm.A", "sun.C" }
revolute "Jp" { "arm.B", "planet.C" }
revolute "Jr" { "ring.C", "arm.A" }
gear "Gsp" { "Js", "Jp", ratio = 1 }
gear "Gpr" { "Jp", "Jr", ratio = 3, internal = true, offset = 0.05 }
rotspring "Rs" { "ground", "sun", k = 2, c = 0.05 }

-- rack and pinion: the prismatic joint's axis fixed in the rack, the frame (ground) second
body "pinion" { mass = 0.3, inertia = 0.004, position = { 2.05, 0 }, points = { C = { -0.05, 0 } } }
body "rack" { mass = 0.8, inertia = 0.03, position = { 2, -0.1 }, points = { P = { 0, 0 }, Q = { 0.3, 0 } } }
revolute "Jpin" { "ground.O4", "pinion.C" }
prismatic "Pr" { "rack.P", "ground.R", axis = { 1, 0 } }
rack "RP" { "Jpin", "Pr", radius = 0.1 }
spring "Sr" { "ground.O4", "rack.Q", k = 30, l0 = 0.2, c = 0.2 }

-- a second rack on a swinging sled (a moving frame, first in its prismatic joint), the rack above
-- the pinion (a negative radius)
ground { O7 = { 5, 0 } }
body "sled" { mass = 1, inertia = 0.04, position = { 5.3, 0 }, angle = 0.1,
              points = { O = { -0.3, 0 }, A = { 0, 0 }, P = { 0, 0.1 } } }
body "pinion2" { mass = 0.2, inertia = 0.002, position = { 5.3, 0 }, points = { C = { 0, 0 } } }
body "rack2" { mass = 0.5, inertia = 0.01, position = { 5.3, 0.1 }, angle = 0.1, points = { P = { 0.05, 0 } } }
revolute "Jsl" { "ground.O7", "sled.O" }
revolute "Jpin2" { "pinion2.C", "sled.A" }
prismatic "Pr2" { "sled.P", "rack2.P", axis = { 1, 0.2 }, angle = 0 }
rack "RP2" { "Jpin2", "Pr2", radius = -0.08 }
spring "Sr2" { "ground.O7", "rack2.P", k = 20, l0 = 0.3, c = 0.1 }

-- a crank whose pin Q slides in a lever's slot, and a particle in a slot on the ground
body "lever" { mass = 1, inertia = 0.05, position = { 3, -0.1 }, angle = pi / 2,
               points = { O = { -0.4, 0 }, E = { 0.4, 0 } } }
body "crank" { mass = 0.5, inertia = 0.01, position = { 3, 0.1 }, angle = pi / 2,
               points = { O = { -0.1, 0 }, Q = { 0.1, 0 } } }
revolute "Jl" { "ground.O5", "lever.O" }
revolute "Jc" { "ground.O6", "crank.O" }
slot "Sl" { "lever.O", "crank.Q", axis = { 2, 0 } }
particle "pin" { mass = 0.2, x = 4.3, y = 0.4 }
slot "Sg" { "ground.S", "pin", axis = { 0.6, 0.8 } }
spring "Sp" { "ground.T", "pin", k = 40, l0 = 0.5 }
