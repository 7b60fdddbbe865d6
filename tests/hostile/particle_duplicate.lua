-- expect: duplicate name "P" (the body declared at line 4)
-- line: 5
-- hostile model: a particle named like a body (see tests/test_mbgen.sh)
body "P" { mass = 1, inertia = 0.1, points = { O = { 0, 0 } } }
particle "P" { mass = 1, x = 1, y = 0 }
