-- expect: unknown field 'mas'
-- line: 5
-- hostile model: unknown field body (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mas = 1, inertia = 0.1, points = { A = { 0, 0 } } }
revolute "A" { "ground.O", "AB.A" }
