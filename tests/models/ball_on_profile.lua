-- ball_on_profile.lua - a roller on an eccentric twice: against a circle contact (kind 1: the
-- circle of radius R around the cam's point P, c from its centre O) and against the same circle
-- given as a cam profile about O, the polar form of an off-centre circle
-- r(psi) = c cos(psi) + sqrt(R^2 - c^2 sin(psi)^2) (a profile function: the contact angle by
-- Newton in the generated code, not the polar angle). Two identical mechanisms side by side:
-- a driven cam, a follower on a vertical guide pressed down by a spring, Hunt-Crossley contact
-- with damping and friction. The two copies must move alike to round-off
-- (tests/test_valve_jump.sh).

name "ball_on_profile"
gravity { 0, -9.81 }
local R, c, rr = 0.03, 0.008, 0.01
local w, th0 = 200, pi / 2
local m, k, l0 = 0.1, 5000, 0.07
local kc, x0 = 1e9, 2e-5
ground { O1 = { 0, 0 }, G1 = { 0, 0.05 }, H1 = { 0, 0.1 }, O2 = { 0.2, 0 }, G2 = { 0.2, 0.05 }, H2 = { 0.2, 0.1 } }
local y0 = c + R + rr - x0
for i, form in ipairs { "circle", "profile" } do
  body("cam" .. i) { mass = 0.3, inertia = 1e-4, angle = th0, position = { 0.2 * (i - 1), 0 },
                     points = { O = { 0, 0 }, P = { c, 0 } } }
  body("f" .. i) { mass = m, inertia = 1e-5, position = { 0.2 * (i - 1), y0 + 0.02 },
                   points = { C = { 0, -0.02 }, S = { 0, -0.01 } } }
  revolute("O" .. i) { "ground.O" .. i, "cam" .. i .. ".O" }
  prismatic("guide" .. i) { "ground.G" .. i, "f" .. i .. ".C", axis = { 0, 1 } }
  spring("spring" .. i) { "ground.H" .. i, "f" .. i .. ".S", k = k, l0 = l0 }
  driver("drive" .. i) { joint = "O" .. i, f = function(t) return th0 + w * t end }
  local f = { "f" .. i .. ".C", "cam" .. i .. (form == "circle" and ".P" or ".O"), radius = rr,
              k = kc, exponent = 1.5, damping = 0.5, mu_s = 0.2, mu_d = 0.15, v_stick = 1e-2 }
  if form == "circle" then
    f.circle = R
  else
    f.profile = function(psi) return c * cos(psi) + sqrt(R * R - c * c * sin(psi) ^ 2) end
  end
  contact("K" .. i)(f)
end
simulate { t_end = 2 * 2 * pi / 200, h = 1e-6, alpha = 1e4 }
