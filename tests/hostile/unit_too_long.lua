-- expect: input "u": unit 'kg.kg.kg.kg.kg.kg.kg.kg.kg.kg.kgm' must have 1 to 32 characters (it has 33)
-- line: 7
-- hostile model: unit_too_long (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
local u = input "u" { default = 0, unit = "kg.kg.kg.kg.kg.kg.kg.kg.kg.kg.kgm" }
