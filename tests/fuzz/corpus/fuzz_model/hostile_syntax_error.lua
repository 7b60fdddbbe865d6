-- expect: '}' expected
-- hostile model: syntax error (see tests/test_mbgen.sh)
body "AB" { mass = 1, inertia = 0.1,
  points = { A = { 0, 0 } }
