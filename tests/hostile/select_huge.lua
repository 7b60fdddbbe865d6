-- expect: too many results
-- line: 7
-- hostile model: table.unpack of 1e8 values (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local t = { table.unpack({}, 1, 1e8) }
