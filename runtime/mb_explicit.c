/* mb_explicit.c - right-hand sides of the explicit formulations: F1 baumgarte (5.1-5.5), F2
 * canonical (5.17, 5.21), F3 alf-explicit (5.30-5.37), the scaled KKT solve and F1's velocity
 * projection. Layer: runtime core (mb_sim_impl.h); never allocates or prints. */
#include "mb_sim_impl.h"

#if MBI_F1 || MBI_F2
/* ------------------------------------------------------------------ KKT solve (F1, F2) */

/* Solve [[M, Phi_q^T], [Phi_q, 0]] [x; y] = [b1; b2] (Phi_q values in s->Pq) by its Schur
 * complement: M is diagonal, so S = Phi_q M^-1 Phi_q^T is sparse and positive definite while
 * Phi_q has full rank; S y = Phi_q M^-1 b1 - b2, x = M^-1 (b1 - Phi_q^T y). Rank loss of Phi_q
 * shows as a vanishing pivot of S, which names its constraint row (MB_ERR_SINGULAR). */
static int kkt_solve(mb_sim *s, const mb_real *b1, const mb_real *b2, mb_real *x, mb_real *y)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    mbi_assemble_s(s, s->minv);
    int st = mbi_ls_factor(s, MB_MAT_S, s->p.rank_tol);
    if (st) return st;
    for (int i = 0; i < n; i++) x[i] = s->minv[i] * b1[i];
    sp_mv(&m->phi_q_pat, s->Pq, x, y, nc);
    for (int r = 0; r < nc; r++) y[r] -= b2[r];
    mbi_ls_solve(s, MB_MAT_S, y);
    copy(n, x, b1);
    sp_mtv_add(&m->phi_q_pat, s->Pq, y, -1, x);
    for (int i = 0; i < n; i++) x[i] *= s->minv[i];
    return finite_vec(n, x) && finite_vec(nc, y) ? MB_OK : MB_ERR_NONFINITE;
}
#endif

/* ------------------------------------------------------------------ explicit right-hand sides */

#if MBI_F1
/* F1 (5.2): M a + Phi_q^T lambda = Q, Phi_q a = Gamma - 2 xi w Phidot - w^2 Phi,
 * Phidot = Phi_q v + Phi_t. z = [q; v]. */
static int rhs_baumgarte(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    const mb_real *q = z, *v = z + n;
    mb_real *b2 = s->tm[0], *pd = s->tm[1], xi = s->p.xi, w = s->p.omega;
    mbi_eval_kin(s, t, q);
    m->gamma(m, t, q, v, s->Gam);
    m->force(m, t, q, v, s->Q);
    sp_mv(&m->phi_q_pat, s->Pq, v, pd, nc);
    for (int r = 0; r < nc; r++) {
        pd[r] += s->Phit[r];
        b2[r] = 2 * xi * w * pd[r] + w * w * s->Phi[r];
    }
    if (s->p.baumgarte_cap > 0) {   /* keep the stabilization from dominating Gamma */
        mb_real nb = nrm2(nc, b2), ng = nrm2(nc, s->Gam);
        if (nb > s->p.baumgarte_cap * ng)
            for (int r = 0; r < nc; r++) b2[r] *= s->p.baumgarte_cap * ng / nb;
    }
    for (int r = 0; r < nc; r++) b2[r] = s->Gam[r] - b2[r];
    int st = kkt_solve(s, s->Q, b2, f + n, s->ev_lam);
    if (st) return st;
    copy(n, f, v);
    copy(n, s->ev_v, v);
    return MB_OK;
}
#endif

#if MBI_F2
/* F2 (5.17, 5.21): [[M, Phi_q^T], [Phi_q, 0]] [v; sigma] = [p; -Phi_t - 2 xi w Phi - w^2 I],
 * pdot = Q + Phidot_q^T sigma, Idot = Phi. z = [q; p; I]. */
static int rhs_canonical(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    const mb_real *q = z, *p = z + n, *I = z + 2 * n;
    mb_real *b2 = s->tm[0], xi = s->p.xi, w = s->p.omega;
    mbi_eval_kin(s, t, q);
    for (int r = 0; r < nc; r++) b2[r] = -s->Phit[r] - 2 * xi * w * s->Phi[r] - w * w * I[r];
    int st = kkt_solve(s, p, b2, s->ev_v, s->ev_sig);
    if (st) return st;
    m->force(m, t, q, s->ev_v, s->Q);
    m->phi_q_dot(m, t, q, s->ev_v, s->Pqd);
    copy(n, f, s->ev_v);
    copy(n, f + n, s->Q);
    sp_mtv_add(&m->phi_q_pat, s->Pqd, s->ev_sig, 1, f + n);
    copy(nc, f + 2 * n, s->Phi);
    copy(nc, s->ev_S, s->ev_sig);
    return MB_OK;
}
#endif

#if MBI_F3 || MBI_F4
/* F3 (5.31-5.37): (M + a Phi_q^T Phi_q) v = p - Phi_q^T (a b + sigma~), b = Phi_t + 2 xi w Phi
 * + w^2 I; sigma~ += a (Phi_q v + b) (5.34) until |v_i+1 - v_i| < tol; pdot = Q + Phidot_q^T
 * sigma~ (5.32 with the updated sigma~ = sigma~ + a Phidot-term). sigma~ is warm-started from the
 * previous evaluation. v, sigma~ go to ev_v, ev_sig. */
