-- expect: resulting string too large
-- line: 7
-- hostile model: string.rep of 1 TiB (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local s = string.rep("x", 1 << 40)
