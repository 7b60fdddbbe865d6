-- parallelogram_cranks.lua - a coupler of 3 m hanging from four cranks of 1 m pinned to the ground
-- 1 m apart: Grubler counts 5 bodies x 3 - 8 joints x 2 = -1 degrees of freedom, yet it swings
-- with one, two of its 16 equations implied by the others (rank 14) on every configuration of
-- the parallelogram. Released 0.6 rad from hanging, it swings within 0.6 rad of it and never
-- reaches a singular position (links in line). Positions exact (the assembly moves nothing).
-- tests/test_redundant.sh: alf-trapezoid as written against the model mbgen --redundant remove
-- generates, which must agree (step counts, Newton iterations, the motion).
name "parallelogram_cranks"
gravity { 0, -9.81 }
ground { O0 = { 0, 0 }, O1 = { 1, 0 }, O2 = { 2, 0 }, O3 = { 3, 0 } }
local th = -pi / 2 + 0.6
local c, s = math.cos(th), math.sin(th)
for i = 0, 3 do
  body("k" .. i) { mass = 1, inertia = 1 / 12, angle = th, position = { i + 0.5 * c, 0.5 * s },
                   points = { O = { -0.5, 0 }, T = { 0.5, 0 } } }
end
body "cp" { mass = 3, inertia = 3 * 9 / 12, angle = 0, position = { 1.5 + c, s },
            points = { P0 = { -1.5, 0 }, P1 = { -0.5, 0 }, P2 = { 0.5, 0 }, P3 = { 1.5, 0 } } }
for i = 0, 3 do
  revolute("G" .. i) { "ground.O" .. i, "k" .. i .. ".O" }
  revolute("C" .. i) { "k" .. i .. ".T", "cp.P" .. i }
end
