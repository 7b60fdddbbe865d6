-- expect: invalid conversion
-- line: 7
-- hostile model: a huge string.format width (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local s = string.format("%99999999d", 1)
