-- suspension.lua - a quarter-car suspension with run-time parameters (tunables): a mass on a
-- vertical slide, held by a spring-damper to the ground and shaken by a sine force.
-- Equations: the body moves along Y on a prismatic joint to the ground point S; the spring
--   from G = (0, -l0) to the body's point P (offset a from the CoM, a = 0 by default) has
--   l = l0 + y + a, so m y'' + c y' + k (y + a) = -m g + F sin(2 pi t / T): equilibrium
--   y = -m g / k - a, natural frequency sqrt(k / m), damping ratio c / (2 sqrt(k m)).
-- Data (tunable, docs/model-language.md "Tunable parameters"): m = 250 kg, k = 16000 N/m,
--   c = 1000 N s/m, F = 500 N at T = 0.5 s; the spring's rest length l0 = 1 m.
--   `suspension_sim --set k=20000 --set c=1500` runs other values without regenerating;
--   `make sweep MODEL=suspension SWEEP=examples/sweep_suspension.csv` runs a table of them.

name "suspension"
gravity { 0, -9.81 }
simulate { t_end = 2, h = 1e-3 }

local m = tunable("m", 250, "kg")          -- name, default, unit
local k = tunable("k", 16000, "N/m")
local c = tunable("c", 1000, "N.s/m")
local F = tunable("F", 500, "N")
local a = tunable("a", 0, "m")
local l0 = 1

ground { S = { 0, 0 }, G = { 0, -l0 } }
body "car" { mass = m, inertia = m * 0.1, points = { C = { 0, 0 }, P = { 0, a } } }

prismatic "slide" { "ground.S", "car.C", axis = { 0, 1 } }
spring "susp" { "ground.G", "car.P", k = k, l0 = l0, c = c }
force "road" { "car.C", fy = sine { amplitude = F, period = 0.5 } }
