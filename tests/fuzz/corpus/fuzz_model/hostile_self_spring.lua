-- expect: connects the ground to itself
-- line: 8
-- hostile model: self spring (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
ground { P = { 1, 0 } }
spring "S" { "ground.O", "ground.P", k = 1, l0 = 1 }
