/* mb_f4_trapezoid.c - F4 alf-trapezoid (5.38-5.60): the implicit trapezoidal step with Newton on
 * [q; p] and sigma~ updated by 5.34, its optional full Jacobian, start-up and failure restore.
 * Layer: runtime core, one row of the formulation table and one of the integrator table
 * (mb_sim_impl.h: trapezoid); never allocates or prints. */
#include "mb_sim_impl.h"
#include "mb_sparse.h"

#if MBI_F4

/* ------------------------------------------------------------------ Newton step */

/* A Newton step that stops at max_iter with a last correction above NEWTON_FAR (1 + |y|_inf) is
 * diverging, below it merely slow (kept, MB_EVENT_NEWTON_MAXITER). 1e-6 in double; in float
 * 1e-6 is 8 eps, and a float iteration that has stalled at its rounding floor still corrects
 * by up to 12 eps of the state (double pendulum, alpha 1e5: 2e-7 .. 1.4e-6 relative), so the
 * floor is 1000 eps: 1.2e-4 in float (100x above that noise), unchanged 1e-6 in double. */
#define NEWTON_FAR (MB_R(1e-6) > 1000 * MB_EPS ? MB_R(1e-6) : 1000 * MB_EPS)

/* Round-off stall: a correction below NEWTON_ROUNDOFF |y|_2 is noise of the residual's rounding
 * (the float iteration above stalls at up to 12 eps); when it has not halved the smallest one
 * for NEWTON_STALL iterations in a row, tol is below what the arithmetic resolves and more
 * iterations change nothing: the step is accepted as converged (mon.newton_roundoff). */
#define NEWTON_ROUNDOFF (100 * MB_EPS)
#define NEWTON_STALL 3


#if MBI_FJ
/* The terms 5.45-5.47 neglect: (Phi_q^T s)_q, (Phidot_q^T s)_q and (Phidot_q^T s)_v with
 * the multipliers s held fixed, by central differences of the model's Phi_q and Phidot_q
 * (the interface has no second derivatives). Adds h/2 K1 - h^2/4 K2q - h/2 K2v to the reduced
 * matrix in the plan storage FA and keeps K2 = h/2 K2q + K2v for 5.53 in scr + n*n (dense; the
 * terms lie on the pattern of Phi_q^T Phi_q, so every non-zero has its place in FA). Cost: 4n
 * extra Jacobians. */
void mbi_geometric_terms(mb_sim *s, mb_real t1, mb_real *q, const mb_real *sv, mb_real h)
{
    const mb_model *m = s->m;
    int n = s->n;
    mb_real *A = s->scr, *K2 = s->scr + (size_t)n * n, *col = s->tn[5], *cm = s->tn[6];
    mb_real *Pt = s->tn[7], *vv = s->tn[4];
    mb_real *Ptmp = s->kb;   /* kb holds nnz values */
    for (long k = 0; k < (long)n * n; k++) A[k] = 0;
    for (int j = 0; j < n; j++) {
        mb_real qj = q[j], e = MB_SQRT(MB_EPS) * (1 + MB_FABS(qj));
        /* (Phi_q^T s)_q column j */
        q[j] = qj + e; m->phi_q(m, t1, q, Ptmp); zero(n, col); pq_mtv(m, Ptmp, sv, 1, col);
        q[j] = qj - e; m->phi_q(m, t1, q, Ptmp); zero(n, cm); pq_mtv(m, Ptmp, sv, 1, cm);
        for (int i = 0; i < n; i++) A[i + (long)j * n] += h / 2 * (col[i] - cm[i]) / (2 * e);
        /* (Phidot_q^T s)_q column j */
        q[j] = qj + e; m->phi_q_dot(m, t1, q, s->v, Ptmp); zero(n, col); pq_mtv(m, Ptmp, sv, 1, col);
        q[j] = qj - e; m->phi_q_dot(m, t1, q, s->v, Ptmp); zero(n, cm); pq_mtv(m, Ptmp, sv, 1, cm);
        q[j] = qj;
        for (int i = 0; i < n; i++) K2[i + (long)j * n] = h / 2 * (col[i] - cm[i]) / (2 * e);
        /* (Phidot_q^T s)_v column j: Phidot_q = (Phi_q)_q v + Phi_qt is affine in v, so the
         * column is Phidot_q(e_j) - Phidot_q(0) */
        zero(n, vv); vv[j] = 1;
        m->phi_q_dot(m, t1, q, vv, Ptmp); zero(n, Pt); pq_mtv(m, Ptmp, sv, 1, Pt);
        vv[j] = 0;
        m->phi_q_dot(m, t1, q, vv, Ptmp); pq_mtv(m, Ptmp, sv, -1, Pt);
        for (int i = 0; i < n; i++) {
            K2[i + (long)j * n] += Pt[i];
            A[i + (long)j * n] -= h / 2 * K2[i + (long)j * n];
        }
    }
    const mb_symbolic *sy = &m->plan->a;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            mb_real e = A[i + (long)j * n];
            if (e == 0) continue;
            int d = mb_sp_locate(sy, sy->pinv[i], sy->pinv[j]);
            if (d >= 0) s->FA[d] += e;
        }
}
#endif

/* The reduced Newton matrix (5.45, 5.47, 5.52) straight into the plan storage FA (its factor
 * E in s->Ek: with the trapezoid the block of dq and dp, free while the matrix is formed):
 * M + a (Phi_q - h/2 Phidot_q)^T D - h^2/4 dQ/dq - h/2 dQ/dv with D = c1 Phi_q + h/2 Phidot_q
 * = h/2 dc/dq (see trap_step). Each term pairs two entries k, l of one row of Phi_q (mb_plan
 * a_k, a_l): its lower-triangle value goes to a_dst, its transpose nl further. */
void mbi_newton_matrix(mb_sim *s, mb_real a, mb_real c1, mb_real h)
{
    const mb_model *m = s->m;
    const mb_plan *P = m->plan;
    mb_real *A = s->FA, *E = s->Ek, *D = s->Dk;
#if MB_WITH_F4_KERNELS
    if (P->f4) {   /* the unrolled form: the same sums, straight into FA */
        P->f4->matrix(A, D, m->mass, s->Pq, s->Pqd, s->dQq, s->dQv, a, c1, h);
        return;
    }
#endif
    for (int k = 0; k < s->nnz; k++) {   /* the two factors of every term, once per entry */
        E[k] = a * (s->Pq[k] - h / 2 * s->Pqd[k]);
        D[k] = c1 * s->Pq[k] + h / 2 * s->Pqd[k];
    }
    mbi_assemble_a(s, E, D, 1);
    for (int k = 0; k < m->dq_dq_pat.nnz; k++) A[P->dqq_dst[k]] -= h * h / 4 * s->dQq[k];
    for (int k = 0; k < m->dq_dv_pat.nnz; k++) A[P->dqv_dst[k]] -= h / 2 * s->dQv[k];
}

/* One implicit trapezoid step of F4 (5.54-5.60), Newton on y = [q; p] with the reduced n x n
 * system (5.52, 5.53) and sigma~ updated by 5.34 after each update of y.
 * The matrix differentiates c = Phi_q v + Phi_t + 2 xi w Phi + w^2 I (v = 2/h (q - q_k) - v_k)
 * exactly: h/2 dc/dq = c1 Phi_q + h/2 Phidot_q. The thesis (5.45-5.47) keeps c1 Phi_q only and
 * adds h w^2/2 Int Phi_q (5.55); both differ from the derivative at a singular position, where
 * u^T Phi_q = 0 for the lost-rank direction u and u^T c depends on q only through
 * u^T Phidot_q:
 * - without the h/2 Phidot_q term Newton does not see u^T c, and the sigma~ update 5.34 pumps
 *   u^T sigma~ by alpha u^T c every iteration: the iteration diverged on every step that landed
 *   on the four-bar's singular position;
 * - I = Int Phi is advanced by explicit Euler from q_k (5.54), so it does not depend on the
 *   iterate at all, and Int Phi_q is no part of dc/dq. Its rows are a time average of Phi_q's,
 *   so u^T Int Phi_q does not vanish where u^T Phi_q does, and it grows with the time run: the
 *   term gave Newton a wrong sensitivity of u^T c, of relative size h w^2/2 |Int Phi_q| /
 *   (c1 |u^T Phi_q|). On the two-loop parallelogram chain (h = 1e-3) it made every step that
 *   ended within about 3e-4 rad of a singular position at t = 10 s diverge (the band widens
 *   with t; docs/formulations.md). It is left out, and Int Phi_q is not accumulated. */
