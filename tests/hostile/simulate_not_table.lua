-- expect: simulate: alf-explicit: expected a table
-- line: 7
-- hostile model: a formulation entry that is not a table
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { ["alf-explicit"] = 1e8 }
