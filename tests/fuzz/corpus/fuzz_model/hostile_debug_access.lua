-- expect: 'debug' is not available
-- line: 7
-- hostile model: debug access (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local i = debug.getinfo(1)
