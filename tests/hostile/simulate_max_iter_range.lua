-- expect: simulate: max_iter must be an integer in 1..1000
-- line: 7
-- hostile model: an iteration limit out of range
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { max_iter = 1001 }
