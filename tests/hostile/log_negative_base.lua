-- expect: bad argument #2 to 'log'
-- line: 7
-- hostile model: log of a function of time with a negative base (was exit 2)
ground { O = { 0, 0 } }
body "b" { mass = 1, inertia = 1, points = { A = { 0.5, 0 } } }
revolute "j" { "ground.O", "b.A" }
torque "t" { "b", tau = function(t) return log(t, -2) end }
