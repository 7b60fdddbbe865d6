-- nan_torque.lua - a pendulum turned by a torque sqrt(1 - t): real until t = 1 s, NaN after.
-- tests/test_sim_cli.sh: the simulator stops with "non-finite value" and names the element
-- whose value went non-finite (the torque "push" on bar.phi), not only the status.
name "nan_torque"
gravity { 0, -9.81 }
ground { O = { 0, 0 } }
body "bar" { mass = 1, inertia = 0.1, angle = -pi / 2, position = { 0, -0.5 },
             points = { O = { -0.5, 0 }, T = { 0.5, 0 } } }
revolute "pin" { "ground.O", "bar.O" }
torque "push" { "bar", tau = function(t) return sqrt(1 - t) end }
