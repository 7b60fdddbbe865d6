-- expect: reached the end
-- line: 12
-- hostile model: print in a loop (36 GB to stderr in 30 s before: blocked output is not CPU
-- time) and terminal escapes; tests/test_mbgen.sh checks the cap and the cleaning
ground { O = { 0, 0 } }
print("\27[31mred\27]0;title\7 tab\tnew\nline\0nul\127")
local s = string.rep("x", 1000)
for i = 1, 1e5 do print(i, s) end
print(setmetatable({}, { __tostring = function() return string.rep("y", 1e6) end }))
body "b" { mass = 1, inertia = 1, points = { A = { 0, 0 } } }
revolute "j" { "ground.O", "b.A" }
error("reached the end")
