-- expect: driver "D": particle "P" has no phi coordinate
-- line: 7
-- hostile model: driving the angle of a particle (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "P", length = 1 }
driver "D" { coord = "P.phi", f = 0 }
