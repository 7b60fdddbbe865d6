-- geneva.lua - a four-slot external Geneva drive: a driving wheel turning at constant speed
-- carries a pin that enters the slots of the Geneva wheel one at a time, turns it by 90 deg
-- and leaves it at rest (the dwell) for the rest of its turn. The pin is a circle in contact
-- with the slots' flanks, finite segments on the Geneva wheel: the engagement is intermittent,
-- as in the real mechanism.
-- Source: the textbook external Geneva mechanism (e.g. Norton, Design of Machinery, ch. 9;
--   Sclater and Chironis, Mechanisms and Mechanical Devices); data made up, SI units.
-- Data: n = 4 slots; centre distance C = 0.1 m (driver at O2 = (0, 0), wheel at O1 = (C, 0));
--   pin radius a = C sin(pi / n) = 0.0707 m (the pin enters and leaves the slots tangentially:
--   no impact), pin circle r_p = 5 mm; each slot two flanks r_p either side of its axis (no
--   clearance), from the mouth at C cos(pi / n) = 0.0707 m in to 0.0223 m from O1; the wheel a
--   steel disc of 0.08 m, 10 mm (1.58 kg, 5.05e-3 kg m^2) with a bearing drag (its load) of 0.03 N m s;
--   the driver at w = 2 pi rad/s from -90 deg (45 deg before the first entry). Contacts: k = 1e8
--   N/m^1.5, exponent 1.5, restitution 0.5 at 0.1 m/s, friction mu_s = mu_d = 0.05 (lubricated),
--   v_stick = 1e-3 m/s. No locking disc: a full circle cannot have the cut-out that lets the
--   wheel turn, so the dwell holds because the pin leaves the slot tangentially with the wheel
--   at rest and the bearing drag takes up what is left (2.8e-3 rad of drift in a dwell; the pin
--   then meets the next slot that far off: the largest normal force, 78 N, is that entry).
-- Equations: revolutes O1, O2; the joint driver phi(t) = -pi/2 + w t; eight segment contacts.
--   Closed form (tests/test_geneva.sh): with alpha the pin's angle from the line of centres
--   (O2 towards O1), the pin is in a slot for |alpha| < pi/2 - pi/n, where the slot's angle
--   from the line of centres (O1 towards O2) is beta with
--     tan(beta) = sin(alpha) / (1 / sin(pi/n) - cos(alpha))   (C / a = 1 / sin(pi/n)),
--   the wheel turning the other way: its angle -pi/4 - beta in the first engagement, and
--   -pi/2 per driver turn; outside the engagement it dwells. Checked over three turns to the
--   tolerance the contact's compliance allows.

name "geneva"
gravity { 0, -9.81 }

local n, C = 4, 0.1
local a = C * sin(pi / n)
local rp = 0.005
local Rm = C * cos(pi / n)                 -- the slots' mouths
local Rin = C - a - rp - 0.002             -- their inner ends (the pin comes within C - a)
local w = 2 * pi
local phi0 = -pi / 2

ground { O1 = { C, 0 }, O2 = { 0, 0 } }
body "driver" { mass = 0.5, inertia = 5e-4, angle = phi0,
                points = { O = { 0, 0 }, pin = { a, 0 } } }
local wheel_pts = { O = { 0, 0 } }
-- the slots' flanks: slot k along (cos t, sin t), t = pi/4 + k pi/2 in the wheel's axes; a
-- flank from r_p off the axis at Rin to the mouth
for k = 0, n - 1 do
  local t = pi / 4 + k * 2 * pi / n
  local ux, uy = cos(t), sin(t)
  wheel_pts["s" .. k .. "a"] = { Rin * ux - rp * uy, Rin * uy + rp * ux }
  wheel_pts["s" .. k .. "b"] = { Rin * ux + rp * uy, Rin * uy - rp * ux }
end
local mw, rw = 7850 * pi * 0.08 ^ 2 * 0.01, 0.08
body "wheel" { mass = mw, inertia = mw * rw * rw / 2, position = { C, 0 }, points = wheel_pts }

revolute "O2" { "ground.O2", "driver.O" }
revolute "O1" { "ground.O1", "wheel.O" }
driver "drive" { joint = "O2", f = function(t) return phi0 + w * t end }
rotspring "bearing" { "ground", "wheel", k = 0, c = 0.03 }
for k = 0, n - 1 do
  local t = pi / 4 + k * 2 * pi / n
  for _, side in ipairs { "a", "b" } do
    contact("s" .. k .. side) { "driver.pin", "wheel.s" .. k .. side, radius = rp,
                                segment = { (Rm - Rin) * cos(t), (Rm - Rin) * sin(t) },
                                k = 1e8, exponent = 1.5, restitution = 0.5, velocity = 0.1,
                                mu_s = 0.05, v_stick = 1e-3 }
  end
end

-- the wheel's angle (the io plot shows its steps of -pi/2)
sensor "wheel_angle" { value = angle("O1"), unit = "rad" }

-- alpha 1e4: the default 1e8 costs this driven motion its energy balance (as in cam_follower)
simulate { t_end = 3, h = 1e-4, alpha = 1e4 }
