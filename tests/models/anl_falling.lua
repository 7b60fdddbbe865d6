-- anl_falling.lua - a block on a vertical slide under gravity: no static equilibrium exists
-- (the static analysis must say so, tests/test_analyses.sh).
name "anl_falling"
gravity { 0, -9.81 }
ground { S = { 0, 0 } }
body "block" { mass = 1, inertia = 0.01, points = { P = { 0, 0 } } }
prismatic "slide" { "ground.S", "block.P", axis = { 0, 1 } }
