-- valve_train.lua - a valve train with a roller follower: a two-harmonic cam turning at constant
-- speed lifts a translating roller follower against a preloaded valve spring; above a speed the
-- spring cannot keep the roller on the cam (the follower jumps).
-- Source: the textbook spring-loaded cam and roller follower; data made up, of a valve train's
-- size, SI units.
-- Data: cam centre O at the origin, profile r(psi) = a0 + a1 cos(psi) + a2 cos(2 psi) (psi the
--   polar angle in the cam body's frame about O), a0 = 0.025 m, a1 = 0.005 m, a2 = 0.0015 m:
--   base radius 21.5 mm, nose 31.5 mm, convex; a roller of radius rr = 0.01 m on the
--   follower's stem at its centre C (the roller's own spin is left out: it does not change the
--   follower's motion). Follower (valve, stem and roller with their share of the spring)
--   m = 0.1 kg sliding along x = 0; the spring seat S s = 0.01 m above C; valve spring
--   k = 20000 N/m from the head H = (0, 0.09) to S, free length l0 = 0.06 m: about 210 N
--   preload on the base circle, 410 N at full lift (10.08 mm). The cam driven at w = 500 rad/s
--   (the tunable "w": --set w=...) from theta0 = pi/2 (the nose up: full lift at t = 0).
--   Gravity -9.81 in y.
-- Equations: revolute O; the follower's prismatic guide; cam "C" keeps the roller on the
--   profile (generator/cam.lua: the roller's centre on the offset curve P + rr N, its contact
--   angle found by Newton in the generated code); the driver theta(t) = theta0 + w t.
--   The roller centre's height is y = rho(pi/2 - theta), rho(alpha) the offset curve's polar
--   radius: no closed form in t, tests/cam_roller_ref.c computes it, its velocity -w rho' and
--   acceleration w^2 rho'' in long double (tests/test_cam.sh checks the kinematic analysis
--   against it). The cam's normal force (the CSV's C.normal) is
--   N = (m ay + F(y)) / cos(phi), F(y) = m g + k (y + s - H_y + l0), phi the pressure angle;
--   the follower would leave the cam (N < 0) where m w^2 (-rho'') > F(rho): the smallest speed
--   at which that happens is w_jump = sqrt(min F / (m (-rho''))) = 651.74 rad/s (6224 rpm),
--   at full lift (the nose).
-- Try: make run MODEL=valve_train RUN_ARGS="--set w=700": the cams plot shows C.normal below
--   zero around full lift, where the roller would leave the cam (this bilateral constraint
--   holds it on; models/valve_jump.lua holds it by contact against the profile, and it lifts
--   off).

name "valve_train"
gravity { 0, -9.81 }

local a0, a1, a2, rr = 0.025, 0.005, 0.0015, 0.01
local w = tunable("w", 500, "rad/s")   -- the cam's speed
local th0 = pi / 2
local m, k, l0, Hy, s = 0.1, 20000, 0.06, 0.09, 0.01

ground { O = { 0, 0 }, H = { 0, Hy }, G = { 0, 0.05 } }
-- the cam: a disc of steel around O (its centre of mass at O)
body "cam" { mass = 0.3, inertia = 1.2e-4, angle = th0, points = { O = { 0, 0 } } }
-- the follower: the roller's centre C at its stem's end, the spring seat S s above C
body "follower" { mass = m, inertia = 1e-5, position = { 0, a0 + a1 + a2 + rr + 0.02 },
                  points = { C = { 0, -0.02 }, S = { 0, -0.02 + s } } }

revolute "O" { "ground.O", "cam.O" }
prismatic "guide" { "ground.G", "follower.C", axis = { 0, 1 } }
cam "C" { "cam.O", "follower.C", profile = { a0 = a0, a = { a1, a2 } }, roller = rr }
spring "valve" { "ground.H", "follower.S", k = k, l0 = l0 }
driver "drive" { joint = "O", f = function(t) return th0 + w * t end }

-- three turns of the cam at 500 rad/s (alpha 1e4 as models/cam_follower.lua: the driven motion)
simulate { t_end = 3 * 2 * pi / 500, h = 1e-6, alpha = 1e4 }
