-- expect: 'os' is not available
-- line: 8
-- hostile model: metatables of numbers, functions and library functions (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local mt = getmetatable(pi) or getmetatable(print) or getmetatable(sin)
mt.__index = os
