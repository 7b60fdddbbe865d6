-- expect: cam "C": the spline's radius is not positive everywhere
-- line: 9
-- hostile model: a spline that overshoots below zero (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, G = { 0, 0.1 } }
body "c" { mass = 1, inertia = 0.1, points = { O = { 0, 0 }, E = { 0.05, 0 } } }
body "f" { mass = 1, inertia = 0.1, position = { 0, 0.05 }, points = { P = { 0, 0 } } }
revolute "J" { "ground.O", "c.O" }
prismatic "G" { "ground.G", "f.P", axis = { 0, 1 } }
cam "C" { "c.O", "f.P", profile = { spline = { { 0, 0.001 }, { 0.1, 0.05 }, { 0.2, 0.001 }, { 3, 0.001 } } } }
