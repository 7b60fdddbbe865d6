-- every_input.lua - a test mechanism (not physical data) with an input in every load that takes
-- one, so that test_derivs checks the generated dQ/du and dy/du (interface 9) where they are not
-- constant: a spring's rest length, a point force in the body frame, a torque, products with the
-- state, and sensors that read the inputs directly.
name "every_input"
gravity { 0.3, -9.81 }

local u1 = input "u1" { default = 0.5 }
local u2 = input "u2" { default = -1.2 }

ground { O = { 0, 0 }, P = { 1, 0.5 } }
body "a" { mass = 2, inertia = 0.3, angle = 0.3, points = { O = { -0.5, 0 }, E = { 0.5, 0.1 } },
           position = { 0.4, 0.15 } }
body "b" { mass = 3, inertia = 0.4, angle = -0.2, points = { E = { -0.4, 0 }, F = { 0.6, 0.05 } },
           position = { 1.2, 0.2 } }
revolute "A" { "ground.O", "a.O" }
revolute "B" { "a.E", "b.E" }
spring "S" { "ground.P", "b.F", k = 50, l0 = 0.2 + 0.1 * u1 }
local w = rate("B")
force "F" { "b.F", fx = u1 * u2, fy = u2 * pos("b.F").x, frame = "body" }
torque "T" { joint = "B", tau = 0.3 * u2 - 0.05 * w * u1 ^ 2 }

sensor "mix" { value = u1 * angle("B") + sin(u2) }
sensor "rate" { value = w }
