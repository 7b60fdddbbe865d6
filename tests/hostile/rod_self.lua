-- expect: rod "R" connects particle "P" to itself
-- line: 6
-- hostile model: a rod from a particle to itself (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "P", "P", length = 1 }
