-- expect: attempt to index a function value
-- line: 8
-- hostile model: rawset on the environment, then on a library function (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
rawset(_G, "os", "x")
rawget(_G, "print").x = 1
