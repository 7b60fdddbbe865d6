-- kin_cams.lua - two driven cams with translating followers on the line through their centres,
-- for the closed-form test (tests/test_cam.sh; made-up data, SI units):
--  - a three-harmonic profile r(psi) = 0.04 + 0.006 cos(psi) - 0.001 cos(3 psi) + 0.002 sin(2 psi)
--    turning about O1 = (0, 0) at theta = 0.3 + 40 t; the follower's point P on x = 0 at
--    psi = pi/2 - theta: y_P = r(psi), vy = -40 r'(psi), ay = 40^2 r''(psi);
--  - an eccentric circle (R = 0.03, centre e = 0.01 from O2 along the cam's x axis) under a roller
--    of radius 0.012 whose centre C slides on x = 1, the cam at theta = -0.5 + 25 t:
--    y_C = e sin(theta) + sqrt((R + rr)^2 - e^2 cos^2(theta)) above O2;
--  - a profile given as a Lua function of its angle (below), y_P = r(pi/2 - theta) as the first;
--  - a roller of radius 0.01 on the three-harmonic profile, its centre C on x = 3 above O4 =
--    (3, 0), the cam at theta = 0.2 + 35 t: y_C = rho(pi/2 - theta), rho the offset curve's
--    polar radius (tests/cam_roller_ref.c, long double);
--  - a periodic spline through ten points (a lobe on a base circle) under a point follower
--    (C5: P on x = 4 above O5 = (4, 0), theta = 0.15 + 20 t) and under a roller of radius 0.008
--    (C6: C on x = 5 above O6 = (5, 0), theta = -0.4 + 28 t), against the same program's own
--    fit of the spline;
--  - a roller larger than the cam (0.06 on r = 0.04 + 0.008 cos(psi) + 0.002 cos(2 psi)
--    + 0.001 sin(2 psi)) on a follower offset 0.03 from the cam's centre (C on x = 6.03, O7 =
--    (6, 0), theta = 0.3 + 10 t): the contact angle leaves the centre's polar angle by up to
--    0.13 rad; the test checks the centre's distance from the profile by brute force.
name "kin_cams"
gravity { 0, -9.81 }
ground { O1 = { 0, 0 }, G1 = { 0, 0.1 }, O2 = { 1, 0 }, G2 = { 1, 0.1 } }

body "cam1" { mass = 0.5, inertia = 2e-4, angle = 0.3, points = { O = { 0, 0 } } }
body "fol1" { mass = 0.2, inertia = 1e-4, position = { 0, 0.07 }, points = { P = { 0, -0.03 } } }
revolute "J1" { "ground.O1", "cam1.O" }
prismatic "P1" { "ground.G1", "fol1.P", axis = { 0, 1 } }
cam "C1" { "cam1.O", "fol1.P", profile = { a0 = 0.04, a = { 0.006, 0, -0.001 }, b = { 0, 0.002 } } }
driver "D1" { joint = "J1", f = function(t) return 0.3 + 40 * t end }

body "ecc" { mass = 0.4, inertia = 1e-4, position = { 1, 0 }, angle = -0.5, points = { O = { 0, 0 } } }
body "fol2" { mass = 0.2, inertia = 1e-4, position = { 1, 0.06 }, points = { C = { 0, -0.02 } } }
revolute "J2" { "ground.O2", "ecc.O" }
prismatic "P2" { "ground.G2", "fol2.C", axis = { 0, 1 } }
cam "C2" { "ecc.O", "fol2.C", profile = { circle = 0.03, centre = { 0.01, 0 } }, roller = 0.012 }
driver "D2" { joint = "J2", f = function(t) return -0.5 + 25 * t end }


