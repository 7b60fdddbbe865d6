-- expect: rod "R": length 9.9999999999999998e-201 is outside 1e-150 .. 1e150 m
-- line: 6
-- hostile model: a rod so short that its squared length underflows (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1e-200, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "P", length = 1e-200 }
