-- expect: reached the end
-- line: 9
-- hostile model: a prismatic axis { 1e308, 1e308 } is long, not "zero length" (its squares overflowed); { 1e-300, 0 } is not zero either
ground { O = { 0, 0 } }
body "b" { mass = 1, inertia = 1, points = { A = { 0, 0 } } }
body "c" { mass = 1, inertia = 1, points = { A = { 0, 0 } } }
prismatic "j" { "ground.O", "b.A", axis = { 1e308, 1e308 } }
prismatic "k" { "ground.O", "c.A", axis = { 1e-300, 0 } }
error("reached the end")
