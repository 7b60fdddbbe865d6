-- expect: force "F" fx cannot depend on a reaction (reaction("A").fx): reactions are allowed in sensors only
-- line: 8
-- hostile model: a load of the multipliers would make Q depend on lambda (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
spring "S" { "ground.O", "arm.B", k = 1, l0 = 0.1 }
force "F" { "arm.B", fx = reaction("A").fx }
