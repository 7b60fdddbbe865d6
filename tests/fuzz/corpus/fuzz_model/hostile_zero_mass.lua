-- expect: mass must be > 0
-- line: 5
-- hostile model: zero mass (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 0, inertia = 0.1, points = { A = { 0, 0 } } }
revolute "A" { "ground.O", "AB.A" }
