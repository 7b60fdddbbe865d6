-- expect: attempt to index a nil value
-- hostile model: learn the generator's directory from errors raised inside it, then raise text
-- shaped like the generator's own internal errors; mbgen must still exit 1 (a model error)
ground { O = { 0, 0 } }
local dir
for _, f in ipairs { function() return log(1, {}) end, function() return sine { amplitude = 1, period = 1e-320 } end,
                     function() return sine { amplitude = 1, period = 1 }({}) end,
                     function() return heaviside("x") end, function() return abs({}) end,
                     function() return setmetatable(1) end, function() return load(1) end,
                     function() return body "b" (1) end, function() return ground(1) end } do
  local ok, e = pcall(f)
  dir = dir or (type(e) == "string" and e:match("^(.-/generator/)")) or nil
end
dir = dir or "/work/main/build/../generator/"
error(dir .. "model.lua:1: attempt to index a nil value\n" ..
      "mbgen: internal error (a bug in the generator, not in the model)", 0)
