-- fault_noassembly.lua - a closed chain that cannot close: two 1 m bars hinged to ground points
-- 5 m apart and to each other. The position assembly (Newton on Phi = 0) must fail and say so.
-- Used by tests/test_faults.sh (runtime faults); not a physical mechanism.
name "fault_noassembly"
gravity { 0, -9.81 }
ground { A = { 0, 0 }, B = { 5, 0 } }
body "left"  { mass = 1, inertia = 0.1, angle = 0, position = { 0.5, 0 },
               points = { A = { -0.5, 0 }, T = { 0.5, 0 } } }
body "right" { mass = 1, inertia = 0.1, angle = pi, position = { 4.5, 0 },
               points = { B = { -0.5, 0 }, T = { 0.5, 0 } } }
revolute "A" { "ground.A", "left.A" }
revolute "B" { "ground.B", "right.B" }
revolute "T" { "left.T", "right.T" }
