-- expect: ramp: (to - from) / (t1 - t0) is not a finite number
-- line: 7
-- hostile model: a ramp of subnormal duration: the slope overflows (was exit 2)
ground { O = { 0, 0 } }
body "b" { mass = 1, inertia = 1, points = { A = { 0.5, 0 } } }
revolute "j" { "ground.O", "b.A" }
torque "t" { "b", tau = ramp { t0 = 0, t1 = 1e-320, to = 1 } }
