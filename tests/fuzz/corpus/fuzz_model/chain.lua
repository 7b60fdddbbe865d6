-- chain.lua - an N-link pendulum (N = param("N", 4), set with mbgen -D N=...), for scaling.
-- Source: generalization of the thesis' double pendulum (section 6.1) used to measure how
--   generated code and formulations scale with the number of bodies (n = 3N, m = 2N).
-- Data: N equal bars of length 0.1 m, mass 0.1 kg, J = m L^2 / 12, hinged in series to the
--   ground point O = (0, 0); gravity [0, -9.81]; released at rest, stretched horizontally
--   along +X (the CoM guesses are exact).
-- Equations: revolute joints Phi = r_i + R_i s_i - r_j - R_j s_j (thesis 2.4); V = -m g^T r.

local N = param("N", 4)
if math.type(N) ~= "integer" or N < 1 or N > 1000 then
  error("N must be an integer between 1 and 1000, got " .. tostring(N))
end

name "chain"
gravity { 0, -9.81 }

local L, m = 0.1, 0.1
ground { O = { 0, 0 } }

for i = 1, N do
  body("link" .. i) { mass = m, inertia = m * L * L / 12, angle = 0,
                      position = { (i - 0.5) * L, 0 },
                      points = { A = { -L / 2, 0 }, B = { L / 2, 0 } } }
end

revolute "J1" { "ground.O", "link1.A" }
for i = 2, N do
  revolute("J" .. i) { "link" .. (i - 1) .. ".B", "link" .. i .. ".A" }
end
