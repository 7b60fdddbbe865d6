-- fault_redundant.lua - a pendulum bar hinged to the ground twice at the same point: the second
-- revolute joint repeats the first, so Phi_q has rank 2 in 4 rows. The assembly (regularized)
-- succeeds; baumgarte and canonical must stop at their first evaluation with the rank loss named
-- by constraint ("redundant or singular constraint: A2.x"), alf-explicit and alf-trapezoid run
-- (their matrix M + alpha Phi_q^T Phi_q stays definite). Used by tests/test_faults.sh.
name "fault_redundant"
gravity { 0, -9.81 }
ground { O = { 0, 0 } }
body "bar" { mass = 1, inertia = 0.1, angle = -pi / 2, position = { 0, -0.5 },
             points = { O = { -0.5, 0 } } }
revolute "A1" { "ground.O", "bar.O" }
revolute "A2" { "ground.O", "bar.O" }
