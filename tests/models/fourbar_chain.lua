-- fourbar_chain.lua - N parallelogram four-bars in a row (N = param("N", 2)): N + 1 vertical
-- rods pinned to the ground at x = 0, 1, ..., N, their tops joined by N horizontal couplers.
-- Source: the singular-passage case of issue 11 (after the IFToMM benchmark's N-four-bar
--   mechanism): unit links released with 1 m/s; every time the rods lie along the ground line
--   (horizontal) all links are collinear and Phi_q loses rank, about once a second.
-- Data: every link 1 m long, 1 kg, J = m L^2 / 12 about its CoM; gravity [0, -9.81]; the rods
--   start vertical (angle pi/2), the couplers horizontal, moving with 1 m/s along +X (rod angular
--   velocity -1 rad/s).
-- Equations: revolute joints (thesis 2.4); 3 (2N + 1) coordinates, 2 (3N + 1) constraints, one
--   degree of freedom; V = -m g^T r. Used by tests/test_longrun.sh.
local N = param("N", 2)
if math.type(N) ~= "integer" or N < 1 or N > 100 then
  error("N must be an integer between 1 and 100, got " .. tostring(N))
end
name "fourbar_chain"
gravity { 0, -9.81 }
local g = {}
for i = 0, N do g["O" .. i] = { i, 0 } end
ground(g)
for i = 0, N do
  body("rod" .. i) { mass = 1, inertia = 1 / 12, angle = pi / 2, position = { i, 0.5 },
                     points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
end
for i = 1, N do
  body("cpl" .. i) { mass = 1, inertia = 1 / 12, angle = 0, position = { i - 0.5, 1 },
                     points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
end
for i = 0, N do revolute("O" .. i) { "ground.O" .. i, "rod" .. i .. ".A" } end
for i = 1, N do
  revolute("L" .. i) { "rod" .. (i - 1) .. ".B", "cpl" .. i .. ".A" }
  revolute("R" .. i) { "cpl" .. i .. ".B", "rod" .. i .. ".B" }
end
assembly { lock = { "rod0.phi" }, velocity = { ["rod0.phi"] = -1 } }
