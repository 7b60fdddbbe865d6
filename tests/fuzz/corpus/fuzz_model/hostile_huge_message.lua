-- expect: xxxxxxxxxx...
-- line: 7
-- hostile model: a megabyte error message is cut
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
error(string.rep("x", 1000000))
