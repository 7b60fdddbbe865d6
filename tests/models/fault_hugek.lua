-- fault_hugek.lua - a pendulum held by a rotational spring of k = 1e308 at theta = 2: its
-- potential k theta^2 / 2 overflows to Inf, so energy_dev = E - E0 is NaN from t = 0 (the
-- t = 0 row of the CSV held energy_dev=-nan, issue 13.11), and the run faults at once.
name "fault_hugek"
ground { O = { 0, 0 } }
body "bar" { mass = 1, inertia = 0.1, angle = 2, points = { A = { -0.5, 0 } } }
revolute "A" { "ground.O", "bar.A" }
rotspring "R" { "ground", "bar", k = 1e308 }
assembly { lock = { "bar.phi" } }
