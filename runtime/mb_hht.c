/* mb_hht.c - the HHT-alpha integrator (Hilber, Hughes, Taylor 1977; the ADAMS seed's section 8,
 * "Newmark and HHT") on F1's equations in index-3 form, M a + Phi_q^T lambda = Q, Phi(q, t) = 0,
 * with a Newton iteration on the generated sparse Jacobians. Fixed step, for real-time use.
 * Layer: runtime core (mb_sim_impl.h), integrator MB_HHT; never allocates or prints.
 *
 * The step (Negrut, Rampalli, Ottarsson, Sajdak 2007: HHT on index-3 DAEs, as in ADAMS):
 *   q1 = q0 + h v0 + h^2 (1/2 - beta) a0 + h^2 beta a1,   v1 = v0 + h (1 - gamma) a0 + h gamma a1,
 *   M a1 + (1 + alpha) (Phi_q^T lambda - Q)_1 - alpha (Phi_q^T lambda - Q)_0 = 0,   Phi(q1) = 0,
 * beta = (1 - alpha)^2 / 4, gamma = 1/2 - alpha, alpha in [-1/3, 0]. alpha = 0 is Newmark's
 * average acceleration (the trapezoidal rule: no damping, energy kept exactly on a linear
 * oscillator); alpha < 0 damps the high frequencies, spectral radius (1 + alpha) / (1 - alpha) as
 * h w -> infinity, and stays second order. The position constraint is enforced at every step
 * (index 3): no Baumgarte terms, so p.xi and p.omega are not used.
 *
 * The linear system. Newton's matrix for [a1; lambda] is the KKT matrix [[J, Phi_q^T], [Phi_q, 0]]
 * with J = M + (1 + alpha) (-beta h^2 Q_q - gamma h Q_v) (the term (Phi_q^T lambda)_q is left out
 * as F4 leaves it out: it changes the rate, not the solution), and its Schur complement on M^-1
 * (mb_kkt.c) does not apply since J is not diagonal. The multipliers are therefore found by the
 * augmented Lagrangian iteration F3 and F4 use: the n x n matrix J + pen Phi_q^T Phi_q (plan A,
 * unsymmetric LU: the same slot and storage as F4's Newton matrix) solves for a1 with lambda
 * held at lambda + rho Phi, and lambda += rho Phi after every update, rho = pen / ((1 + alpha)
 * beta h^2) (so that the penalty is pen in the matrix). It converges to the KKT solution at a rate
 * of about |J| / pen per iteration, and keeps J + pen Phi_q^T Phi_q positive definite where
 * Phi_q loses rank (a singular position), where the KKT matrix itself is singular. pen is
 * p.alpha, 0 meaning HHT_PENALTY.
 *
 * The last multiplier update, at the converged a, takes Phi linearized from the last iterate,
 * Phi + Phi_q beta h^2 da, not Phi evaluated there: that is the constraint the converged a
 * satisfies (the matrix is the linearization), and the evaluated Phi is at its rounding floor
 * eps |q| there, which rho = pen / ((1 + alpha) beta h^2) would turn into multiplier noise
 * growing as pen / h^2. Through the driver work lambda^T Phi_t that noise would be the energy
 * deviation of the driven double pendulum (tests/models/audit_driven.lua, 20 s): 1.7e-2 J at
 * h = 1e-3 and 0.27 J at 2e-4 (an energy warning), proportional to pen from 1e4 to 1e10, while
 * the trajectory converges at second order; with the linearized Phi it is 9.4e-5 J and 3.7e-6 J
 * (second order too), with the same Newton iterations and the same singular passages (the
 * parallelogram chain, 100 s). */
#include "mb_sim_impl.h"
#include "mb_sparse.h"

#if MBI_HHT

/* pen when p.alpha is 0 (F1's default): F4's default alpha. In float the masses would vanish next
 * to it in the matrix's rounding, so float takes 1e4 (as F4's float tests do, 1e5). */
#if MB_FLOAT
#define HHT_PENALTY MB_R(1e4)
#else
#define HHT_PENALTY MB_R(1e8)
#endif

/* Round-off stall, as F4's: a position correction below HHT_ROUNDOFF |q|_2 that has not halved
 * the smallest one for HHT_STALL iterations in a row is the arithmetic's floor: converged. */
#define HHT_ROUNDOFF (100 * MB_EPS)
#define HHT_STALL 3
/* Newton at max_iter with a last position correction above HHT_FAR (1 + |q|_inf) is diverging
 * (MB_ERR_NEWTON), below it merely slow (kept, MB_EVENT_NEWTON_MAXITER); as F4's NEWTON_FAR. */
#define HHT_FAR (MB_R(1e-6) > 1000 * MB_EPS ? MB_R(1e-6) : 1000 * MB_EPS)

