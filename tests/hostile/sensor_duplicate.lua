-- expect: duplicate sensor "y" (first at line 7)
-- line: 8
-- hostile model: sensor_duplicate (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
sensor "y" { value = 1 }
sensor "y" { value = 2 }