int mbi_alf_velocity(mb_sim *s, mb_real t, const mb_real *q, const mb_real *p, const mb_real *I)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    mb_real *b = s->tm[0], *c = s->cv, *rhs = s->tn[0], *vold = s->tn[1];
    mb_real a = s->p.alpha, xi = s->p.xi, w = s->p.omega;
    mbi_eval_kin(s, t, q);
    for (int r = 0; r < nc; r++) b[r] = s->Phit[r] + 2 * xi * w * s->Phi[r] + w * w * I[r];
    /* M + a Phi_q^T Phi_q straight into the plan storage (mb_model.h: mb_plan) */
    const mb_plan *P = m->plan;
    mb_real *A = s->FA;
    zero(n + P->a.nl, A);
    for (int i = 0; i < n; i++) A[P->a.pinv[i]] = m->mass[i];
    for (int t = 0; t < P->na; t++) A[P->a_dst[t]] += a * s->Pq[P->a_k[t]] * s->Pq[P->a_l[t]];
    int st = mbi_ls_factor(s, MB_MAT_A_SYM, 0);   /* SPD even at singular positions */
    if (st) return st;
    copy(n, vold, s->ev_v);
    int it, conv = 0;
    for (it = 1; it <= s->p.max_iter; it++) {
        copy(n, rhs, p);
        for (int r = 0; r < nc; r++) s->tm[1][r] = a * b[r] + s->ev_sig[r];
        sp_mtv_add(&m->phi_q_pat, s->Pq, s->tm[1], -1, rhs);
        mbi_ls_solve(s, MB_MAT_A_SYM, rhs);
        sp_mv(&m->phi_q_pat, s->Pq, rhs, c, nc);
        for (int r = 0; r < nc; r++) { c[r] += b[r]; s->ev_sig[r] += a * c[r]; }
        mb_real dv = 0;
        for (int i = 0; i < n; i++) { mb_real e = rhs[i] - vold[i]; dv += e * e; }
        copy(n, vold, rhs);
        if (!finite_vec(n, rhs)) return MB_ERR_NONFINITE;
        if (MB_SQRT(dv) < s->p.tol) { conv = 1; break; }
    }
    s->mon.alf_iters += it > s->p.max_iter ? s->p.max_iter : it;
    if (!conv) s->mon.maxiter_events++;
    copy(n, s->ev_v, vold);
    copy(nc, s->ev_S, s->ev_sig);
    return MB_OK;
}
#endif

#if MBI_F3
static int rhs_alf(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    const mb_real *q = z;
    int st = mbi_alf_velocity(s, t, q, z + n, z + 2 * n);
    if (st) return st;
    m->force(m, t, q, s->ev_v, s->Q);
    m->phi_q_dot(m, t, q, s->ev_v, s->Pqd);
    copy(n, f, s->ev_v);
    copy(n, f + n, s->Q);
    sp_mtv_add(&m->phi_q_pat, s->Pqd, s->ev_sig, 1, f + n);
    copy(nc, f + 2 * n, s->Phi);
    return MB_OK;
}
#endif

#if MBI_EXPLICIT
int mbi_rhs(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    s->mon.evals++;
    switch (s->p.formulation) {   /* mb_params_check admits only what is compiled */
#if MBI_F1
    case MB_BAUMGARTE: return rhs_baumgarte(s, t, z, f);
#endif
#if MBI_F2
    case MB_CANONICAL: return rhs_canonical(s, t, z, f);
#endif
#if MBI_F3
    case MB_ALF_EXPLICIT: return rhs_alf(s, t, z, f);
#endif
    default: return MB_ERR_PARAM;
    }
}
#endif

#if MBI_F1
/* ------------------------------------------------------------------ F1 velocity projection */

/* Velocity projection remedy (F1): v -= Phi_q^T (Phi_q Phi_q^T)^-1 (Phi_q v + Phi_t), with
 * S = Phi_q Phi_q^T (unit weights, lsy holds them) on the plan of S. */
int mbi_project_velocity(mb_sim *s)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    mb_real *w = s->tm[0], *v = s->z + n, *ones = s->tn[0];
    if (nc == 0) return MB_OK;
    m->phi_q(m, s->t, s->z, s->Pq);
    m->phi_t(m, s->t, s->z, s->Phit);
    for (int i = 0; i < n; i++) ones[i] = 1;
    mbi_assemble_s(s, ones);
    int st = mbi_ls_factor(s, MB_MAT_S, s->p.rank_tol);
    if (st) return st;
    for (int pass = 0; pass < 3; pass++) {
        sp_mv(&m->phi_q_pat, s->Pq, v, w, nc);
        for (int r = 0; r < nc; r++) w[r] += s->Phit[r];
        if (nrminf(nc, w) <= 10 * MB_EPS * (1 + nrminf(n, v))) break;
        mbi_ls_solve(s, MB_MAT_S, w);
        sp_mtv_add(&m->phi_q_pat, s->Pq, w, -1, v);
    }
    return MB_OK;
}
#endif
