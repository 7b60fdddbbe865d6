-- expect: value reaction("A") is the element's reaction, not a number: pick a component
-- line: 8
-- hostile model: the whole reaction, not a component (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "arm" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "arm.A" }
spring "S" { "ground.O", "arm.B", k = 1, l0 = 0.1 }
sensor "y" { value = reaction("A") }
