-- expect: contact "K": the profile function is not closed: r(2 pi) - r(0) = 0.00628319 (a profile must be a periodic function of the angle, period 2 pi, smooth
-- line: 7
-- hostile model: a profile function that does not close (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "cam" { mass = 1, inertia = 0.1, points = { O = { 0, 0 } } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "cam.O", radius = 0.01, profile = function(psi) return 0.1 + 0.001 * psi end, k = 1e6 }
revolute "J" { "ground.O", "cam.O" }