/* Modified Newton (newton_reuse): the factorization of a step's first iteration is kept while
 * every correction is at most REUSE_RATE times the one before; a slower one refactors at the
 * next iteration. Never across steps: with alpha ~ 1e8 a matrix one step old is off by
 * ~alpha |dq| in the mass-dominated directions and the next step converged in more iterations
 * than the factorizations saved (Andrews, chain, double pendulum all slower). */
#define REUSE_RATE MB_R(0.25)
/* Whether to try reuse in a step at all: where the kept matrix contracts slowly (a stale
 * correction more than REUSE_SLOW of the one before: larger steps, faster dynamics) its first
 * stale iteration is mostly wasted and full Newton is cheaper (the 4-link chain at h = 1e-3:
 * 16 % more instructions with reuse in every step). Such a step makes the next REUSE_WAIT steps
 * (accepted ones: trap_accept) use full Newton, after which reuse is tried again; on Andrews
 * (h = 1e-5) every stale correction shrinks more than 10x and reuse stays on. Deterministic:
 * counts, not clocks. */
#define REUSE_SLOW MB_R(0.1)
#define REUSE_WAIT 32
/* The rate-based stop (trap_step) accepts an iterate whose estimated remaining error is below
 * NEWTON_KAPPA tol. The test |dy| < tol alone leaves about theta tol (theta << 1 here), so 1
 * would loosen what --tol means by 1/theta: in float at tol = 1e-4 the double pendulum's energy
 * error over 5 s grew from below 0.2 J to 0.24 J (test_embed). With 0.1, Andrews at h = 1e-5 to
 * t = 0.03 takes 7428 corrections instead of 8329 (86.6 M instructions instead of 92.2 M), its
 * angles within 2.5e-8 rad of before against the trapezoid's own 1.2e-5 rad (h against h/2). */
#define NEWTON_KAPPA MB_R(0.1)

#if MBI_F4A
/* Adaptive runs: Newton at max_iter keeps the step when its last correction is at most
 * NEWTON_KEEP of the error tolerance (weighted RMS, trap_wnorm): an iteration error that small
 * is noise next to the local error the step is allowed (near singular positions the iteration
 * stalls around 1e-9 above tol, while the step is good). Larger: the step is rejected. */
#define NEWTON_KEEP MB_R(0.1)

/* Weighted RMS of e = [eq; ep] (n each) over the components of [q; p], each scaled by
 * atol + rtol max(|y_k,i|, |y_i|) (zk: the step's start, z: its end), times c. */
static mb_real trap_wnorm(const mb_sim *s, const mb_real *eq, const mb_real *ep, mb_real c)
{
    int n = s->n;
    mb_real acc = 0;
    for (int i = 0; i < 2 * n; i++) {
        mb_real a = MB_FABS(s->zk[i]), b = MB_FABS(s->z[i]);
        mb_real sc = s->p.atol + s->p.rtol * (a > b ? a : b);
        mb_real e = c * (i < n ? eq[i] : ep[i - n]) / sc;
        acc += e * e;
    }
    return MB_SQRT(acc / (mb_real)(2 * n));
}
#endif

/* The pieces of F4's Newton iteration shared by the trapezoid (trap_step) and bdf on F4
 * (mb_bdf.c, correct4); g is the step's weight of the derivatives: h/2 for the trapezoid, the
 * BDF corrector's gamma. After an evaluation at the iterate (s->v, Phi, Phi_t, Phi_q):
 * c = Phi_q v + Phi_t + 2 xi omega Phi + omega^2 I into s->cv, and with upd sigma~ += alpha c
 * (5.34 after each update of y). */
void mbi_f4_constraint(mb_sim *s, const mb_real *I, int upd)
{
    int nc = s->nc;
    mb_real *c = s->cv, *sig = s->sig, a = s->p.alpha, w = s->p.omega;
    mb_real k1 = 2 * s->p.xi * w, k2 = w * w;
    const mb_real *Phit = s->Phit, *Phi = s->Phi;
#if MB_WITH_F4_KERNELS
    const mb_plan *P = s->m->plan;
    if (P->f4) {   /* the unrolled form */
        P->f4->constraint(c, upd ? sig : NULL, s->Pq, s->v, Phit, Phi, I, k1, k2, a);
        return;
    }
#endif
    pq_mv(s->m, s->Pq, s->v, c);
    for (int r = 0; r < nc; r++) c[r] += Phit[r] + k1 * Phi[r] + k2 * I[r];
    if (upd)
        for (int r = 0; r < nc; r++) sig[r] += a * c[r];
}

/* sv = sigma~ + alpha c and the residuals 5.41, 5.42 times g: g1 = g (M v - p + Phi_q^T sv),
 * g2 = g (pdot - Q - Phidot_q^T sv), with Q and Phidot_q at the iterate. */
void mbi_f4_residual(mb_sim *s, const mb_real *p, mb_real g, mb_real *sv, mb_real *g1, mb_real *g2)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
#if MB_WITH_F4_KERNELS
    if (m->plan->f4) {   /* the unrolled form */
        m->plan->f4->residual(sv, g1, g2, s->sig, s->cv, m->mass, s->v, p, s->pd, s->Q, s->Pq, s->Pqd,
                              s->p.alpha, g);
        return;
    }
#endif
    for (int r = 0; r < nc; r++) sv[r] = s->sig[r] + s->p.alpha * s->cv[r];
    for (int i = 0; i < n; i++) { g1[i] = m->mass[i] * s->v[i] - p[i]; g2[i] = s->pd[i] - s->Q[i]; }
    pq_mtv(m, s->Pq, sv, 1, g1);      /* + Phi_q^T s */
    pq_mtv(m, s->Pqd, sv, -1, g2);    /* - Phidot_q^T s */
    for (int i = 0; i < n; i++) { g1[i] *= g; g2[i] *= g; }
}

/* 5.53's -dg2/dq dq = (g dQ/dq + dQ/dv + Phidot_q^T alpha D) dq into tmpn (n) with D the
 * matrix's (s->Dk); tmpm: nc scratch. Then dp = -g2 + tmpn. */
void mbi_f4_dg2(mb_sim *s, const mb_real *dq, mb_real g, mb_real *tmpn, mb_real *tmpm)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
#if MB_WITH_F4_KERNELS
    if (m->plan->f4) {   /* the unrolled form (tmpm unused) */
        m->plan->f4->dg2(tmpn, dq, s->dQq, s->dQv, s->Dk, s->Pqd, s->p.alpha, g);
        return;
    }
#endif
    zero(n, tmpn);
    for (int k = 0; k < m->dq_dq_pat.nnz; k++) tmpn[m->dq_dq_pat.row[k]] += g * s->dQq[k] * dq[m->dq_dq_pat.col[k]];
    for (int k = 0; k < m->dq_dv_pat.nnz; k++) tmpn[m->dq_dv_pat.row[k]] += s->dQv[k] * dq[m->dq_dv_pat.col[k]];
    pq_mv(m, s->Dk, dq, tmpm);
    for (int r = 0; r < nc; r++) tmpm[r] *= s->p.alpha;
    pq_mtv(m, s->Pqd, tmpm, 1, tmpn);
}

/* The shift of the sigma reset (6.3.4) at the current state: p -= Phi_q^T sigma~,
 * pdot -= Phidot_q^T sigma~ (so 5.30 and 5.32 still hold), the work's reference tm[3] likewise,
 * sigma~ = 0. The trapezoid's sigma reset and step control, and bdf on F4 (mb_bdf.c). */
