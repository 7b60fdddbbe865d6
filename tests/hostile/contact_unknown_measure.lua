-- expect: gap("J"): "J" is a revolute, gap needs a contact
-- line: 7
-- hostile model: a contact measure of a joint (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
body "bar" { mass = 1, inertia = 0.1, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "ground.O", line = { 1, 0 }, k = 1e6, mu_s = 0.1 + 0 * 1 } sensor "s" { value = gap("J") }
revolute "J" { "ground.O", "bar.C" }
