-- expect: mass must be a number, got string
-- line: 5
-- hostile model: string mass (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = "1", inertia = 0.1, points = { A = { 0, 0 } } }
revolute "A" { "ground.O", "AB.A" }
