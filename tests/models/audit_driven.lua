-- audit_driven.lua - a double pendulum whose upper link is driven through its pivot (a joint
-- driver) and whose lower link swings freely behind a light rotational damper (the claims
-- audit, tests/test_audit.sh).
-- Data: upper link 0.4 m, 1 kg; lower link 0.6 m, 0.7 kg (uniform bars, J = m L^2 / 12); the
--   driver holds the upper link's angle at -pi/2 + 0.6 sin(2 pi t / 1.1) (from hanging down);
--   a rotational damper c = 0.02 N m s/rad between the links; gravity [0, -9.81]. The lower
--   link starts hanging 30 deg off the upper one's line; velocities follow from the driver.
-- Equations: revolute joints (thesis 2.4), a joint driver (its work enters W through its
--   multiplier), a rotational damper.
name "audit_driven"
gravity { 0, -9.81 }
simulate { t_end = 4, h = 1e-3 }

local L1, L2, m1, m2 = 0.4, 0.6, 1.0, 0.7
local a1, a2 = -pi / 2, -pi / 2 + pi / 6
ground { O = { 0, 0 } }
body "upper" { mass = m1, inertia = m1 * L1 * L1 / 12, angle = a1, position = { 0, -L1 / 2 },
               points = { O = { -L1 / 2, 0 }, E = { L1 / 2, 0 } } }
body "lower" { mass = m2, inertia = m2 * L2 * L2 / 12, angle = a2,
               position = { L2 / 2 * cos(a2), -L1 + L2 / 2 * sin(a2) },
               points = { E = { -L2 / 2, 0 }, T = { L2 / 2, 0 } } }
revolute "O" { "ground.O", "upper.O" }
revolute "E" { "upper.E", "lower.E" }
driver "D" { joint = "O", f = sine { amplitude = 0.6, period = 1.1, offset = -pi / 2 } }
rotspring "damp" { "upper", "lower", k = 0, c = 0.02 }
assembly { lock = { "lower.phi" } }
