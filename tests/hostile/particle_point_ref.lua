-- expect: rod "R": particle "P" has no points: refer to it as "P"
-- line: 6
-- hostile model: a particle referred to as a body point (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "P.A", length = 1 }
