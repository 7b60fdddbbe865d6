-- expect: sensor "y": reaction("A").tau: a revolute has no component "tau" (it has fx, fy)
-- line: 8
-- hostile model: the string form, a component the joint has not (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
spring "S" { "ground.O", "arm.B", k = 1, l0 = 0.1 }
sensor "y" { value = "A.tau" }
