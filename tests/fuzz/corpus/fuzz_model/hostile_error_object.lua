-- expect: error object of type table
-- hostile model: error object (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
error(setmetatable({}, { __tostring = function() while true do end end }))
