-- expect: C stack overflow
--
-- hostile model: C recursion through string.gsub callbacks (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local function f(s) return (string.gsub(s, ".", f)) end
f("ab")
