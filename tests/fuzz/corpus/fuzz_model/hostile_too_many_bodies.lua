-- expect: too many bodies
-- hostile model: too many bodies (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
for i = 1, 100000 do body("b" .. i) { mass = 1, inertia = 1 } end
