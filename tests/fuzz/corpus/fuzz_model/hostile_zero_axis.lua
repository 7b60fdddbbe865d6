-- expect: axis has zero length
-- line: 8
-- hostile model: zero axis (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
ground { S = { 0, 0 } }
prismatic "P" { "ground.S", "AB.B", axis = { 0, 0 } }
