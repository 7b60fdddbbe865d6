-- expect: cam "C": the profile's radius may not be positive everywhere: the smallest of 4096 angles, r(5.40115 rad) = 7.04544e-06, is within 1.26e-05 of 0, the most the curve can dip between them (max|r''| h^2 / 8)
-- line: 14
-- hostile model: a profile positive at every checked angle but negative between two of them: r = a0 + A cos(64 psi - p) with a0 = A - 5e-6, its minimum at the middle of a grid step (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, G = { 0, 0.1 } }
body "c" { mass = 1, inertia = 0.1, points = { O = { 0, 0 }, E = { 0.05, 0 } } }
body "f" { mass = 1, inertia = 0.1, position = { 0, 0.05 }, points = { P = { 0, 0 } } }
revolute "J" { "ground.O", "c.O" }
prismatic "G" { "ground.G", "f.P", axis = { 0, 1 } }
local A, h = 0.01, 2 * pi / 4096
local p = 64 * 0.5 * h - pi          -- the minimum of cos(64 psi - p) at psi = h / 2
local a, b = {}, {}
for k = 1, 63 do a[k], b[k] = 0, 0 end
a[64], b[64] = A * cos(p), A * sin(p)
cam "C" { "c.O", "f.P", profile = { a0 = A - 5e-6, a = a, b = b } }
