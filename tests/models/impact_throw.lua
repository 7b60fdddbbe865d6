-- impact_throw.lua - the ADAMS IMPACT contact law as a linear spring-dashpot: a ball thrown at the
-- ground without gravity, against the clamped dashpot's closed-form restitution
-- (tests/test_contact.sh).
-- Data: m = 1 kg, r = 0.1 m, thrown down at 4.429 m/s from 0.1 m above the ground line y = 0;
--   model = "impact", k = 1e7 N/m, exponent 1, c = 2000 N s/m reached at depth = 1e-9 m (the
--   penetration reaches 1.4e-3 m: the ramp is 7e-7 of it).
-- Closed form (Schwager and Poeschel 2007, derived in tests/test_contact.sh): with
--   beta = c / (2 m), w = sqrt(k / m - beta^2), the force k x + c x' reaches 0 (the clamp) at
--   w t_s = pi - atan2(2 beta w, w^2 - beta^2), where the ball leaves at e = exp(-beta t_s)
--   times its impact speed.

name "impact_throw"
simulate { t_end = 0.1, h = 1e-5 }
gravity { 0, 0 }
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.004, position = { 0, 0.2 }, velocity = { 0, -4.4294469180700204, 0 },
              points = { C = { 0, 0 } } }
contact "floor" { "ball.C", "ground.O", radius = 0.1, line = { 1, 0 }, model = "impact", k = 1e7,
                  exponent = 1, c = 2000, depth = 1e-9 }