-- a profile given as a function of its angle: r(psi) = 0.04 + 0.005 cos(psi) + 0.002 sin(psi)^2,
-- the cam at theta = 0.1 + 30 t about O3 = (2, 0), its follower on x = 2
ground { O3 = { 2, 0 }, G3 = { 2, 0.1 } }
body "cam3" { mass = 0.5, inertia = 2e-4, position = { 2, 0 }, angle = 0.1, points = { O = { 0, 0 } } }
body "fol3" { mass = 0.2, inertia = 1e-4, position = { 2, 0.07 }, points = { P = { 0, -0.03 } } }
revolute "J3" { "ground.O3", "cam3.O" }
prismatic "P3" { "ground.G3", "fol3.P", axis = { 0, 1 } }
cam "C3" { "cam3.O", "fol3.P", profile = function(p) return 0.04 + 0.005 * cos(p) + 0.002 * sin(p) ^ 2 end }
driver "D3" { joint = "J3", f = function(t) return 0.1 + 30 * t end }

-- a roller on the three-harmonic profile (the contact angle found by Newton in the generated code)
ground { O4 = { 3, 0 }, G4 = { 3, 0.1 } }
body "cam4" { mass = 0.5, inertia = 2e-4, position = { 3, 0 }, angle = 0.2, points = { O = { 0, 0 } } }
body "fol4" { mass = 0.2, inertia = 1e-4, position = { 3, 0.08 }, points = { C = { 0, -0.03 } } }
revolute "J4" { "ground.O4", "cam4.O" }
prismatic "P4" { "ground.G4", "fol4.C", axis = { 0, 1 } }
cam "C4" { "cam4.O", "fol4.C", profile = { a0 = 0.04, a = { 0.006, 0, -0.001 }, b = { 0, 0.002 } }, roller = 0.01 }
driver "D4" { joint = "J4", f = function(t) return 0.2 + 35 * t end }


-- a periodic spline: a lobe on a base circle of 0.03, under a point follower and under a roller
local lobe = { { 0, 0.04 }, { 0.5, 0.038 }, { 1, 0.034 }, { 1.5, 0.031 }, { 2, 0.03 }, { 3, 0.03 },
               { 4, 0.03 }, { 4.5, 0.031 }, { 5, 0.034 }, { 5.6, 0.038 } }
ground { O5 = { 4, 0 }, G5 = { 4, 0.1 }, O6 = { 5, 0 }, G6 = { 5, 0.1 } }
body "cam5" { mass = 0.5, inertia = 2e-4, position = { 4, 0 }, angle = 0.15, points = { O = { 0, 0 } } }
body "fol5" { mass = 0.2, inertia = 1e-4, position = { 4, 0.07 }, points = { P = { 0, -0.03 } } }
revolute "J5" { "ground.O5", "cam5.O" }
prismatic "P5" { "ground.G5", "fol5.P", axis = { 0, 1 } }
cam "C5" { "cam5.O", "fol5.P", profile = { spline = lobe } }
driver "D5" { joint = "J5", f = function(t) return 0.15 + 20 * t end }
body "cam6" { mass = 0.5, inertia = 2e-4, position = { 5, 0 }, angle = -0.4, points = { O = { 0, 0 } } }
body "fol6" { mass = 0.2, inertia = 1e-4, position = { 5, 0.08 }, points = { C = { 0, -0.04 } } }
revolute "J6" { "ground.O6", "cam6.O" }
prismatic "P6" { "ground.G6", "fol6.C", axis = { 0, 1 } }
cam "C6" { "cam6.O", "fol6.C", profile = { spline = lobe }, roller = 0.008 }
driver "D6" { joint = "J6", f = function(t) return -0.4 + 28 * t end }

-- a roller larger than the cam on an offset follower
ground { O7 = { 6, 0 }, G7 = { 6.03, 0.2 } }
body "cam7" { mass = 0.5, inertia = 2e-4, position = { 6, 0 }, angle = 0.3, points = { O = { 0, 0 } } }
body "fol7" { mass = 0.2, inertia = 1e-4, position = { 6.03, 0.12 }, points = { C = { 0, -0.03 } } }
revolute "J7" { "ground.O7", "cam7.O" }
prismatic "P7" { "ground.G7", "fol7.C", axis = { 0, 1 } }
cam "C7" { "cam7.O", "fol7.C", profile = { a0 = 0.04, a = { 0.008, 0.002 }, b = { 0, 0.001 } }, roller = 0.06 }
driver "D7" { joint = "J7", f = function(t) return 0.3 + 10 * t end }

simulate { t_end = 0.5, h = 1e-3 }
