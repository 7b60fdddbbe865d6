-- expect: explicit seed
-- line: 7
-- hostile model: an unseeded math.randomseed (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
math.randomseed()
