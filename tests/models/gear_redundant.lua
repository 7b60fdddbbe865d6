-- gear_redundant.lua - three gears on ground shafts meshing in a triangle (made-up data): any two
-- meshes fix the third, so one gear equation is redundant, named like a joint's
-- (tests/test_redundant.sh). A torque turns g1.
name "gear_redundant"
gravity { 0, 0 }
ground { A = { 0, 0 }, B = { 0.3, 0 }, C = { 0.15, 0.26 } }
body "g1" { mass = 1, inertia = 0.01, points = { C = { 0, 0 } } }
body "g2" { mass = 1, inertia = 0.01, position = { 0.3, 0 }, points = { C = { 0, 0 } } }
body "g3" { mass = 1, inertia = 0.01, position = { 0.15, 0.26 }, points = { C = { 0, 0 } } }
revolute "J1" { "ground.A", "g1.C" }
revolute "J2" { "ground.B", "g2.C" }
revolute "J3" { "ground.C", "g3.C" }
gear "G12" { "J1", "J2", ratio = 2 }
gear "G23" { "J2", "J3", ratio = 0.5, internal = true }
gear "G13" { "J1", "J3", ratio = 1 }
torque "T" { "g1", tau = 0.01 }
