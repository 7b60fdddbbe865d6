-- expect: cam "C": the profile's radius is not positive everywhere: r(3.14159 rad) = -0.01 (the smallest of 4096 angles; a polar profile needs r > 0)
-- line: 9
-- hostile model: a Fourier profile whose radius goes negative (0.01 - 0.02 at psi = pi) (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, G = { 0, 0.1 } }
body "c" { mass = 1, inertia = 0.1, points = { O = { 0, 0 }, E = { 0.05, 0 } } }
body "f" { mass = 1, inertia = 0.1, position = { 0, 0.05 }, points = { P = { 0, 0 } } }
revolute "J" { "ground.O", "c.O" }
prismatic "G" { "ground.G", "f.P", axis = { 0, 1 } }
cam "C" { "c.O", "f.P", profile = { a0 = 0.01, a = { 0.02 } } }
