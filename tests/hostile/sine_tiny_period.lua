-- expect: sine: 2 pi / period is not a finite number
-- line: 7
-- hostile model: a subnormal sine period: 2 pi / period overflows (was exit 2)
ground { O = { 0, 0 } }
body "b" { mass = 1, inertia = 1, points = { A = { 0.5, 0 } } }
revolute "j" { "ground.O", "b.A" }
torque "t" { "b", tau = sine { amplitude = 1, period = 1e-320 } }
