-- expect: bad point reference "AB"
-- line: 7
-- hostile model: bad reference (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
spring "S" { "AB", "ground.O", k = 1, l0 = 0 }
