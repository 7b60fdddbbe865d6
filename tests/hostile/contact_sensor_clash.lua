-- expect: sensor "K_gap" and sensor "K.gap" (line 7) give one header macro ..._OUT_K_GAP
-- line: 8
-- hostile model: a sensor whose header macro repeats a contact's (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
body "bar" { mass = 1, inertia = 0.1, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "ground.O", line = { 1, 0 }, k = 1e6 }
sensor "K_gap" { value = gap("K") }
revolute "J" { "ground.O", "bar.C" }
