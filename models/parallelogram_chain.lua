-- parallelogram_chain.lua - N parallelogram loops in a row (N = param("N", 2), mbgen -D N=...):
--   a one-degree-of-freedom mechanism that passes a singular position about once a second.
-- Source: the IFToMM multibody benchmark A02 "N-four-bar mechanism" (library of computational
--   benchmark problems, references.md; N = 40 there, 2 in its OpenSim port): 2N + 1 links of
--   1 m and 1 kg (uniform bars, J = m L^2 / 12), gravity 9.81 m/s^2 along -y. Cranks 0..N stand
--   on the ground points O_i = (i, 0); coupler i joins the tips B_(i-1), B_i of cranks i-1 and
--   i. Released with the cranks vertical and the tip B0 of crank 0 moving at +1 m/s along x
--   (crank angle pi/2, rate -1 rad/s).
-- Motion: the cranks turn together (theta decreasing) like one heavy wheel; at theta = 0 and
--   theta = -pi (mod 2 pi) all links lie on the x axis, Phi_q loses rank and the mechanism could
--   leave the parallelogram branch (N + 1 degrees of freedom there). With N = 2 a revolution
--   takes about 2.1 s, so there is a singular position about every second.
-- Equations: revolute joints Phi = r_i + R_i s_i - r_j - R_j s_j (thesis 2.4); V = -m g^T r.
--   On the parallelogram branch T = ((N + 1) / 6 + N / 2) thetadot^2 and
--   V = g ((N + 1) / 2 + N) sin(theta) (cranks about their pivots, couplers translating).

local N = param("N", 2)
if math.type(N) ~= "integer" or N < 1 or N > 500 then
  error("N must be an integer between 1 and 500, got " .. tostring(N))
end

name "parallelogram_chain"
gravity { 0, -9.81 }

local L, m = 1.0, 1.0
local J = m * L * L / 12

for i = 0, N do
  ground { ["O" .. i] = { i * L, 0 } }
  body("crank" .. i) { mass = m, inertia = J, angle = pi / 2,
                       position = { i * L, L / 2 },
                       points = { O = { -L / 2, 0 }, B = { L / 2, 0 } } }
end
for i = 1, N do
  body("coupler" .. i) { mass = m, inertia = J, angle = 0,
                         position = { (i - 0.5) * L, L },
                         points = { A = { -L / 2, 0 }, B = { L / 2, 0 } } }
end

for i = 0, N do
  revolute("O" .. i) { "ground.O" .. i, "crank" .. i .. ".O" }
end
for i = 1, N do
  revolute("A" .. i) { "crank" .. (i - 1) .. ".B", "coupler" .. i .. ".A" }
  revolute("B" .. i) { "coupler" .. i .. ".B", "crank" .. i .. ".B" }
end

assembly { lock = { "crank0.phi" }, velocity = { ["crank0.phi"] = -1.0 } }
