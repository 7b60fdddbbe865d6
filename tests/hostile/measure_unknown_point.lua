-- expect: body "arm" has no point "Z"
-- line: 7
-- hostile model: measure_unknown_point (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
sensor "y" { value = pos("arm.Z").x }