void mbi_f4_shift_sigma(mb_sim *s)
{
    const mb_model *m = s->m;
    int nc = s->nc;
    m->phi_q(m, s->t, s->z, s->Pq);
    m->phi_q_dot(m, s->t, s->z, s->v, s->Pqd);
    pq_mtv(m, s->Pq, s->sig, -1, s->z + s->n);
    pq_mtv(m, s->Pqd, s->sig, -1, s->pd);
    for (int r = 0; r < nc; r++) s->tm[3][r] -= s->sig[r];
    zero(nc, s->sig);
}

/* Redundant constraint equations (p.redundant_rows, docs/formulations.md "Redundant
 * constraints"). Phi_q then has a left null vector u (u^T Phi_q = 0) along the whole motion,
 * and u^T c = 2 xi omega u^T Phi + omega^2 u^T I is the rounding of Phi (1e-17 .. 1e-16 on the
 * parallelogram with a third crank) times 2 xi omega = 2e4: the matrix sees c through Phi_q^T,
 * so no correction changes it. 5.34 added alpha u^T c (about 1e-4) to u^T sigma~ at every
 * iteration (a random walk) and s = sigma~ + alpha c took as much again; both moved p through
 * h/2 Phidot_q^T u (u turns with q: u^T Phidot_q is not 0) by about 1e-9 per iteration, ten
 * times tol, with q converged to 1e-15: most steps stopped at max_iter, the motion right (p is
 * free along that direction: the multipliers are not unique). A projection of c onto
 * range(Phi_q) by the Newton matrix is not exact enough (2.6e-3 off on range(Phi_q) there,
 * through the mechanism's own motion, which only M resists; alpha times that in s diverged), so
 * Newton leaves the flagged equations out instead, as the model generated without them would:
 * their rows of Phi_q and Phidot_q are zero in the matrix and the residual, their c is zero
 * (sigma~ keeps them at 0), and the final evaluation of each step is complete (the monitors,
 * Int Phi and the next step see every equation). */
#if MB_WITH_REDUNDANT_ROWS
#define ROWS_IMPLIED MB_R(1e3)

/* At a step's start: a flagged equation's sigma~ (from the start-up's, before the flags were
 * given) moved into p and pdot as a sigma reset does (mbi_f4_shift_sigma) for that row alone,
 * so that leaving its rows out changes nothing. cv: nc scratch (free between steps). */
static void trap_rows_start(mb_sim *s, const unsigned char *dr)
{
    const mb_model *m = s->m;
    int nc = s->nc, any = 0;
    mb_real *w = s->cv;
    for (int r = 0; r < nc; r++) {
        w[r] = dr[r] ? s->sig[r] : 0;
        any |= w[r] != 0;
    }
    if (!any) return;
    m->phi_q(m, s->t, s->z, s->Pq);
    m->phi_q_dot(m, s->t, s->z, s->v, s->Pqd);
    pq_mtv(m, s->Pq, w, -1, s->z + s->n);
    pq_mtv(m, s->Pqd, w, -1, s->pd);
    for (int r = 0; r < nc; r++) {
        s->tm[3][r] -= w[r];
        s->sig[r] -= w[r];
    }
}

/* The flagged rows of Phi_q and Phidot_q zeroed, for the matrix and the residual */
static void trap_rows_drop(mb_sim *s, const unsigned char *dr)
{
    const mb_pattern *pt = &s->m->phi_q_pat;
    for (int k = 0; k < pt->nnz; k++)
        if (dr[pt->row[k]]) s->Pq[k] = s->Pqd[k] = 0;
}

/* After a step: whether the flagged equations still follow from the others, their |Phi| within
 * ROWS_IMPLIED of the others' (plus round-off of the length scale). A rank loss only at the
 * start (a singular position: the start-up check cannot tell) fails this as soon as the
 * mechanism leaves it, and the flags are dropped: Newton takes every equation from then on. */
static int trap_rows_implied(const mb_sim *s, const unsigned char *dr)
{
    mb_real ind = 0, dep = 0;
    for (int r = 0; r < s->nc; r++) {
        mb_real e = MB_FABS(s->Phi[r]);
        if (dr[r]) { if (e > dep) dep = e; }
        else if (e > ind) ind = e;
    }
    return dep <= ROWS_IMPLIED * (ind + 100 * MB_EPS * s->mon.lscale);
}
#endif

static int trap_step(mb_sim *s, mb_real h, mb_real t1, int full, int *stale_used, int adapt, int hold,
                     int *diverged)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    mb_real *q = s->z, *p = s->z + n, *I = s->z + 2 * n;
    mb_real *qk = s->zk, *pk = s->zk + n, *vk = s->yd, *pdk = s->yd + n;
    mb_real *g1 = s->tn[0], *g2 = s->tn[1], *dq = s->tn[2], *dp = s->tn[3], *sv = s->tm[0];
    /* 5.53's n-vector in g1: g1 is spent once dq is formed (mb_layout.h: MB_L_F4T) */
    mb_real *tmpm = s->tm[1], *tmpn = g1;
    mb_real *v = s->v, *pd = s->pd;
    mb_real a = s->p.alpha, xi = s->p.xi, w = s->p.omega;
    mb_real c1 = 1 + h * xi * w, h2 = h / 2, ih2 = 2 / h;   /* the loops' factors, hoisted */
#if MB_WITH_REDUNDANT_ROWS
    const unsigned char *dr = s->p.redundant_rows;   /* equations left out (see above) */
    if (dr) trap_rows_start(s, dr);
#else
    const unsigned char *dr = NULL;                   /* (compiled out: the lean firmware) */
#endif
    copy(s->nz, s->zk, s->z);
    copy(n, vk, s->v);
    copy(n, pdk, s->pd);
    /* 5.54: explicit Euler for Int Phi using q_k (5.55's Int Phi_q: see above); Phi(t_k, q_k) is
     * still in s->Phi when the last evaluation was the previous step's final one (kin_fresh) */
    if (!(s->kin_fresh && s->kin_t == s->t)) {
        /* the fused evaluation where the model has one, as the previous step's final one: its
         * sines (mb_trig.h) are not always libm's bits, and the trajectory must not depend on
         * whether that evaluation was kept (dense output's evaluations clear kin_fresh) */
        if (m->eval_kin) mbi_eval_kin(s, s->t, qk);
        else m->phi(m, s->t, qk, s->Phi);
    }
#if MBI_F4A
    /* the extrapolated trapezoid (p.adaptive 2): Int Phi by the trapezoid, I = I_k + h/2 (Phi_k
     * + Phi(q)) at every iterate, its base in xib; h/2 dc/dq gains (omega h / 2)^2 Phi_q (c1) */
    mb_real *Ib = s->p.adaptive == 2 ? s->xib : NULL;
    if (Ib) {
        for (int r = 0; r < nc; r++) Ib[r] = I[r] + h2 * s->Phi[r];
        c1 += (w * h2) * (w * h2);
    } else
#else
    mb_real *Ib = NULL;
