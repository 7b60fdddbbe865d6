-- expect: contact "K": profile a0 (the mean radius) is missing: an empty profile has no curve
-- line: 7
-- hostile model: an empty profile (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "cam" { mass = 1, inertia = 0.1, points = { O = { 0, 0 } } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "cam.O", radius = 0.01, profile = { }, k = 1e6 }
revolute "J" { "ground.O", "cam.O" }
