-- expect: boom
--
-- hostile model: a loaded chunk named like a generator file (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local f = assert(load("error(\"boom\")", "@generator/model.lua"))
f()
