-- step_spring.lua - a mass on a linear spring (k = 4 pi^2, m = 1: period 1 s) moving along x from
-- x = 0 at 1 m/s, and a force that steps on at t0 = 0.3137 s (step { time = 0.3137, after = 5 }).
-- Closed form, w = 2 pi: x(t) = sin(w t) / w + (F / k) (1 - cos(w (t - t0))) for t >= t0 (the
-- second term 0 before). The switch is the runtime's event (runtime/mb_event.c): with events
-- every integrator converges at its order across it, without them not (tests/test_switches.c;
-- docs/validation.md, "Events"). -D t0 moves the switch.
name "step_spring"
gravity { 0, 0 }
ground { O = { -2, 0 } }
particle "m" { mass = 1, x = 0, y = 0, velocity = { 1, 0 } }
spring "s" { "ground.O", "m", k = 4 * pi * pi, l0 = 2 }
force "push" { "m", fx = step { time = param("t0", 0.3137), after = 5 } }
