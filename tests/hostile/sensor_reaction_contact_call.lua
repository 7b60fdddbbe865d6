-- expect: sensor "s": reaction("K").slip: "K" is a contact, whose forces are loads, not reactions: write slip("K")
-- line: 8
-- hostile model: reaction() of a contact; the message names the contact measure of the same
-- name (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
body "ball" { mass = 1, inertia = 0.1, position = { 0, 0.5 }, points = { C = { 0, 0 } } }
contact "K" { "ball.C", "ground.O", line = { 1, 0 }, k = 1e6 }
sensor "s" { value = 2 * reaction("K").slip }
