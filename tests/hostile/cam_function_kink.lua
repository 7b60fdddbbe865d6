-- expect: cam "C": the profile function is not closed: r'(2 pi) - r'(0) = -0.01 (a profile must be a periodic function of the angle, period 2 pi, smooth where it joins)
-- line: 9
-- hostile model: a profile function whose slope jumps where it closes (|sin(psi / 2)|) (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, G = { 0, 0.1 } }
body "c" { mass = 1, inertia = 0.1, points = { O = { 0, 0 }, E = { 0.05, 0 } } }
body "f" { mass = 1, inertia = 0.1, position = { 0, 0.05 }, points = { P = { 0, 0 } } }
revolute "J" { "ground.O", "c.O" }
prismatic "G" { "ground.G", "f.P", axis = { 0, 1 } }
cam "C" { "c.O", "f.P", profile = function(p) return 0.04 + 0.01 * abs(sin(p / 2)) end }
