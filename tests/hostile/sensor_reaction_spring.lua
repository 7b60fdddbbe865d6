-- expect: sensor "y": reaction("S"): "S" is a spring, which has no reaction
-- line: 8
-- hostile model: a spring is a force, not a constraint (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
spring "S" { "ground.O", "arm.B", k = 1, l0 = 0.1 }
sensor "y" { value = reaction("S").fx }
