/* mb_sim_impl.h - what the runtime's source files share behind mb_sim.h: the internal entry
 * points of each file (prefix mbi_, not API) and the constraint-pattern product helper.
 * Layer: runtime internal; include only from runtime/mb_*.c (and the white-box tests). */
#ifndef MB_SIM_IMPL_H
#define MB_SIM_IMPL_H

#include <stddef.h>
#include "mb_sim.h"
#include "mb_layout.h"
#include "mb_linalg.h"
#include "mb_vec.h"

/* The compile-time selection (MB_WITH_*, MB_ONLY_*, MBI_F1 ... MBI_ONE_INTEG): mb_config.h, through
 * mb_sim.h (mb_sim's fields depend on it). */

/* The simulation object (opaque in mb_sim.h): its members are those of mb_sim_storage, from the
 * one list (mb_sim_fields.h; mb_sim.c checks that size and alignment agree). */
struct mb_sim {
#include "mb_sim_fields.h"
};

/* mb_linsys.c: factor the matrix `which` (MB_MAT_*), already assembled in its plan storage (S:
 * FS, A: FA), with the back end of s->p; counts it, keeps the monitors' pivot ratio and, for a
 * vanishing pivot of S, the constraint row (mon.singular_row). */
int mbi_ls_factor(mb_sim *s, int which, mb_real rank_tol);
/* mb_linsys.c: S = Phi_q W Phi_q^T (w: W's diagonal) assembled and factored, mbi_assemble_s and
 * mbi_ls_factor(s, MB_MAT_S, rank_tol) (in one kernel where the model has mb_plan.s_factor) */
int mbi_ls_factor_s(mb_sim *s, const mb_real *w, mb_real rank_tol);
/* mb_linsys.c: mbi_ls_solve(s, MB_MAT_S, b) after mbi_ls_factor_s (the model's solve called
 * directly where its kernel factored S) */
void mbi_ls_solve_s(mb_sim *s, mb_real *b);
/* mb_linsys.c: mbi_ls_factor's counting and status for A (MB_MAT_A_SYM, rank_tol 0) factored by
 * the model's mb_f3_kernels.factor, k its result (-1 or the pivot that failed). */
int mbi_ls_factored_a(mb_sim *s, int k);
/* mb_linsys.c: the same for A's LU (MB_MAT_A_LU) by the model's mb_f4_kernels.factor */
int mbi_ls_factored_lu(mb_sim *s, int k);
/* mb_linsys.c: solve in place with the last factorization of `which`; b in original order. */
void mbi_ls_solve(mb_sim *s, int which, mb_real *b);
/* mb_linsys.c: FS = Phi_q W Phi_q^T with W = diag(w[nq]) and Phi_q values in s->Pq. */
void mbi_assemble_s(mb_sim *s, const mb_real *w);
#if MB_WITH_ASSEMBLY || (MBI_ACC && MBI_F4)
/* mb_linsys.c: S = Phi_q W Phi_q^T + mu I (mu = k eps max diag: definite where S is
 * singular) assembled and factored without a rank test (assembly, F4's accuracy estimates) */
int mbi_ls_factor_s_reg(mb_sim *s, const mb_real *w, mb_real k);
#endif
/* mb_linsys.c: FA = M + sum over the pairs k, l of one row of Phi_q of E[k] D[l] (with unsym also
 * the transposed terms E[l] D[k]: F4's Newton matrix; else F3's symmetric matrix). */
void mbi_assemble_a(mb_sim *s, const mb_real *E, const mb_real *D, int unsym);

/* A typed view of a slot's blocks (mb_layout.h: MB_VIEW_*): MBI_VIEW(MB_VIEW_TRAP) is the struct
 * type, MBI_VIEW_OF(MB_VIEW_TRAP) its initializer, the pointers into the workspace of the
 * mb_sim *s in scope. */
