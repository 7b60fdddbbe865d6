-- expect: particle "P": give position = { x, y } or x = .., y = .., not both
-- line: 4
-- hostile model: two positions for one particle (see tests/test_mbgen.sh)
particle "P" { mass = 1, position = { 1, 0 }, x = 1 }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "P", length = 1 }
