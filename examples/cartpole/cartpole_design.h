/* cartpole_design.h - the cart-pole's LQR design on the host (cartpole_design.c): the weights,
 * and what the design gives (the linearization, the Riccati solution, the gains, the
 * eigenvalues), for lqr_design (which writes the controller's header) and tests/test_lqr.c. */
#ifndef CARTPOLE_DESIGN_H
#define CARTPOLE_DESIGN_H

#include "cartpole.h"

#define NX (2 * (CARTPOLE_NQ - CARTPOLE_NC))   /* states: x = [z; z'], z = (cart.x, pole.phi) */
#define NY CARTPOLE_NOUT                        /* sensors x, xdot, theta, thetadot */
#define NU CARTPOLE_NIN                         /* input F */

/* The weights: the integral of (y - yref)^T diag(QY) (y - yref) + R F^2, y the sensors in the
 * model's order (m, m/s, rad, rad/s), F in N. */
#define CARTPOLE_LQR_QY { 100.0, 1.0, 100.0, 1.0 }
#define CARTPOLE_LQR_R { 1.0 }

typedef struct cartpole_lqr {
    int d, z[CARTPOLE_NQ];                 /* z's coordinates (model indices) */
    double phi_norm, acc_norm;             /* max |Phi| and max |acc| at the upright pose */
    double A[NX * NX], B[NX * NU], C[NY * NX];
    double yref[NY];                       /* the sensors at the upright pose */
    double Q[NX * NX], R[NU * NU];         /* Q = C^T diag(QY) C */
    double P[NX * NX], K[NU * NX];         /* Riccati solution, gain on the state */
    double Ky[NU * NY];                    /* gain on the sensors: Ky C = K */
    double residual;                       /* lqr_care_residual */
    double eig_re[NX], eig_im[NX];         /* of A - B K */
    double ol_re[NX], ol_im[NX];           /* of A */
} cartpole_lqr;

/* 0, or -1 with a message on stderr. */
int cartpole_design(cartpole_lqr *d);

#endif /* CARTPOLE_DESIGN_H */
