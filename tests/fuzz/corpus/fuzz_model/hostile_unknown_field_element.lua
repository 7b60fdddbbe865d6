-- expect: unknown field 'damping'
-- line: 7
-- hostile model: unknown field element (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
spring "S" { "ground.O", "AB.B", k = 1, l0 = 1, damping = 3 }
