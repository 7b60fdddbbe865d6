-- expect: simulate: xi must be >= 0, got -1
-- line: 7
-- hostile model: a negative damping ratio
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { xi = -1 }
