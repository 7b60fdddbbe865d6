-- audit_rest.lua - a uniform bar hanging still from its pivot: a mechanism at rest (the new-user
-- audit of 2026-11-23 found false sigma and energy warnings on it, with --strict failing).
-- Closed form: it stays where it is; T = 0, V = V0, the pivot carries m g, and sigma = Int lambda
-- grows as m g t while the momentum stays 0.
-- Data: L = 1 m, m = 1 kg, J = m L^2 / 12 about the CoM; gravity [0, -9.81]; the pivot O at the
--   origin, the bar straight down (angle -pi/2).
-- Equations: one revolute joint (thesis 2.4). Used by tests/test_audit.sh.
name "audit_rest"
gravity { 0, -9.81 }
simulate { t_end = 20, h = 1e-3 }
ground { O = { 0, 0 } }
body "bar" { mass = 1, inertia = 1 / 12, angle = -pi / 2, position = { 0, -0.5 },
             points = { O = { -0.5, 0 }, T = { 0.5, 0 } } }
revolute "O" { "ground.O", "bar.O" }
