-- torn_chain.lua - two links pinned to ground points 5 m apart: they reach 2 m, so the initial
-- configuration cannot be assembled (tests/test_redundant.sh: no redundancy verdict, and
-- mbgen --redundant remove refuses instead of dropping J2.x and tearing the middle joint).
ground{A={0,0},B={5,0}}
body "l1"{mass=1,inertia=.1,position={.5,0},points={A={-.5,0},B={.5,0}}}
body "l2"{mass=1,inertia=.1,position={1.5,0},points={A={-.5,0},B={.5,0}}}
revolute "J1"{"ground.A","l1.A"}; revolute "J2"{"l1.B","l2.A"}; revolute "J3"{"l2.B","ground.B"}
