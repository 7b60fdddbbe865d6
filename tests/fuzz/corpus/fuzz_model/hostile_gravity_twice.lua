-- expect: gravity given twice (first at line 7)
-- line: 8
-- hostile model: a statement that may appear once, given twice
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
gravity { 0, -9.81 }
gravity { 0, -1.62 }
