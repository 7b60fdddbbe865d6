-- expect: rod "R": length must be > 0, got 0
-- line: 6
-- hostile model: a rod of zero length (no direction: a singular constraint) (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "P", length = 0 }
