-- expect: CPU time limit
-- hostile model: cpu pattern (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local s = string.rep("a", 100000)
local x = s:find(".-.-.-.-b")
