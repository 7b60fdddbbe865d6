-- fault_spin.lua - a pendulum spun by a torque exp(rate t) (rate = param "RATE", default 20 1/s):
-- its angular velocity grows without bound, so dopri5 keeps shrinking its steps and never
-- reaches Inf. Used by tests/test_faults.sh: the step limit (--max-steps) must end such a run.
name "fault_spin"
gravity { 0, -9.81 }
local rate = param("RATE", 20)
ground { O = { 0, 0 } }
body "rod" { mass = 1, inertia = 0.1, angle = 0, position = { 0.5, 0 },
             points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "pivot" { "ground.O", "rod.A" }
torque "spin" { "rod", tau = function(t) return exp(rate * t) end }
