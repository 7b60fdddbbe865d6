-- expect: input 'K' has the name of tunable 'k'
-- line: 8
-- hostile model: input_tunable_clash (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
local k = tunable("k", 1)
local u = input "K" { default = 0 }
