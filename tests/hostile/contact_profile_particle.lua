-- expect: contact "K": "p" is a particle (no rotation): a contact profile turns with its body
-- line: 7
-- hostile model: a profile on a particle, which has no angle (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
particle "p" { mass = 1, x = 0, y = 0 }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "p", radius = 0.01, profile = { a0 = 0.1 }, k = 1e6 }
spring "s" { "ground.O", "p", k = 1, l0 = 0 }
