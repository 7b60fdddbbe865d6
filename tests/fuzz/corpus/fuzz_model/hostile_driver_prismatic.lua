-- expect: a driver needs a revolute joint
-- line: 10
-- hostile model: driver prismatic (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
ground { S = { 0, 0 } }
body "CD" { mass = 1, inertia = 1, points = { P = { 0, 0 } } }
prismatic "P" { "ground.S", "CD.P", axis = { 1, 0 } }
driver "D" { joint = "P", f = 0 }
