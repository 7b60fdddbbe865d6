-- every_segment.lua - the contact against a segment, for the finite-difference check of its
-- derivatives (tests/test_derivs.c; its own model so that every_contact.lua's random states stay
-- as they were): a circle against a segment on a moving body, its nearest point inside the
-- segment (Hunt-Crossley with damping, friction mu_s > mu_d), and two circles against the round
-- ends of a ground segment, past its end (elastic, exponent 2, friction mu_s = mu_d) and before
-- its start (damping, friction). Each in contact at the initial guesses, 0.3 .. 0.4 deep and 0.6
-- from the ends' boundaries, so that the test's perturbations keep it in its region; v_stick of
-- the order of the test's velocities.

name "every_segment"
gravity { 0, -9.81 }
ground { O = { 0, 0 } }
body "plate" { mass = 2, inertia = 0.5, angle = 0.3, position = { 0, 0 },
               points = { O = { 0, 0 }, P = { 0.2, 0.1 } } }
revolute "pin" { "ground.O", "plate.O" }
body "slider" { mass = 0.8, inertia = 0.03, angle = 0.1, position = { 1.5, -1.0 },
                points = { C = { 0.01, -0.02 } } }
contact "flank" { "slider.C", "plate.P", radius = 1.2, segment = { 2.5, -1.5 }, k = 900,
                  exponent = 1.5, damping = 0.2, mu_s = 0.5, mu_d = 0.3, v_stick = 0.4 }
body "knob" { mass = 0.6, inertia = 0.02, angle = -0.2, position = { -0.751, -1.750 },
              points = { C = { 0.02, 0.0 } } }
contact "tip" { "knob.C", "ground.O", radius = 1.0, segment = { -0.5, -1.2 }, k = 700,
                exponent = 2, mu_s = 0.3, v_stick = 0.5 }
body "nub" { mass = 0.4, inertia = 0.01, angle = 0.5, position = { 0.231, 0.554 },
             points = { C = { 0, 0 } } }
contact "heel" { "nub.C", "ground.O", radius = 1.0, segment = { -0.5, -1.2 }, k = 600,
                 exponent = 1.5, damping = 0.3, mu_s = 0.4, mu_d = 0.3, v_stick = 0.5 }
sensor "load" { value = normal("flank") * gap("tip") + friction("heel") * slip("flank") }
