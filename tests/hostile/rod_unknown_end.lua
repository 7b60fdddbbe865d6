-- expect: rod "R": bad point reference "Q" (expected "body.point" or "particle")
-- line: 6
-- hostile model: a rod to an unknown particle (see tests/test_mbgen.sh)
particle "P" { mass = 1, x = 1, y = 0 }
ground { O = { 0, 0 } }
rod "R" { "ground.O", "Q", length = 1 }
