-- step_crane.lua - a cart on an inclined rail with a load on a rod and a hook bar, a sine force
-- on the cart and a step torque on the hook at t = 0.5 s (step { time = 0.5, after = 2 }). With
-- events (the simulator's default) the runtime ends a step just before the switch and jumps it,
-- so fixed steps keep their order; with --no-events they lose it there (the error after it falls
-- as h, also with t = 0.5 on the step grid) and adaptive integrators reject and shrink steps at
-- it. tests/test_sim_cli.sh; docs/model-language.md, "Values that depend on time". From a
-- new-user review (its crane2.lua).
name "step_crane"
gravity { 0, -9.81 }
local ax, ay = 1, 0.2
local n = math.sqrt(ax*ax + ay*ay)
local ang = math.atan(ay, ax)
ground { R = { 0, 0 }, W = { -1, -0.2 } }
body "cart" { mass = 10, inertia = 0.5, angle = ang, position = { 0, 0 },
  points = { C = { 0, 0 }, H = { 0.1, -0.1 } } }
prismatic "rail" { "ground.R", "cart.C", axis = { ax, ay }, angle = -ang }
particle "load" { mass = 5, x = 0.1 * cos(ang) + 0.1 * sin(ang) + 0.5, y = 0.1 * sin(ang) - 0.1 * cos(ang) - 1.2 }
rod "cable" { "cart.H", "load", length = 1.3 }
body "hook" { mass = 1, inertia = 0.02, angle = -pi/2, position = { 0, -0.4 },
  points = { P = { -0.3, 0 }, Q = { 0.3, 0 } } }
revolute "hinge" { "cart.C", "hook.P" }
rotspring "tors" { "cart", "hook", k = 20, theta0 = -pi/2 - ang, c = 0.1 }
spring "buffer" { "cart.C", "ground.W", k = 500, l0 = 0.8, c = 20 }
force "push" { "cart.C", fx = sine { amplitude = 40, period = 1.5 }, frame = "body" }
torque "twist" { "hook", tau = step { time = 0.5, after = 2 } }
