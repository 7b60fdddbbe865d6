-- fourbar_singular.lua - a parallelogram four-bar that turns through its singular positions.
-- Source: SPEC.md "singular configurations" (thesis section 5.2, figure 3): crank and rocker of
--   equal length a, coupler equal to the ground link L. At crank angles 0 and pi all links are
--   collinear, Phi_q loses rank and the mechanism may switch to the anti-parallelogram branch.
-- Data: a = 0.1 m, L = 0.3 m; crank and rocker 0.2 kg, J = m a^2 / 12; coupler 0.6 kg,
--   J = m L^2 / 12; no gravity (horizontal plane), so on the parallelogram branch the crank
--   turns uniformly: it starts at 45 degrees with 2 pi rad/s and passes a singular position
--   every 0.5 s.
-- Equations: four revolute joints (thesis 2.4); T = const * omega^2 on the parallelogram branch.

name "fourbar_singular"
gravity { 0, 0 }

local a, L = 0.1, 0.3
local th, w = pi / 4, 2 * pi
local c, s = cos(th), sin(th)

ground { O1 = { 0, 0 }, O2 = { L, 0 } }

body "crank"   { mass = 0.2, inertia = 0.2 * a * a / 12, angle = th,
                 position = { a / 2 * c, a / 2 * s },
                 points = { O = { -a / 2, 0 }, A = { a / 2, 0 } } }
body "coupler" { mass = 0.6, inertia = 0.6 * L * L / 12, angle = 0,
                 position = { a * c + L / 2, a * s },
                 points = { A = { -L / 2, 0 }, B = { L / 2, 0 } } }
body "rocker"  { mass = 0.2, inertia = 0.2 * a * a / 12, angle = th,
                 position = { L + a / 2 * c, a / 2 * s },
                 points = { O = { -a / 2, 0 }, B = { a / 2, 0 } } }

revolute "O1" { "ground.O1", "crank.O" }
revolute "A"  { "crank.A", "coupler.A" }
revolute "B"  { "coupler.B", "rocker.B" }
revolute "O2" { "ground.O2", "rocker.O" }

assembly { lock = { "crank.phi" }, velocity = { ["crank.phi"] = w } }
