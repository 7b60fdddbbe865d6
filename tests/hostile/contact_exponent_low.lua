-- expect: contact "K": exponent must be in 1 .. 10
-- line: 7
-- hostile model: a contact exponent below 1 (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
body "bar" { mass = 1, inertia = 0.1, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "ground.O", line = { 1, 0 }, k = 1e6, exponent = 0.5 }
revolute "J" { "ground.O", "bar.C" }
