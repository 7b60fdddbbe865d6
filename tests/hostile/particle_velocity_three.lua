-- expect: particle "P" velocity: unexpected positional entry [3]
-- line: 4
-- hostile model: a particle velocity with an angular rate (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1, y = 0, velocity = { 0, 1, 2 } }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "P", length = 1 }
