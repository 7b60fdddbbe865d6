-- rolling_disc.lua - a disc thrown onto the ground sliding without spin: friction brings it to
-- pure rolling at the closed-form time (tests/test_contact.sh).
-- Data: solid disc m = 2 kg, r = 0.2 m, J = m r^2 / 2; resting on the ground line y = 0 at its
--   static penetration; v0 = 3 m/s, omega0 = 0; contact k = 1e7 N/m^1.5, exponent 1.5, damping
--   2 s/m; mu_s = mu_d = 0.4, v_stick = 1e-4 m/s.
-- Closed form (Coulomb): the slip s = v + omega r falls at mu g (1 + m r^2 / J) = 3 mu g until
--   pure rolling at t* = v0 / (3 mu g) = 0.2548 s, then v = 2 v0 / 3 = 2 m/s.

local m, r, g, k = 2.0, 0.2, 9.81, 1e7
simulate { t_end = 0.5, h = 1e-4 }
ground { O = { 0, 0 } }
body "disc" { mass = m, inertia = m * r * r / 2, position = { 0, r - (m * g / k) ^ (1 / 1.5) },
              velocity = { 3, 0, 0 }, points = { C = { 0, 0 } } }
contact "floor" { "disc.C", "ground.O", radius = r, line = { 1, 0 }, k = k, exponent = 1.5,
                  damping = 2, mu_s = 0.4, mu_d = 0.4, v_stick = 1e-4 }
