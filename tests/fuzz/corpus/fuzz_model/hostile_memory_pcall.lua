-- expect: memory limit
-- hostile model: memory pcall (see tests/test_mbgen.sh): catching the allocation failure
-- with pcall must not let the model go on allocating.
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local keep = {}
for i = 1, 1e9 do
  pcall(function() keep[#keep + 1] = string.rep("x", 1 << 24) end)
end