/* hr = Phi_q^T lam - Q with Phi_q, Q of the current evaluation (s->Pq, s->Q) */
static void hht_force_residual(mb_sim *s, const mb_real *lam)
{
    for (int i = 0; i < s->n; i++) s->hr[i] = -s->Q[i];
    pq_mtv(s->m, s->Pq, lam, 1, s->hr);
}

/* a_0 and lambda_0 from the index-1 system M a + Phi_q^T lambda = Q, Phi_q a = Gamma (the state
 * is assembled: Phi = 0, Phidot = 0), so that the first step starts consistent. */
static int hht_start(mb_sim *s, mb_real t0)
{
    const mb_model *m = s->m;
    int n = s->n;
    const mb_real *q = s->z, *v = s->z + n;
    mbi_eval_kin(s, t0, q);
    m->gamma(m, t0, q, v, s->Gam);
    m->force(m, t0, q, v, s->Q);
    int st = mbi_kkt_solve(s, s->Q, s->Gam, s->fz + n, s->ev_lam);
    if (st) return st;
    copy(n, s->fz, v);
    copy(n, s->ev_v, v);
    hht_force_residual(s, s->ev_lam);
    mbi_take_eval(s);
    s->have_f = 1;
    return MB_OK;
}

/* Back to the step's start: q, v from zold and v0 (mb_sim_step keeps them), a and lambda. */
static void hht_restore(mb_sim *s, const mb_real *a0, const mb_real *lam0)
{
    int n = s->n;
    copy(2 * n, s->z, s->zold);
    copy(n, s->v, s->v0);
    copy(n, s->fz, s->v);
    copy(n, s->fz + n, a0);
    copy(s->nc, s->lam, lam0);
}

static int hht_iterate(mb_sim *s, mb_real h, mb_real t1, const mb_real *a0)
{
    const mb_model *m = s->m;
    const mb_plan *P = m->plan;
    int n = s->n, nc = s->nc;
    mb_real al = s->p.hht_alpha, be = (1 - al) * (1 - al) / 4, ga = MB_R(0.5) - al;
    mb_real pen = s->p.alpha > 0 ? s->p.alpha : HHT_PENALTY;
    mb_real cq = be * h * h, cv = ga * h, rho = pen / ((1 + al) * cq);
    mb_real *q = s->z, *v = s->z + n, *a = s->fz + n, *lam = s->lam;
    const mb_real *q0 = s->zold, *v0 = s->zold + n;
    const MBI_VIEW(MB_VIEW_HHT) w = MBI_VIEW_OF(MB_VIEW_HHT);   /* its blocks (mb_layout.h) */
    mb_real *e = w.e, *sv = w.sv, *pl = w.pl;
    /* the known part of q1 and v1 (qp) */
    mb_real *qp = w.qp, *vp = s->v;
    for (int i = 0; i < n; i++) {
        qp[i] = q0[i] + h * v0[i] + h * h * (MB_R(0.5) - be) * a0[i];
        vp[i] = v0[i] + h * (1 - ga) * a0[i];
    }
    int it, conv = 0, stall = 0;
    mb_real ny = 0, best = MB_R(1e30);
    for (it = 0;; it++) {
        for (int i = 0; i < n; i++) { q[i] = qp[i] + cq * a[i]; v[i] = vp[i] + cv * a[i]; }
        int last = conv || it == s->p.max_iter;
        if (last && it > 0) {   /* before the evaluation: Phi, Phi_q of the last iterate, its da */
            pq_mv(m, s->Pq, e, pl);
            for (int r = 0; r < nc; r++) pl[r] = s->Phi[r] + cq * pl[r];
        }
        if (last) mbi_eval_kin(s, t1, q);
        else mbi_eval_kin_dyn(s, t1, q, v);
        /* the multiplier update after each update of a; the last one with Phi linearized at
         * the new a, Phi + Phi_q cq da (pl, above) */
        if (it > 0) for (int r = 0; r < nc; r++) lam[r] += rho * (last ? pl[r] : s->Phi[r]);
        if (last) break;
        /* residual e = M a + (1 + alpha) (Phi_q^T (lambda + rho Phi) - Q) - alpha hr_0 */
        for (int r = 0; r < nc; r++) sv[r] = lam[r] + rho * s->Phi[r];
        for (int i = 0; i < n; i++) e[i] = -s->Q[i];
        pq_mtv(m, s->Pq, sv, 1, e);
        for (int i = 0; i < n; i++) e[i] = -(m->mass[i] * a[i] + (1 + al) * e[i] - al * s->hr[i]);
        /* its derivative in a: M + pen Phi_q^T Phi_q - (1 + alpha) (beta h^2 Q_q + gamma h Q_v) */
        for (int k = 0; k < s->nnz; k++) s->Ek[k] = pen * s->Pq[k];
        mbi_assemble_a(s, s->Ek, s->Pq, 1);
        for (int k = 0; k < m->dq_dq_pat.nnz; k++) s->FA[P->dqq_dst[k]] -= (1 + al) * cq * s->dQq[k];
        for (int k = 0; k < m->dq_dv_pat.nnz; k++) s->FA[P->dqv_dst[k]] -= (1 + al) * cv * s->dQv[k];
        int st = mbi_ls_factor(s, MB_MAT_A_LU, 0);
        if (st) return st;
        mbi_ls_solve(s, MB_MAT_A_LU, e);
        ny = cq * MB_SQRT(dot(n, e, e));      /* the position correction */
        if (!isfinite(ny)) return MB_ERR_NONFINITE;
        for (int i = 0; i < n; i++) a[i] += e[i];
        s->mon.newton_iters++;
        if (ny < s->p.tol) { conv = 1; continue; }
        if (ny > HHT_ROUNDOFF * MB_SQRT(dot(n, q, q)) || ny < best / 2) stall = 0;
        else if (++stall >= HHT_STALL) { conv = 1; s->mon.newton_roundoff++; }
        if (ny < best) best = ny;
    }
    if (!finite_vec(2 * n, s->z) || !finite_vec(n, a) || !finite_vec(nc, lam)) return MB_ERR_NONFINITE;
    if (!conv) {
        s->mon.maxiter_events++;
        if (s->p.strict_newton || ny > HHT_FAR * (1 + nrminf(n, q))) return MB_ERR_NEWTON;
        return MB_EVENT_NEWTON_MAXITER;
    }
    return MB_OK;
}

