-- expect: simulate given twice (first at line 7)
-- line: 8
-- hostile model: two simulate blocks
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { h = 1e-3 }
simulate { h = 1e-4 }