#endif
    for (int r = 0; r < nc; r++) I[r] += h * s->Phi[r];
    /* predictor: 5.56-5.58 print explicit Euler, y = y_k + h ydot_k; with the derivative one
     * accepted step back (ydp, step h_prev) the variable-step Adams-Bashforth 2 instead,
     * y = y_k + h ((1 + r/2) ydot_k - r/2 ydot_k-1), r = h / h_prev: second order, so Newton
     * starts O(h^3) from the solution, not O(h^2) (Andrews, h = 1e-5: 8329 Newton iterations to
     * t = 0.03 instead of 9705). Euler on the first step and after a restart (sigma reset). */
    mb_real ra = s->nhist ? h / s->h_prev / 2 : 0, rb = 1 + ra;
    const mb_real *vm = s->ydp, *pdm = s->ydp + n;
    for (int i = 0; i < n; i++) {   /* and 5.59's derivatives at it (each update below too) */
        mb_real qi = qk[i] + h * (rb * vk[i] - ra * vm[i]), pi = pk[i] + h * (rb * pdk[i] - ra * pdm[i]);
        q[i] = qi;
        p[i] = pi;
        v[i] = ih2 * (qi - qk[i]) - vk[i];
        pd[i] = ih2 * (pi - pk[i]) - pdk[i];
    }
    int reuse = s->p.newton_reuse && s->reuse_wait == 0;
    s->reuse_slow = 0;
    int it, conv = 0, stall = 0, grow = 0, refresh = full || !reuse;
    mb_real ny = 0, best = MB_R(1e30), ny_last = 0;
    *stale_used = 0;
    *diverged = 0;
    s->fact_valid = 0;
    for (it = 0;; it++) {
        /* v, pd: 5.59's derivatives of the current iterate (the predictor's loop, the update's) */
        /* an iteration that goes on needs the dynamics at this state too: one fused call (a
         * kept matrix's iteration as well where the model has it: the sines are shared, and
         * the force Jacobians it refreshes enter only 5.53 below, not the kept factors) */
        int last = conv || it == s->p.max_iter, fresh = refresh || !s->fact_valid;
        int fused = !last && (fresh || m->eval_kin_dyn);
        if (fused) mbi_eval_kin_dyn(s, t1, q, v);
        else mbi_eval_kin(s, t1, q);
        if (Ib) for (int r = 0; r < nc; r++) I[r] = Ib[r] + h2 * s->Phi[r];
        int upd = it > 0 && (!hold || last);                   /* hold: see trap_attempt */
        mbi_f4_constraint(s, I, upd && !dr);
        if (dr) {   /* the flagged equations' c is zero, then 5.34 */
            for (int r = 0; r < nc; r++) if (dr[r]) s->cv[r] = 0;
            if (upd) for (int r = 0; r < nc; r++) s->sig[r] += a * s->cv[r];
        }
        if (last) break;
        if (!fused) {   /* the force Jacobians enter only the matrix and 5.53 */
            m->force(m, t1, q, v, s->Q);
            m->phi_q_dot(m, t1, q, v, s->Pqd);
        }
#if MB_WITH_REDUNDANT_ROWS
        if (dr) trap_rows_drop(s, dr);
#endif
        mbi_f4_residual(s, p, h2, sv, g1, g2);
        if (fresh) {   /* reduced matrix dg1/dq + h/2 dg2/dq (5.45, 5.47, 5.52) */
            s->fact_valid = 0;
            mbi_newton_matrix(s, a, c1, h);
#if MBI_FJ
            /* with sigma~, not s = sigma~ + alpha c: at the predictor alpha c is far from its
             * converged size (mbi_geometric_terms) */
            if (s->p.full_jacobian) mbi_geometric_terms(s, t1, q, s->sig, h);
#endif
            int st = mbi_ls_factor(s, MB_MAT_A_LU, 0);
            if (st) return st;
            s->fact_valid = 1;
            refresh = full || !reuse;
        } else {
            *stale_used = 1;
        }
        for (int i = 0; i < n; i++) dq[i] = -g1[i] - h2 * g2[i];
        mbi_ls_solve(s, MB_MAT_A_LU, dq);
        /* 5.53: dp = -g2 - dg2/dq dq, dg2/dq = -h/2 dQ/dq - dQ/dv
         *                                   - Phidot_q^T a (c1 Phi_q + h/2 Phidot_q) */
        mbi_f4_dg2(s, dq, h2, tmpn, tmpm);
#if MBI_FJ
        if (s->p.full_jacobian) {            /* + K2 dq */
            const mb_real *K2 = s->scr + (size_t)n * n;
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) tmpn[i] += K2[i + (long)j * n] * dq[j];
        }
#endif
        /* dp, |dq|^2 and |dp|^2 (the sums in dot's order), the update (5.60) and 5.59's
         * derivatives at the new iterate, in one pass: the loop's lengths are n, its bodies
         * short, and apart they cost as much as the generated kernels they feed (Andrews) */
        mb_real sq = 0, sp = 0;
        for (int i = 0; i < n; i++) {
            mb_real e = dq[i], d = -g2[i] + tmpn[i];
            dp[i] = d;
            sq += e * e;
            sp += d * d;
            mb_real qi = q[i] + e, pi = p[i] + d;   /* locals: no reload after the stores */
            q[i] = qi;
            p[i] = pi;
            v[i] = ih2 * (qi - qk[i]) - vk[i];
            pd[i] = ih2 * (pi - pk[i]) - pdk[i];
        }
        ny = MB_SQRT(sq + sp);
        /* a NaN or Inf in dq or dp (the caller restores the step's start: trap_attempt) */
        if (!isfinite(ny)) return MB_ERR_NONFINITE;
        s->mon.newton_iters++;
        mb_real ny_prev = ny_last;
        ny_last = ny;
        if (!fresh && ny_prev > 0 && ny > REUSE_SLOW * ny_prev) s->reuse_slow = 1;
        if (!fresh && ny_prev > 0 && ny > REUSE_RATE * ny_prev) refresh = 1;
        /* adaptive: two corrections in a row that grew (after the first sigma~ updates have
         * settled) mean divergence; stop now and let the step be retried smaller. (In float this
         * also fires on round-off: Andrews at its float tol 1e-7 with the extrapolated control;
         * exempting corrections below 100 eps |y| fixed that but, in double, let the parallelogram
         * chain at rtol 1e-9 carry 7385 steps at max_iter through a singular position, 11 J
         * off, instead of stopping: not kept) */
        grow = ny_prev > 0 && ny > ny_prev ? grow + 1 : 0;
        if (adapt && it >= 3 && grow >= 2 && ny > s->p.tol) { s->mon.maxiter_events++; return MB_ERR_NEWTON; }
        if (ny < s->p.tol) { conv = 1; continue; }
        /* The error left after this correction is about theta / (1 - theta) |dy| for a
         * contraction rate theta = |dy| / |dy_prev| (Hairer & Wanner's stopping test of simplified
         * Newton, as in RADAU5): below NEWTON_KAPPA tol it needs no further correction. */
        if (ny_prev > 0 && ny < ny_prev) {
            mb_real th = ny / ny_prev;
            if (th / (1 - th) * ny < NEWTON_KAPPA * s->p.tol) { conv = 1; continue; }
        }
        if (ny < best / 2 || ny > NEWTON_ROUNDOFF * MB_SQRT(dot(2 * n, s->z, s->z))) stall = 0;
        else if (++stall >= NEWTON_STALL) { conv = 1; s->mon.newton_roundoff++; }
        if (ny < best) best = ny;
    }
    s->kin_fresh = 1;                   /* the last evaluation was at the final (t1, q) */
    s->kin_t = t1;
#if MB_WITH_REDUNDANT_ROWS
    if (dr && !trap_rows_implied(s, dr)) s->p.redundant_rows = NULL;
#endif
    if (!finite_vec(s->nz, s->z) || !finite_vec(nc, s->sig)) return MB_ERR_NONFINITE;
    copy(nc, s->S, s->sig);
    if (!conv) {
        s->mon.maxiter_events++;
        /* Far from converged (last correction above NEWTON_FAR of the state's size): diverging,
         * not merely slow; never continue silently from there. */
        mb_real ys = 1 + nrminf(2 * n, s->z);
#if MBI_F4A
        if (adapt) ys = trap_wnorm(s, dq, dp, 1) <= NEWTON_KEEP ? MB_R(1e30) : 0;
#endif
        *diverged = ny > NEWTON_FAR * ys;
        if (s->p.strict_newton || *diverged) return MB_ERR_NEWTON;
        return MB_EVENT_NEWTON_MAXITER;
    }
    return MB_OK;
}

/* ------------------------------------------------------------------ start-up and step */

static int trap_start(mb_sim *s, mb_real t0)
{
    const mb_model *m = s->m;
    int n = s->n, st;
    /* step 5 of 5.4.2: ydot_0 from the F3 evaluation H */
    if ((st = mbi_alf_velocity(s, t0, s->z, s->z + n, s->z + 2 * n))) return st;
    m->force(m, t0, s->z, s->ev_v, s->Q);
    m->phi_q_dot(m, t0, s->z, s->ev_v, s->Pqd);
    copy(n, s->pd, s->Q);
    pq_mtv(m, s->Pqd, s->ev_sig, 1, s->pd);
    return MB_OK;
}

