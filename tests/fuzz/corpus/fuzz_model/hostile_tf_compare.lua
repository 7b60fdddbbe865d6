-- expect: cannot be compared
-- line: 8
-- hostile model: tf compare (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
force "F" { "AB.B", fx = function(t)
  if t < 1 then return 1 end
  return 0
end }
