-- anl_spinner.lua - a wheel on a pin, no gravity, no spring, no damper: one degree of freedom
-- with no stiffness and no damping. tests/test_sim_cli.sh: --analysis modal --about initial gives
-- its double zero root as two lines at freq_hz=0, damping_ratio=0 (neutral: neither decaying
-- nor growing, growing=0), never +-1 from the eigen solver's rounding (docs/analyses.md).
name "anl_spinner"
gravity { 0, 0 }
ground { O = { 0, 0 } }
body "wheel" { mass = 2, inertia = 0.05, position = { 0, 0 }, points = { C = { 0, 0 }, R = { 0.2, 0 } } }
revolute "axle" { "ground.O", "wheel.C" }
