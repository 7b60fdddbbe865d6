-- expect: tunable k: unit 'N&amp;m' is not a unit expression
-- line: 7
-- hostile model: unit_ampersand (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
local k = tunable("k", 1, "N&amp;m")
