-- parallelogram_redundant.lua - the classic redundant mechanism: a parallelogram four-bar (two
-- cranks of length 1 pinned to the ground 2 m apart, a coupler of length 2) with a third crank of
-- the same length between them, pinned to the ground at E and to the coupler's middle F.
-- Grubler counts 4 bodies x 3 - 6 joints x 2 = 0 degrees of freedom, yet it moves with one: on
-- the parallelogram's configurations one of the 12 joint equations is implied by the others
-- (Phi_q has rank 11). Off those configurations (at the guesses below, deliberately off) the
-- Jacobian has full rank: the redundancy is a property of the assembled configuration, and a
-- check at the guesses would miss it. (Revolute Jacobians depend on the angles only: the middle
-- crank's guess is 0.05 rad off, the coupler's 2 cm.) Used by tests/test_redundant.sh (mbgen --check, --redundant
-- remove, the simulator's start-up report).
name "parallelogram_redundant"
gravity { 0, -9.81 }
ground { A = { 0, 0 }, E = { 1, 0 }, D = { 2, 0 } }
local th = pi / 3
local c, s = math.cos(th), math.sin(th)
local function crank(name, x0, dth)
  body(name) { mass = 1, inertia = 1 / 12, angle = th + dth, position = { x0 + 0.5 * c, 0.5 * s },
               points = { O = { -0.5, 0 }, T = { 0.5, 0 } } }
end
crank("c1", 0, 0)
crank("c2", 1, 0.05)
crank("c3", 2, 0)
body "cp" { mass = 2, inertia = 2 / 3, angle = 0, position = { 1 + c, s - 0.02 },
            points = { B = { -1, 0 }, F = { 0, 0 }, C = { 1, 0 } } }
revolute "A" { "ground.A", "c1.O" }
revolute "B" { "c1.T", "cp.B" }
revolute "D" { "ground.D", "c3.O" }
revolute "C" { "c3.T", "cp.C" }
revolute "E" { "ground.E", "c2.O" }
revolute "F" { "c2.T", "cp.F" }
