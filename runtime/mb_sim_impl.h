/* mb_sim_impl.h - what the runtime's source files share behind mb_sim.h: the internal entry
 * points of each file (prefix mbi_, not API) and the constraint-pattern product helper.
 * Layer: runtime internal; include only from runtime/mb_*.c. */
#ifndef MB_SIM_IMPL_H
#define MB_SIM_IMPL_H

#include "mb_sim.h"
#include "mb_linalg.h"
#include "mb_vec.h"

/* A (n x n, col-major) += a * Pa^T Pb, Pa and Pb on the constraint pattern (rows in rowp). */
static inline void add_ptp(mb_sim *s, mb_real *A, mb_real a, const mb_real *Pa, const mb_real *Pb)
{
    const int *col = s->m->phi_q_pat.col, n = s->n;
    for (int r = 0; r < s->nc; r++)
        for (int k = s->rowp[r]; k < s->rowp[r + 1]; k++) {
            mb_real ak = a * Pa[k];
            if (ak == 0) continue;
            for (int l = s->rowp[r]; l < s->rowp[r + 1]; l++)
                A[col[k] + (long)col[l] * n] += ak * Pb[l];
        }
}

/* mb_sim.c: bring the derived quantities (v, sig, S, lam) of the last evaluation into the state. */
void mbi_take_eval(mb_sim *s);

/* mb_explicit.c: right-hand side f(t, z) of the explicit formulation F1-F3 (counts evals;
 * leaves v, sigma, S, lambda of the evaluation in ev_*). Returns MB_OK or a linear-algebra
 * failure. */
int mbi_rhs(mb_sim *s, mb_real t, const mb_real *z, mb_real *f);
/* mb_explicit.c: the F3 velocity/sigma~ iteration 5.31-5.37 at (t, q, p, I) -> ev_v, ev_sig,
 * ev_S (also F4's start-up evaluation). */
int mbi_alf_velocity(mb_sim *s, mb_real t, const mb_real *q, const mb_real *p, const mb_real *I);
/* mb_explicit.c: F1's velocity projection of the current state. */
int mbi_project_velocity(mb_sim *s);

/* mb_monitor.c: energies, constraint norms and powers at the current state. */
void mbi_measure(mb_sim *s, mb_real *pnc, mb_real *pdrv);
/* mb_monitor.c: energy_dev and the running maxima from the current monitor values. */
void mbi_update_max(mb_sim *s);
/* mb_monitor.c: after a step of dt: measure, add the step's work, update the maxima. */
void mbi_advance_monitor(mb_sim *s, mb_real dt, mb_real pnc_old, mb_real pdrv_old);

/* mb_integrators.c: one accepted adaptive Dormand-Prince step towards t_stop (rejections
 * retried inside); monitor advanced. mon0, pnc0, pdrv0: the values at the step's start. */
int mbi_step_dopri5(mb_sim *s, mb_real t_stop, const mb_monitor *mon0, mb_real pnc0, mb_real pdrv0);
/* mb_integrators.c: one RK4 step of h ending at time t_new; the monitor is not advanced. */
int mbi_step_rk4(mb_sim *s, mb_real h, mb_real t_new);
/* mb_integrators.c: undo an accepted explicit step (state from zold, tn[7], tm[3]). */
int mbi_explicit_fail(mb_sim *s, mb_real t_start, int st);

/* mb_trapezoid.c: F4 start-up: ydot_0 from the F3 evaluation (step 5 of 5.4.2). */
int mbi_trap_start(mb_sim *s, mb_real t0);
/* mb_trapezoid.c: one F4 step of h ending at t_new (restored on failure, sigma reset
 * applied); the monitor is not advanced. */
int mbi_step_trapezoid(mb_sim *s, mb_real h, mb_real t_new);

#endif /* MB_SIM_IMPL_H */
