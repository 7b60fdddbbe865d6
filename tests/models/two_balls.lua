-- two_balls.lua - two free balls collide head-on without gravity: a circle-circle contact between
-- two moving bodies, against the closed forms (tests/test_contact.sh).
-- Data: ball a m = 1 kg at x = 0 moving +x at 3 m/s, ball b m = 2 kg at x = 0.5 m at rest, both of
--   radius 0.1 m (a's circle 0.1 m against b's circle 0.1 m), k = 1e9 N/m^1.5, exponent 1.5,
--   restitution 0.7 at the 3 m/s closing speed.
-- Closed forms: the contact forces are internal, so the momentum m_a v_a + m_b v_b = 3 kg m/s
--   stays; the Hunt-Crossley relation holds for the relative motion with the reduced mass (it does
--   not depend on the mass): the balls separate at e v_rel = 2.1 m/s, v_a = (3 - 2 2.1) / 3 =
--   -0.4 m/s, v_b = (3 + 2.1) / 3 = 1.7 m/s.

name "two_balls"
simulate { t_end = 0.2, h = 1e-5 }
gravity { 0, 0 }
body "a" { mass = 1, inertia = 0.004, position = { 0, 0 }, velocity = { 3, 0, 0 }, points = { C = { 0, 0 } } }
body "b" { mass = 2, inertia = 0.008, position = { 0.5, 0 }, velocity = { 0, 0, 0 }, points = { C = { 0, 0 } } }
contact "hit" { "a.C", "b.C", radius = 0.1, circle = 0.1, k = 1e9, exponent = 1.5,
                restitution = 0.7, velocity = 3 }
