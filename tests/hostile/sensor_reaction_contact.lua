-- expect: sensor "n": "K.normal": "K" is a contact, whose forces are loads, not reactions: write normal("K")
-- line: 8
-- hostile model: a contact's normal force read as a reaction by its column's name; the message
-- points to the contact measure normal("K") (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "ground.O", line = { 1, 0 }, k = 1e6 }
sensor "n" { value = "K.normal" }
