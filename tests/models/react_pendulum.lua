-- react_pendulum.lua - a uniform bar hanging from a pin, pushed at its tip by a horizontal force
-- input u; sensors read the pin's reaction (docs/model-language.md, "Reactions in sensors").
-- Data: m = 2 kg, L = 1 m (CoM at a = L/2, I_O = m L^2 / 3 about the pin), gravity 9.81 m/s^2.
-- Closed forms (tests/test_react_sensors.sh), theta the bar's angle from X, hanging at
--   theta0 = -pi/2: at rest the pin holds (0, m g); linearized, with delta = theta - theta0,
--   I_O delta'' = -m g a delta + L u and the pin's force on the bar
--   fx = m a delta'' - u = -(3/4) m g delta + u / 2 (C = -14.715 N/rad in z = bar.phi, D = 0.5),
--   fy = m g (no first-order change: its rows of C and D are 0).
name "react_pendulum"
gravity { 0, -9.81 }
simulate { t_end = 1, h = 1e-3 }
local m, L = 2, 1
local u = input "u" { default = 0 }
ground { O = { 0, 0 } }
body "bar" { mass = m, inertia = m * L ^ 2 / 12, angle = -pi / 2, position = { 0, -L / 2 },
             points = { P = { -L / 2, 0 }, T = { L / 2, 0 } } }
revolute "J" { "ground.O", "bar.P" }
force "push" { "bar.T", fx = u }
sensor "fx" { value = "J.fx", unit = "(km99)4" }        -- factor 1e1188: by name only
sensor "fy" { value = reaction("J").fy, unit = "(((m99)99)99)99" }   -- m^96059601: by name only
sensor "x" { value = pos("bar.T").x, unit = "ft" }   -- (a unit the FMU knows by name only)
