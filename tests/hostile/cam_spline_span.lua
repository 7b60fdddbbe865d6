-- expect: cam "C": profile spline spans 6.2831853071795862 rad from its first angle to its last: less than a turn (2 pi), the curve closes by itself
-- line: 9
-- hostile model: a spline whose last point repeats the first a turn later (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, G = { 0, 0.1 } }
body "c" { mass = 1, inertia = 0.1, points = { O = { 0, 0 }, E = { 0.05, 0 } } }
body "f" { mass = 1, inertia = 0.1, position = { 0, 0.05 }, points = { P = { 0, 0 } } }
revolute "J" { "ground.O", "c.O" }
prismatic "G" { "ground.G", "f.P", axis = { 0, 1 } }
cam "C" { "c.O", "f.P", profile = { spline = { { 0, 0.04 }, { 2, 0.05 }, { 4, 0.045 }, { 2 * pi, 0.04 } } } }
