-- expect: contact "K": give exactly one of line = { ux, uy } (a line through the second point), segment = { dx, dy } (from it to it + (dx, dy)), circle = R (a c
-- line: 7
-- hostile model: a profile and a line (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "cam" { mass = 1, inertia = 0.1, points = { O = { 0, 0 } } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "cam.O", radius = 0.01, profile = { a0 = 0.1 }, line = { 1, 0 }, k = 1e6 }
revolute "J" { "ground.O", "cam.O" }
