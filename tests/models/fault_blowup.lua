-- fault_blowup.lua - a pendulum pushed by a force that grows as exp(rate t): it overflows to
-- infinity at t = 709.78 / rate (rate = param "RATE", default 1000 1/s, so t = 0.71 s).
-- Used by tests/test_faults.sh: NaN/Inf in the state must stop the simulator cleanly.
name "fault_blowup"
gravity { 0, -9.81 }
local rate = param("RATE", 1000)
ground { A = { 0, 0 } }
body "bar" { mass = 1, inertia = 0.1, angle = 0, position = { 0.5, 0 },
             points = { A = { -0.5, 0 }, T = { 0.5, 0 } } }
revolute "A" { "ground.A", "bar.A" }
force "push" { "bar.T", fy = function(t) return exp(rate * t) end }
