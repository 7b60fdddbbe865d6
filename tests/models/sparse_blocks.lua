-- sparse_blocks.lua - a test mechanism (not physical data) whose dense Jacobian blocks are
-- mostly structural zeros: N links in a chain (N = param("N", 12), mbgen -D N=...), an input
-- torque at each joint and an input force at each link's tip (2 N inputs), and 4 N sensors
-- each reading one or two links: a joint's angle, its rate, a tip's x scaled by that tip's
-- input, a joint's reaction. Each sensor depends on at most 3 coordinates, 2 velocities, 1
-- input and 1 multiplier, each input loads at most 2 coordinates. At N = 12 every block
-- (dy/dq and dy/dv 48 x 36, dy/du 48 x 24, dQ/du 36 x 24, dy/dlambda 48 x 24) has more than 256
-- zeros, so mbgen clears each by a loop and writes only its nonzeros (generator/emit.lua:
-- dense_block): test_derivs_sparse_blocks checks every entry against finite differences and
-- that each is written; tests/test_mbgen.sh bounds the blocks' code by that structure.
local N = param("N", 12)
if math.type(N) ~= "integer" or N < 1 or N > 200 then
  error("N must be an integer between 1 and 200, got " .. tostring(N))
end

name "sparse_blocks"
gravity { 0, -9.81 }

local L, m = 0.2, 0.5
ground { O = { 0, 0 } }
for i = 1, N do
  body("link" .. i) { mass = m, inertia = m * L * L / 12, angle = -0.1 * i,
                      position = { (i - 0.5) * L, 0 },
                      points = { A = { -L / 2, 0 }, B = { L / 2, 0 } } }
end
revolute "J1" { "ground.O", "link1.A" }
for i = 2, N do
  revolute("J" .. i) { "link" .. (i - 1) .. ".B", "link" .. i .. ".A" }
end

for i = 1, N do
  torque("T" .. i) { joint = "J" .. i, tau = input("tau" .. i) { default = 0.01 * i } }
  local f = input("f" .. i) { default = -0.02 * i }
  force("F" .. i) { "link" .. i .. ".B", fx = f }
  sensor("a" .. i) { value = angle("J" .. i) }
  sensor("w" .. i) { value = rate("J" .. i) }
  sensor("x" .. i) { value = (1 + 0.5 * f) * pos("link" .. i .. ".B").x }
  sensor("r" .. i) { value = reaction("J" .. i).fx }
end