/* Back to the step's start after trap_step: z (with Int Phi), v, pdot and sigma, exactly; the
 * step's factorization no longer applies. */
static void trap_restore(mb_sim *s, mb_real t_old, const mb_real *sig_old)
{
    copy(s->nz, s->z, s->zk);
    copy(s->n, s->v, s->yd);
    copy(s->n, s->pd, s->yd + s->n);
    copy(s->nc, s->sig, sig_old);
    s->t = t_old;
    s->kin_fresh = 0;
    s->fact_valid = 0;
}

/* trap_step, then the energies at the result (into e: s->kin_e) must be finite too; they are
 * kept with the step's last evaluation (kin_fresh 2), for the monitor at the same state */
static int trap_step_checked(mb_sim *s, mb_real h, mb_real t1, int full, int *stale, int adapt,
                             int hold, int *diverged, mb_real *e)
{
    int st = trap_step(s, h, t1, full, stale, adapt, hold, diverged);
    if (st >= 0) {
        s->m->energy(s->m, t1, s->z, s->v, e);
        if (!isfinite(e[0] + e[1] + e[2])) st = MB_ERR_NONFINITE;
        else if (s->kin_fresh && e == s->kin_e) s->kin_fresh = 2;
    }
    return st;
}

/* Whether a held step (trap_attempt) is kept: what it leaves in the constraints,
 * c = (s - sigma~_k) / alpha, below NEWTON_FAR of the velocities (a smaller alpha or a longer
 * step leaves more: the chain of two loops at alpha = 1e4, h = 2e-3 had |c| = 5e-3 and lost
 * 0.4 J after such a step), and its own energy balance, T + V - W across the step as the
 * monitor will count it (mbi_advance_monitor), within WARN_STEP_ENERGY of the energy scale
 * (the double pendulum at h = 0.1 s: 170 J in one held step). A sound held step changes either
 * by round-off (the parallelogram chain at h = 1e-4: |c| = 7e-8). */
#define WARN_STEP_ENERGY MB_R(1e-2)
static MB_NOINLINE int held_step_sane(const mb_sim *s, mb_real h, const mb_real *e)
{
    if (nrm2(s->nc, s->cv) > NEWTON_FAR * (1 + nrm2(s->n, s->v))) return 0;
    mb_real w = mbi_step_work(s, h, s->pnc, e[2], 0, 0);
    mb_real de = e[0] + e[1] - s->mon.T - s->mon.V - w;
    mb_real es = s->mon.escale, en = e[0] + MB_FABS(e[1] - s->mon.V0) + MB_FABS(s->mon.W + w);
    if (en > es) es = en;
    return MB_FABS(de) <= WARN_STEP_ENERGY * es;
}

/* One trial step of h ending at t1, the time the step is taken at (t_new: its final evaluation is
 * then the one the monitors and the next step reuse, kin_fresh, where t_k + h could differ from
 * the grid's time by an ulp and cost an evaluation more; Andrews h = 1e-5: 591 of 3000 steps).
 * Sigma at its start is in tm[3] (mb_sim_step); on failure everything is restored.
 * A fixed step whose iteration diverges (not merely slow) is taken once more with sigma~ held at
 * its start value until the last evaluation (hold; mon.sigma_holds): Newton on a fixed set of
 * equations, the penalty equations with s = sigma~_k + alpha c, and the multiplier update 5.34
 * once at the end; kept only if held_step_sane. Near a singular position the update is what
 * diverges: it adds alpha u^T c to u^T sigma~ every iteration in the lost-rank direction u,
 * where the matrix sees u^T c only through h/2 u^T Phidot_q, so the smaller the step the weaker
 * the control (the change-point four-bar, tests/models/audit_fourbar_cp.lua: h = 1e-4 diverged
 * at t = 2.9923 s with sigma~ pumped from 3 to 1e2 .. 1e13, while h = 2e-3 .. 2.5e-4 passed).
 * Step control (adapt) rejects and retries smaller instead. */
static int trap_attempt(mb_sim *s, mb_real h, mb_real t1, int adapt)
{
    mb_real t_old = s->t, *sig_old = s->tm[3];
    int st, stale = 0, diverged = 0;
    mb_real *e = s->kin_e;   /* the energies at the step's end (trap_step_checked) */
    long me = s->mon.maxiter_events, nr = s->mon.newton_roundoff;
    for (int full = 0; full < 2; full++) {
        st = trap_step_checked(s, h, t1, full, &stale, adapt, 0, &diverged, e);
        if (st == MB_OK || st == MB_EVENT_SIGMA_RESET || !stale) break;
        /* not converged with a kept factorization: the same step again, refactoring at every
         * iteration, so reuse never changes whether or how well a step converges */
        trap_restore(s, t_old, sig_old);
        s->mon.maxiter_events = me;
        s->mon.newton_roundoff = nr;
    }
    if (st == MB_ERR_NEWTON && diverged && !adapt) {
        trap_restore(s, t_old, sig_old);
        s->mon.maxiter_events = me;
        s->mon.newton_roundoff = nr;
        st = trap_step_checked(s, h, t1, 1, &stale, adapt, 1, &diverged, e);
        if (st >= 0 && !held_step_sane(s, h, e)) {
            s->mon.maxiter_events = me;
            st = MB_ERR_NEWTON;
        }
        if (st >= 0) s->mon.sigma_holds++;
    }
    if (st < 0) trap_restore(s, t_old, sig_old);   /* back to the last good step */
    return st;
}

/* The trial step of h ending at t_new is taken: time, the predictor's history, sigma reset;
 * adaptive: the position history and sigma re-referenced to zero (see step control). */
static MB_NOINLINE int trap_accept(mb_sim *s, mb_real h, mb_real t_new, int st, int adapt)
{
    int nc = s->nc;
    s->t = t_new;
    copy(2 * s->n, s->ydp, s->yd);      /* [v; pdot] at the step's start: AB2's history */
#if MBI_F4A
    if (adapt) {                        /* q at t_k-1, t_k-2 for the error estimate */
        mb_real *t = s->qh2;
        s->qh2 = s->qh1;
        s->qh1 = t;
        copy(s->n, s->qh1, s->zk);
        s->h_prev2 = s->h_prev;
        if (s->nqh < 2) s->nqh++;
    }
#else
    (void)adapt;
#endif
    s->h_prev = h;
    s->nhist = 1;
    /* reuse's wait (REUSE_SLOW): history, so only accepted steps change it */
    if (s->reuse_slow) s->reuse_wait = REUSE_WAIT;
    else if (s->reuse_wait > 0) s->reuse_wait--;
#if MBI_F4A
    if (adapt) {   /* the shift of the sigma reset, every step: p = M v + Phi_q^T sigma with sigma
                    * the impulse of this step only (the history keeps the AB2 predictor) */
        mbi_f4_shift_sigma(s);
        return st;
    }
#endif
    if (s->p.sigma_reset > 0 && nrm2(nc, s->sig) > s->p.sigma_reset) {
        mbi_f4_shift_sigma(s);          /* 6.3.4 */
        zero(nc, s->S);
        s->nhist = 0;                   /* pdot jumped: the history no longer fits */
        s->mon.sigma_resets++;
        if (st == MB_OK) st = MB_EVENT_SIGMA_RESET;
    }
    return st;
}

static int step_trapezoid(mb_sim *s, mb_real h, mb_real t_new)
{
    int st = trap_attempt(s, h, t_new, 0);
    return st < 0 ? st : trap_accept(s, h, t_new, st, 0);
}

