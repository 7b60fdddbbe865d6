-- gear_train.lua - a two-stage gear train: an input pinion drives a compound gear (an external
-- mesh), whose small gear drives a ring gear from inside (an internal mesh); a pin on the ring
-- drives a Scotch yoke (a slot) as the output.
-- Source: the textbook compound gear train; data made up (module 2 mm), SI units.
-- Data: input pinion z1 = 20 (pitch radius 0.02 m) on shaft A; compound gear z2 = 60 / z3 = 25
--   (0.06 m / 0.025 m) on shaft B, 0.08 m from A; ring gear z4 = 75 (0.075 m, internal teeth) on
--   shaft C, 0.05 m from B. Steel disks, 10 mm thick. The input is driven at 2 pi rad/s; a viscous
--   load (0.01 N m s) on the ring. Output: a pin 0.05 m from the ring's centre in the vertical
--   slot of a 0.5 kg yoke that slides along X: x = x_C + 0.05 cos(phi_ring).
-- Equations: revolute joints; gear meshes theta1 + (z2/z1) theta2 = c (external: the gears turn
--   opposite ways) and theta3 - (z4/z3) theta4 = c (internal: the same way), each angle relative
--   to the carrier (here the ground); the slot (the pin stays on the yoke's vertical line); the
--   yoke's prismatic guide; the joint driver. Speed ratio: w4 / w1 = -(z1/z2)(z3/z4)
--   = -1/9 exactly (tests/test_joints.sh).

name "gear_train"
gravity { 0, -9.81 }

local m, rho, b = 0.002, 7850, 0.01        -- module, density, face width
local function disk(z)                     -- pitch radius, mass, inertia of a gear blank
  local rp = m * z / 2
  local mass = rho * pi * rp * rp * b
  return rp, mass, mass * rp * rp / 2
end
local r1, m1, J1 = disk(20)
local r2, m2, J2 = disk(60)
local r3, m3, J3 = disk(25)
local r4, m4, J4 = disk(75)

local xc = r1 + r2 + r4 - r3               -- the ring's shaft
ground { A = { 0, 0 }, B = { r1 + r2, 0 }, C = { xc, 0 }, Y = { xc, -0.1 } }
body "pinion" { mass = m1, inertia = J1, points = { C = { 0, 0 }, T = { r1, 0 } } }
body "compound" { mass = m2 + m3, inertia = J2 + J3, position = { r1 + r2, 0 },
                  points = { C = { 0, 0 }, T = { r2, 0 }, t = { r3, 0 } } }
body "ring" { mass = m4, inertia = J4, position = { xc, 0 },
              points = { C = { 0, 0 }, T = { r4, 0 }, pin = { 0.05, 0 } } }
body "yoke" { mass = 0.5, inertia = 0.002, position = { xc + 0.05, 0 },
              points = { P = { 0, 0 }, S = { 0, -0.1 }, U = { 0, 0.07 } } }
revolute "A" { "ground.A", "pinion.C" }
revolute "B" { "ground.B", "compound.C" }
revolute "C" { "ground.C", "ring.C" }
gear "stage1" { "A", "B", ratio = 60 / 20 }
gear "stage2" { "B", "C", ratio = 75 / 25, internal = true }
driver "input" { joint = "A", f = function(t) return 2 * pi * t end }
rotspring "load" { "ground", "ring", k = 0, c = 0.01 }
slot "yoke_slot" { "yoke.P", "ring.pin", axis = { 0, 1 } }
prismatic "guide" { "ground.Y", "yoke.S", axis = { 1, 0 } }

-- alpha 1e4: the default 1e8 against inertias of 1e-5 kg m^2 costs F4 six digits of the energy
-- balance (1.2e-2 J of a 8.8e-3 J scale; 1.2e-6 J with 1e4; baumgarte + dop853 2.7e-12 J)
simulate { t_end = 2, h = 1e-3, alpha = 1e4 }
