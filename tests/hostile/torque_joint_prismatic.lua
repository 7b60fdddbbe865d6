-- expect: joint "P" is a prismatic, a joint torque needs a revolute joint
-- line: 8
-- hostile model: torque_joint_prismatic (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
prismatic "P" { "ground.O", "arm.B", axis = { 1, 0 } }
torque "t" { joint = "P", tau = 1 }
