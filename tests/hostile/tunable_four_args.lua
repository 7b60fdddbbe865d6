-- expect: tunable k: at most three arguments (name, default, unit)
-- line: 7
-- hostile model: tunable_four_args (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
local k = tunable("k", 1, "N", "m")
