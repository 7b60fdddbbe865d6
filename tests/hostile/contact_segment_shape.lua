-- expect: contact "K": segment must be { dx, dy }
-- line: 7
-- hostile model: a contact segment (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
body "bar" { mass = 1, inertia = 0.1, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "ground.O", radius = 0.1, segment = { 1, 0, 2 }, k = 1e6 }
revolute "J" { "ground.O", "bar.C" }
