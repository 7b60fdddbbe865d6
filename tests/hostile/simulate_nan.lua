-- expect: simulate: t_end is not a finite number
-- line: 7
-- hostile model: a NaN end time
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { t_end = 0 / 0 }
