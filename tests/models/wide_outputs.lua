-- wide_outputs.lua - a sweep table and a summary line wider than 1024 fields
-- (tests/test_batch_wide.sh): 1000 tunables and 30 inputs pushing a mass on a spring, 1100
-- sensors of its coordinate.
name "wide_outputs"
gravity { 0, 0 }
simulate { t_end = 0.01, h = 1e-3 }
ground { S = { 0, 0 }, G = { -1, 0 } }
body "mass" { mass = 1, inertia = 1, points = { P = { 0, 0 } } }
prismatic "slide" { "ground.S", "mass.P", axis = { 1, 0 } }
spring "spring" { "ground.G", "mass.P", k = 100, l0 = 0.9 }
local f = 0
for i = 1, 1000 do f = f + tunable("p" .. i, 0) end
for i = 1, 30 do f = f + input("u" .. i) { default = 0 } end
force "push" { "mass.P", fx = f }
for i = 1, 1100 do sensor("y" .. i) { value = i * pos("mass.P").x } end
