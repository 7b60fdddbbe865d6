-- incline_contact.lua - a block (a particle) on an incline, held by a point contact with friction:
-- sticking and sliding against the closed forms (tests/test_contact.sh).
-- Data: m = 1 kg; the incline is the ground line y = 0 and gravity is tilted by theta (-D theta,
--   rad; default atan 0.4), g = 9.81 m/s^2 along (-sin theta, -cos theta); contact k = 1e6 N/m^1.5,
--   exponent 1.5, damping d = 2 s/m; mu_s = 0.5, mu_d = 0.3, v_stick = 1e-3 m/s. The block starts at
--   rest at its static penetration (m g cos theta / k)^(1/1.5).
-- Closed forms: tan theta < mu_s: it creeps at the speed v_c < v_stick where mu(v_c) = tan theta
--   (the regularized law has no true sticking); tan theta > mu_s: it slides with acceleration
--   -g (sin theta - mu_d cos theta) once its speed is many v_stick.

local th = param("theta", math.atan(0.4))
local m, g, k = 1.0, 9.81, 1e6
simulate { t_end = 1, h = 1e-4 }
gravity { -g * math.sin(th), -g * math.cos(th) }
ground { O = { 0, 0 } }
particle "block" { mass = m, x = 0, y = -(m * g * math.cos(th) / k) ^ (1 / 1.5), velocity = { 0, 0 } }
contact "slope" { "block", "ground.O", line = { 1, 0 }, k = k, exponent = 1.5, damping = 2,
                  mu_s = 0.5, mu_d = 0.3, v_stick = 1e-3 }
