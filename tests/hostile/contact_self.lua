-- expect: contact "K": both ends are on "ball": a contact is between two bodies
-- line: 7
-- hostile model: a contact of a body with itself (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
body "bar" { mass = 1, inertia = 0.1, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "ball.C", radius = 0.1, circle = 0.2, k = 1e6 }
revolute "J" { "ground.O", "bar.C" }
