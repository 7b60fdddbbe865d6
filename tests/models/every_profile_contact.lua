-- every_profile_contact.lua - the contact against a cam profile, for the finite-difference check
-- of its derivatives (tests/test_derivs.c; its own model so that every_contact.lua's random states
-- stay as they were): a circle on a Fourier profile turning with a pinned cam (Hunt-Crossley with
-- damping, friction mu_s > mu_d), a point on a profile function fixed in the ground (ADAMS
-- IMPACT, friction), a circle on a periodic spline turning with the cam (elastic, exponent 2,
-- friction mu_s = mu_d) and a circle on an off-centre circle profile (damping). Each in contact
-- at the initial guesses, 0.3 .. 0.6 deep (the test moves the bodies by up to 0.1 of the
-- length scale, 1.2 m), so that the test's perturbations keep it so; v_stick
-- of the order of the test's velocities.

name "every_profile_contact"
gravity { 0, -9.81 }
ground { O = { 0, 0 }, F = { 1, -0.2 } }
body "cam" { mass = 2, inertia = 0.5, angle = 0.3, position = { 0, 0 },
             points = { O = { 0, 0 }, S = { 0.1, -0.05 } } }
revolute "pin" { "ground.O", "cam.O" }
body "ball" { mass = 1, inertia = 0.05, angle = 0.2, position = { 0.95, 1.02 },
              points = { C = { 0.05, -0.02 } } }
contact "lobe" { "ball.C", "cam.O", radius = 0.8, profile = { a0 = 1.0, a = { 0.15, 0.05 }, b = { 0, 0.04 } },
                 k = 1e3, exponent = 1.5, damping = 0.1, mu_s = 0.6, mu_d = 0.4, v_stick = 0.5 }
particle "p" { mass = 0.5, x = 1.2, y = 0.7 }
contact "bump" { "p", "ground.F", profile = function(psi) return 1.2 + 0.1 * cos(psi) + 0.05 * sin(2 * psi) end,
                 k = 800, exponent = 1.3, model = "impact", c = 20, depth = 0.8, mu_s = 0.3, v_stick = 0.6 }
body "puck" { mass = 0.8, inertia = 0.03, angle = -0.4, position = { -0.87, -1.01 },
              points = { C = { 0.02, 0.01 } } }
contact "knot" { "puck.C", "cam.S", radius = 0.7, profile = { spline = { { 0, 1.1 }, { 1.5, 1.0 }, { 3, 0.9 },
                 { 4.2, 1.05 }, { 5.4, 1.15 } } }, k = 700, exponent = 2, mu_s = 0.4, v_stick = 0.5 }
body "disc" { mass = 1.5, inertia = 0.1, angle = 0.7, position = { 0.911, -0.986 },
              points = { C = { 0, 0.03 } } }
contact "ecc" { "disc.C", "cam.O", radius = 0.6, profile = { circle = 0.9, centre = { 0.2, -0.1 } },
                k = 600, exponent = 1.5, damping = 0.3, mu_s = 0.5, mu_d = 0.3, v_stick = 0.4 }
sensor "load" { value = normal("lobe") * gap("knot") + friction("bump") * slip("ecc") }
