-- expect: particle "P": mass must be > 0
-- line: 4
-- hostile model: a particle without mass (see tests/test_mbgen.sh)
particle "P" { mass = 0, x = 1, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "P", length = 1 }
