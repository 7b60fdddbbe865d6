-- harmonic.lua - a mass on a linear spring, sliding along X: x(t) = x0 cos(t), closed form.
-- Source: the dense-output test of issue 11 (tests/test_dense.c): the interpolant's order needs
--   a solution known exactly at every time.
-- Data: m = 1 kg, k = 1 N/m (omega = 1 rad/s), released at rest from x0 = 0.1 m; no gravity.
-- Equations: a prismatic joint to the ground holds y = 0 and phi = 0 (linear constraints, so
--   every formulation's constraint terms vanish); the spring from the ground point G = (-1, 0)
--   with l0 = 1 gives F = -k x along X.
name "harmonic"
gravity { 0, 0 }
ground { S = { 0, 0 }, G = { -1, 0 } }
body "mass" { mass = 1, inertia = 0.1, position = { 0.1, 0 }, points = { P = { 0, 0 } } }
prismatic "slide" { "ground.S", "mass.P", axis = { 1, 0 } }
spring "spring" { "ground.G", "mass.P", k = 1, l0 = 1 }
assembly { lock = { "mass.x" } }
