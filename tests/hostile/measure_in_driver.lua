-- expect: driver "D" f cannot depend on the state (angle("A"))
-- line: 7
-- hostile model: measure_in_driver (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
driver "D" { joint = "A", f = angle("A") }
