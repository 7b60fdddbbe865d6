-- expect: (a NUL?hides the marker: error: x)
-- line: 7
-- hostile model: an error text with a NUL byte before ": error: " must stay a user error
-- (exit 1, control bytes shown as ?), found by tests/fuzz/fuzz_model.c
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
error("mbgen: internal error (a NUL\0hides the marker: error: x)")
