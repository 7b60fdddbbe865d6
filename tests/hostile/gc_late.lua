-- expect: after a late __gc
-- line: 10
-- hostile model: a __gc added after setmetatable (never marked for finalization) (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local mt = {}
local t = setmetatable({}, mt)
mt.__gc = function() while true do end end
error("after a late __gc")
