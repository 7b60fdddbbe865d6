-- acc_pendulum.lua - IFToMM benchmark A01 type: a point mass on a massless rod released at rest
-- with the rod horizontal (make validate-accuracy runs it over 1000 periods).
-- Exact reference: tests/accuracy/ref_pendulum.c, sin(theta / 2) = k sn(K(k) - w0 t, k) with
--   k = sin(pi / 4), w0 = sqrt(g / L): period 4 K / w0 = 2.367841947576237 s.
-- Data: m = 1 kg, L = 1 m, pivot O at the origin, P starts at (1, 0); g = 9.81 m/s^2 along -y.
-- Equations: one rod (generator/elements.lua: (d . d - L^2) / (2 L) = 0), V = -m g^T r.
name "acc_pendulum"
gravity { 0, -9.81 }
ground { O = { 0, 0 } }
particle "P" { mass = 1, x = 1, y = 0 }
rod "R" { "ground.O", "P", length = 1 }
