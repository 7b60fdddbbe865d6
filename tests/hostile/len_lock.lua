-- expect: reached the end
-- line: 10
-- hostile model: an __len metamethod on assembly { lock = ... }: the generator reads the list raw (was exit 2)
ground { O = { 0, 0 } }
body "b" { mass = 1, inertia = 1, points = { A = { 0.5, 0 } } }
revolute "j" { "ground.O", "b.A" }
assembly { lock = setmetatable({ "b.phi" }, { __len = function() return "x" end }) }
assembly { lock = setmetatable({}, { __len = function() error("__len ran") end }) }
assembly { lock = setmetatable({}, { __len = function() return 1e9 end }) }
error("reached the end")
