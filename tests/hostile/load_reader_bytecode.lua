-- expect: attempt to load a binary chunk
-- line: 9
-- hostile model: load from a reader function that returns bytecode (issue 7)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local parts = { "\27Lua", "T\0" }
local i = 0
assert(load(function() i = i + 1; return parts[i] end))
