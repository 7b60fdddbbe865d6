-- expect: model name 'NULL' is reserved
-- line: 4
-- hostile model: -DMB_MODEL=NULL would expand the macro in the simulator
name "NULL"
ground { O = { 0, 0 } }
body "b" { mass = 1, inertia = 1, points = { A = { 0, 0 } } }
revolute "j" { "ground.O", "b.A" }
