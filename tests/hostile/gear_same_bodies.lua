-- expect: gear "G": joints "J1" and "J2" join the same two bodies (the ground and "a")
-- line: 8
-- hostile model: a gear between two joints of the same two bodies (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, Q = { 0.5, 0 } }
body "a" { mass = 1, inertia = 0.1, points = { C = { 0, 0 }, E = { 0.5, 0 } } }
revolute "J1" { "ground.O", "a.C" }
revolute "J2" { "ground.Q", "a.E" }
gear "G" { "J1", "J2", ratio = 2 }
