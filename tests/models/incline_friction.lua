-- incline_friction.lua - a block sliding down an incline with regularized Coulomb friction: a
-- force that depends on the state, against its closed form (tests/test_inputs.sh).
-- Data: block m = 1 kg on a prismatic joint along the incline, theta = 20 deg; the frame is the
--   incline's (X down the slope, Y its normal), so gravity 9.81 m/s^2 is (g sin theta,
--   -g cos theta); the block starts at the origin with speed s' = 2 m/s down the slope; friction
--   coefficient mu (a tunable, default 0.6), regularized over v0 = 1e-3 m/s.
-- Equations: s = pos("block.P").x, s' = vel("block.P").x; friction -mu N tanh(s' / v0) along X
--   with the normal force N = m g cos(theta) of the incline. Closed form: s'' = a =
--   g (sin theta - mu cos theta) while it slides. mu > tan theta (0.364): a < 0, the block stops
--   at t_s = s'(0) / |a| after s'(0)^2 / (2 |a|) and sticks (the regularized law creeps at
--   v0 atanh(tan theta / mu)); mu < tan theta: it slides on, s = s'(0) t + a t^2 / 2.

name "incline_friction"
simulate { t_end = 2, h = 1e-3 }

local m, g = 1.0, 9.81
local th = 20 * pi / 180
local v0 = 1e-3
local mu = tunable("mu", 0.6)

gravity { g * math.sin(th), -g * math.cos(th) }
ground { O = { 0, 0 } }
body "block" { mass = m, inertia = 0.1, velocity = { 2, 0, 0 }, points = { P = { 0, 0 } } }
prismatic "slope" { "ground.O", "block.P", axis = { 1, 0 } }

local sdot = vel("block.P").x
force "friction" { "block.P", fx = -mu * m * g * math.cos(th) * tanh(sdot / v0) }

sensor "s" { value = pos("block.P").x }
sensor "sdot" { value = sdot }
