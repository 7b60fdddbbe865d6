-- anl_torqued.lua - a hanging bar pendulum turned by a slowly rising torque, for the quasistatic
-- analysis' hand equilibrium (tests/test_analyses.sh; docs/analyses.md).
-- Data: bar of length L = 0.8 m, m = 2 kg, J = m L^2 / 12, pinned at its end O to ground.O,
--   hanging at rest; a torque tau(t) on the bar rising linearly from 0 at t = 0 to
--   0.9 m g L / 2 at t = 1 s (then constant); gravity [0, -9.81].
-- Hand equilibrium at every load level: m g (L / 2) sin(theta) = tau(t), theta the angle from
--   the downward vertical (counter-clockwise), and the pin carries the weight: force (0, m g) on
--   the bar (a couple adds no net force).
name "anl_torqued"
gravity { 0, -9.81 }

local m, L, g = 2.0, 0.8, 9.81
ground { O = { 0, 0 } }
body "bar" { mass = m, inertia = m * L * L / 12, angle = -pi / 2, position = { 0, -L / 2 },
             points = { O = { -L / 2, 0 }, T = { L / 2, 0 } } }
revolute "pin" { "ground.O", "bar.O" }
torque "drive" { "bar", tau = ramp { t0 = 0, t1 = 1, from = 0, to = 0.9 * m * g * L / 2 } }
