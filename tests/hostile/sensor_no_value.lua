-- expect: sensor "y": value is missing
-- line: 7
-- hostile model: sensor_no_value (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
sensor "y" { }
