-- expect: instruction limit
-- line: 8
-- hostile model: tf endless (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
torque "T" { "AB", tau = function(t)
  while true do end
end }
