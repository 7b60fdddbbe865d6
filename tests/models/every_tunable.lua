-- every_tunable.lua - every_element.lua with a tunable (docs/model-language.md, "Tunable
-- parameters") in every place one may stand: gravity, ground and body point coordinates,
-- masses and inertias (through formulas), spring, damper and rotational spring constants, a
-- prismatic angle, constant and time-dependent loads, sine/step/ramp constants and a driver.
-- The derivative test (tests/test_derivs.c) checks it at the defaults and at other values.
name "every_tunable"
local g = tunable("g", 9.81)
local L = tunable("L", 0.5)
local ma = tunable("ma", 2)
local k1 = tunable("k1", 100)
local c1 = tunable("c1", 2)
local c2 = tunable("c2", 0)                -- zero by default: its entries stay in the pattern
local A = tunable("A", 3)
local th = tunable("th", 0.2)
gravity { 0.5, -g }
ground { O = { 0, 0 }, P = { 1, 0.5 * L + 0.25 }, R = { -0.4, 0.9 } }

body "a" { mass = ma, inertia = ma * L * L / 3 + 0.1, angle = 0.3,
           points = { O = { -L, 0 }, E = { L, 0.1 } }, position = { 0.4, 0.15 } }
body "b" { mass = 3, inertia = 0.4, angle = -0.2, points = { E = { -0.4, 0 }, F = { 0.6, 0.05 } },
           position = { 1.2, 0.2 } }
body "s" { mass = 1, inertia = 0.1, angle = 0.1, points = { P = { 0, 0 }, Q = { 0.2, 0 } },
           position = { 1, 0.5 } }
body "w" { mass = 0.5, inertia = 0.05, angle = 0, points = { C = { 0, 0 }, T = { 0.3, 0 } },
           position = { -0.4, 0.9 } }

revolute "A" { "ground.O", "a.O" }
revolute "B" { "a.E", "b.E" }
prismatic "P" { "ground.P", "s.P", axis = { 0.6, 0.8 }, angle = -th / 2 }
revolute "W" { "ground.R", "w.C" }
spring "S1" { "b.F", "s.Q", k = k1, l0 = 0.3, c = c1, c2 = c2 }
spring "S2" { "ground.P", "b.F", k = k1 / 2, l0 = L / 5 }
rotspring "R" { "a", "b", k = 7, theta0 = th, c = c1 * 0.15 }
rotspring "Rg" { "ground", "w", k = 3, c = 0.1 }
force "F1" { "b.F", fx = function(t) return A * sin(2 * t) end, fy = A / 2, frame = "body" }
force "F2" { "s.Q", fx = 2, fy = ramp { t0 = 0.2, t1 = 0.9, to = A + 1 } }
force "F3" { "w.T", fx = sine { amplitude = A, period = 0.7, phase = 0.3 }, fy = step { time = 0.5, after = -A / 3 } }
torque "T" { "b", tau = function(t) return exp(-t) * cos(t) * A + sqrt(1 + t * t) end }
driver "D1" { joint = "A", f = function(t) return 0.3 + th * sin(t) + t ^ 3 / 6 end }
driver "D2" { coord = "w.phi", f = function(t) return 0.2 * t + log(1 + t) * tan(0.3 * t) - abs(t - 1) end }

assembly { lock = { "a.phi" }, velocity = { ["s.x"] = 0.1 } }