#define MBI_VIEW_PTR(name, block) mb_real *name;
#define MBI_VIEW_INIT(name, block) s->block,
#define MBI_VIEW(list) struct { list(MBI_VIEW_PTR) }
#define MBI_VIEW_OF(list) {list(MBI_VIEW_INIT)}

/* The end of a block's lifetime (n entries from p): NaN in a -DMB_POISON_WORK build (a read
 * through a wrong alias then fails a test), nothing otherwise. */
#if MB_POISON_WORK
static inline void mbi_poison(mb_real *p, int n)
{
    for (int i = 0; i < n; i++) p[i] = (mb_real)NAN;
}
#else
#define mbi_poison(p, n) ((void)0)
#endif

/* The sine cache the fused evaluations take (mb_trig.h), NULL when the build has none */
#if MBI_HAS_TRIG
#define MBI_TRIG(s) ((s)->trig)
#else
#define MBI_TRIG(s) ((mb_real *)0)
#endif

/* mb_eval.c: Phi, Phi_t, Phi_q at (t, q) into s->Phi, s->Phit, s->Pq: the model's fused
 * evaluation when it has one (one pass, shared sines and cosines), else the three single
 * functions. */
void mbi_eval_kin(mb_sim *s, mb_real t, const mb_real *q);
/* Q and Phidot_q at (t, q, v) into s->Q, s->Pqd after mbi_eval_kin at (t, q) (F2, F3): the
 * model's fused evaluation, whose sines and cosines come from the cache entries eval_kin filled,
 * when it has one, else the single functions (libm for every angle). */
static inline void mbi_eval_force_pqd(mb_sim *s, mb_real t, const mb_real *q, const mb_real *v)
{
    const mb_model *m = s->m;
#if MB_WITH_TRIG_CACHE
    if (m->eval_force_phi_q_dot) {
        m->eval_force_phi_q_dot(m, t, q, v, s->Q, s->Pqd, MBI_TRIG(s));
        return;
    }
#endif
    m->force(m, t, q, v, s->Q);
    m->phi_q_dot(m, t, q, v, s->Pqd);
}
/* mbi_eval_kin's quantities and Q, Phidot_q, dQ/dq, dQ/dv at (t, q, v) into s->Q, s->Pqd,
 * s->dQq, s->dQv (F4's iteration): one fused call shares the angles' sines and cosines. */
