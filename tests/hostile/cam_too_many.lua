-- expect: cam "C": profile has 65 harmonics, at most 64
-- line: 10
-- hostile model: more harmonics than allowed (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, G = { 0, 0.1 } }
body "c" { mass = 1, inertia = 0.1, points = { O = { 0, 0 }, E = { 0.05, 0 } } }
body "f" { mass = 1, inertia = 0.1, position = { 0, 0.05 }, points = { P = { 0, 0 } } }
revolute "J" { "ground.O", "c.O" }
prismatic "G" { "ground.G", "f.P", axis = { 0, 1 } }
local a = {} for i = 1, 65 do a[i] = 1e-6 end
cam "C" { "c.O", "f.P", profile = { a0 = 0.05, a = a } }
