-- expect: slot "S": "p" is a particle (no rotation): a slot's axis is fixed in its first body
-- line: 7
-- hostile model: a slot whose first end is a particle (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
particle "p" { mass = 1, x = 1 }
body "a" { mass = 1, inertia = 0.1, points = { C = { 0, 0 } } }
slot "S" { "p", "a.C", axis = { 1, 0 } }
revolute "J" { "ground.O", "a.C" }
