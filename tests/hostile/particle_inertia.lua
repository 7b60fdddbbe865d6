-- expect: particle "P": unknown field 'inertia'
-- line: 4
-- hostile model: a particle has no rotation, so no inertia (see tests/test_mbgen.sh)
particle "P" { mass = 1, inertia = 0.1, x = 1, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "P", length = 1 }
