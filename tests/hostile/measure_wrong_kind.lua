-- expect: length("A"): "A" is a revolute, length needs a spring, actuator or rod
-- line: 7
-- hostile model: measure_wrong_kind (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
sensor "y" { value = length("A") }
