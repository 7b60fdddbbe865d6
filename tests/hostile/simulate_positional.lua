-- expect: simulate: unexpected positional entry [1]
-- line: 7
-- hostile model: a positional value in simulate
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { 1e-3 }
