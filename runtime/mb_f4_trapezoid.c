/* mb_f4_trapezoid.c - F4 alf-trapezoid (5.38-5.60) as equations: the residuals in y = [q; p] with
 * sigma~ updated by 5.34, the reduced Newton matrix (and its optional full Jacobian), the
 * momenta's correction 5.53, the sigma reset and its shift, the start-up evaluation, the
 * redundant equations left out. The integrators that solve them own the iteration: the
 * trapezoid (mb_trapezoid.c, mb_trapezoid_control.c) and bdf (mb_bdf.c).
 * Layer: runtime core, one row of the formulation table (mb_sim_impl.h: mbi_form); never
 * allocates or prints. */
#include "mb_sim_impl.h"
#include "mb_sparse.h"

#if MBI_F4

/* ------------------------------------------------------------------ the Newton matrix */

#if MBI_FJ
/* The terms 5.45-5.47 neglect: (Phi_q^T s)_q, (Phidot_q^T s)_q and (Phidot_q^T s)_v with
 * the multipliers s held fixed, by central differences of the model's Phi_q and Phidot_q
 * (the interface has no second derivatives). Adds h/2 K1 - h^2/4 K2q - h/2 K2v to the reduced
 * matrix in the plan storage FA and keeps K2 = h/2 K2q + K2v for 5.53 in scr + n*n (dense; the
 * terms lie on the pattern of Phi_q^T Phi_q, so every non-zero has its place in FA). Cost: 4n
 * extra Jacobians. */
static MB_NOINLINE void geometric_terms(mb_sim *s, mb_real t1, mb_real *q, const mb_real *sv, mb_real h)
{
    const mb_model *m = s->m;
    int n = s->n;
    const MBI_VIEW(MB_VIEW_FJ) b = MBI_VIEW_OF(MB_VIEW_FJ);   /* its blocks (mb_layout.h) */
    mb_real *A = s->scr, *K2 = s->scr + (size_t)n * n, *col = b.col, *cm = b.cm;
    mb_real *Pt = b.Pt, *vv = b.vv;
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
 * = h/2 dc/dq (see below). Each term pairs two entries k, l of one row of Phi_q (mb_plan
 * a_k, a_l): its lower-triangle value goes to a_dst, its transpose nl further. */
static void newton_matrix(mb_sim *s, mb_real a, mb_real c1, mb_real h)
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

/* The matrix (mbi_f4_matrix) differentiates c = Phi_q v + Phi_t + 2 xi w Phi + w^2 I
 * (v = 2/h (q - q_k) - v_k) exactly: h/2 dc/dq = c1 Phi_q + h/2 Phidot_q. The thesis (5.45-5.47) keeps c1 Phi_q only and
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
/* The Newton pieces of F4's row (mb_sim_impl.h: mbi_form), which the trapezoid (mb_trapezoid.c)
 * and bdf (mb_bdf.c) call; g is the step's weight of the derivatives: h/2 for the trapezoid, the
 * BDF corrector's gamma. After an evaluation at the iterate (s->v, Phi, Phi_t, Phi_q):
 * c = Phi_q v + Phi_t + 2 xi omega Phi + omega^2 I into s->cv, and with upd sigma~ += alpha c
 * (5.34 after each update of y). */
static void f4_c(mb_sim *s, const mb_real *I, int upd)
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
static void f4_dg2(mb_sim *s, const mb_real *dq, mb_real g, mb_real *tmpn, mb_real *tmpm)
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

#if MB_WITH_F4_KERNELS
/* Whether the trapezoid's iteration can take the model's pass up to the solve
 * (mb_f4_kernels.newton_rhs): its pieces are the unrolled ones above (the model's f4), A
 * factored on the plan, unrolled (not an external back end, not the dense one), and no
 * equations left out (dr: their c and rows zeroed). The pass runs after the Newton matrix and
 * its factorization and reads Q (tn[3]) and c (tm[1]): only the unrolled f4->matrix, which
 * writes no Ek over them, and a factorization without scratch there keep them (mb_layout.h). */
int mbi_f4_fusable(const mb_sim *s, const unsigned char *dr)
{
    const mb_plan *P = s->m->plan;
    if (!P->f4 || !P->f4->newton_rhs || !P->f4->factor || !P->a.lu_solve || dr || s->p.linsys_ops)
        return 0;
#if MB_WITH_DENSE
    if (s->p.linsys == MB_LINSYS_DENSE) return 0;
#endif
    return 1;
}

/* The trapezoid's iteration after the constraint and the factorization up to dq in one pass and
 * the solve: mbi_f4_residual with g (its g2 into g2), dq = -g1 - g g2 and its solve
 * (mbi_ls_solve's, counted). The same arithmetic in the same order. */
void mbi_f4_newton(mb_sim *s, mb_real g, mb_real *dq, mb_real *g2)
{
    const mb_model *m = s->m;
    m->plan->f4->newton_rhs(dq, g2, s->sig, s->cv, s->z, s->v, s->pd, m->mass, s->Pq, s->Pqd, s->Q,
                            s->p.alpha, g);
    s->mon.solves++;
    m->plan->a.lu_solve(s->FA, dq, s->lsy);
}
#endif

/* The shift of the sigma reset (6.3.4) at the current state: p -= Phi_q^T sigma~,
 * pdot -= Phidot_q^T sigma~ (so 5.30 and 5.32 still hold), the work's reference S0 likewise,
 * sigma~ = 0 (the row's shift: the trapezoid's step control re-references with it). */
void mbi_f4_shift(mb_sim *s)
{
    const mb_model *m = s->m;
    int nc = s->nc;
    m->phi_q(m, s->t, s->z, s->Pq);
    m->phi_q_dot(m, s->t, s->z, s->v, s->Pqd);
    pq_mtv(m, s->Pq, s->sig, -1, s->z + s->n);
    pq_mtv(m, s->Pqd, s->sig, -1, s->pd);
    for (int r = 0; r < nc; r++) s->S0[r] -= s->sig[r];
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
 * given) moved into p and pdot as a sigma reset does (mbi_f4_shift) for that row alone,
 * so that leaving its rows out changes nothing. cv: nc scratch (free between steps). */
void mbi_f4_rows_start(mb_sim *s, const unsigned char *dr)
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
        s->S0[r] -= w[r];
        s->sig[r] -= w[r];
    }
}

