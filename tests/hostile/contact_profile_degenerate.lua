-- expect: contact "K": the profile's radius is not positive everywhere: r(3.14159 rad) = -0.01 (the smallest of 4096 angles; a polar profile needs r > 0)
-- line: 7
-- hostile model: a profile whose radius goes negative (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "cam" { mass = 1, inertia = 0.1, points = { O = { 0, 0 } } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "cam.O", radius = 0.1, profile = { a0 = 0.01, a = { 0.02 } }, k = 1e6 }
revolute "J" { "ground.O", "cam.O" }
