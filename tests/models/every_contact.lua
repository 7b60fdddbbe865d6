-- every_contact.lua - every form of the contact element, for the finite-difference check of its
-- derivatives (tests/test_derivs.c): a circle on a line fixed in a moving body (Hunt-Crossley with
-- damping, friction with mu_s > mu_d), a circle inside a ground ring (ADAMS IMPACT), a particle's
-- point against a moving circle (Hunt-Crossley from a restitution, friction), a circle against a
-- ground circle (elastic, friction mu_s = mu_d). Each in contact at the initial guesses, deep
-- enough that the test's perturbations keep it so; v_stick of the order of the test's velocities
-- (the Stribeck curve's bend is checked, not only its flat tails).

name "every_contact"
gravity { 0, -9.81 }
ground { O = { 0, 0 }, R = { 3, 0 }, G = { -3, 0 } }
body "plate" { mass = 2, inertia = 0.5, angle = 0.3, position = { 0, 0 },
               points = { O = { 0, 0 }, P = { 0.2, 0.1 } } }
revolute "pin" { "ground.O", "plate.O" }
body "ball" { mass = 1, inertia = 0.05, angle = 0.2, position = { 0.5, 0.55 },
              points = { C = { 0.05, -0.02 } } }
contact "roll" { "ball.C", "plate.P", radius = 0.8, line = { 1, 0.2 }, k = 1e3, exponent = 1.5,
                 damping = 0.1, mu_s = 0.6, mu_d = 0.4, v_stick = 0.5 }
body "wheel" { mass = 1, inertia = 0.02, angle = -0.4, position = { 3.6, 0.3 },
               points = { C = { 0.02, 0.01 } } }
contact "ring" { "wheel.C", "ground.R", radius = 0.5, circle = 0.6, inside = true, k = 2e3,
                 exponent = 2.2, model = "impact", c = 30, depth = 0.8, mu_s = 0.3, v_stick = 0.8 }
particle "p" { mass = 0.5, x = 0.9, y = 1.2 }
contact "dot" { "p", "ball.C", circle = 1.1, k = 500, exponent = 1.3, restitution = 0.7,
                velocity = 2, mu_s = 0.5, mu_d = 0.2, v_stick = 0.3 }
body "disc" { mass = 1.5, inertia = 0.1, angle = 0.7, position = { -2.2, 0.4 },
              points = { C = { 0, 0.03 } } }
contact "bump" { "disc.C", "ground.G", radius = 0.7, circle = 0.6, k = 800, exponent = 1,
                 mu_s = 0.4, v_stick = 0.6 }
sensor "load" { value = normal("roll") * gap("dot") + friction("ring") * slip("bump") }
