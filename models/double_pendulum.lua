-- double_pendulum.lua - two bars hinged to the ground at A and to each other at B.
-- Source: thesis_hamilton_canonical_planar (section 6.1, table 1); SPEC.md "Model data".
-- Data: AB m = 6 kg, J = 1.0 kg m^2, L = 1.0 m, phi0 = pi/4; BC m = 10 kg, J = 1.6 kg m^2,
--   L = 1.5 m, phi0 = pi/2; CoM at mid-length; gravity [0, -9.81]; at rest at t = 0.
-- Equations: revolute joints Phi = r_i + R_i s_i - r_j - R_j s_j (thesis 2.4-2.8), gravity
--   potential V = -m g^T r. Body x-axis along the bar from its first to its second point.
-- The CoM guesses below are the exact positions for the initial angles (A at the origin).

name "double_pendulum"
gravity { 0, -9.81 }
-- Run settings: 5 s at h = 1e-3 s (thesis 6.1); the formulations' parameters are the thesis'
-- double pendulum values, mb_params_default's.
simulate { t_end = 5, h = 1e-3 }

local L1, L2 = 1.0, 1.5
local phi1, phi2 = pi / 4, pi / 2

ground { A = { 0, 0 } }

body "AB" {
  mass = 6, inertia = 1.0, angle = phi1,
  points = { A = { -L1 / 2, 0 }, B = { L1 / 2, 0 } },
  position = { L1 / 2 * cos(phi1), L1 / 2 * sin(phi1) },
}

body "BC" {
  mass = 10, inertia = 1.6, angle = phi2,
  points = { B = { -L2 / 2, 0 }, C = { L2 / 2, 0 } },
  position = { L1 * cos(phi1) + L2 / 2 * cos(phi2), L1 * sin(phi1) + L2 / 2 * sin(phi2) },
}

revolute "A" { "ground.A", "AB.A" }
revolute "B" { "AB.B", "BC.B" }
