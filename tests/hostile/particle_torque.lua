-- expect: torque "T": "P" is a particle (no rotation): a torque needs a body
-- line: 7
-- hostile model: a torque on a particle (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "P", length = 1 }
torque "T" { "P", tau = 1 }
