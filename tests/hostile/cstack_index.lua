-- expect: C stack overflow
-- line: 7
-- hostile model: C recursion through __index (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local t = setmetatable({}, { __index = function(t, k) return t[k] end })
local x = t.x
