-- cam_newton_cap.lua - a roller whose contact angle the generated Newton iteration cannot find
-- from some states: a ground cam r = a0 + a1 cos(psi) + a2 cos(2 psi) with a strong second
-- harmonic (concave flanks, radius of curvature down to a few mm), a roller of radius rr on a
-- particle. From the particle's initial guess (x0, y0), far off the profile, the iteration
-- (generator/cam.lua: contact_c, from d's polar angle, steps limited to 0.5 rad) has not met its
-- stopping test after 50 steps: the helper returns NaN and the runtime reports a non-finite
-- evaluation (tests/test_cam_newton.c). Made-up data, SI units.
name "cam_newton_cap"
gravity { 0, -9.81 }
local x0, y0 = param("x0", -0.0205), param("y0", 0.09625)
ground { O = { 0, 0 } }
particle "pin" { mass = 0.05, x = x0, y = y0 }
cam "C" { "ground.O", "pin", profile = { a0 = 0.025, a = { 0.005, 0.006 } }, roller = 0.002 }
