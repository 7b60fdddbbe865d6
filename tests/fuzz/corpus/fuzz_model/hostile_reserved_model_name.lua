-- expect: is reserved
-- line: 7
-- hostile model: a model name that would clash with the runtime (mb_model is a type)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
name "mb"
