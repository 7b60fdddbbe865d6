-- expect: 'coroutine' is not available
-- line: 7
-- hostile model: coroutines are not part of the sandbox (coroutine.create; tests/hostile/coroutine.lua uses wrap)
ground { O = { 0, 0 } }
body "AB" { mass = 1, inertia = 0.1, points = { A = { -0.5, 0 }, B = { 0.5, 0 } } }
revolute "A" { "ground.O", "AB.A" }
local co = coroutine.create(print)
