-- yoke_hold.lua - a DC motor (voltage input) turns a crank whose pin drives a slider through
-- a vertical slot (Scotch yoke); the slider is held by a return spring (stiffness tunable).
-- Horizontal plane: no gravity.
-- The warnings test (tests/test_warn_rest.sh): at rest (V = 0) and holding the spring (V = 1)
-- no run warns.
name "yoke_hold"
gravity { 0, 0 }
simulate { t_end = 2, h = 1e-3 }

local r = 0.05                         -- crank radius, m
local kt, ke, R, gear = 0.05, 0.05, 1.0, 20
local Jm = 1e-5                        -- motor rotor inertia, kg m^2
local k = tunable("k", 2000)           -- return spring, N/m
local c = 5                            -- slider viscous damper, N s/m

local V = input "V" { default = 0 }    -- volts

ground { O = { 0, 0 }, Y = { 0, -0.1 }, S = { -0.2, 0 } }
body "crank" { mass = 0.2, inertia = 0.2 * r^2 / 3 + gear^2 * Jm, angle = pi / 2,
               position = { 0, r / 2 },
               points = { O = { -r / 2, 0 }, pin = { r / 2, 0 } } }
body "yoke" { mass = 0.5, inertia = 0.002, position = { 0, 0 },
              points = { P = { 0, 0 }, G = { 0, -0.1 } } }
revolute "O" { "ground.O", "crank.O" }
slot "slot" { "yoke.P", "crank.pin", axis = { 0, 1 } }
prismatic "guide" { "ground.Y", "yoke.G", axis = { 1, 0 } }
spring "ret" { "ground.S", "yoke.P", k = k, l0 = 0.2, c = c }

local w = rate("O")
local current = (V - ke * gear * w) / R
torque "motor" { joint = "O", tau = gear * kt * current }

sensor "theta" { value = angle("O") }     -- rad
sensor "x" { value = pos("yoke.P").x }    -- m
sensor "current" { value = current }      -- A
