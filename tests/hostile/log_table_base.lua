-- expect: bad argument #2 to 'log'
-- line: 5
-- hostile model: log with a table base, on a plain number (was exit 2)
ground { O = { 0, 0 } }
local x = math.log(2, {})
