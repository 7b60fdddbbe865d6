-- expect: body "b": a constant overflows
-- line: 5
-- hostile model: mass = 1e308: m g overflows while the generator folds constants (was exit 2)
ground { O = { 0, 0 } }
body "b" { mass = 1e308, inertia = 1, points = { A = { 0.5, 0 } } }
revolute "j" { "ground.O", "b.A" }
