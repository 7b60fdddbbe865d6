-- bouncing_ball.lua - a spinning rubber ball dropped on the ground: a Hunt-Crossley contact with
-- friction (docs/model-language.md, "Contact with friction"; tests/test_contact.sh checks the
-- same force law's bounces, a block on an incline and a rolling disc against closed forms).
-- Data: ball m = 1 kg, radius r = 0.1 m, J = 2/5 m r^2 (solid), dropped from 1 m (its lowest point
--   above the ground line y = 0) with a horizontal speed of 0.5 m/s and a spin of 2 rad/s
--   (counter-clockwise: its lowest point slips forward at 0.7 m/s); contact stiffness
--   k = 1e6 N/m^1.5 (exponent 1.5; Hertz's (4/3) E* sqrt(r) is 1.1e6 for a rubber of E = 4 MPa,
--   nu = 0.5), restitution
--   0.8 at the first impact's speed sqrt(2 g 1 m) = 4.43 m/s; friction mu_s = 0.3, mu_d = 0.25,
--   v_stick = 1e-2 m/s.
-- Equations: the normal force k x^1.5 (1 + d x') with d from the restitution by the model
--   language's exact relation (d = 0.0842 s/m); friction -mu(s) f along the ground at the
--   contact point, mu the Brown-McPhee curve of the slip s; gravity 9.81 m/s^2. The first impact
--   stops the slip: the ball rolls on at v = -omega r = r (m r v0 - J omega0) / (J + m r^2)
--   = 0.3 m/s (its angular momentum about the contact point is kept); the apex heights fall as
--   e(v)^2 (0.635 m after the first bounce: 0.64 less gravity's share during this soft contact
--   of 9.5 ms). Runs in every formulation at h = 1e-5 s (950 steps per contact).

name "bouncing_ball"
local m, r, h0 = 1.0, 0.1, 1.0
local g = 9.81
simulate { t_end = 3, h = 1e-5 }

ground { O = { 0, 0 } }
body "ball" { mass = m, inertia = 0.4 * m * r * r, position = { 0, h0 + r },
              velocity = { 0.5, 0, 2 }, points = { C = { 0, 0 } } }
contact "floor" { "ball.C", "ground.O", radius = r, line = { 1, 0 },
                  k = param("k", 1e6), exponent = 1.5, restitution = 0.8, velocity = math.sqrt(2 * g * h0),
                  mu_s = 0.3, mu_d = 0.25, v_stick = param("v_stick", 1e-2) }
