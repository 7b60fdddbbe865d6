-- cam_follower.lua - a valve train: a harmonic cam turning at constant speed lifts a translating
-- follower (a knife-edge/point follower on its stem) against a preloaded valve spring.
-- Source: the textbook spring-loaded cam follower (jump of the follower above a speed); data
-- made up, of a valve train's size, SI units.
-- Data: cam centre O at the origin, profile r(psi) = a0 + e cos(psi) (psi the polar angle in the
--   cam body's frame about O), a0 = 0.025 m, e = 0.005 m: lift 2 e = 10 mm; follower (the valve
--   with its share of the spring) m = 0.1 kg sliding along x = 0, its point P at the stem's end,
--   the spring seat S s = 0.01 m above P; valve spring k = 20000 N/m from the head H = (0, 0.08)
--   to S, free length l0 = 0.06 m: 200 N preload on the base circle, 400 N at full lift; the
--   cam driven at w = 700 rad/s (the tunable "w": --set w=...) from theta0 = pi/2 (the lobe up:
--   full lift at t = 0). Gravity -9.81 in y.
-- Equations: revolute O; the follower's prismatic guide; cam "C" keeps P on the profile
--   (generator/cam.lua); the driver theta(t) = theta0 + w t. Closed forms (tests/test_cam.sh
--   checks them by kinematic analysis): P at psi = pi/2 - theta = -w t, y_P = a0 + e cos(w t),
--   vy = -w e sin(w t), ay = -w^2 e cos(w t); the cam's normal force (the CSV's C.normal)
--   N = m ay + F(y_P), F(y) = m g + k (y + s - H_y + l0) (gravity and the spring's compression),
--   smallest at full lift below the jump speed: N_min = F(a0 + e) - m e w^2 = 400.981 N - m e w^2;
--   the follower would leave the cam (N < 0) above w_jump = sqrt(F(a0 + e) / (m e))
--   = 895.52 rad/s (8552 rpm of the cam).
-- Try: make run MODEL=cam_follower RUN_ARGS="--set w=950": the cams plot (results/
--   cam_follower_cams.png) shows C.normal below zero around full lift, where a real follower
--   would leave the cam (this bilateral constraint holds it on).

name "cam_follower"
gravity { 0, -9.81 }

local a0, e = 0.025, 0.005
local w = tunable("w", 700, "rad/s")   -- the cam's speed
local th0 = pi / 2
local m, k, l0, Hy, s = 0.1, 20000, 0.06, 0.08, 0.01

ground { O = { 0, 0 }, H = { 0, Hy }, G = { 0, 0.05 } }
-- the cam: a disc of steel around O (its centre of mass at O)
body "cam" { mass = 0.3, inertia = 1.2e-4, angle = th0, points = { O = { 0, 0 } } }
-- the follower: its stem's end P rides on the cam, the spring seat S is s above P
body "follower" { mass = m, inertia = 1e-5, position = { 0, a0 + e + 0.02 },
                  points = { P = { 0, -0.02 }, S = { 0, -0.02 + s } } }

revolute "O" { "ground.O", "cam.O" }
prismatic "guide" { "ground.G", "follower.P", axis = { 0, 1 } }
cam "C" { "cam.O", "follower.P", profile = { a0 = a0, a = { e } } }
spring "valve" { "ground.H", "follower.S", k = k, l0 = l0 }
driver "drive" { joint = "O", f = function(t) return th0 + w * t end }

-- three turns of the cam at 700 rad/s; alpha 1e4: the default 1e8 costs F4 the energy balance of
-- this driven motion (62.8 J of a 98 J scale over a turn; 6.3e-3 J with 1e4; baumgarte + rk4
-- 1.2e-7 J)
simulate { t_end = 3 * 2 * pi / 700, h = 1e-6, alpha = 1e4 }