static inline void mbi_eval_kin_dyn(mb_sim *s, mb_real t, const mb_real *q, const mb_real *v)
{
    const mb_model *m = s->m;
    s->kin_fresh = 0;
#if !MBI_ONLY
    s->kin_t = t;                         /* (as mbi_eval_kin's) */
#endif
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
 * One row per formulation (mb_f1_baumgarte.c ... mb_f4_trapezoid.c), indexed by p.formulation in
 * mbi_forms (mb_forms.c). An explicit formulation gives rhs (and optionally accept) and is
 * integrated by the explicit integrators and bdf; an implicit one gives start (its start-up
 * evaluation), accept and the Newton pieces below, and is integrated by the integrators that take
 * it (the integrator table below: the trapezoid, bdf), which own the iteration, its matrix reuse,
 * step control and dense output. A new formulation is one file plus one row. */
typedef struct mbi_form {
    /* explicit: ydot = f(t, z); leaves v, sigma, lambda of the evaluation in ev_*. Returns MB_OK
     * or a linear-algebra failure. */
    int (*rhs)(mb_sim *s, mb_real t, const mb_real *z, mb_real *f);
    /* optional: after an accepted step (explicit: z, fz current), e.g. a projection or a sigma
     * reset; sets *reeval when it moved the state (explicit: f must be evaluated again). Returns
     * MB_OK, an event or a failure. */
    int (*accept)(mb_sim *s, int *reeval);
    /* implicit: the start-up evaluation at reset (v, sigma into ev_*) */
    int (*start)(mb_sim *s, mb_real t0);
    /* implicit: the equations in y = [q; p] at an iterate, its derivatives v, pdot in s->v, s->pd,
     * after an evaluation there (mbi_eval_kin_dyn), g the integrator's weight of the derivatives
     * (d ydot / dy = 1 / g: the trapezoid's h/2, the BDF corrector's gamma). dr: the equations
     * Newton leaves out (p.redundant_rows; NULL: none).
     * constraint: c into s->cv from the evaluation and Int Phi I; with upd, the multipliers'
     * update sigma~ += alpha c (5.34). */
    void (*constraint)(mb_sim *s, const mb_real *Ip, int upd, const unsigned char *dr);
    /* residual: g times the residuals into g1, g2 (n each), sv (nc) its scratch */
    void (*residual)(mb_sim *s, const mb_real *p, mb_real g, mb_real *sv, mb_real *g1, mb_real *g2);
    /* matrix: the reduced Newton matrix dg1/dq + g dg2/dq into FA (not factored) at (t, q); ig the
     * weight of Phi(q) in I (0: Int Phi does not depend on the iterate); full: with the
     * geometric terms (p.full_jacobian) */
    void (*matrix)(mb_sim *s, mb_real t, mb_real *q, mb_real g, mb_real ig, int full);
    /* momenta: after the solve for dq, -dg2/dq dq into tmpn (n; tmpm: nc scratch), so that
     * dp = -g2 + tmpn; full as the matrix's */
    void (*momenta)(mb_sim *s, const mb_real *dq, mb_real g, mb_real *tmpn, mb_real *tmpm, int full);
    /* shift: the multipliers re-referenced to zero at the current state (p, pdot and the work's
     * reference moved to match: the sigma reset's shift without its test) */
    void (*shift)(mb_sim *s);
    /* optional, with dr: before a step (the flagged equations' multipliers moved into p); their
     * rows of the evaluation's Phi_q, Phidot_q zeroed (before the residual and the matrix); after
     * a step (whether they still follow from the others: 0 ends leaving them out) */
    void (*rows_start)(mb_sim *s, const unsigned char *dr);
    void (*rows_drop)(mb_sim *s, const unsigned char *dr);
    int (*rows_implied)(const mb_sim *s, const unsigned char *dr);
    /* optional: the trapezoid's iteration after the constraint and the factorization up to
     * dq in the model's generated pass: fusable, whether this run can take it (dr as above);
     * newton, the residual's g2 (into g2) and dq = -(g1 + g g2) solved with the factors;
     * factor, matrix and its factorization in one (where fusable; full 0), the status */
    int (*fusable)(const mb_sim *s, const unsigned char *dr);
    void (*newton)(mb_sim *s, mb_real g, mb_real *dq, mb_real *g2);
#if MB_WITH_F4_KERNELS
    int (*factor)(mb_sim *s, mb_real g, mb_real ig);
#endif
} mbi_form;
extern const mbi_form mbi_form_baumgarte, mbi_form_canonical, mbi_form_alf_explicit,
    mbi_form_alf_trapezoid;
/* mb_forms.c: the rows, NULL where a formulation is not compiled in */
extern const mbi_form *const mbi_forms[4];
/* mb_f4_trapezoid.c: F4's ops by name, and its row (one initializer: the table's and the
 * one-formulation build's below) */
int mbi_f4_start(mb_sim *s, mb_real t0);
int mbi_f4_accept(mb_sim *s, int *moved);
void mbi_f4_constraint(mb_sim *s, const mb_real *Ip, int upd, const unsigned char *dr);
void mbi_f4_residual(mb_sim *s, const mb_real *p, mb_real g, mb_real *sv, mb_real *g1, mb_real *g2);
void mbi_f4_matrix(mb_sim *s, mb_real t, mb_real *q, mb_real g, mb_real ig, int full);
void mbi_f4_momenta(mb_sim *s, const mb_real *dq, mb_real g, mb_real *tmpn, mb_real *tmpm, int full);
void mbi_f4_shift(mb_sim *s);
void mbi_f4_rows_start(mb_sim *s, const unsigned char *dr);
void mbi_f4_rows_drop(mb_sim *s, const unsigned char *dr);
int mbi_f4_rows_implied(const mb_sim *s, const unsigned char *dr);
#if MB_WITH_F4_KERNELS
int mbi_f4_fusable(const mb_sim *s, const unsigned char *dr);
void mbi_f4_newton(mb_sim *s, mb_real g, mb_real *dq, mb_real *g2);
int mbi_f4_factor(mb_sim *s, mb_real g, mb_real ig);
#define MBI_F4_FUSED .fusable = mbi_f4_fusable, .newton = mbi_f4_newton, .factor = mbi_f4_factor,
#else
#define MBI_F4_FUSED
#endif
#define MBI_ROW_F4                                                                             \
    {.accept = mbi_f4_accept, .start = mbi_f4_start, .constraint = mbi_f4_constraint,          \
     .residual = mbi_f4_residual, .matrix = mbi_f4_matrix, .momenta = mbi_f4_momenta,          \
     .shift = mbi_f4_shift, MBI_F4_FUSED .rows_start = MB_WITH_REDUNDANT_ROWS ? mbi_f4_rows_start : NULL,   \
     .rows_drop = MB_WITH_REDUNDANT_ROWS ? mbi_f4_rows_drop : NULL,                            \
     .rows_implied = MB_WITH_REDUNDANT_ROWS ? mbi_f4_rows_implied : NULL}
/* The run's formulation and integrator (s->p's), constants in a build that has only one of them
 * (mb_params_check refuses the others): the tests of the others then fold away. */
#define MBI_FORMULATION(s) (MBI_NFORM == 1 ? MBI_ONE_FORM : (s)->p.formulation)
#define MBI_INTEGRATOR(s) (MBI_NINTEG == 1 ? MBI_ONE_INTEG : (s)->p.integrator)
/* the formulation's row: a constant when the build has one (the calls devirtualized). F4's is
 * the row's initializer itself, which each file sees, so that the integrator's calls are direct
 * before link-time optimization decides inlining (its pieces called once are then inlined:
 * mb_f4_trapezoid.c) */
#if MBI_NFORM == 1 && MBI_F4
static inline const mbi_form *mbi_form_f4(void)
{
    static const mbi_form row = MBI_ROW_F4;
    return &row;
}
#define MBI_FORM(s) mbi_form_f4()
#elif MBI_NFORM == 1
#define MBI_FORM(s) (MBI_F1 ? &mbi_form_baumgarte : MBI_F2 ? &mbi_form_canonical : MBI_F3 ? &mbi_form_alf_explicit : &mbi_form_alf_trapezoid)
#else
#define MBI_FORM(s) (mbi_forms[(s)->p.formulation])
#endif
/* mb_forms.c: the formulation's start-up evaluation at (t0, z) (implicit: its start; explicit: f
 * into fz, counted), its v, sigma, lambda taken into the state. */
int mbi_form_start(mb_sim *s, mb_real t0);
/* mb_forms.c: after a failed step of an explicit formulation (f at z lost: have_f 0), f at z
 * again; nothing for an implicit one. */
int mbi_form_restart(mb_sim *s, mb_real t);
/* mb_forms.c: undo a step of F1-F3 (state from zold, v0, S0, which mb_sim_step keeps at
 * the step's start); returns st. */
int mbi_undo_step(mb_sim *s, mb_real t_start, int st);

/* ------------------------------------------------------------------ the integrator table
 * One row per integrator, in the file that implements it (mb_rk.c: rk4, dopri5, dop853; mb_bdf.c;
 * mb_hht.c; mb_trapezoid.c: trapezoid), listed by mb_sim.c (name, the formulations it takes)
 * and walked by mb_sim_reset, mb_sim_step, mb_sim_dense and mb_params_check. A new integrator
 * is one file plus one row. The workspace blocks each needs are in mb_layout.h's block list
 * (which sizes the host's and the firmware's workspace alike, at compile time). */
/* the builds whose steps change h_next and can be undone after it (dopri5, dop853, bdf) */
#define MBI_STEP_H0 (MBI_ADAPTIVE || MBI_BDF)
/* What mb_sim_step knows at a step's start: the adaptive steps advance the monitor themselves. */
typedef struct mbi_step0 {
    mb_monitor mon0;                 /* the monitor before the step */
    mb_real pnc0, pdrv0, t_start;    /* the loads' powers there, the start time */
#if MBI_STEP_H0
    mb_real h0;                      /* h_next there: an undone step's next step starts from it */
#endif
#if MBI_HAS_EV
    mb_real ev_tlast0;               /* ev_tlast there (mbi_event_undo) */
#endif
} mbi_step0;
typedef struct mbi_integ {
    /* reset: the start-up evaluation at (t0, z, v), its derived quantities taken into the state */
    int (*start)(mb_sim *s, mb_real t0);
    /* optional: before a step that follows a failed one (have_f 0) */
    int (*restart)(mb_sim *s, mb_real t);
    /* the fixed step of h ending at t_new (NULL: adaptive only); restored on failure; the
     * monitor is not advanced */
    int (*step)(mb_sim *s, mb_real h, mb_real t_new);
    /* the error-controlled step towards t_stop when MB_PARAMS_ADAPTIVE (NULL: fixed only or not
     * compiled in); rejected trials retried inside; the monitor advanced; on failure the state is
     * that of the step's start */
    int (*step_adaptive)(mb_sim *s, mb_real t_stop, const mbi_step0 *b);
    /* optional: mb_sim_dense in the last step (NULL: none, or not compiled in) */
    int (*dense)(mb_sim *s, mb_real t, mb_real *q, mb_real *v, mb_monitor *mo);
    /* optional: undo an accepted step that mb_sim_step rejects afterwards (a non-finite energy,
     * F1/F2 near a singular position); returns st */
    int (*undo)(mb_sim *s, mb_real t_start, int st);
    /* optional: its own parameters: an index into mb_sim.c's messages (MBI_PM_*), -1 when fine */
    int (*check)(const mb_params *p);
} mbi_integ;
extern const mbi_integ mbi_integ_rk4, mbi_integ_dopri5, mbi_integ_dop853, mbi_integ_trapezoid,
    mbi_integ_bdf, mbi_integ_hht;

/* The numeric parameters in mb_params_check's order (mb_sim.c: a table, compact code on small
 * targets), and the other complaints after them: the index a check returns names its message. */
#if MBI_ACC
#define MBI_PF_ACC(X) X(warn_accuracy, PK_NONNEG)
#else
#define MBI_PF_ACC(X)
#endif
#define MBI_PFIELDS(X)                                                                           \
    X(h, PK_POS) X(rtol, PK_POS) X(atol, PK_POS) X(h_min, PK_NONNEG) X(h_max, PK_NONNEG)         \
    X(alpha, PK_ALPHA) X(xi, PK_NONNEG) X(omega, PK_NONNEG) X(tol, PK_POS) X(max_iter, PK_ITER)  \
    X(sigma_reset, PK_NONNEG) X(sigma_reset_ratio, PK_NONNEG) X(baumgarte_cap, PK_NONNEG)       \
    X(rank_tol, PK_BELOW1) X(asm_tol, PK_POS) X(asm_max_iter, PK_INT1)                          \
    X(warn_energy, PK_NONNEG)                                                                   \
    X(warn_phi, PK_NONNEG) X(warn_sigma, PK_NONNEG) X(warn_stability, PK_NONNEG)                 \
    MBI_PF_ACC(X) X(length_scale, PK_NONNEG)
#define MBI_PCOUNT(f, kind) +1
enum { MBI_NPFIELD = 0 MBI_PFIELDS(MBI_PCOUNT) };
#undef MBI_PCOUNT
enum { MBI_PM_FORM = MBI_NPFIELD, MBI_PM_INTEG, MBI_PM_HHT_FORM, MBI_PM_TRAP, MBI_PM_BDF,
       MBI_PM_HHT_ALPHA, MBI_PM_HHT_PROJ, MBI_PM_FORM_BUILT, MBI_PM_INTEG_BUILT, MBI_PM_FJ,
       MBI_PM_DENSE, MBI_PM_DENSE_BUILT, MBI_PM_ADAPT, MBI_PM_ADAPT_BUILT, MBI_PM_MAX_STEPS,
       MBI_PM_LINSYS, MBI_PM_LINSYS_OPS, MBI_PM_EVENTS, MBI_PM_EVENTS_BUILT, MBI_PM_N };

/* F4's floor of the drivers' work, F4_FLOOR alpha eps (1 + |q|) / h |Phi_t| per row
 * (mb_monitor.c, f4_work_floor; float's alpha from it: mb_sim.c, auto_penalty) */
#if MB_FLOAT
#define F4_FLOOR MB_R(16.0)
#else
#define F4_FLOOR MB_R(4.0)
#endif

/* The largest adaptive step: p.h_max, within the contacts' limit of this step (ev_hmax,
 * mbi_contact_hmax); 0: unlimited. */
static inline mb_real mbi_h_max(const mb_sim *s)
{
    mb_real h = s->p.h_max;
#if MBI_HAS_EV
    if (s->ev_hmax > 0 && !(h > 0 && h <= s->ev_hmax)) h = s->ev_hmax;
#endif
    return h;
}

/* mb_event.c (p.events): (mb_event_sensors: mb_sim.h) the gaps at (t, q) into g; after an accepted step (mb_sim_step):
 * a sign change located and the step cut there (every integrator: mb_event.c's header). */
#if MBI_HAS_EV
void mbi_event_gaps(mb_sim *s, mb_real t, const mb_real *q, mb_real *g);
int mbi_event_step(mb_sim *s, const mbi_integ *ig, const mbi_step0 *b);
/* switches (mb_model.switches): how far an adaptive step from s->t towards t_stop may go; the
 * first switch in (s->t, t_end]: 0 none, 1 the step to end at *te (before it) and the run to
 * jump to *tj (after it), 2 jumped already (closer than a step); the jump itself. */
mb_real mbi_switch_horizon(const mb_sim *s, mb_real t_stop);
/* the contacts' step limit of an adaptive step from s->t (s->ngap > 0): the shortest time an
 * open gap takes to close at its present rate, 0 when none closes */
mb_real mbi_contact_hmax(mb_sim *s, mb_real t_stop);
/* the trapezoid's converged trial from t0 to t1 (rk4's, hht's step; the extrapolated
 * trapezoid's accepted macro step): 1 and the root *tr (t0 < tr < t1) when a gap
 * changed sign in it and the step is to be taken again to tr; then the step retaken was
 * accepted at tr */
int mbi_event_trial(mb_sim *s, mb_real t0, mb_real t1, mb_real *tr);
void mbi_event_trial_cut(mb_sim *s, mb_real tr);
/* mb_sim_step's undo of a step (state back at its start s->t): the events' state the start's */
void mbi_event_undo(mb_sim *s, const mbi_step0 *b);
int mbi_switch_clip(mb_sim *s, const mbi_integ *ig, mb_real t_end, mb_real *te, mb_real *tj);
int mbi_switch_jump(mb_sim *s, const mbi_integ *ig, mb_real tj);
#if MBI_BDF
/* bdf: the state at t of the last step from its Nordsieck polynomial, into z (mb_bdf.c) */
void mbi_bdf_state_at(mb_sim *s, mb_real t);
#endif
#if MBI_HHT
/* hht: back to the start of the step just taken, its a and lambda included (mb_hht.c) */
int mbi_hht_undo(mb_sim *s, mb_real t_start);
#endif
#endif

/* mb_kkt.c: solve [[M, Phi_q^T], [Phi_q, 0]] [x; y] = [b1; b2] (Phi_q values in s->Pq). */
int mbi_kkt_solve(mb_sim *s, const mb_real *b1, const mb_real *b2, mb_real *x, mb_real *y);
/* The same with S y = Phi_q (M^-1 b1 + cv v) - b2, b2 = ga - (cv pt + c2 ph): a term
 * Phi_q (cv v) of the right-hand side taken into the one product with Phi_q and b2 formed in
 * the pass that subtracts it (baumgarte's 2 xi omega Phi_q v and Gamma - (2 xi omega Phi_t +
 * omega^2 Phi); not in a firmware build, MBI_ONLY). x as mbi_kkt_solve's: M^-1 (b1 - Phi_q^T y). */
int mbi_kkt_solve_v(mb_sim *s, const mb_real *b1, const mb_real *v, mb_real cv, const mb_real *ga,
                    const mb_real *pt, const mb_real *ph, mb_real c2, mb_real *x, mb_real *y);
/* The same with b2 = -pt - c1 ph - c2 I (F2's -Phi_t - 2 xi omega Phi - omega^2 I) formed in the
 * pass that subtracts it (not in a firmware build, MBI_ONLY) */
int mbi_kkt_solve_f2(mb_sim *s, const mb_real *b1, const mb_real *pt, const mb_real *ph,
                     const mb_real *I, mb_real c1, mb_real c2, mb_real *x, mb_real *y);
/* mb_f2_canonical.c: the sigma reset of 6.3.4 after an accepted step of F2 or F3 (an accept). */
int mbi_sigma_reset(mb_sim *s, int *reeval);
/* The reset's test (6.3.4, F2-F4, after an accepted step): |sigma|_2 above p.sigma_reset, or
 * |Phi_q^T sigma|_2 above p.sigma_reset_ratio x the momentum scale (the run's largest |M v|_2):
 * the monitors' sigma_ratio, measured at the previous step's end (mbi_update_max; 0 after a
 * reset), so the test costs no evaluation. p = M v + Phi_q^T sigma keeps M v to about
 * eps x that ratio (docs/formulations.md, "sigma reset"). */
static inline int mbi_sigma_reset_due(const mb_sim *s)
{
    return (s->p.sigma_reset > 0 && nrm2(s->nc, s->sig) > s->p.sigma_reset) ||
           (s->p.sigma_reset_ratio > 0 && s->mon.sigma_ratio > s->p.sigma_reset_ratio);
}
/* mb_f3_alf.c: the F3 velocity/sigma~ iteration 5.31-5.37 at (t, q, p, I) -> ev_v, ev_sig,
 * ev_S (also F4's start-up evaluation). */
int mbi_alf_velocity(mb_sim *s, mb_real t, const mb_real *q, const mb_real *p, const mb_real *I);

/* mb_trapezoid.c, for its step control (mb_trapezoid_control.c): one trial step of h ending at
 * t1 (restored on failure); back to the step's start (sigma~ there given); the step taken; the
 * predictor's history after a (sub)step of h. mb_trapezoid_control.c: the row's adaptive and
 * dense slots. */
int mbi_trap_attempt(mb_sim *s, mb_real h, mb_real t1, int adapt);
void mbi_trap_restore(mb_sim *s, mb_real t_old, const mb_real *sig_old);
int mbi_trap_accept(mb_sim *s, mb_real h, mb_real t_new, int st, int adapt);
void mbi_trap_history(mb_sim *s, mb_real h);
int mbi_trap_control(mb_sim *s, mb_real t_stop, const mbi_step0 *b);
int mbi_trap_dense(mb_sim *s, mb_real t, mb_real *q, mb_real *v, mb_monitor *mo);

/* mb_monitor.c: energies, constraint norms and powers at the current state. */
void mbi_measure(mb_sim *s, mb_real *pnc, mb_real *pdrv);
/* mb_monitor.c: the same at (t, q, v) with sigma sig (F2-F4) or lambda lam (F1) into o. */
void mbi_measure_at(mb_sim *s, mb_real t, const mb_real *q, const mb_real *v, const mb_real *sig,
                    const mb_real *lam, mb_monitor *o, mb_real *pnc, mb_real *pdrv);
/* mb_monitor.c: after an accepted step (monitor advanced, maxiter_events at its start given):
 * records the warnings (MB_WARN_*) met for the first time; returns the bits of every condition
 * this step meets, a disabled check (threshold 0) tested at its default threshold. */
unsigned mbi_warnings(mb_sim *s, long maxiter_before);
#if MBI_GE || MBI_XGE || MBI_ACC
/* mb_monitor.c: the accuracy companions' difference in tolerances of the mechanism's size:
 * max_i |a_i - b_i| / (atol + rtol max(|q_i|, lscale)) over the n positions (b NULL: 0), NaN
 * when one is; the companions' err_sum takes its largest value (mb_rk.c, mb_trapezoid_control.c),
 * the signed sums their value (mb_bdf.c, acc_step; mb_trapezoid_control.c, trap_acc) */
mb_real mbi_err_tols(const mb_sim *s, const mb_real *a, const mb_real *b, const mb_real *q);
#endif
#if MBI_ACC
/* mb_monitor.c: the signed sums' velocity error (bdf's acc_step, the trapezoid's trap_acc): dv
 * <- its part tangent to the constraints with the factors of S the last evaluation left (F4:
 * mbi_acc_s4's; y, pr scratch of nc, n); the damping factor c of a step of h ending at (t1, q,
 * v) (0: no dampers), and B damped by it; F4: minv <- M^-1 and S factored in A's block where
 * there are constraints (nonzero: not factored) */
void mbi_acc_tangent(mb_sim *s, const mb_real *minv, mb_real *dv, mb_real *y, mb_real *pr);
mb_real mbi_acc_damping(mb_sim *s, mb_real t1, mb_real h, const mb_real *q, const mb_real *v,
                        const mb_real *minv);
void mbi_acc_damp(mb_sim *s, mb_real c, const mb_real *minv, int tangent, mb_real *B, mb_real *dv,
                  mb_real *y, mb_real *pr);
#if MBI_F4
int mbi_acc_s4(mb_sim *s, mb_real *minv);
#endif
#endif
#if MBI_EXPLICIT && !MBI_ONLY
/* mb_rk.c: 1 when the hand-written tables of nonzero stage weights (nz) of rk4, dopri5 and
 * dop853 match their weight tables (tests/test_runtime.c) */
int mbi_rk_nz_check(void);
#endif
#if MBI_GE
/* mb_rk.c: dopri5's and dop853's accuracy companion compares the run's steps it has pending
 * (mb_sim_finish); 1 when it did */
int mbi_rk_finish(mb_sim *s);
#endif
#if MBI_XGE
/* mb_trapezoid_control.c: the extrapolated trapezoid's companion likewise */
int mbi_trap_finish(mb_sim *s);
#endif
/* mb_monitor.c: energy_dev and the running maxima from the current monitor values. */
void mbi_update_max(mb_sim *s);
/* mb_monitor.c: after a step of dt: measure, add the step's work, update the maxima. The work of
 * the loads (P_nc, F1's driver power) over the step: *wq when given (the adaptive integrators'
 * own quadrature), else the trapezoidal rule on pnc_old, pdrv_old and the new powers. */
void mbi_advance_monitor(mb_sim *s, mb_real dt, mb_real pnc_old, mb_real pdrv_old, const mb_real *wq);
/* mb_monitor.c: that trapezoidal rule alone, with the drivers' work of F2-F4 from S - S0
 * (also F4's held step, before the monitors see it). */
mb_real mbi_step_work(const mb_sim *s, mb_real dt, mb_real pnc_old, mb_real pnc, mb_real pdrv_old,
                      mb_real pdrv);

#endif /* MB_SIM_IMPL_H */
