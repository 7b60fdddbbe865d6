-- expect: mass is missing
-- line: 5
-- hostile model: missing mass (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { inertia = 0.1, points = { A = { 0, 0 } } }
revolute "A" { "ground.O", "AB.A" }
