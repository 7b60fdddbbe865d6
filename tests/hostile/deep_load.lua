-- expect: C stack overflow
-- line: 7
-- hostile model: a chunk nested 100000 levels deep given to load (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
assert(load(string.rep("(", 100000) .. "1" .. string.rep(")", 100000)))
