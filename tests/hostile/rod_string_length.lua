-- expect: rod "R" length must be a number, got string
-- line: 6
-- hostile model: a rod length that is not a number (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "P", length = "1" }
