-- expect: contact "K": inside a circle of radius 0.2, the radius 0.3 must be smaller
-- line: 7
-- hostile model: a circle inside a smaller ring (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
body "bar" { mass = 1, inertia = 0.1, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "ground.O", radius = 0.3, circle = 0.2, inside = true, k = 1e6 }
revolute "J" { "ground.O", "bar.C" }
