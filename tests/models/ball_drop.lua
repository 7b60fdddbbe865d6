-- ball_drop.lua - a ball dropped on the ground, no friction: the apex heights and the energy lost
-- per impact against the Hunt-Crossley closed form (tests/test_contact.sh).
-- Data: m = 1 kg, r = 0.1 m, dropped from 1 m (its lowest point above the ground line y = 0);
--   k = 4.87e10 N/m^1.5 (-D k; Hertz for steel on steel: (4/3) E* sqrt(r), E* = E / (2 (1 - nu^2)),
--   E = 210 GPa, nu = 0.3),
--   exponent 1.5 (-D e; 1 with k = 1e6 N/m: tests/test_events.c's force smooth inside the
--   contact), restitution 0.8 at 4.429 m/s = sqrt(2 g 1 m). -D g=0 -D v0=-4.429: no gravity,
--   thrown at the ground at v0 instead (the closed form then holds exactly).
-- Equations: vertical motion under gravity with the contact force k x^1.5 (1 + d x'); each
--   impact at speed v leaves at e(v) v, e from s - ln(1 + s) = -e s - ln(1 - e s), s = d v
--   (gravity during the contact, left out of it, costs about m g / F_max: 1e-4 at k = 4.87e10).

name "ball_drop"
simulate { t_end = 3, h = 1e-4 }
local g = param("g", 9.81)
gravity { 0, -g }
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.004, position = { 0, 1.1 }, velocity = { 0, param("v0", 0), 0 },
              points = { C = { 0, 0 } } }
contact "floor" { "ball.C", "ground.O", radius = 0.1, line = { param("lx", 1), 0 }, k = param("k", 4 / 3 * 210e9 / (2 * (1 - 0.3 ^ 2)) * math.sqrt(0.1)),
                  exponent = param("e", 1.5), restitution = 0.8, velocity = math.sqrt(2 * 9.81 * 1.0) }
