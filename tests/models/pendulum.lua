-- pendulum.lua - a uniform bar pinned at one end, released at rest from the horizontal.
-- Source: the long-run case of issue 11 (a pendulum over about 1000 periods); closed form:
--   I_O theta'' = -m g (L/2) cos theta with I_O = m L^2 / 3, so the period is
--   T = 4 sqrt(2 L / (3 g)) K(sin(pi/4)) = 1.932990 s (K the complete elliptic integral of the
--   first kind, K(1/sqrt 2) = 1.854074677301372); at t = (k + 1/4) T the bar hangs straight down.
-- Data: L = 1 m, m = 1 kg, J = m L^2 / 12 about the CoM; gravity [0, -9.81]; the pivot O at the
--   origin, the tip T starts at (1, 0).
-- Equations: one revolute joint (thesis 2.4); V = -m g^T r. Used by tests/test_longrun.sh.
name "pendulum"
gravity { 0, -9.81 }
ground { O = { 0, 0 } }
body "bar" { mass = 1, inertia = 1 / 12, angle = 0, position = { 0.5, 0 },
             points = { O = { -0.5, 0 }, T = { 0.5, 0 } } }
revolute "O" { "ground.O", "bar.O" }
