-- expect: contact "K": circle 0.05 does not fit the profile: at psi = 0.785398 rad the profile is concave with radius of curvature 0.0466129, not larger than th
-- line: 7
-- hostile model: a circle larger than a concave part's radius of curvature (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "cam" { mass = 1, inertia = 0.1, points = { O = { 0, 0 } } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "cam.O", radius = 0.05, profile = { a0 = 0.1, a = { 0, 0, 0, 0.015 } }, k = 1e6 }
revolute "J" { "ground.O", "cam.O" }
