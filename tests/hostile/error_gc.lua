-- expect: __gc metamethods are not allowed
-- line: 7
-- hostile model: an error object with a __gc finalizer (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
error(setmetatable({}, { __gc = function() while true do end end }))
