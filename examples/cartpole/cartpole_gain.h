/* cartpole_gain.h - written by lqr_design (examples/cartpole/lqr_design.c, docs/control.md);
 * do not edit. The LQR gain of the cart-pole (generated/cartpole.c) about the upright pole at
 * rest, F = 0, on its sensors: F = -sum_i K[i] (y[i] - YREF[i]), y = x xdot theta thetadot.
 * Weights: Qy = diag(100, 1, 100, 1) on the sensors, R = 1. Riccati residual 7.4e-16; closed-loop
 * eigenvalues -4.26+1.602i, -4.26-1.602i, -2.085+1.608i, -2.085-1.608i 1/s. */
#ifndef CARTPOLE_GAIN_H
#define CARTPOLE_GAIN_H

#define CARTPOLE_GAIN_NY 4
#define CARTPOLE_GAIN_K { MB_R(-9.9999999999999929e+00), MB_R(-1.0128534092924319e+01), MB_R(-6.0619523008485743e+01), MB_R(-1.5422997028929061e+01) }
#define CARTPOLE_GAIN_YREF { MB_R(0.0000000000000000e+00), MB_R(0.0000000000000000e+00), MB_R(0.0000000000000000e+00), MB_R(0.0000000000000000e+00) }

#endif /* CARTPOLE_GAIN_H */
