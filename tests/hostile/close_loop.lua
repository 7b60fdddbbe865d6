-- expect: instruction limit
-- line: 8
-- hostile model: an endless __close handler of a to-be-closed variable (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
do
  local x <close> = setmetatable({}, { __close = function() while true do end end })
end
