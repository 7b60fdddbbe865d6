-- bouncing_ball.lua - a ball dropped on the ground: a Hunt-Crossley contact with friction
-- (docs/model-language.md, "Contact with friction"; tests/test_contact.sh checks the bounce
-- heights and the energy lost per impact against the closed form).
-- Data: ball m = 1 kg, radius r = 0.1 m, J = 2/5 m r^2 (solid), dropped from a height of 1 m
--   (its lowest point above the ground line y = 0) with a spin of 2 rad/s and a horizontal speed
--   of 0.5 m/s; contact stiffness k = 1e8 N/m^1.5 (exponent 1.5: Hertz), restitution 0.8 at the
--   first impact's speed sqrt(2 g h) = 4.43 m/s; friction mu_s = 0.3, mu_d = 0.25.
-- Equations: the Hunt-Crossley force k x^1.5 (1 + d x') with d from the restitution (the model
--   language's exact relation), regularized Coulomb friction along the ground at the contact
--   point; gravity 9.81 m/s^2. The apex heights fall as e(v)^2 with e(v) the restitution at
--   each impact's speed.

name "bouncing_ball"
local m, r, h0 = 1.0, 0.1, 1.0
local g = 9.81
simulate { t_end = 3, h = 1e-5 }

ground { O = { 0, 0 } }
body "ball" { mass = m, inertia = 0.4 * m * r * r, position = { 0, h0 + r },
              velocity = { 0.5, 0, 2 }, points = { C = { 0, 0 } } }
contact "floor" { "ball.C", "ground.O", radius = r, line = { 1, 0 },
                  k = 1e8, exponent = 1.5, restitution = 0.8, velocity = math.sqrt(2 * g * h0),
                  mu_s = 0.3, mu_d = 0.25, v_stick = 1e-3 }
