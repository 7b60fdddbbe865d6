-- stretched_chain.lua - two links of length S (1 m; -D S=... scales the whole model) pinned to
-- ground points 2 S apart: the only assembled configuration is the chain stretched straight, a
-- singular position where Phi_q loses rank (J2.x's gradient lies in J1's and J3's span there)
-- but no equation is redundant: without J2.x the links could swing with J2's two sides apart.
-- tests/test_redundant.sh: mbgen --check calls it a singular position at S = 1e-4, 1, 1000, and
-- mbgen --redundant remove refuses.
local S = param("S", 1)
ground{A={0,0},B={2*S,0}}
body "l1"{mass=1,inertia=.1*S*S,position={.5*S,0},points={A={-.5*S,0},B={.5*S,0}}}
body "l2"{mass=1,inertia=.1*S*S,position={1.5*S,0},points={A={-.5*S,0},B={.5*S,0}}}
revolute "J1"{"ground.A","l1.A"}; revolute "J2"{"l1.B","l2.A"}; revolute "J3"{"l2.B","ground.B"}
