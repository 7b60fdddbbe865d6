-- anl_inverted.lua - a (nearly) simple pendulum standing upright on its pivot: an unstable
-- equilibrium, for modal analysis about it and about the hanging one (tests/test_analyses.sh;
-- docs/analyses.md).
-- Data: a bob of m = 1 kg with a small inertia J = 1e-4 kg m^2 about its CoM, L = 0.5 m above
--   the pin ground.O; gravity [0, -9.81].
-- Closed forms: about the hanging equilibrium w^2 = m g L / (J + m L^2) (the simple pendulum's
--   g / L when J = 0); about the upright start the linearization has the real roots
--   s = +-sqrt(m g L / (J + m L^2)): the motion grows as e^(s t).
name "anl_inverted"
gravity { 0, -9.81 }

local m, J, L = 1.0, 1e-4, 0.5
ground { O = { 0, 0 } }
body "bob" { mass = m, inertia = J, angle = 0, position = { 0, L },
             points = { O = { 0, -L }, B = { 0, 0 } } }
revolute "pin" { "ground.O", "bob.O" }
