-- expect: contact "K": k = 1e+21 is above 1e20 (no material contact is that stiff; its forces would overflow)
-- line: 7
-- hostile model: a profile contact stiffer than 1e20 (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "cam" { mass = 1, inertia = 0.1, points = { O = { 0, 0 } } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "cam.O", radius = 0.01, profile = { a0 = 0.1, a = { 0.01 } }, k = 1e21 }
revolute "J" { "ground.O", "cam.O" }
