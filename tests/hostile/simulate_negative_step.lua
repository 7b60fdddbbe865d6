-- expect: simulate: h must be > 0, got -0.001
-- line: 7
-- hostile model: a negative step
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { t_end = 1, h = -1e-3 }
