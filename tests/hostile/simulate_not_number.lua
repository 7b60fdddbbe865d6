-- expect: simulate: alf-trapezoid: alpha must be a number, got string
-- line: 7
-- hostile model: a string where simulate needs a number
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { ["alf-trapezoid"] = { alpha = "1e8" } }
