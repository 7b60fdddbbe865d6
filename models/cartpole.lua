-- cartpole.lua - a pendulum on a cart pushed by a force input: the plant of the classic
-- balancing problem (docs/model-language.md, "Inputs" and "Sensors").
-- Data: cart M = 1 kg on a horizontal prismatic joint, pole m = 0.1 kg, length 2 l = 1 m
--   (CoM at l = 0.5 m from the pivot, inertia m (2l)^2 / 12 about it), gravity 9.81 m/s^2,
--   the pole starting theta0 = 0.2 rad from upright (mbgen -D theta0=...), at rest: the start
--   the LQR example balances (examples/cartpole/, docs/control.md).
-- Equations: input F pushes the cart along X (force "push", fx = F); the sensors are the cart's
--   position and velocity and the pole's angle from upright and its rate (angle("pivot") is
--   phi_pole - phi_cart, the pole's x-axis pointing from the pivot to its tip).
--   Linearized about upright (theta from vertical), without the input: the pole falls with rate
--   sqrt(g m l (M + m) / (I0 (M + m) - m^2 l^2)) with I0 = m l^2 + J (tests/test_inputs.sh).

name "cartpole"
simulate { t_end = 2, h = 1e-3 }

local M, m, l = 1.0, 0.1, 0.5
local theta0 = param("theta0", 0.2)      -- rad from upright

local F = input "F" { default = 0, unit = "N" }      -- along X on the cart

ground { O = { 0, 0 } }
body "cart" { mass = M, inertia = 0.1, points = { P = { 0, 0 } } }
body "pole" { mass = m, inertia = m * (2 * l) ^ 2 / 12, angle = pi / 2 - theta0,
              position = { l * math.sin(theta0), l * math.cos(theta0) },
              points = { P = { -l, 0 }, T = { l, 0 } } }
prismatic "rail" { "ground.O", "cart.P", axis = { 1, 0 } }
revolute "pivot" { "cart.P", "pole.P" }
force "push" { "cart.P", fx = F }

sensor "x" { value = pos("cart.P").x, unit = "m" }
sensor "xdot" { value = vel("cart.P").x, unit = "m/s" }
sensor "theta" { value = pi / 2 - angle("pivot"), unit = "rad" }
sensor "thetadot" { value = -rate("pivot"), unit = "rad/s" }
