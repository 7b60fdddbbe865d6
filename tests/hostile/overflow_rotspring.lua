-- expect: rotspring "r": a constant overflows
-- line: 7
-- hostile model: a huge rotational spring: k theta0 overflows in dV/dq (was exit 2)
ground { O = { 0, 0 } }
body "b" { mass = 1, inertia = 1, points = { A = { 0.5, 0 } } }
revolute "j" { "ground.O", "b.A" }
rotspring "r" { "ground", "b", k = 1e308, theta0 = 1e308 }