#if MBI_F4A
/* ------------------------------------------------------------------ step control
 * Milne's device (PRADIS seed, steps 6-8: the local error from the difference of an explicit
 * prediction and the implicit solution), on the positions:
 * - Prediction q^P: the quadratic through the last three accepted positions q_k-2, q_k-1, q_k
 *   (steps h2, h1), extrapolated to t_k + h. Its error is q3 h (h + h1) (h + h1 + h2) / 6 +
 *   O(h^4) (q3: the third derivative), the trapezoid's -h^3 q3 / 12, so the trapezoid's local
 *   error is -C (q^C - q^P) with C = (h^3 / 12) / (h (h + h1) (h + h1 + h2) / 6 + h^3 / 12)
 *   (1/13 for equal steps).
 * - Why positions and not the AB2 prediction from the derivatives (the Newton predictor): with
 *   xi omega h >> 1 the converged velocities carry a component normal to the constraints of
 *   O(h) (Phi_q v = -2 xi omega Phi, |Phidot| ~ 1e-4 on Andrews) that changes with the step
 *   size; a derivative-based estimate took it for error and rejected most step increases (the
 *   bar pendulum of tests/test_f4_adaptive.c, 5 periods, rtol = atol = 1e-6: 218 rejections for
 *   896 steps against 38 for 859 with positions). Positions satisfy Phi = 0 to ~1e-8 and carry
 *   none of it.
 * - Components: the positions only (n), as the seed's GSTIFF ("tracks only displacements");
 *   momenta and velocities enter the positions one step later. Int Phi (explicit Euler, a
 *   stabilization term) and sigma~ (the multipliers' integral, the iteration's unknown) are
 *   excluded. Scaled RMS as dopri5's: atol + rtol max(|q_k,i|, |q_k+1,i|).
 * - Fewer than three accepted positions (after reset): Euler's prediction q_k + h v_k and the
 *   seed's first-order estimate |q^C - q^P| / 2 (1.27) with the step exponent 1/2 (1.30): larger
 *   than the trapezoid's error, so these steps are only ever too careful.
 * And sigma is re-referenced to zero after every accepted step (trap_accept), the shift the
 * sigma reset (6.3.4) makes: an exact symmetry of 5.30-5.32 (p -= Phi_q^T sigma, pdot -=
 * Phidot_q^T sigma), not one of the discretization, whose trapezoid error of Phi_q^T sigma is
 * O(h^3 |sigma|) per step. sigma = Int lambda grows without bound where a reaction keeps its sign
 * (gravity), and with a constant step those errors telescope; with a varying one they do not:
 * on that pendulum (rtol 1e-6) the angle after 5 periods was off by 5.1e-2 rad without the
 * shift (773 steps) and 8.7e-4 with it (859 steps). A constant step does better still (3.5e-5
 * with 900 steps): the trapezoid's local errors largely cancel along a constant-step run, and
 * a varying step, as any local error control makes it, keeps less of that (docs/formulations.md). */
static mb_real trap_error(mb_sim *s, mb_real h)
{
    int n = s->n;
    mb_real *eq = s->tn[0], coef, acc = 0;
    const mb_real *qk = s->zk, *q = s->z;
    if (s->nqh >= 2) {
        mb_real h1 = s->h_prev, h2 = s->h_prev2, h3 = h * h * h;
        coef = (h3 / 12) / (h * (h + h1) * (h + h1 + h2) / 6 + h3 / 12);
        for (int i = 0; i < n; i++) {   /* Newton's divided differences */
            mb_real d1 = (qk[i] - s->qh1[i]) / h1, d0 = (s->qh1[i] - s->qh2[i]) / h2;
            eq[i] = q[i] - (qk[i] + h * d1 + h * (h + h1) * (d1 - d0) / (h1 + h2));
        }
    } else {
        coef = MB_R(0.5);
        for (int i = 0; i < n; i++) eq[i] = q[i] - (qk[i] + h * s->yd[i]);
    }
    for (int i = 0; i < n; i++) {
        mb_real a = MB_FABS(qk[i]), b = MB_FABS(q[i]);
        mb_real e = coef * eq[i] / (s->p.atol + s->p.rtol * (a > b ? a : b));
        acc += e * e;
    }
    mb_real err = MB_SQRT(acc / (mb_real)n);
    return isfinite(err) ? err : MB_R(1e30);
}

/* Step factors: safety 0.9, growth at most 5, shrink at least 0.2 per trial, 0.25 after a
 * failed Newton iteration; no growth right after a rejection. */
#define ADAPT_SAFETY MB_R(0.9)
#define ADAPT_FACMAX MB_R(5.0)
#define ADAPT_FACMIN MB_R(0.2)
#define ADAPT_NEWTON_SHRINK MB_R(0.25)

static int step_trapezoid_adaptive(mb_sim *s, mb_real t_stop, mb_real *h_taken)
{
    mb_real t_start = s->t, rem = t_stop - s->t;
    /* the minimum step as dopri5's: below 16 eps |t| the step no longer discretizes time */
    mb_real ts = MB_FABS(s->t) > MB_FABS(t_stop) ? MB_FABS(s->t) : MB_FABS(t_stop);
    mb_real hmin = s->p.h_min > 0 ? s->p.h_min : 16 * MB_EPS * ts;
    int lastfail = 0, rejected = 0;
    for (;;) {
        mb_real h = s->h_next;
        if (s->p.h_max > 0 && h > s->p.h_max) h = s->p.h_max;
        int last = 0;
        if (h >= rem * (1 - MB_R(1e-9))) { h = rem; last = 1; }
        else if (h > rem / 2) h = rem / 2;    /* two equal steps land on t_stop: no sliver */
        long me = s->mon.maxiter_events, nr = s->mon.newton_roundoff;
        int order2 = s->nqh >= 2;
        int st = trap_attempt(s, h, last ? t_stop : t_start + h, 1);
        mb_real err = MB_R(1e30), fac = ADAPT_NEWTON_SHRINK;
        if (st >= 0) {
            err = trap_error(s, h);
            fac = err > 0 ? ADAPT_SAFETY * MB_POW(err, order2 ? -MB_R(1.0) / 3 : -MB_R(0.5)) : ADAPT_FACMAX;
            if (fac > ADAPT_FACMAX) fac = ADAPT_FACMAX;
            if (fac < ADAPT_FACMIN) fac = ADAPT_FACMIN;
        } else {
            lastfail = st;
        }
        if (st >= 0 && err <= 1) {
            if (rejected && fac > 1) fac = 1;
            if (!last) s->h_next = h * fac;
            *h_taken = h;
            return trap_accept(s, h, last ? t_stop : t_start + h, st, 1);
        }
        if (st >= 0) {                  /* converged, error too large: back to the start */
            trap_restore(s, t_start, s->tm[3]);
            fac = fac < 1 ? fac : MB_R(0.5);
        }
        s->mon.maxiter_events = me;     /* events count kept steps; this one is `rejected` */
        s->mon.newton_roundoff = nr;
        s->mon.rejected++;
        rejected = 1;
        s->h_next = h * fac;
        if (s->h_next < hmin) return lastfail ? lastfail : MB_ERR_STEP_UNDERFLOW;
    }
}

/* ------------------------------------------------------------------ extrapolated step control
 * p.adaptive = 2 (docs/formulations.md, "Long runs"): a macro step H is two trapezoid steps of
 * H/2 (y2) and, from the same start, four of H/4 (y4); the result is (4 y4 - y2) / 3, the h^2
 * term of the symmetric trapezoid's error expansion removed (order 4 where the solution is
 * smooth). Even substep counts because of F4's constraint-stabilization mode (eigenvalue about
 * -2 xi omega), on which the trapezoid's amplification R is near -1 when xi omega h >> 1: one
 * step against two extrapolates (4 R^2 - R) / 3, about 5/3, unstable; two against four
 * (4 R4^4 - R2^2) / 3, which damps. The state is extrapolated whole: [q; p; Int Phi], v and
 * pdot (the trapezoid's start derivatives) and sigma~, all referenced to the same sigma~ at the
 * macro step's start (the sequences run without the per-step shift; the shift follows the
 * extrapolation). Int Phi is integrated by the trapezoid here too (trap_step; explicit Euler
 * would leave a first-order term the extrapolation does not remove: order 3 on the pendulum
 * at xi = omega = 1). The estimate is y4's error, |y4 - y2| / 3, on the positions (weighted
 * RMS as trap_error), with the exponent 1/3 (local extrapolation: the result is better than
 * the tolerance asks). Measured: with xi omega h >> 1 (the default xi = 1e4) the order drops
 * to 2 (the trapezoid's order reduction on the stiff stabilization mode: its error coefficients
 * depend on xi omega h, so they differ between the H/2 and H/4 sequences), so the simulator's
 * --extrapolate defaults to xi = omega = 1. Workspace: xs (the start: [z; v; pdot; sigma~] and
 * the predictor's history ydp), xa (y2's end; q, v, W and P_nc at the middle for dense
 * output), xib
 * (trap_step's Int Phi base; Phi_t at the macro step's start for the work). */
