-- expect: returned a string
-- line: 7
-- hostile model: tf bad return (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
force "F" { "AB.B", fx = function(t) return "x" end }
