-- expect: cam "C": a roller on a Fourier profile is not supported (its contact angle would need a coordinate of its own): give the pitch curve (the path of the roller's centre) as the profile, without roller
-- line: 9
-- hostile model: a roller on a Fourier profile (see tests/test_mbgen.sh)
ground { O = { 0, 0 }, G = { 0, 0.1 } }
body "c" { mass = 1, inertia = 0.1, points = { O = { 0, 0 }, E = { 0.05, 0 } } }
body "f" { mass = 1, inertia = 0.1, position = { 0, 0.05 }, points = { P = { 0, 0 } } }
revolute "J" { "ground.O", "c.O" }
prismatic "G" { "ground.G", "f.P", axis = { 0, 1 } }
cam "C" { "c.O", "f.P", profile = { a0 = 0.05, a = { 0.01 } }, roller = 0.01 }
