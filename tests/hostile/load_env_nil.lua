-- expect: 'os' is not available
--
-- hostile model: load with an explicit nil environment (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local f = assert(load("return os", "=x", "t", nil))
local o = f()
