-- expect: inertia must be > 0
-- line: 5
-- hostile model: negative inertia (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = -0.1, points = { A = { 0, 0 } } }
revolute "A" { "ground.O", "AB.A" }
