-- fault_velconflict.lua - a four-bar (one degree of freedom) whose assembly gives two initial
-- velocities, crank.phi = 3 and rocker.phi = 50, that the loop cannot both meet. The velocity
-- assembly must fail, name both given velocities and the constraint left unmet, and write no
-- --out file (tests/test_faults.sh). From a new-user review; not a physical mechanism.
name "fault_velconflict"
gravity { 0, -9.81 }
local a, b, c, d = 0.2, 0.6, 0.5, 0.55   -- crank, coupler, rocker, ground
ground { A = { 0, 0 }, D = { d, 0 } }
local th = 1.0
local Bx, By = a * cos(th), a * sin(th)
-- find C: |C-B| = b, |C-D| = c
local dx, dy = d - Bx, -By
local e = math.sqrt(dx*dx + dy*dy)
local k = (b*b - c*c + e*e) / (2*e)
local h = math.sqrt(b*b - k*k)
local Cx, Cy = Bx + k*dx/e - h*dy/e, By + k*dy/e + h*dx/e
local pc = math.atan(Cy - By, Cx - Bx)
local pr = math.atan(Cy - 0, Cx - d)
body "crank" { mass = 1, inertia = 1 * a * a / 12, angle = th, position = { Bx/2, By/2 },
  points = { A = { -a/2, 0 }, B = { a/2, 0 } } }
body "coupler" { mass = 2, inertia = 2 * b * b / 12, angle = pc, position = { (Bx+Cx)/2, (By+Cy)/2 },
  points = { B = { -b/2, 0 }, C = { b/2, 0 } } }
body "rocker" { mass = 1.5, inertia = 1.5 * c * c / 12, angle = pr, position = { (d+Cx)/2, Cy/2 },
  points = { D = { -c/2, 0 }, C = { c/2, 0 } } }
revolute "A" { "ground.A", "crank.A" }
revolute "B" { "crank.B", "coupler.B" }
revolute "C" { "coupler.C", "rocker.C" }
revolute "D" { "ground.D", "rocker.D" }

assembly { velocity = { ["crank.phi"] = 3, ["rocker.phi"] = 50 } }
