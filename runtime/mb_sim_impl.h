/* mb_sim_impl.h - what the runtime's source files share behind mb_sim.h: the internal entry
 * points of each file (prefix mbi_, not API) and the constraint-pattern product helper.
 * Layer: runtime internal; include only from runtime/mb_*.c. */
#ifndef MB_SIM_IMPL_H
#define MB_SIM_IMPL_H

#include "mb_sim.h"
#include "mb_layout.h"
#include "mb_linalg.h"
#include "mb_vec.h"

/* The compile-time selection (MB_WITH_*, MB_ONLY_*, MBI_F1 ... MBI_ONE_INTEG): mb_select.h, through
 * mb_sim.h (mb_sim's fields depend on it). */

/* mb_linsys.c: factor the matrix `which` (MB_MAT_*), already assembled in its plan storage (S:
 * FS, A: FA), with the back end of s->p; counts it, keeps the monitors' pivot ratio and, for a
 * vanishing pivot of S, the constraint row (mon.singular_row). */
int mbi_ls_factor(mb_sim *s, int which, mb_real rank_tol);
/* mb_linsys.c: solve in place with the last factorization of `which`; b in original order. */
void mbi_ls_solve(mb_sim *s, int which, mb_real *b);
/* mb_linsys.c: FS = Phi_q W Phi_q^T with W = diag(w[nq]) and Phi_q values in s->Pq. */
void mbi_assemble_s(mb_sim *s, const mb_real *w);
/* mb_linsys.c: FA = M + sum over the pairs k, l of one row of Phi_q of E[k] D[l] (with unsym also
 * the transposed terms E[l] D[k]: F4's Newton matrix; else F3's symmetric matrix). */
void mbi_assemble_a(mb_sim *s, const mb_real *E, const mb_real *D, int unsym);

/* The sine cache the fused evaluations take (mb_trig.h), NULL when the build has none */
#if MBI_HAS_TRIG
#define MBI_TRIG(s) ((s)->trig)
#else
#define MBI_TRIG(s) ((mb_real *)0)
#endif

/* mb_sim.c: Phi, Phi_t, Phi_q at (t, q) into s->Phi, s->Phit, s->Pq: the model's fused
 * evaluation when it has one (one pass, shared sines and cosines), else the three single
 * functions. */
void mbi_eval_kin(mb_sim *s, mb_real t, const mb_real *q);
/* mbi_eval_kin's quantities and Q, Phidot_q, dQ/dq, dQ/dv at (t, q, v) into s->Q, s->Pqd,
 * s->dQq, s->dQv (F4's iteration): one fused call shares the angles' sines and cosines. */
static inline void mbi_eval_kin_dyn(mb_sim *s, mb_real t, const mb_real *q, const mb_real *v)
{
    const mb_model *m = s->m;
    s->kin_fresh = 0;
    if (m->eval_kin_dyn) {
        m->eval_kin_dyn(m, t, q, v, s->Phi, s->Phit, s->Pq, s->Q, s->Pqd, s->dQq, s->dQv, MBI_TRIG(s));
        return;
    }
    mbi_eval_kin(s, t, q);
    m->force(m, t, q, v, s->Q);
    m->phi_q_dot(m, t, q, v, s->Pqd);
    m->dforce_dq(m, t, q, v, s->dQq);
    m->dforce_dv(m, t, q, v, s->dQv);
}

/* Bring the derived quantities (v, sig = S, lam) of the last evaluation into the state. */
static inline void mbi_take_eval(mb_sim *s)
{
    copy(s->n, s->v, s->ev_v);
    copy(s->nc, s->sig, s->ev_sig);            /* S and ev_S share these (layout) */
    if (s->lam) copy(s->nc, s->lam, s->ev_lam);   /* F1 only */
}

/* ------------------------------------------------------------------ the formulation table
 * One row per formulation (mb_f1_baumgarte.c ... mb_f4_trapezoid.c), indexed by
 * p.formulation in mbi_forms (mb_sim.c). An explicit formulation gives rhs (and optionally
 * accept) and is integrated by mb_rk.c; an implicit one gives start and step (its own
 * integrator). A new formulation is one file plus one row. */