/* One fixed HHT-alpha step of h ending at t_new (restored on failure; the monitor is not
 * advanced). */
static int hht_step(mb_sim *s, mb_real h, mb_real t_new)
{
    int n = s->n;
    mb_real al = s->p.hht_alpha;
    const MBI_VIEW(MB_VIEW_HHT0) w = MBI_VIEW_OF(MB_VIEW_HHT0);
    mb_real *a0 = s->ztmp, *lam0 = w.lam0;   /* (v0: v at the start, mb_sim_step) */
    copy(n, a0, s->fz + n);
    copy(s->nc, lam0, s->lam);
    int st = hht_iterate(s, h, t_new, a0);
    if (st >= 0) {                            /* energies must be finite too */
        mb_real e[3];
        s->m->energy(s->m, t_new, s->z, s->z + n, e);
        if (!isfinite(e[0] + e[1] + e[2])) st = MB_ERR_NONFINITE;
    }
    if (st < 0) { hht_restore(s, a0, lam0); return st; }
    /* the converged equation gives the new average term without another force evaluation:
     * (Phi_q^T lambda - Q)_1 = (alpha hr_0 - M a1) / (1 + alpha) */
    for (int i = 0; i < n; i++) s->hr[i] = (al * s->hr[i] - s->m->mass[i] * s->fz[n + i]) / (1 + al);
    copy(n, s->v, s->z + n);
    copy(n, s->fz, s->v);
    copy(n, s->ev_v, s->v);
    copy(s->nc, s->ev_lam, s->lam);
    s->t = t_new;
    return st;
}
#if MBI_EVENTS
/* Events (mb_event.c): back to the start of the step just taken (mb_sim_step's zold and v0, a
 * and lambda as hht_step kept them in ztmp and lam0), to take it again to a gap's root; the
 * force residual there evaluated again (the step replaced it by its converged equation's). */
int mbi_hht_undo(mb_sim *s, mb_real t_start)
{
    const mb_model *m = s->m;
    const MBI_VIEW(MB_VIEW_HHT0) w = MBI_VIEW_OF(MB_VIEW_HHT0);
    int n = s->n;
    hht_restore(s, s->ztmp, w.lam0);
    copy(s->nc, s->S, s->S0);
    s->t = t_start;
    mbi_eval_kin(s, t_start, s->z);
    m->force(m, t_start, s->z, s->z + n, s->Q);
    hht_force_residual(s, s->lam);
    copy(n, s->ev_v, s->v);
    copy(s->nc, s->ev_lam, s->lam);
    return MB_OK;
}
#endif

/* F1's equations only (mb_sim.c's list); alpha in [-1/3, 0]; no velocity projection */
static int hht_check(const mb_params *p)
{
    if (!(p->hht_alpha >= -MB_R(1.0) / 3 && p->hht_alpha <= 0)) return MBI_PM_HHT_ALPHA;
    if (p->project_velocity) return MBI_PM_HHT_PROJ;
    return -1;
}

const mbi_integ mbi_integ_hht = {hht_start, NULL, hht_step, NULL, NULL, mbi_undo_step, hht_check};
#endif /* MBI_HHT */
