-- every_cam.lua - a test mechanism (made-up data, SI units) with every cam case: a Fourier
-- profile (cosine and sine terms) on a turning cam whose centre O is off its centre of mass,
-- with a translating follower; the same kind of profile on a swinging body with an oscillating
-- (rocker) follower; a ground cam (a guide curve) with a particle as the follower; an eccentric
-- circle with a roller follower, and one without (a point on the circle); a profile as a Lua
-- function of its angle; rollers on a Fourier profile and on a profile function; periodic
-- splines with a particle and with a roller. For the
-- derivative test (tests/test_derivs.c: its step and perturbations scale with the largest point
-- coordinate, so the ten mechanisms share the origin and overlap: nothing here touches
-- anything else).
name "every_cam"
gravity { 0.3, -9.81 }
ground { O = { 0, 0 }, G1 = { 0, 0.1 }, A2 = { 0.08, 0.1 }, T3 = { 0, 0.1 }, G4 = { 0, 0.1 } }

-- a harmonic-series cam turning about O, a flat-bottomed follower sliding along x = 0
body "cam1" { mass = 0.5, inertia = 2e-4, position = { -0.005, 0 }, angle = 0.3,
              points = { O = { 0.005, 0 } } }
body "fol1" { mass = 0.2, inertia = 1e-4, position = { 0, 0.095 }, points = { P = { 0, -0.05 } } }
revolute "J1" { "ground.O", "cam1.O" }
prismatic "P1" { "ground.G1", "fol1.P", axis = { 0, 1 } }
cam "C1" { "cam1.O", "fol1.P", profile = { a0 = 0.04, a = { 0.008, 0.001 }, b = { 0.002, 0, 0.0005 } } }
spring "S1" { "ground.G1", "fol1.P", k = 200, l0 = 0.2, c = 0.5 }
torque "T1" { "cam1", tau = 0.05 }

-- a cam on a swinging body, a rocker follower pivoted at A2 whose tip P rides on it
body "cam2" { mass = 0.6, inertia = 3e-4, position = { 0, 0 }, angle = -0.2, points = { O = { 0, 0 } } }
body "rocker" { mass = 0.1, inertia = 5e-4, position = { 0.06, 0.052 }, angle = -1.9,
                points = { A = { -0.05, 0 }, P = { 0.05, 0 } } }
revolute "J2" { "ground.O", "cam2.O" }
revolute "J2r" { "ground.A2", "rocker.A" }
cam "C2" { "cam2.O", "rocker.P", profile = { a0 = 0.05, a = { 0, 0.006 }, b = { -0.004 } } }
rotspring "R2" { "ground", "rocker", k = 0.5, c = 0.01 }

-- a ground cam: a particle kept on the closed curve about O, pulled by a spring
particle "bead" { mass = 0.05, x = 0.0, y = 0.06 }
cam "C3" { "ground.O", "bead", profile = { a0 = 0.06, a = { 0.01 }, b = { 0, 0.003 } } }
spring "S3" { "ground.T3", "bead", k = 30, l0 = 0.1 }

-- an eccentric circle (radius 0.03, centre 0.01 from O) and a roller of radius 0.01
body "ecc" { mass = 0.4, inertia = 1e-4, position = { 0, 0 }, angle = 0.5, points = { O = { 0, 0 } } }
body "fol4" { mass = 0.2, inertia = 1e-4, position = { 0, 0.1 }, points = { C = { 0, -0.05 } } }
revolute "J4" { "ground.O", "ecc.O" }
prismatic "P4" { "ground.G4", "fol4.C", axis = { 0, 1 } }
cam "C4" { "ecc.O", "fol4.C", profile = { circle = 0.03, centre = { 0.01, 0 } }, roller = 0.01 }

