-- expect: simulate: t_end / h = 1e+10 steps (at most 2e9)
-- line: 7
-- hostile model: more steps than the simulator takes
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { t_end = 1e4, h = 1e-6 }
