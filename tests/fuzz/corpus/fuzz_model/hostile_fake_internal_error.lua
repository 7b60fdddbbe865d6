-- expect: internal error (a bug
-- line: 7
-- hostile model: an error text that imitates the host's internal-error marker must still be a
-- user error (exit 1), found by tests/fuzz/fuzz_model.c
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
error("mbgen: internal error (a bug in the generator, not in the model)")
