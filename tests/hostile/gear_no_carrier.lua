-- expect: gear "G": joints "J1" (the ground, "a") and "J2" ("b", "c") share no body
-- line: 11
-- hostile model: gears on joints without a common carrier (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "a" { mass = 1, inertia = 0.1, points = { C = { 0, 0 } } }
body "b" { mass = 1, inertia = 0.1, position = { 1, 0 }, points = { C = { 0, 0 }, D = { 0.5, 0 } } }
body "c" { mass = 1, inertia = 0.1, position = { 1.5, 0 }, points = { C = { 0, 0 } } }
revolute "J1" { "ground.O", "a.C" }
revolute "J2" { "b.D", "c.C" }
spring "S" { "ground.O", "b.C", k = 1, l0 = 1 }
gear "G" { "J1", "J2", ratio = 2 }
