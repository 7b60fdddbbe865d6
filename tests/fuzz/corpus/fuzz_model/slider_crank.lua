-- slider_crank.lua - a slider-crank: crank O-A, connecting rod A-B, piston sliding along X.
-- Source: the classic mechanism of thesis figure 3 (here with a rod longer than the crank, so
--   it has no singular position); data are those of a small single-cylinder engine.
-- Data: crank r = 0.1 m, 0.5 kg, J = m r^2 / 12; rod l = 0.3 m, 1.0 kg, J = m l^2 / 12; piston
--   2.0 kg (J = 1e-3 kg m^2, irrelevant: its angle is fixed); gravity [0, -9.81]. Free motion:
--   the crank starts at 30 degrees turning at 20 rad/s (the rest follows by velocity assembly).
-- Equations: revolute joints (thesis 2.4); prismatic joint to the ground along X: phi_ground -
--   phi_piston = 0 and the component of (r_piston - r_S) perpendicular to X is 0; gravity.

name "slider_crank"
gravity { 0, -9.81 }

local r, l = 0.1, 0.3
local th = pi / 6                              -- initial crank angle
local ax, ay = r * cos(th), r * sin(th)        -- crank pin A
local bx = ax + math.sqrt(l * l - ay * ay)     -- piston pin B, on the X axis
local psi = math.atan(-ay, bx - ax)            -- rod angle

ground { O = { 0, 0 }, S = { 0, 0 } }

body "crank" { mass = 0.5, inertia = 0.5 * r * r / 12, angle = th,
               position = { ax / 2, ay / 2 },
               points = { O = { -r / 2, 0 }, A = { r / 2, 0 } } }
body "rod"   { mass = 1.0, inertia = 1.0 * l * l / 12, angle = psi,
               position = { (ax + bx) / 2, ay / 2 },
               points = { A = { -l / 2, 0 }, B = { l / 2, 0 } } }
body "piston" { mass = 2.0, inertia = 1e-3, angle = 0, position = { bx, 0 },
                points = { B = { 0, 0 } } }

revolute "O" { "ground.O", "crank.O" }
revolute "A" { "crank.A", "rod.A" }
revolute "B" { "rod.B", "piston.B" }
prismatic "slide" { "ground.S", "piston.B", axis = { 1, 0 } }

assembly { lock = { "crank.phi" }, velocity = { ["crank.phi"] = 20 } }
