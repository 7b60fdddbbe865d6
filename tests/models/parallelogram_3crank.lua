-- parallelogram_3crank.lua - a parallelogram with a third, parallel crank (equal cranks c1..c3 on
-- ground points 0.5 m apart, one bar on their tips): one y-equation is redundant. Which one is
-- named depends on how the equations are weighted: the simulator's start-up warning, mbgen
-- --check and --redundant remove must name the same (J2.y; with M^-1/2 weights the simulator
-- named G2.y). tests/test_redundant.sh; from a new-user review.
name "parallelogram_3crank"
local a, L = 0.3, 1.0
local th = pi / 3
ground { O1 = { 0, 0 }, O2 = { 0.5, 0 }, O3 = { 1.0, 0 } }
for i, gx in ipairs({ 0, 0.5, 1.0 }) do
  body("c" .. i) { mass = 0.5, inertia = 0.5 * a * a / 12, angle = th,
    position = { gx + a/2 * cos(th), a/2 * sin(th) }, points = { O = { -a/2, 0 }, A = { a/2, 0 } } }
  revolute("G" .. i) { "ground.O" .. i, "c" .. i .. ".O" }
end
body "bar" { mass = 2, inertia = 2 * L * L / 12, angle = 0, position = { a * cos(th) + 0.5, a * sin(th) },
  points = { A1 = { -0.5, 0 }, A2 = { 0, 0 }, A3 = { 0.5, 0 } } }
revolute "J1" { "c1.A", "bar.A1" }
revolute "J2" { "c2.A", "bar.A2" }
revolute "J3" { "c3.A", "bar.A3" }
assembly { velocity = { ["c1.phi"] = 3 } }
