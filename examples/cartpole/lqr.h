/* lqr.h - the continuous-time linear-quadratic regulator on the host (LAPACKE): the gain
 * K = R^-1 B^T P of x' = A x + B u minimizing the integral of x^T Q x + u^T R u, P the
 * stabilizing solution of the algebraic Riccati equation A^T P + P A - P B R^-1 B^T P + Q = 0.
 * Layer: host design tool (examples/cartpole/lqr_design.c, tests/test_lqr.c); allocates.
 * All matrices dense row-major: A n x n, B n x m, Q n x n symmetric, R m x m symmetric positive
 * definite, P n x n, K m x n. */
#ifndef LQR_H
#define LQR_H

/* P and K from the stable invariant subspace of the Hamiltonian matrix
 * H = [A, -B R^-1 B^T; -Q, -A^T]: its ordered real Schur form (dgees with the eigenvalues of
 * negative real part first), U = [U11; U21] the first n Schur vectors, P = U21 U11^-1
 * (symmetrized), then Newton-Kleinman steps (Lyapunov equations solved through the Kronecker
 * form) while they lower the residual. 0, or -1: R not positive definite, no n stable
 * eigenvalues (the pair not stabilizable or an eigenvalue on the imaginary axis), U11 singular,
 * or out of memory. */
int lqr_care(int n, int m, const double *A, const double *B, const double *Q, const double *R,
             double *P, double *K);

/* The residual of the Riccati equation at P, max |entry| of A^T P + P A - P B R^-1 B^T P + Q
 * divided by the largest of max |A^T P|, max |P B R^-1 B^T P|, max |Q| (a relative residual:
 * 1e-16 is exact to rounding). -1 when R is not positive definite. */
double lqr_care_residual(int n, int m, const double *A, const double *B, const double *Q,
                         const double *R, const double *P);

/* The eigenvalues of the n x n matrix M (row-major), re[n] and im[n] (dgeev). 0 or -1. */
int lqr_eig(int n, const double *M, double *re, double *im);

#endif /* LQR_H */
