-- expect: reaction("A"): reactions are not measures
-- line: 7
-- hostile model: sensor_reaction (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
sensor "y" { value = reaction("A").x }
