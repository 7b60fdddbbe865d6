-- expect: particle "P" is attached to nothing
-- line: 4
-- hostile model: a particle no element refers to (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1, y = 0 }
ground { O = { 0, 0 } }
body "B" { mass = 1, inertia = 0.1, points = { O = { 0, 0 } } }
revolute "J" { "ground.O", "B.O" }
