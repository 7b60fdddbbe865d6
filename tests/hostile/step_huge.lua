-- expect: step: after - before is not a finite number
-- line: 7
-- hostile model: huge step values: after - before overflows (was exit 2)
ground { O = { 0, 0 } }
body "b" { mass = 1, inertia = 1, points = { A = { 0.5, 0 } } }
revolute "j" { "ground.O", "b.A" }
torque "t" { "b", tau = step { time = 1e308, before = -1e308, after = 1e308 } }
