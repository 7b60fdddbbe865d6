-- expect: driver "d": a constant overflows
-- line: 7
-- hostile model: a sine driver whose derivatives overflow (A w^2) (was exit 2)
ground { O = { 0, 0 } }
body "b" { mass = 1, inertia = 1, points = { A = { 0.5, 0 } } }
prismatic "j" { "ground.O", "b.A", axis = { 1, 0 } }
driver "d" { coord = "b.x", f = sine { amplitude = 1e300, period = 1e-10 } }
