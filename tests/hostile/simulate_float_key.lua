-- expect: simulate: canonical: float: unknown field 'h'
-- line: 7
-- hostile model: a key a float table does not take
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { canonical = { float = { h = 1e-4 } } }