typedef struct mbi_form {
    /* explicit: ydot = f(t, z); leaves v, sigma, lambda of the evaluation in ev_*. Returns MB_OK
     * or a linear-algebra failure. */
    int (*rhs)(mb_sim *s, mb_real t, const mb_real *z, mb_real *f);
    /* explicit, optional: after an accepted step (z, fz current), e.g. a projection or a sigma
     * reset; sets *reeval when f must be evaluated again. Returns MB_OK, an event or a failure. */
    int (*accept)(mb_sim *s, int *reeval);
    /* implicit: the start-up evaluation at reset (v, sigma into ev_*), and one step of h ending
     * at t_new (restored on failure; the monitor is not advanced). */
    int (*start)(mb_sim *s, mb_real t0);
    int (*step)(mb_sim *s, mb_real h, mb_real t_new);
    /* implicit, optional: one error-controlled step towards t_stop (p.adaptive), rejected trials
     * retried inside; *h_taken the accepted step (restored on failure; monitor not advanced). */
    int (*step_adaptive)(mb_sim *s, mb_real t_stop, mb_real *h_taken);
} mbi_form;
extern const mbi_form mbi_form_baumgarte, mbi_form_canonical, mbi_form_alf_explicit,
    mbi_form_alf_trapezoid;
/* mb_sim.c: the rows, NULL where a formulation is not compiled in */
extern const mbi_form *const mbi_forms[4];

/* mb_kkt.c: solve [[M, Phi_q^T], [Phi_q, 0]] [x; y] = [b1; b2] (Phi_q values in s->Pq). */
int mbi_kkt_solve(mb_sim *s, const mb_real *b1, const mb_real *b2, mb_real *x, mb_real *y);
/* mb_f2_canonical.c: the sigma reset of 6.3.4 after an accepted step of F2 or F3 (an accept). */
int mbi_sigma_reset(mb_sim *s, int *reeval);
/* mb_f3_alf.c: the F3 velocity/sigma~ iteration 5.31-5.37 at (t, q, p, I) -> ev_v, ev_sig,
 * ev_S (also F4's start-up evaluation). */
int mbi_alf_velocity(mb_sim *s, mb_real t, const mb_real *q, const mb_real *p, const mb_real *I);

/* mb_f4_trapezoid.c (exposed for tests/test_newton_fd.c): the reduced Newton matrix 5.52 into
 * FA from s->Pq, Pqd, dQq, dQv (c1 = 1 + h xi omega); and full_jacobian's second-derivative
 * terms added to it (q is perturbed and restored; K2 kept in scr + n*n). */
void mbi_newton_matrix(mb_sim *s, mb_real a, mb_real c1, mb_real h);
void mbi_geometric_terms(mb_sim *s, mb_real t1, mb_real *q, const mb_real *sv, mb_real h);
/* mb_f4_trapezoid.c: the pieces of F4's Newton iteration that bdf on F4 (mb_bdf.c) shares, g the
 * derivatives' weight (h/2, the BDF gamma): c and the sigma~ update 5.34; sv and the residuals
 * 5.41, 5.42 times g; 5.53's (g dQ/dq + dQ/dv + Phidot_q^T alpha D) dq. */
void mbi_f4_constraint(mb_sim *s, const mb_real *I, int upd);
void mbi_f4_residual(mb_sim *s, const mb_real *p, mb_real g, mb_real *sv, mb_real *g1, mb_real *g2);
void mbi_f4_dg2(mb_sim *s, const mb_real *dq, mb_real g, mb_real *tmpn, mb_real *tmpm);
/* mb_f4_trapezoid.c: the shift of F4's sigma reset at the current state (p, pdot, the work's
 * reference and sigma~; also bdf's reset). */
void mbi_f4_shift_sigma(mb_sim *s);

