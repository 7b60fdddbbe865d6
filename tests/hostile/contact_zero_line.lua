-- expect: contact "K" line: axis has zero length
-- line: 7
-- hostile model: a contact line of zero direction (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
body "bar" { mass = 1, inertia = 0.1, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "ground.O", line = { 0, 0 }, k = 1e6 }
revolute "J" { "ground.O", "bar.C" }
