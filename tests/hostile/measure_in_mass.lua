-- expect: body "b2" mass cannot depend on the state (rate("A"))
-- line: 7
-- hostile model: measure_in_mass (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
body "b2" { mass = 1 + rate("A"), inertia = 0.1, points = { P = { 0, 0 } } }
revolute "B" { "arm.B", "b2.P" }
