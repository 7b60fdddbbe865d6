-- expect: contact "K": its first end (the point or circle) is on the ground
-- line: 7
-- hostile model: the ground as the contact's first end (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
body "bar" { mass = 1, inertia = 0.1, points = { C = { 0, 0 } } }
contact "K" { "ground.O", "ball.C", line = { 1, 0 }, k = 1e6 }
revolute "J" { "ground.O", "bar.C" }
