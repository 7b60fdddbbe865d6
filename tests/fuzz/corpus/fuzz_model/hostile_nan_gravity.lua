-- expect: gravity[2] is not a finite number
-- line: 7
-- hostile model: nan gravity (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
gravity { 0, -0/0 }
