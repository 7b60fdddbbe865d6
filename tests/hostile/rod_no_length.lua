-- expect: rod "R": length is missing
-- line: 6
-- hostile model: a rod without a length (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "P" }
