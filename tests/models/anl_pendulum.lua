-- anl_pendulum.lua - a bar pendulum for the closed forms of the analyses (tests/test_analysis.c,
-- tests/test_analyses.sh; docs/analyses.md).
-- Data: bar of length L = 0.8 m, m = 2 kg, J = m L^2 / 12, pinned at its end O to ground.O;
--   released at rest at theta0 = 1 rad from the downward vertical; gravity [0, -9.81].
-- Closed forms: the pin's force on the bar along the bar (towards O) m g cos(theta) + m d w^2,
--   across it m d alpha + m g sin(theta) (d = L / 2); small oscillations about the hanging
--   position w0^2 = m g d / (J + m d^2) = 3 g / (2 L).
name "anl_pendulum"
gravity { 0, -9.81 }

local m, L, th0 = 2.0, 0.8, 1.0
ground { O = { 0, 0 } }
body "bar" { mass = m, inertia = m * L * L / 12, angle = th0 - pi / 2,
             position = { L / 2 * sin(th0), -L / 2 * cos(th0) },
             points = { O = { -L / 2, 0 }, T = { L / 2, 0 } } }
revolute "pin" { "ground.O", "bar.O" }
