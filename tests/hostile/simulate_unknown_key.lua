-- expect: simulate: unknown field 'dt'
-- line: 7
-- hostile model: an unknown key in simulate (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
simulate { t_end = 1, dt = 1e-3 }
