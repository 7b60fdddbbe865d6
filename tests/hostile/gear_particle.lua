-- expect: gear "G": joint "J2" attaches particle "p", which has no angle
-- line: 9
-- hostile model: a gear on a revolute joint at a particle (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, Q = { 1, 0 } }
particle "p" { mass = 1, x = 1 }
body "a" { mass = 1, inertia = 0.1, points = { C = { 0, 0 } } }
revolute "J1" { "ground.O", "a.C" }
revolute "J2" { "ground.Q", "p" }
gear "G" { "J1", "J2", ratio = 2 }
