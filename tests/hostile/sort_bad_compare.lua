-- expect: invalid order function
-- line: 9
-- hostile model: table.sort with an inconsistent comparator (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local t = {}
for i = 1, 1000 do t[i] = i end
table.sort(t, function(a, b) return true end)
