-- expect: spring "s" k cannot depend on an input (u)
-- line: 8
-- hostile model: input_in_spring_k (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
local u = input "u" { default = 0 }
spring "s" { "ground.O", "arm.B", k = u, l0 = 1 }
