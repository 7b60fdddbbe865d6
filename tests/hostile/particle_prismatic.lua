-- expect: prismatic "S": "P" is a particle (no rotation)
-- line: 6
-- hostile model: a prismatic joint on a particle (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1, y = 0 }
ground { O = { 0, 0 } }
prismatic "S" { "ground.O", "P", axis = { 1, 0 } }