static void xst_save(const mb_sim *s, mb_real *b)
{
    int n = s->n, nz = s->nz;
    copy(nz, b, s->z);
    copy(n, b + nz, s->v);
    copy(n, b + nz + n, s->pd);
    copy(s->nc, b + nz + 2 * n, s->sig);
}

/* back to the macro step's start (xs), the predictor's history included */
static void xst_restart(mb_sim *s, mb_real t, mb_real h_prev, int nhist, int wait)
{
    int n = s->n, nz = s->nz;
    const mb_real *b = s->xs;
    copy(nz, s->z, b);
    copy(n, s->v, b + nz);
    copy(n, s->pd, b + nz + n);
    copy(s->nc, s->sig, b + nz + 2 * n);
    copy(s->nc, s->tm[3], b + nz + 2 * n);   /* sigma~ at the step's start (xst_sequence) */
    copy(2 * n, s->ydp, b + nz + 2 * n + s->nc);
    copy(s->nc, s->ptq, s->xib + s->nc);     /* Phi_t at the start (xst_sequence moves it) */
    s->t = t;
    s->h_prev = h_prev;
    s->nhist = nhist;
    s->reuse_wait = wait;
    s->kin_fresh = 0;
    s->fact_valid = 0;
}

/* k trapezoid steps of (t1 - t0) / k from the current state (at t0) to t1; the predictor's
 * history advances, sigma~ accumulates. tm[3] holds each substep's starting sigma~ (what
 * trap_attempt restores before its full-Newton retry; the macro step puts the start's back).
 * *w: the work of the loads and drivers over the sequence, the monitor's trapezoidal rule
 * (mbi_step_work) per substep, so the macro step's work can be extrapolated as its state: one
 * trapezoid over the whole macro step, second order against a fourth-order state, made the
 * energy balance report errors the solution did not have (the damped oscillator at rtol 1e-4:
 * 0.70 J and an energy warning, against 0.21 J and none from the plain step control, whose
 * positions were 10x less accurate). P_nc at each substep's end is the energies' third entry
 * (trap_step_checked, kin_e), Phi_t the last evaluation's, carried in the monitor's ptq
 * (the macro step's start's kept in xib + nc: xst_restart). Returns the worst status (events
 * kept), or the failure. */
static int xst_sequence(mb_sim *s, mb_real t0, mb_real t1, int k, mb_real *w)
{
    int n = s->n, nc = s->nc;
    /* [q; v; W - W_start; P_nc] at the middle (trap_dense) */
    mb_real *mid = s->xa + s->nz + 2 * n + nc;
    mb_real h = (t1 - t0) / (mb_real)k, pp = s->pnc;
    int ret = MB_OK;
    *w = 0;
    for (int j = 1; j <= k; j++) {
        mb_real tj = j == k ? t1 : t0 + (mb_real)j * h;
        copy(nc, s->tm[3], s->sig);
        int st = trap_attempt(s, h, tj, 1);
        if (st < 0) return st;
        if (st > ret) ret = st;
        *w += mbi_step_work(s, h, pp, s->kin_e[2], 0, 0);   /* from tm[3], ptq to sig, Phit */
        pp = s->kin_e[2];
        copy(nc, s->ptq, s->Phit);   /* the next substep's start (xst_restart puts it back) */
        s->t = tj;
        copy(2 * s->n, s->ydp, s->yd);
        s->h_prev = h;
        s->nhist = 1;
        if (s->reuse_slow) s->reuse_wait = REUSE_WAIT;
        else if (s->reuse_wait > 0) s->reuse_wait--;
        if (2 * j == k) {   /* the middle, extrapolated as the end: the H/2 sequence's first */
            if (k == 2) {
                copy(n, mid, s->z);
                copy(n, mid + n, s->v);
                mid[2 * n] = *w;
                mid[2 * n + 1] = pp;
            } else {
                for (int i = 0; i < n; i++) {
                    mid[i] = (4 * s->z[i] - mid[i]) / 3;
                    mid[n + i] = (4 * s->v[i] - mid[n + i]) / 3;
                }
                mid[2 * n] = (4 * *w - mid[2 * n]) / 3;
                mid[2 * n + 1] = (4 * pp - mid[2 * n + 1]) / 3;
            }
        }
    }
    return ret;
}

static int step_trapezoid_extrap(mb_sim *s, mb_real t_stop, mb_real *h_taken)
{
    int n = s->n, nz = s->nz, nc = s->nc;
    mb_real t_start = s->t, rem = t_stop - s->t;
    /* the minimum macro step: its substeps (H/4) no longer below dopri5's 16 eps |t| */
    mb_real ts = MB_FABS(s->t) > MB_FABS(t_stop) ? MB_FABS(s->t) : MB_FABS(t_stop);
    mb_real hmin = s->p.h_min > 0 ? s->p.h_min : 64 * MB_EPS * ts;
    int lastfail = 0, rejected = 0;
    mb_real h_prev0 = s->h_prev;
    int nhist0 = s->nhist, wait0 = s->reuse_wait;
    xst_save(s, s->xs);
    copy(2 * n, s->xs + nz + 2 * n + nc, s->ydp);
    copy(nc, s->xib + nc, s->ptq);
    for (;;) {
        mb_real h = s->h_next;
        if (s->p.h_max > 0 && h > s->p.h_max) h = s->p.h_max;
        int last = 0;
        if (h >= rem * (1 - MB_R(1e-9))) { h = rem; last = 1; }
        else if (h > rem / 2) h = rem / 2;    /* two equal steps land on t_stop: no sliver */
        mb_real t1 = last ? t_stop : t_start + h;
        long me = s->mon.maxiter_events, nr = s->mon.newton_roundoff;
        mb_real err = MB_R(1e30), fac = ADAPT_NEWTON_SHRINK;
        mb_real w2 = 0, w4 = 0;
        int st = xst_sequence(s, t_start, t1, 2, &w2);
        if (st >= 0) {
            xst_save(s, s->xa);
            xst_restart(s, t_start, h_prev0, nhist0, wait0);
            int st4 = xst_sequence(s, t_start, t1, 4, &w4);
            st = st4 < 0 || st4 > st ? st4 : st;
        }
        if (st >= 0) {   /* y4 in s, y2 in xa */
            const mb_real *qk = s->xs, *q2 = s->xa;
            mb_real acc = 0;
            for (int i = 0; i < n; i++) {
                mb_real a = MB_FABS(qk[i]), b = MB_FABS(s->z[i]);
                mb_real e = (s->z[i] - q2[i]) / 3 / (s->p.atol + s->p.rtol * (a > b ? a : b));
                acc += e * e;
            }
            err = MB_SQRT(acc / (mb_real)n);
            if (!isfinite(err)) err = MB_R(1e30);
            fac = err > 0 ? ADAPT_SAFETY * MB_POW(err, -MB_R(1.0) / 3) : ADAPT_FACMAX;
            if (fac > ADAPT_FACMAX) fac = ADAPT_FACMAX;
            if (fac < ADAPT_FACMIN) fac = ADAPT_FACMIN;
        } else {
            lastfail = st;
        }
        if (st >= 0 && err <= 1) {
            const mb_real *y2 = s->xa;
            for (int i = 0; i < nz; i++) s->z[i] = (4 * s->z[i] - y2[i]) / 3;
            for (int i = 0; i < n; i++) {
                s->v[i] = (4 * s->v[i] - y2[nz + i]) / 3;
                s->pd[i] = (4 * s->pd[i] - y2[nz + n + i]) / 3;
            }
            for (int r = 0; r < nc; r++) s->sig[r] = (4 * s->sig[r] - y2[nz + 2 * n + r]) / 3;
            s->kin_fresh = 0;                  /* the last evaluation was y4's */
            s->xw = (4 * w4 - w2) / 3;         /* the monitor's work over the step (mb_sim.c) */
            copy(nc, s->tm[3], s->xs + nz + 2 * n);   /* the work's reference: S at the start */
            s->t = t1;
            if (rejected && fac > 1) fac = 1;
            if (!last) s->h_next = h * fac;
            *h_taken = h;
            mbi_f4_shift_sigma(s);             /* the next macro step starts at sigma~ = 0 */
            return st;
        }
        xst_restart(s, t_start, h_prev0, nhist0, wait0);
        if (st >= 0) fac = fac < 1 ? fac : MB_R(0.5);
        s->mon.maxiter_events = me;     /* events count kept steps; this one is `rejected` */
        s->mon.newton_roundoff = nr;
        s->mon.rejected++;
        rejected = 1;
        s->h_next = h * fac;
        if (s->h_next < hmin) return lastfail ? lastfail : MB_ERR_STEP_UNDERFLOW;
    }
}