/* The flagged rows of Phi_q and Phidot_q zeroed, for the matrix and the residual */
void mbi_f4_rows_drop(mb_sim *s, const unsigned char *dr)
{
    const mb_pattern *pt = &s->m->phi_q_pat;
    for (int k = 0; k < pt->nnz; k++)
        if (dr[pt->row[k]]) s->Pq[k] = s->Pqd[k] = 0;
}

/* After a step: whether the flagged equations still follow from the others, their |Phi| within
 * ROWS_IMPLIED of the others' (plus round-off of the length scale). A rank loss only at the
 * start (a singular position: the start-up check cannot tell) fails this as soon as the
 * mechanism leaves it, and the flags are dropped: Newton takes every equation from then on. */
int mbi_f4_rows_implied(const mb_sim *s, const unsigned char *dr)
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


/* ------------------------------------------------------------------ start-up and the row */

int mbi_f4_start(mb_sim *s, mb_real t0)
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


/* The row's ops over those pieces: the flagged equations (dr) left out of c (and of the residual
 * and the matrix: rows_drop). In a build whose one formulation is F4 the trapezoid calls the ops
 * directly (mb_sim_impl.h: MBI_FORM) and link-time optimization inlines those called once; the
 * constraint and the matrix stay out of line (MB_NOINLINE), as their frames inside the
 * iteration's would deepen the stack under it (Andrews M4F firmware: 24 B more). */
MB_NOINLINE void mbi_f4_constraint(mb_sim *s, const mb_real *I, int upd, const unsigned char *dr)
{
    f4_c(s, I, upd && !dr);
#if MB_WITH_REDUNDANT_ROWS
    if (dr) {   /* the flagged equations' c is zero, then 5.34 */
        int nc = s->nc;
        for (int r = 0; r < nc; r++) if (dr[r]) s->cv[r] = 0;
        if (upd) for (int r = 0; r < nc; r++) s->sig[r] += s->p.alpha * s->cv[r];
    }
#endif
}

/* h/2 dc/dq = c1 Phi_q + h/2 Phidot_q with c1 = 1 + 2 g xi omega (h = 2 g), and where I moves
 * with the iterate (ig: the extrapolated trapezoid's I = I_b + ig Phi(q)) (omega ig)^2 more */
MB_NOINLINE void mbi_f4_matrix(mb_sim *s, mb_real t, mb_real *q, mb_real g, mb_real ig, int full)
{
    mb_real w = s->p.omega, c1 = 1 + 2 * g * s->p.xi * w;
    if (ig != 0) c1 += (w * ig) * (w * ig);
    newton_matrix(s, s->p.alpha, c1, 2 * g);
#if MBI_FJ
    /* with sigma~, not s = sigma~ + alpha c: at the predictor alpha c is far from its converged
     * size (geometric_terms) */
    if (full) geometric_terms(s, t, q, s->sig, 2 * g);
#else
    (void)t; (void)q; (void)full;
#endif
}

#if MB_WITH_F4_KERNELS
/* mbi_f4_matrix (without the geometric terms) and mbi_ls_factor on A's LU in the model's one
 * kernel (mb_f4_kernels.factor), where the iteration takes the model's pass (mbi_f4_fusable):
 * the same factors, the same status; the matrix's entries are never stored apart */
int mbi_f4_factor(mb_sim *s, mb_real g, mb_real ig)
{
    const mb_model *m = s->m;
    mb_real w = s->p.omega, c1 = 1 + 2 * g * s->p.xi * w;   /* mbi_f4_matrix's */
    if (ig != 0) c1 += (w * ig) * (w * ig);
    int k = m->plan->f4->factor(s->FA, s->Dk, m->mass, s->Pq, s->Pqd, s->dQq, s->dQv, s->p.alpha,
                                c1, 2 * g);
    return mbi_ls_factored_lu(s, k);
}
#endif

/* 5.53 (f4_dg2) and, with the geometric terms, K2 dq */
void mbi_f4_momenta(mb_sim *s, const mb_real *dq, mb_real g, mb_real *tmpn, mb_real *tmpm, int full)
{
    f4_dg2(s, dq, g, tmpn, tmpm);
#if MBI_FJ
    if (full) {            /* + K2 dq */
        int n = s->n;
        const mb_real *K2 = s->scr + (size_t)n * n;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) tmpn[i] += K2[i + (long)j * n] * dq[j];
    }
#else
    (void)full;
#endif
}

/* After an accepted step: the sigma reset of 6.3.4 (|sigma~| above p.sigma_reset), S with it;
 * *moved set (p and pdot moved: a history of derivatives no longer fits). */
int mbi_f4_accept(mb_sim *s, int *moved)
{
    int nc = s->nc;
    if (!mbi_sigma_reset_due(s)) return MB_OK;
    mbi_f4_shift(s);
    zero(nc, s->S);
    s->mon.sigma_resets++;
    *moved = 1;
    return MB_EVENT_SIGMA_RESET;
}

const mbi_form mbi_form_alf_trapezoid = MBI_ROW_F4;
#endif /* MBI_F4 */
