-- oscillator_1dof.lua - a mass on a spring with a quadratic damper, driven by a sine force.
-- Source: pradis_implicit_integration_ru.txt, eqs. 1.3-1.6 and the worked example (1.20-1.25):
--   m a + mu v |v| + k x = Q sin(2 pi t / T).
-- Data: m = 0.1 kg, k = 20000 N/m, mu = 1000 N s^2/m^2, Q = 1000 N, T = 0.2 pi s, x0 = v0 = 0;
--   no gravity. The seed's first step (h = 1e-3) gives v1 = 0.05913 m/s, x1 = 2.96e-5 m.
-- Equations: the body slides along X on a prismatic joint to the ground; a spring-damper from
--   the ground point G = (-1, 0) to the body's CoM with l0 = 1 m lies along X and is at rest at
--   x = 0, so l = 1 + x, ldot = xdot and F = k x + c2 xdot |xdot| (c2 = mu) exactly as in the seed.
--   The body's inertia only matters for phi, which the prismatic joint holds at 0.

name "oscillator_1dof"
gravity { 0, 0 }
-- Run settings: 0.1 s at h = 1e-4 s.
simulate { t_end = 0.1, h = 1e-4 }

local m, k, mu, Q, T = 0.1, 20000, 1000, 1000, 0.2 * pi

ground { S = { 0, 0 }, G = { -1, 0 } }
body "mass" { mass = m, inertia = 1e-4, points = { P = { 0, 0 } } }

prismatic "slide" { "ground.S", "mass.P", axis = { 1, 0 } }
spring "spring" { "ground.G", "mass.P", k = k, l0 = 1, c2 = mu }
force "load" { "mass.P", fx = sine { amplitude = Q, period = T } }
