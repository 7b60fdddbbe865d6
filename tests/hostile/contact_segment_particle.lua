-- expect: contact "K": "p" is a particle (no rotation): a contact segment is fixed in its body
-- line: 6
-- hostile model: a contact segment on a particle, which has no axes (see tests/test_mbgen.sh)
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
particle "p" { mass = 1, x = 0, y = 0 }
contact "K" { "ball.C", "p", radius = 0.1, segment = { 1, 0 }, k = 1e6 }
