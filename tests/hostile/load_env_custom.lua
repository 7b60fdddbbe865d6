-- expect: attempt to index a nil value
-- line: 9
-- hostile model: load with its own environment holding getmetatable (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local f = assert(load("return getmetatable(\"\")", "=x", "t", { getmetatable = getmetatable }))
local mt = f()
mt.__index.rep = nil
