-- expect: cam "C": roller 0.02 does not fit the profile: at psi = 0.299126 rad the profile is concave with radius of curvature 0.00480085, not larger than the roller (the roller centre's path has a cusp there: the roller would touch two points); use a smaller roller or a flatter profile
-- line: 9
-- hostile model: a roller on a spline with a concave notch narrower than the roller (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, G = { 0, 0.1 } }
body "c" { mass = 1, inertia = 0.1, points = { O = { 0, 0 }, E = { 0.05, 0 } } }
body "f" { mass = 1, inertia = 0.1, position = { 0, 0.05 }, points = { P = { 0, 0 } } }
revolute "J" { "ground.O", "c.O" }
prismatic "G" { "ground.G", "f.P", axis = { 0, 1 } }
cam "C" { "c.O", "f.P", profile = { spline = { { 0, 0.05 }, { 0.3, 0.04 }, { 0.6, 0.05 }, { 2, 0.05 }, { 4, 0.05 } } }, roller = 0.02 }
