/* cartpole_run.h - the closed loop on the host: the generated cart-pole simulated by the runtime
 * (alf-trapezoid with the model file's settings, as the simulator runs it) from the model's start
 * (the pole theta0 = 0.2 rad from upright), the controller of cartpole_control.h every period.
 * Layer: host example code (cartpole_lqr, tests/test_lqr.c); allocates the workspace. */
#ifndef CARTPOLE_RUN_H
#define CARTPOLE_RUN_H

#include <stdio.h>

#include "mb_sim.h"

typedef struct cartpole_run_result {
    int status;               /* the last step's status (negative: the run stopped there) */
    double t;                 /* the time reached */
    double y0[8], y[8];       /* the sensors at the start and at the end (x, xdot, theta, thetadot) */
    double max_theta_late;    /* max |theta| over the last second */
    double max_F;             /* max |F| */
    double settle_t;          /* the last control time with |theta| > 1e-3 rad (0: never above) */
} cartpole_run_result;

/* Run to t_end with gain K[CARTPOLE_NOUT]; table not NULL: write the force the controller set,
 * a CSV "t,F" with a row per control period (the simulator's --input-file, zero-order hold,
 * replays it). 0, or -1 when the solver cannot start (message on stderr). */
int cartpole_run(const mb_real *K, double t_end, FILE *table, cartpole_run_result *r);

#endif /* CARTPOLE_RUN_H */
