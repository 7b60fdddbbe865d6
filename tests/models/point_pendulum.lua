-- point_pendulum.lua - a point mass on a massless rod: the mathematical pendulum, released at rest
-- at theta0 = 60 degrees from the downward vertical.
-- Closed form: theta'' = -(g / L) sin theta, period T = 4 sqrt(L / g) K(k), k = sin(theta0 / 2),
--   K the complete elliptic integral of the first kind, K(k) = pi / (2 AGM(1, sqrt(1 - k^2)))
--   (tests/test_particles.sh computes it): T = 2.15287... s for L = 1 m, g = 9.81 m/s^2.
-- Data: m = 1.5 kg (the period does not depend on it), L = 1 m, pivot O at the origin.
-- Equations: one rod (generator/elements.lua: (d . d - L^2) / (2 L) = 0), V = -m g^T r.
name "point_pendulum"
gravity { 0, -9.81 }
ground { O = { 0, 0 } }
local L, th0 = 1.0, pi / 3
particle "P" { mass = 1.5, x = L * sin(th0), y = -L * cos(th0) }
rod "R" { "ground.O", "P", length = L }
