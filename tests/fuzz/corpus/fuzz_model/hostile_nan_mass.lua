-- expect: mass is not a finite number
-- line: 5
-- hostile model: nan mass (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 0/0, inertia = 0.1, points = { A = { 0, 0 } } }
revolute "A" { "ground.O", "AB.A" }
