-- expect: attempt to index a nil value
-- line: 5
-- hostile model: runtime error (see tests/test_mbgen.sh)
local t = nil
local x = t.field
