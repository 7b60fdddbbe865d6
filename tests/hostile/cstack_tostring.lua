-- expect: C stack overflow
--
-- hostile model: C recursion through __tostring (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local t = {}
setmetatable(t, { __tostring = function(x) return tostring(x) end })
local s = tostring(t)
