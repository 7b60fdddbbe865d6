-- anl_damped.lua - a mass on a linear spring-damper along a horizontal slide, for the modal
-- analysis' closed form (tests/test_analyses.sh; docs/analyses.md).
-- Data: m = 2 kg, k = 800 N/m, c = 8 N s/m, no gravity: w_n = sqrt(k / m) = 20 rad/s,
--   zeta = c / (2 sqrt(k m)) = 0.1; the block starts 0.05 m from its rest position.
name "anl_damped"
gravity { 0, 0 }
ground { S = { 0, 0 }, G = { -1, 0 } }
body "block" { mass = 2, inertia = 0.01, position = { 0.05, 0 }, points = { P = { 0, 0 } } }
prismatic "slide" { "ground.S", "block.P", axis = { 1, 0 } }
spring "spring" { "ground.G", "block.P", k = 800, l0 = 1, c = 8 }