/* The quintic with values 0, b, a and slopes d0, dm, d1 (per unit theta) at theta = 0, 1/2, 1:
 * its value at th, and its slope into *dv (coefficients in differences from the start's value:
 * no cancellation of a large offset). */
static mb_real quintic(mb_real th, mb_real a, mb_real b, mb_real d0, mb_real dm, mb_real d1, mb_real *dv)
{
    mb_real c2 = 7 * a + 16 * b - 6 * d0 - 8 * dm - d1;
    mb_real c3 = -34 * a - 32 * b + 13 * d0 + 32 * dm + 5 * d1;
    mb_real c4 = 52 * a + 16 * b - 12 * d0 - 40 * dm - 8 * d1;
    mb_real c5 = -24 * a + 4 * d0 + 16 * dm + 4 * d1;
    *dv = d0 + th * (2 * c2 + th * (3 * c3 + th * (4 * c4 + th * 5 * c5)));
    return th * (d0 + th * (c2 + th * (c3 + th * (c4 + th * c5))));
}

/* The cubic with values 0, a and slopes d0, d1 (per unit theta) at theta = 0, 1; slope in *dv. */
static mb_real cubic(mb_real th, mb_real a, mb_real d0, mb_real d1, mb_real *dv)
{
    mb_real a2 = 3 * a - 2 * d0 - d1, a3 = d0 + d1 - 2 * a;
    *dv = d0 + th * (2 * a2 + 3 * th * a3);
    return th * (d0 + th * (a2 + th * a3));
}

/* Dense output (mb_sim_dense) of either step control.
 * - Milne's: the cubic Hermite interpolant of q through the last accepted step's ends (q and v
 *   at both: zk, yd, its start until the next step), v its derivative: the trapezoid's own
 *   continuous extension, since q1 - q0 = h/2 (v0 + v1) makes the cubic term vanish (q
 *   quadratic, v linear in t); the work W likewise with P_nc at the ends.
 * - The extrapolated step (order 4) keeps q, v, W and P_nc at its middle too, extrapolated from
 *   the two sequences as its end is (xst_sequence), and interpolates by the quintic through the
 *   start (xs), the middle and the end: O(H^6) in q and W, O(H^5) in v per step, below the
 *   step's own error. Measured: the cubic through the ends alone made v's error O(H^3)
 *   (Andrews at rtol 1e-6, rows every 1e-3 s: 4e-3 against 3e-4 rad/s at the steps, the rows'
 *   energy deviation 70x that at the steps); W by the cubic with P_nc at the ends left the
 *   rows of the stiffly damped oscillator_1dof (omega H ~ 1.6) at 14x the steps' deviation.
 * The monitors are evaluated at the interpolated (q, v) with sigma~ of the step's end (zero
 * after the adaptive re-reference). The evaluation leaves Phi, Pq of the interpolated state
 * behind and clears kin_fresh (mbi_eval_kin), so the next step evaluates its start again: the
 * trajectory does not depend on these calls. */
static int trap_dense(mb_sim *s, mb_real t, mb_real *q, mb_real *v, mb_monitor *mo)
{
    int n = s->n, x = s->p.adaptive == 2;
    mb_real t0 = s->td_t0, h = s->t - t0;
    if (!s->ready || !(h > 0)) return MB_ERR_STATE;
    if (!(t >= t0 && t <= s->t)) return MB_ERR_PARAM;
    const mb_real *q0 = x ? s->xs : s->zk, *v0 = x ? s->xs + s->nz : s->yd;
    /* the middle (x only: without the extrapolation xa is NULL, and no offset may be applied) */
    const mb_real *qm = x ? s->xa + s->nz + 2 * n + s->nc : NULL, *vm = x ? qm + n : NULL;
    const mb_real *q1 = s->z, *v1 = s->v;
    mb_real th = (t - t0) / h, dv, *vv = v ? v : s->tn[0];   /* tn[0]: g1, free between steps */
    for (int i = 0; i < n; i++) {
        mb_real a = q1[i] - q0[i], d0 = h * v0[i], d1 = h * v1[i];
        q[i] = q0[i] + (x ? quintic(th, a, qm[i] - q0[i], d0, h * vm[i], d1, &dv) : cubic(th, a, d0, d1, &dv));
        vv[i] = dv / h;
    }
    if (mo) {
        mb_real pnc, pdrv, dw = s->mon.W - s->td_W0, p0 = h * s->td_P0, p1 = h * s->pnc;
        *mo = s->mon;
        mbi_measure_at(s, t, q, vv, s->sig, NULL, mo, &pnc, &pdrv);
        /* the drivers' work enters through W's values only (their power is no P_nc) */
        mo->W = s->td_W0 + (x ? quintic(th, dw, qm[2 * n], p0, h * qm[2 * n + 1], p1, &dv) : cubic(th, dw, p0, p1, &dv));
        mo->energy_dev = mo->T + mo->V - mo->E0 - mo->W;
    }
    return MB_OK;
}

/* The slot's adaptive step (p.adaptive: 1 Milne's device, 2 the extrapolated trapezoid), the
 * monitor advanced: the extrapolation's work by its own quadrature (xw) */
static int step_trapezoid_control(mb_sim *s, mb_real t_stop, const mbi_step0 *b)
{
    mb_real h = 0;
    s->td_t0 = s->t;                   /* a failed step leaves nothing to interpolate */
    int st = s->p.adaptive == 2 ? step_trapezoid_extrap(s, t_stop, &h)
                                : step_trapezoid_adaptive(s, t_stop, &h);
    if (st < 0) return st;
    s->td_t0 = b->t_start;             /* mb_sim_dense's step (trap_dense) */
    s->td_W0 = b->mon0.W;
    s->td_P0 = b->pnc0;
    mbi_advance_monitor(s, h, b->pnc0, b->pdrv0, s->p.adaptive == 2 ? &s->xw : NULL);
    return st;
}

/* mb_sim_dense: the adaptive trapezoid's last step (the fixed step keeps none) */
static int trap_dense_slot(mb_sim *s, mb_real t, mb_real *q, mb_real *v, mb_monitor *mo)
{
    return s->p.adaptive ? trap_dense(s, t, q, v, mo) : MB_ERR_STATE;
}
#define TRAP_ADAPTIVE step_trapezoid_control
#define TRAP_DENSE trap_dense_slot
#else
#define TRAP_ADAPTIVE NULL
#define TRAP_DENSE NULL
#endif

/* the trapezoid's start: F4's start-up evaluation taken into the state (as mbi_form_start, which
 * this file does not call: mb_forms.c lists F4's row, so it sits above) */
static int trap_integ_start(mb_sim *s, mb_real t0)
{
    int st = trap_start(s, t0);
    if (st) return st;
    mbi_take_eval(s);
#if MBI_HAS_EB
    s->have_f = 1;
#endif
    return MB_OK;
}

const mbi_form mbi_form_alf_trapezoid = {NULL, NULL, trap_start};
/* the trapezoid integrator of F4's equations */
const mbi_integ mbi_integ_trapezoid = {trap_integ_start, NULL, step_trapezoid, TRAP_ADAPTIVE,
                                       TRAP_DENSE, NULL, NULL};
#endif /* MBI_F4 */
