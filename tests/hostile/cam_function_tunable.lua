-- expect: cam "C": the profile function depends on a tunable: a profile is plain numbers
-- line: 10
-- hostile model: a profile function using a tunable (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, G = { 0, 0.1 } }
body "c" { mass = 1, inertia = 0.1, points = { O = { 0, 0 }, E = { 0.05, 0 } } }
body "f" { mass = 1, inertia = 0.1, position = { 0, 0.05 }, points = { P = { 0, 0 } } }
revolute "J" { "ground.O", "c.O" }
prismatic "G" { "ground.G", "f.P", axis = { 0, 1 } }
local a = tunable("a", 0.04)
cam "C" { "c.O", "f.P", profile = function(p) return a + 0.01 * cos(p) end }
