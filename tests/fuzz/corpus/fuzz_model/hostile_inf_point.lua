-- expect: is not a finite number
-- line: 5
-- hostile model: inf point (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { math.huge, 0 } } }
revolute "A" { "ground.O", "AB.A" }
