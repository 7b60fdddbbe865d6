-- expect: gear "G" ratio is not a finite number
-- line: 10
-- hostile model: a gear ratio NaN (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, Q = { 1, 0 } }
body "a" { mass = 1, inertia = 0.1, points = { C = { 0, 0 }, E = { 0.5, 0 } } }
body "b" { mass = 1, inertia = 0.1, position = { 1, 0 }, points = { C = { 0, 0 } } }
revolute "J1" { "ground.O", "a.C" }
revolute "J2" { "ground.Q", "b.C" }
prismatic "P" { "ground.O", "b.C", axis = { 1, 0 } }
gear "G" { "J1", "J2", ratio = 0/0 }
