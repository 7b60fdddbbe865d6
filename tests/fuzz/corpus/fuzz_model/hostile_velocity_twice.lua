-- expect: already given at line 7
-- line: 9
-- hostile model: a velocity given by the body and again by assembly
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
body "CD" { mass = 1, inertia = 1, velocity = { 0, 0, 1 }, points = { P = { 0, 0 } } }
revolute "C" { "AB.B", "CD.P" }
assembly { velocity = { ["CD.phi"] = 2 } }
