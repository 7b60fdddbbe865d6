-- expect: attempt to index a nil value
-- line: 8
-- hostile model: getmetatable on the function-of-time proxy (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
torque "T" { "AB", tau = function(t)
  getmetatable(t).__add = function() return 0 end
  return t
end }
