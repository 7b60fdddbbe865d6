-- valve_jump.lua - models/valve_train.lua with the roller held on the cam by contact instead of
-- the bilateral cam constraint: above the jump speed the valve spring cannot keep the roller on
-- the cam and the follower really lifts off, flies, and lands back on the cam.
-- Source: models/valve_train.lua (the same cam, roller, follower and valve spring); the contact
-- stiffness of a steel roller on a steel cam (Hertz's exponent 1.5, k of the order of a line
-- contact's), SI units.
-- Data: cam r(psi) = a0 + a1 cos(psi) + a2 cos(2 psi) about O, a0 = 0.025, a1 = 0.005,
--   a2 = 0.0015 m (base radius 21.5 mm, nose 31.5 mm); roller radius rr = 0.01 m around the
--   follower's point C; follower m = 0.1 kg on the guide x = 0; valve spring k = 20000 N/m from
--   H = (0, 0.09) to the seat S 0.01 m above C, free length 0.06 m. Contact "K": the roller
--   against the cam profile, k_c = 1e11 N/m^1.5 (param "kc"), exponent 1.5, Hunt-Crossley
--   damping from a restitution of 0.5 at 0.5 m/s (a landing's speed), no friction (the roller
--   turns freely: its spin is left out, as in valve_train). The cam driven at w = 750 rad/s
--   (the tunable "w": --set w=...), 15 % above the jump speed 651.74 rad/s of valve_train's
--   closed form, from theta0 = -pi/2 (param "th0": the base circle up, so that the start's
--   transient dies out before the nose comes round); the follower starts at rest on the base
--   circle, pressed in by the static penetration (F0 / k_c)^(2/3) (F0 the preload and weight).
--   Gravity -9.81 in y.
-- Equations: revolute O; the follower's prismatic guide; contact "K" (generator/elements.lua:
--   the gap is the signed distance from the roller's centre to the profile's nearest point,
--   found by Newton in the generated code, less rr); the driver theta(t) = theta0 + w t.
--   Below the jump speed the roller centre follows valve_train's offset curve rho(pi/2 - theta)
--   less the contact's compliance (N / k_c)^(2/3) / cos(pressure angle): 2.7e-6 m at most
--   (N about 490 N at 500 rad/s, tests/test_valve_jump.sh); above it K.gap turns positive near
--   the nose (lift-off) and the follower lands back further round.
-- Try: make run MODEL=valve_jump (K.gap > 0: the roller off the cam after the nose);
--   make run MODEL=valve_jump RUN_ARGS="--set w=600" (below the jump speed: it stays on).

name "valve_jump"
gravity { 0, -9.81 }

local a0, a1, a2, rr = 0.025, 0.005, 0.0015, 0.01
local w = tunable("w", 750)   -- rad/s, the cam's speed
local th0 = param("th0", -pi / 2)
local m, k, l0, Hy, s = 0.1, 20000, 0.06, 0.09, 0.01
local kc = param("kc", 1e11)

-- the roller centre's height on the profile at the start (th0 = -pi/2: the base circle,
-- a0 - a1 + a2 + rr), less the static penetration under the spring's preload and the weight
local yc = a0 - a1 + a2 + rr
if th0 ~= -pi / 2 then yc = param("yc", yc) end
local F0 = m * 9.81 + k * (l0 - (Hy - (yc + s)))
local x0 = (F0 / kc) ^ (2 / 3)

ground { O = { 0, 0 }, H = { 0, Hy }, G = { 0, 0.05 } }
body "cam" { mass = 0.3, inertia = 1.2e-4, angle = th0, points = { O = { 0, 0 } } }
body "follower" { mass = m, inertia = 1e-5, position = { 0, yc - x0 + 0.02 },
                  points = { C = { 0, -0.02 }, S = { 0, -0.02 + s } } }

revolute "O" { "ground.O", "cam.O" }
prismatic "guide" { "ground.G", "follower.C", axis = { 0, 1 } }
contact "K" { "follower.C", "cam.O", radius = rr, profile = { a0 = a0, a = { a1, a2 } },
              k = kc, exponent = 1.5, restitution = 0.5, velocity = 0.5 }
spring "valve" { "ground.H", "follower.S", k = k, l0 = l0 }
driver "drive" { joint = "O", f = function(t) return th0 + w * t end }

-- three turns of the cam at 750 rad/s
simulate { t_end = 3 * 2 * pi / 750, h = 1e-6, alpha = 1e4 }
