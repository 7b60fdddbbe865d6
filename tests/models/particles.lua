-- particles.lua - a test mechanism (not physical data) with particles and rods in every role,
-- so the derivative test covers them: a rod between two particles, from a particle to a body
-- point and to the ground, between two bodies; a revolute joint and a spring at a particle; a
-- point force on a particle (time-dependent) and a coordinate driver of a particle.
name "particles"
gravity { 0.3, -9.81 }
ground { O = { 0, 0 }, G = { 2, 0.2 } }

body "a" { mass = 2, inertia = 0.3, angle = 0.4, position = { 0.5, 0.2 },
           points = { O = { -0.5, 0 }, E = { 0.5, 0.1 } } }
particle "p" { mass = 0.7, position = { 1.2, 0.7 }, velocity = { 0.1, -0.2 } }
body "c" { mass = 1, inertia = 0.1, angle = -0.3, position = { 1.9, 1.0 },
           points = { A = { -0.2, 0 }, B = { 0.3, 0.05 } } }
particle "r" { mass = 0.4, x = 2.3, y = 0.6 }
particle "s" { mass = 1.5, x = -0.6, y = -0.8 }

revolute "A" { "ground.O", "a.O" }
rod "R1" { "a.E", "p", length = 0.8 }
rod "R2" { "p", "c.A", length = 0.9 }
rod "R3" { "c.B", "r", length = 0.5 }
rod "R4" { "r", "ground.G", length = 0.7 }
revolute "J" { "s", "a.O" }
spring "S" { "s", "p", k = 40, l0 = 1.2, c = 0.8, c2 = 0.1 }
force "F" { "r", fx = function(t) return 2 * sin(3 * t) end, fy = -1 }
driver "D" { coord = "p.x", f = function(t) return 1.2 + 0.1 * sin(t) end }
