-- motor_arm.lua - an arm driven by a DC motor through a joint with friction, with air drag at
-- its tip: forces that depend on the state (docs/model-language.md, "Forces that depend on the
-- state"), fed by a voltage input.
-- Data: arm m = 0.5 kg, length 0.4 m (CoM at 0.2 m, J = m L^2 / 12), pivoted at the ground point
--   A, gravity 9.81 m/s^2, hanging at rest. Motor (steady electrics, no inductance): torque
--   kt i with i = (V - ke omega) / R, kt = ke = 0.05 N m/A, R = 1 ohm, through a 20:1 gear
--   (omega of the motor = 20 rate("A"), the joint torque 20 kt i). Joint friction: viscous
--   c = 0.01 N m s/rad and Coulomb 0.02 N m regularized as 0.02 tanh(rate / 1e-3 rad/s).
--   Drag at the tip: F = -cd |v| v with cd = 0.05 N s^2/m^2.
-- Equations: all loads are formulas in rate("A") and vel("arm.T"); the generator
--   differentiates them into dQ/dq and dQ/dv (tests/test_derivs.c checks them by finite
--   differences). Sensors: the arm's angle from hanging, its rate and the motor current.

name "motor_arm"
simulate { t_end = 2, h = 1e-3 }

local m, L = 0.5, 0.4
local kt, ke, R, gear = 0.05, 0.05, 1.0, 20
local c, mu, w0, cd = 0.01, 0.02, 1e-3, 0.05

local V = input "V" { default = 6, unit = "V" }

ground { A = { 0, 0 } }
body "arm" { mass = m, inertia = m * L ^ 2 / 12, angle = -pi / 2, position = { 0, -L / 2 },
             points = { A = { -L / 2, 0 }, T = { L / 2, 0 } } }
revolute "A" { "ground.A", "arm.A" }

local w = rate("A")
local current = (V - ke * gear * w) / R
torque "motor" { joint = "A", tau = gear * kt * current }
torque "friction" { joint = "A", tau = -c * w - mu * tanh(w / w0) }
local vt = vel("arm.T")
local speed = sqrt(vt.x ^ 2 + vt.y ^ 2 + 1e-12)   -- smooth at rest
force "drag" { "arm.T", fx = -cd * speed * vt.x, fy = -cd * speed * vt.y }

sensor "angle" { value = angle("A") + pi / 2, unit = "rad" }
sensor "rate" { value = w, unit = "rad/s" }
sensor "current" { value = current, unit = "A" }
