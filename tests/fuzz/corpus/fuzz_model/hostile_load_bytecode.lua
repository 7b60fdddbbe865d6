-- expect: attempt to load a binary chunk
-- line: 7
-- hostile model: load bytecode (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local f = assert(load("\27LuaT\0\25\147\r\n\26\n"))