/* mb_hht.c (integrator MB_HHT on F1's equations): the consistent start (a_0 and lambda_0 of the
 * index-1 system, no stabilization) into fz = [v; a] and ev_lam, and one fixed HHT-alpha step of
 * h ending at t_new (restored on failure; the monitor is not advanced). */
int mbi_hht_start(mb_sim *s, mb_real t0);
int mbi_hht_step(mb_sim *s, mb_real h, mb_real t_new);

/* mb_monitor.c: energies, constraint norms and powers at the current state. */
void mbi_measure(mb_sim *s, mb_real *pnc, mb_real *pdrv);
/* mb_monitor.c: the same at (t, q, v) with sigma sig (F2-F4) or lambda lam (F1) into o. */
void mbi_measure_at(mb_sim *s, mb_real t, const mb_real *q, const mb_real *v, const mb_real *sig,
                    const mb_real *lam, mb_monitor *o, mb_real *pnc, mb_real *pdrv);
/* mb_monitor.c: after an accepted step (monitor advanced, maxiter_events at its start given):
 * records the warnings (MB_WARN_*) met for the first time; returns the bits of every condition
 * this step meets, a disabled check (threshold 0) tested at its default threshold. */
unsigned mbi_warnings(mb_sim *s, long maxiter_before);
/* mb_monitor.c: energy_dev and the running maxima from the current monitor values. */
void mbi_update_max(mb_sim *s);
/* mb_monitor.c: after a step of dt: measure, add the step's work, update the maxima. The work of
 * the loads (P_nc, F1's driver power) over the step: *wq when given (the adaptive integrators'
 * own quadrature), else the trapezoidal rule on pnc_old, pdrv_old and the new powers. */
void mbi_advance_monitor(mb_sim *s, mb_real dt, mb_real pnc_old, mb_real pdrv_old, const mb_real *wq);
/* mb_monitor.c: that trapezoidal rule alone, with the drivers' work of F2-F4 from S - tm[3]
 * (also F4's held step, before the monitors see it). */
mb_real mbi_step_work(const mb_sim *s, mb_real dt, mb_real pnc_old, mb_real pnc, mb_real pdrv_old,
                      mb_real pdrv);

/* mb_rk.c (explicit formulations): f at the start state (fz) and its derived quantities. */
int mbi_rk_start(mb_sim *s, mb_real t0);
/* mb_rk.c: one accepted adaptive step (Dormand-Prince 5(4) or DOP853) towards t_stop, rejections retried
 * inside; monitor advanced. mon0, pnc0, pdrv0: the values at the step's start. */
int mbi_step_adaptive(mb_sim *s, mb_real t_stop, const mb_monitor *mon0, mb_real pnc0, mb_real pdrv0);
/* mb_rk.c: one fixed step (RK4) of h ending at time t_new; the monitor is not advanced. */
int mbi_step_fixed(mb_sim *s, mb_real h, mb_real t_new);
/* mb_rk.c: undo an accepted explicit step (state from zold, tn[7], tm[3]). */
int mbi_explicit_fail(mb_sim *s, mb_real t_start, int st);
/* mb_rk.c (p.dense): before an adaptive step, keep what the work at an interpolated time needs
 * (W at the step's start; sigma and Phi_t there). */
void mbi_dense_begin(mb_sim *s, mb_real W0);

/* mb_bdf.c: one accepted variable-order BDF step towards t_stop (F1, F2, F4), rejections and
 * Newton failures retried inside; *h_taken the step; the monitor is not advanced. On failure
 * the state is that of the last good step. */
int mbi_bdf_step(mb_sim *s, mb_real t_stop, mb_real *h_taken);
/* mb_bdf.c: mb_sim_dense for bdf (the Nordsieck polynomial of the last step). */
int mbi_bdf_dense(mb_sim *s, mb_real t, mb_real *q, mb_real *v, mb_monitor *mo);
/* mb_f4_trapezoid.c: mb_sim_dense for the adaptive trapezoid (both step controls). */
int mbi_trap_dense(mb_sim *s, mb_real t, mb_real *q, mb_real *v, mb_monitor *mo);

#endif /* MB_SIM_IMPL_H */
