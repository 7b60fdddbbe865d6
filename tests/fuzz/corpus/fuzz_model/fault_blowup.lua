-- fault_blowup.lua - a block on a prismatic joint along X pushed by a force exp(rate t): the
-- position overflows to infinity near t = 710 / rate (rate = param "RATE", default 1000 1/s).
-- Used by tests/test_faults.sh: NaN/Inf in the state must stop the simulator cleanly. A slider,
-- not a pendulum: a spinning body would need ever smaller dopri5 steps and never reach Inf.
name "fault_blowup"
gravity { 0, -9.81 }
local rate = param("RATE", 1000)
ground { S = { 0, 0 } }
body "block" { mass = 1, inertia = 0.1, angle = 0, position = { 0, 0 }, points = { C = { 0, 0 } } }
prismatic "slide" { "ground.S", "block.C", axis = { 1, 0 } }
force "push" { "block.C", fx = function(t) return exp(rate * t) end }
