-- expect: contact "K": radius must be >= 0 (0: a point), got -0.01
-- line: 7
-- hostile model: a negative radius on a profile (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "cam" { mass = 1, inertia = 0.1, points = { O = { 0, 0 } } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "cam.O", radius = -0.01, profile = { a0 = 0.1 }, k = 1e6 }
revolute "J" { "ground.O", "cam.O" }
