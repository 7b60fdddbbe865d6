-- expect: stack overflow
-- hostile model: stack overflow (see tests/test_mbgen.sh)
local function f() return 1 + f() end
f()
