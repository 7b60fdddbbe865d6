-- expect: reached the end
-- line: 9
-- hostile model: sin redefined as a number: sine{} keeps the generator's own sin (was exit 2)
ground { O = { 0, 0 } }
sin = 5
body "b" { mass = 1, inertia = 1, points = { A = { 0.5, 0 } } }
revolute "j" { "ground.O", "b.A" }
torque "t" { "b", tau = sine { amplitude = 1, period = 1 } }
error("reached the end")
