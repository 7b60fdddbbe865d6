-- expect: rod "R": expected 2 positional entries, entry 2 is missing
-- line: 6
-- hostile model: a rod with one end (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "P", length = 1 }
