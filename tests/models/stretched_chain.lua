-- stretched_chain.lua - two 1 m links pinned to ground points 2 m apart: the only assembled
-- configuration is the chain stretched straight, a singular position where Phi_q has rank 5 of 6
-- (J2.x's gradient lies in J1's and J3's span there) but no equation is redundant: without J2.x
-- the links could swing with J2's two sides apart. tests/test_redundant.sh: mbgen --check calls it
-- a singular position, mbgen --redundant remove refuses.
ground{A={0,0},B={2,0}}
body "l1"{mass=1,inertia=.1,position={.5,0},points={A={-.5,0},B={.5,0}}}
body "l2"{mass=1,inertia=.1,position={1.5,0},points={A={-.5,0},B={.5,0}}}
revolute "J1"{"ground.A","l1.A"}; revolute "J2"{"l1.B","l2.A"}; revolute "J3"{"l2.B","ground.B"}
