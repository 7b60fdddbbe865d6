/* andrews7.h - Andrews' squeezer in Hairer & Wanner's 7 relative angles, long double RK4
 * (bench/andrews7.c): an independent check of the reference of make bench-wp. */
#ifndef ANDREWS7_H
#define ANDREWS7_H

/* The 7 angles (beta, Theta, gamma, Phi, delta, Omega, epsilon) at t_end after nsteps equal
 * steps from the test set's initial state. */
void andrews7_solve(long nsteps, double t_end, double out[7]);

#endif /* ANDREWS7_H */
