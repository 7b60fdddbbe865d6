/* mb_explicit.c - right-hand sides of the explicit formulations: F1 baumgarte (5.1-5.5), F2
 * canonical (5.17, 5.21), F3 alf-explicit (5.30-5.37), the scaled KKT solve and F1's velocity
 * projection. Layer: runtime core (mb_sim_impl.h); never allocates or prints. */
#include "mb_sim_impl.h"

#if MBI_F1 || MBI_F2
/* ------------------------------------------------------------------ KKT solve (F1, F2) */

/* Solve [[M, Phi_q^T], [Phi_q, 0]] [x; y] = [b1; b2] with Phi_q values in s->Pq. Symmetric
 * scaling D = diag(M^-1/2, 1/|row of Phi_q M^-1/2|) makes the pivot-ratio rank test
 * independent of units: rank loss of Phi_q shows as a small pivot ratio -> MB_ERR_SINGULAR. */
static int kkt_solve(mb_sim *s, const mb_real *b1, const mb_real *b2, mb_real *x, mb_real *y)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc, N = n + nc;
    mb_real *K = s->scr, *d = s->dscale, *rhs = s->kb;
    for (int i = 0; i < n; i++) d[i] = 1 / MB_SQRT(m->mass[i]);
    for (int r = 0; r < nc; r++) {
        mb_real ss = 0;
        for (int k = s->rowp[r]; k < s->rowp[r + 1]; k++) {
            mb_real e = s->Pq[k] * d[m->phi_q_pat.col[k]];
            ss += e * e;
        }
        d[n + r] = ss > 0 ? 1 / MB_SQRT(ss) : 1;
    }
    memset(K, 0, sizeof(mb_real) * (size_t)N * (size_t)N);
    for (int i = 0; i < n; i++) K[i + (long)i * N] = 1;      /* d M d = I */
    for (int k = 0; k < s->nnz; k++) {
        int r = n + m->phi_q_pat.row[k], c = m->phi_q_pat.col[k];
        mb_real e = d[r] * s->Pq[k] * d[c];
        K[r + (long)c * N] = e;
        K[c + (long)r * N] = e;
    }
    for (int i = 0; i < n; i++) rhs[i] = d[i] * b1[i];
    for (int r = 0; r < nc; r++) rhs[n + r] = d[n + r] * b2[r];
    mb_real ratio;
    int st = mb_lu_factor(N, K, s->piv, s->p.rank_tol, &ratio);
    if (ratio < s->mon.min_pivot_ratio || s->mon.min_pivot_ratio == 0) s->mon.min_pivot_ratio = ratio;
    if (st) return st;
    mb_lu_solve(N, K, s->piv, rhs);
    for (int i = 0; i < n; i++) x[i] = d[i] * rhs[i];
    for (int r = 0; r < nc; r++) y[r] = d[n + r] * rhs[n + r];
    return finite_vec(N, rhs) ? MB_OK : MB_ERR_NONFINITE;
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
    m->phi(m, t, q, s->Phi);
    m->phi_t(m, t, q, s->Phit);
    m->phi_q(m, t, q, s->Pq);
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
    m->phi(m, t, q, s->Phi);
    m->phi_t(m, t, q, s->Phit);
    m->phi_q(m, t, q, s->Pq);
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
    mb_real *A = s->scr, *b = s->tm[0], *c = s->cv, *rhs = s->tn[0], *vold = s->tn[1];
    mb_real a = s->p.alpha, xi = s->p.xi, w = s->p.omega;
    m->phi(m, t, q, s->Phi);
    m->phi_t(m, t, q, s->Phit);
    m->phi_q(m, t, q, s->Pq);
    for (int r = 0; r < nc; r++) b[r] = s->Phit[r] + 2 * xi * w * s->Phi[r] + w * w * I[r];
    memset(A, 0, sizeof(mb_real) * (size_t)n * (size_t)n);
    for (int i = 0; i < n; i++) A[i + (long)i * n] = m->mass[i];
    add_ptp(s, A, a, s->Pq, s->Pq);
    int st = mb_chol_factor(n, A, 0, NULL);   /* SPD even at singular positions */
    if (st) return st;
    copy(n, vold, s->ev_v);
    int it, conv = 0;
    for (it = 1; it <= s->p.max_iter; it++) {
        copy(n, rhs, p);
        for (int r = 0; r < nc; r++) s->tm[1][r] = a * b[r] + s->ev_sig[r];
        sp_mtv_add(&m->phi_q_pat, s->Pq, s->tm[1], -1, rhs);
        mb_chol_solve(n, A, rhs);
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

/* Velocity projection remedy (F1): v -= Phi_q^T (Phi_q Phi_q^T)^-1 (Phi_q v + Phi_t). */
int mbi_project_velocity(mb_sim *s)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    mb_real *A = s->scr, *w = s->tm[0], *v = s->z + n;
    if (nc == 0) return MB_OK;
    m->phi_q(m, s->t, s->z, s->Pq);
    m->phi_t(m, s->t, s->z, s->Phit);
    memset(A, 0, sizeof(mb_real) * (size_t)nc * nc);
    for (int r = 0; r < nc; r++)
        for (int k = s->rowp[r]; k < s->rowp[r + 1]; k++)
            for (int r2 = 0; r2 < nc; r2++)
                for (int l = s->rowp[r2]; l < s->rowp[r2 + 1]; l++)
                    if (m->phi_q_pat.col[l] == m->phi_q_pat.col[k]) A[r + (long)r2 * nc] += s->Pq[k] * s->Pq[l];
    /* unit diagonal scaling, so the pivot-ratio rank test means the same as for the KKT */
    mb_real ratio, *d = s->dscale;
    for (int r = 0; r < nc; r++) d[r] = A[r + (long)r * nc] > 0 ? 1 / MB_SQRT(A[r + (long)r * nc]) : 1;
    for (int r = 0; r < nc; r++)
        for (int c = 0; c < nc; c++) A[r + (long)c * nc] *= d[r] * d[c];
    int st = mb_chol_factor(nc, A, s->p.rank_tol, &ratio);
    if (ratio < s->mon.min_pivot_ratio) s->mon.min_pivot_ratio = ratio;
    if (st) return st;
    for (int pass = 0; pass < 3; pass++) {
        sp_mv(&m->phi_q_pat, s->Pq, v, w, nc);
        for (int r = 0; r < nc; r++) w[r] += s->Phit[r];
        if (nrminf(nc, w) <= 10 * MB_EPS * (1 + nrminf(n, v))) break;
        for (int r = 0; r < nc; r++) w[r] *= d[r];
        mb_chol_solve(nc, A, w);
        for (int r = 0; r < nc; r++) w[r] *= d[r];
        sp_mtv_add(&m->phi_q_pat, s->Pq, w, -1, v);
    }
    return MB_OK;
}
#endif
