-- audit_fourbar_cp.lua - a non-symmetric change-point four-bar: it passes a singular position
-- (all four links collinear) once per crank turn (the claims audit, tests/test_audit.sh).
-- Data: ground O1-O2 d = 0.4 m, crank a = 0.1 m (0.3 kg), coupler b = 0.35 m (0.8 kg), rocker
--   c = 0.15 m (0.5 kg), uniform bars J = m L^2 / 12; a + d = b + c (Grashof's limit), so at
--   crank angle pi the crank, coupler and rocker lie along the ground line and Phi_q loses rank;
--   no gravity, no load: T is conserved. Starts at crank angle 90 deg, turning at 6 rad/s.
-- Equations: four revolute joints (thesis 2.4).
name "audit_fourbar_cp"
gravity { 0, 0 }

local a, b, c, d = 0.1, 0.35, 0.15, 0.4
local th = pi / 2
local ax, ay = a * cos(th), a * sin(th)        -- crank pin A
-- rocker pin B: |B - A| = b, |B - O2| = c, the intersection above the line A-O2
local ex, ey = d - ax, -ay
local L = math.sqrt(ex * ex + ey * ey)
local f = (b * b - c * c + L * L) / (2 * L)
local h = math.sqrt(b * b - f * f)
local bx = ax + f * ex / L - h * ey / L
local by = ay + f * ey / L + h * ex / L

ground { O1 = { 0, 0 }, O2 = { d, 0 } }

body "crank"   { mass = 0.3, inertia = 0.3 * a * a / 12, angle = th,
                 position = { ax / 2, ay / 2 },
                 points = { O = { -a / 2, 0 }, A = { a / 2, 0 } } }
body "coupler" { mass = 0.8, inertia = 0.8 * b * b / 12, angle = math.atan(by - ay, bx - ax),
                 position = { (ax + bx) / 2, (ay + by) / 2 },
                 points = { A = { -b / 2, 0 }, B = { b / 2, 0 } } }
body "rocker"  { mass = 0.5, inertia = 0.5 * c * c / 12, angle = math.atan(by, bx - d),
                 position = { (d + bx) / 2, by / 2 },
                 points = { O = { -c / 2, 0 }, B = { c / 2, 0 } } }

revolute "O1" { "ground.O1", "crank.O" }
revolute "A"  { "crank.A", "coupler.A" }
revolute "B"  { "coupler.B", "rocker.B" }
revolute "O2" { "ground.O2", "rocker.O" }

assembly { lock = { "crank.phi" }, velocity = { ["crank.phi"] = 6 } }
