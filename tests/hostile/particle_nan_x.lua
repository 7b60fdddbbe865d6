-- expect: particle "P" x is not a finite number
-- line: 4
-- hostile model: a non-finite particle position (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 0 / 0, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "P", length = 1 }
