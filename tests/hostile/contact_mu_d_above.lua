-- expect: contact "K": mu_d (0.5) must not exceed mu_s (0.3)
-- line: 7
-- hostile model: kinetic friction above static (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
body "bar" { mass = 1, inertia = 0.1, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "ground.O", line = { 1, 0 }, k = 1e6, mu_s = 0.3, mu_d = 0.5 }
revolute "J" { "ground.O", "bar.C" }
