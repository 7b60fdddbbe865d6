-- acc_crank_rocker.lua - a Grashof crank-rocker released at rest under gravity (make
-- validate-accuracy runs it over 100 s; exact reference tests/accuracy/ref_crank_rocker.c).
-- Data: ground O1-O2 d = 0.4 m, crank a = 0.1 m (0.3 kg), coupler b = 0.35 m (0.8 kg), rocker
--   c = 0.3 m (0.5 kg), uniform bars J = m L^2 / 12; a + d = 0.5 < b + c = 0.65 and the crank is
--   the shortest link: it turns fully, and A, B, O2 are never collinear (no singular position).
--   Coupler point P 0.15 m from the coupler's centre, square to A-B. Released at rest at crank
--   angle 30 deg: the crank swings between -240.6 and 30 deg (about 1.8 s a swing).
-- Equations: four revolute joints (thesis 2.4); V = -m g^T r.
name "acc_crank_rocker"
gravity { 0, -9.81 }

local a, b, c, d = 0.1, 0.35, 0.3, 0.4
local th = pi / 6
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
                 points = { A = { -b / 2, 0 }, B = { b / 2, 0 }, P = { 0, 0.15 } } }
body "rocker"  { mass = 0.5, inertia = 0.5 * c * c / 12, angle = math.atan(by, bx - d),
                 position = { (d + bx) / 2, by / 2 },
                 points = { O = { -c / 2, 0 }, B = { c / 2, 0 } } }

revolute "O1" { "ground.O1", "crank.O" }
revolute "A"  { "crank.A", "coupler.A" }
revolute "B"  { "coupler.B", "rocker.B" }
revolute "O2" { "ground.O2", "rocker.O" }

assembly { lock = { "crank.phi" } }
