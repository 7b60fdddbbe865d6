-- expect: cam "C": "p" is a particle (no rotation): a cam's profile turns with its body
-- line: 10
-- hostile model: a particle as the cam body (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, G = { 0, 0.1 } }
body "c" { mass = 1, inertia = 0.1, points = { O = { 0, 0 }, E = { 0.05, 0 } } }
body "f" { mass = 1, inertia = 0.1, position = { 0, 0.05 }, points = { P = { 0, 0 } } }
revolute "J" { "ground.O", "c.O" }
prismatic "G" { "ground.G", "f.P", axis = { 0, 1 } }
particle "p" { mass = 1, x = 0.2 }
cam "C" { "p", "f.P", profile = { a0 = 0.05 } }
