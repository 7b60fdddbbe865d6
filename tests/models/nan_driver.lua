-- nan_driver.lua - a bar turned by a driver sqrt(1 - t): real until t = 1 s, NaN after
-- (tests/test_sim_cli.sh: the fault names the driver "spin").
name "nan_driver"
ground { O = { 0, 0 } }
body "bar" { mass = 1, inertia = 0.1, angle = 0, position = { 0.5, 0 },
             points = { O = { -0.5, 0 }, T = { 0.5, 0 } } }
revolute "pin" { "ground.O", "bar.O" }
driver "spin" { joint = "pin", f = function(t) return sqrt(1 - t) end }
