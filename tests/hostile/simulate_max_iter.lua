-- expect: simulate: baumgarte: max_iter must be an integer, got 2.5
-- line: 7
-- hostile model: a fractional iteration limit
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { baumgarte = { max_iter = 2.5 } }
