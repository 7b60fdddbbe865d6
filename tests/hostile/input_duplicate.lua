-- expect: duplicate input 'U' (first at line 7
-- line: 8
-- hostile model: input_duplicate (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
local u = input "u" { default = 0 }
local v = input "U" { default = 1 }
