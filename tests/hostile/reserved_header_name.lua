-- expect: model name 'stdio' is reserved: generated/stdio.h would hide
-- line: 4
-- hostile model: generated/stdio.h would hide <stdio.h> from every build (-Igenerated comes first)
name "stdio"
ground { O = { 0, 0 } }
body "b" { mass = 1, inertia = 1, points = { A = { 0, 0 } } }
revolute "j" { "ground.O", "b.A" }