-- a circle without a roller on a body turning about O, the follower a particle
body "ecc5" { mass = 0.4, inertia = 1e-4, position = { 0, 0 }, angle = 0.1, points = { O = { 0, 0 } } }
particle "pin5" { mass = 0.05, x = 0.0, y = 0.035 }
revolute "J5" { "ground.O", "ecc5.O" }
cam "C5" { "ecc5.O", "pin5", profile = { circle = 0.025, centre = { 0.005, 0.002 } } }
spring "S5" { "ground.O", "pin5", k = 10, l0 = 0.01 }

-- a profile given as a function of its angle, on a cam turning about O, a particle follower
body "cam6" { mass = 0.3, inertia = 1e-4, position = { 0, 0 }, angle = 0.7, points = { O = { 0, 0 } } }
particle "pin6" { mass = 0.05, x = 0.0, y = 0.04 }
revolute "J6" { "ground.O", "cam6.O" }
cam "C6" { "cam6.O", "pin6", profile = function(p) return 0.04 + 0.004 * cos(p) * sin(p) + 0.001 * exp(cos(2 * p)) end }
spring "S6" { "ground.O", "pin6", k = 10, l0 = 0.01 }

-- rollers on a Fourier profile (translating follower, the roller's centre C) and on a profile
-- function (a particle, the centre itself): the contact angle an implicit function of C
body "cam7" { mass = 0.5, inertia = 2e-4, position = { 0, 0 }, angle = 0.4, points = { O = { 0, 0 } } }
body "fol7" { mass = 0.2, inertia = 1e-4, position = { 0, 0.1 }, points = { C = { 0, -0.045 } } }
revolute "J7" { "ground.O", "cam7.O" }
prismatic "P7" { "ground.G1", "fol7.C", axis = { 0, 1 } }
cam "C7" { "cam7.O", "fol7.C", profile = { a0 = 0.04, a = { 0.008, 0.001 }, b = { 0.002, 0, 0.0005 } },
           roller = 0.012 }
spring "S7" { "ground.G1", "fol7.C", k = 200, l0 = 0.2, c = 0.5 }
body "cam8" { mass = 0.3, inertia = 1e-4, position = { 0, 0 }, angle = -0.6, points = { O = { 0, 0 } } }
particle "pin8" { mass = 0.05, x = 0.0, y = 0.05 }
revolute "J8" { "ground.O", "cam8.O" }
cam "C8" { "cam8.O", "pin8", profile = function(p) return 0.04 + 0.004 * cos(p) * sin(p) + 0.001 * exp(cos(2 * p)) end,
           roller = 0.008 }
spring "S8" { "ground.O", "pin8", k = 10, l0 = 0.01 }

-- periodic splines through points: a particle on one, a roller on another (its centre C)
body "cam9" { mass = 0.3, inertia = 1e-4, position = { 0, 0 }, angle = 0.25, points = { O = { 0, 0 } } }
particle "pin9" { mass = 0.05, x = 0.0, y = 0.045 }
revolute "J9" { "ground.O", "cam9.O" }
cam "C9" { "cam9.O", "pin9", profile = { spline = { { -1, 0.04 }, { 0, 0.05 }, { 1.2, 0.045 }, { 2.5, 0.038 }, { 4, 0.036 } } } }
spring "S9" { "ground.O", "pin9", k = 10, l0 = 0.01 }
body "cam10" { mass = 0.3, inertia = 1e-4, position = { 0, 0 }, angle = -0.35, points = { O = { 0, 0 } } }
body "fol10" { mass = 0.2, inertia = 1e-4, position = { 0, 0.1 }, points = { C = { 0, -0.045 } } }
revolute "J10" { "ground.O", "cam10.O" }
prismatic "P10" { "ground.G1", "fol10.C", axis = { 0, 1 } }
cam "C10" { "cam10.O", "fol10.C", profile = { spline = { { 0, 0.04 }, { 1, 0.043 }, { 2, 0.037 }, { 3, 0.035 }, { 4, 0.036 }, { 5, 0.038 } } },
            roller = 0.01 }
spring "S10" { "ground.G1", "fol10.C", k = 100, l0 = 0.2, c = 0.3 }
