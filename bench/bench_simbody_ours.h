/* bench_simbody_ours.h - our side of bench/bench_simbody.cpp, in C: one generated model (the
 * object file names it: bench_simbody_ours.c is compiled with -DOURS_MODEL=<name>_model), its
 * exact accelerations at a state (mb_anl_reactions) and the baumgarte right-hand side, the very
 * function the explicit integrators call. A plain C interface, so the C++ driver never compiles
 * the runtime's C99 headers. Host build: mb_real is double. */
#ifndef BENCH_SIMBODY_OURS_H
#define BENCH_SIMBODY_OURS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ours ours;

/* Open the model with the baumgarte formulation (mb_params_default's parameters) at its
 * assembled start; NULL on failure (message on stderr). */
ours *ours_open(void);
void ours_close(ours *o);
const char *ours_name(const ours *o);
int ours_nbody(const ours *o);   /* bodies; coordinates q = (x, y, phi) per body, n = 3 nbody */
const char *ours_body_name(const ours *o, int b);
/* The assembled start: q[n], v[n] (consistent positions and velocities) */
const double *ours_start_q(const ours *o);
const double *ours_start_v(const ours *o);
/* Accelerations of the exact index-1 equations at (q, v) into acc[n]: 0 on success */
int ours_acc(ours *o, const double *q, const double *v, double *acc);
/* The baumgarte right-hand side f = [v; a] at z = [q; v] (t = 0): 0 on success */
int ours_rhs(ours *o, const double *z, double *f);

#ifdef __cplusplus
}
#endif
#endif /* BENCH_SIMBODY_OURS_H */
