-- fault_zerospring.lua - a body pulled to a ground point by a damped spring of rest length 0,
-- no gravity, no constraints. The length decays like t exp(-100 t) towards 0: with
-- sqrt(dx*dx + dy*dy) it underflowed to 0 near |d| = 1e-162 (t = 3.8 s here) and the run died with
-- NaN in every formulation and both evaluators (issue 13.5); with hypot and a zero direction
-- at length 0 it runs to the end. Also a model without constraints (nc = 0) for the generic
-- evaluator's empty arrays (issue 13.10).
name "fault_zerospring"
gravity { 0, 0 }
ground { O = { 0, 0 } }
body "b" { mass = 1, inertia = 1, points = { P = { 0, 0 } }, position = { 0.1, 0.05 } }
spring "s" { "ground.O", "b.P", k = 10000, l0 = 0, c = 200 }
