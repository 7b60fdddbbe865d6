-- expect: simulate: unknown field 'alf_trapezoid'
-- line: 7
-- hostile model: a misspelt formulation in simulate
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { alf_trapezoid = { alpha = 1e8 } }
