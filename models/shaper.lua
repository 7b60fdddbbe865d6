-- shaper.lua - the quick-return mechanism of a shaping machine (crank and slotted lever): a crank
-- turning at constant speed carries a pin that slides in the slot of a lever pivoted below the
-- crank's centre; the lever's top drives the ram through a link. The ram's return stroke takes
-- the short arc of the crank, so it is quicker than the cutting stroke.
-- Source: the textbook crank-and-slotted-lever quick-return mechanism; data made up, SI units.
-- Data: lever pivot O1 = (0, 0), crank centre O2 = (0, d), d = 0.2 m; crank radius r = 0.1 m;
--   lever O1-T, L = 0.5 m; link T-R, l = 0.25 m; the ram slides along y = H = 0.5 m; crank
--   driven at w = 2 pi / 3 rad/s from the extreme position theta0 = -pi/2 - acos(r/d).
-- Equations: revolute joints; the slot keeps the crank pin P on the lever's axis through O1
--   (n . (r_P - r_O1) = 0, n the lever's normal); the prismatic guide of the ram; the joint
--   driver theta(t) = theta0 + w t. Closed forms (tests/test_joints.sh checks them to 1e-12):
--   the lever points at P = (r cos theta, d + r sin theta), T = L P / |P|, the ram at
--   x_R = T_x + sqrt(l^2 - (H - T_y)^2); its strokes end where the slot is tangent to the crank
--   circle, theta = -pi/2 -+ acos(r/d): time ratio (pi - acos(r/d)) / acos(r/d) = 2 here (the
--   return from t = 0 to 1 s, the cut from 1 to 3 s).

name "shaper"
gravity { 0, -9.81 }

local d, r, L, l, H = 0.2, 0.1, 0.5, 0.25, 0.5
local w = 2 * pi / 3
local th0 = -pi / 2 - math.acos(r / d)
-- the configuration at theta0 (closed form above), as the guesses
local px, py = r * cos(th0), d + r * sin(th0)
local pl = math.sqrt(px * px + py * py)
local ex, ey = px / pl, py / pl
local tx, ty = L * ex, L * ey
local rx = tx + math.sqrt(l * l - (H - ty) ^ 2)

ground { O1 = { 0, 0 }, O2 = { 0, d }, G = { 0, H } }
body "crank" { mass = 1, inertia = 1 * r * r / 12, angle = th0,
               position = { px / 2, d + (py - d) / 2 },
               points = { O = { -r / 2, 0 }, P = { r / 2, 0 } } }
body "lever" { mass = 3, inertia = 3 * L * L / 12, angle = math.atan(ey, ex),
               position = { tx / 2, ty / 2 },
               points = { O = { -L / 2, 0 }, T = { L / 2, 0 } } }
body "link" { mass = 0.5, inertia = 0.5 * l * l / 12, angle = math.atan(H - ty, rx - tx),
              position = { (tx + rx) / 2, (ty + H) / 2 },
              points = { T = { -l / 2, 0 }, R = { l / 2, 0 } } }
body "ram" { mass = 8, inertia = 0.1, position = { rx, H },
             points = { R = { 0, 0 }, tool = { 0.15, -0.05 } } }

revolute "O2" { "ground.O2", "crank.O" }
revolute "O1" { "ground.O1", "lever.O" }
slot "slot" { "lever.O", "crank.P", axis = { 1, 0 } }
revolute "T" { "lever.T", "link.T" }
revolute "R" { "link.R", "ram.R" }
prismatic "guide" { "ground.G", "ram.R", axis = { 1, 0 } }
driver "drive" { joint = "O2", f = function(t) return th0 + w * t end }

simulate { t_end = 3, h = 1e-3 }
