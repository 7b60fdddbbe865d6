-- expect: error object of type table
--
-- hostile model: an error object whose __tostring raises (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
error(setmetatable({}, { __tostring = function() error("nested") end }))
