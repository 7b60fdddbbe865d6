/* mb_kkt.c - the KKT system of F1 and F2 by its Schur complement on the sparse plan.
 * Layer: runtime core (mb_sim_impl.h); never allocates or prints. */
#include "mb_sim_impl.h"

#if MBI_F1 || MBI_F2
/* Solve [[M, Phi_q^T], [Phi_q, 0]] [x; y] = [b1; b2] (Phi_q values in s->Pq) by its Schur
 * complement: M is diagonal, so S = Phi_q M^-1 Phi_q^T is sparse and positive definite while
 * Phi_q has full rank; S y = Phi_q M^-1 b1 - b2, x = M^-1 (b1 - Phi_q^T y). Rank loss of Phi_q
 * shows as a vanishing pivot of S, which names its constraint row (MB_ERR_SINGULAR). */
#if !MBI_ONLY
static int kkt_solve(mb_sim *s, const mb_real *b1, const mb_real *v, mb_real cv, const mb_real *b2,
                     mb_real *x, mb_real *y)
#else
int mbi_kkt_solve(mb_sim *s, const mb_real *b1, const mb_real *b2, mb_real *x, mb_real *y)
#endif
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    mbi_assemble_s(s, s->minv);
    int st = mbi_ls_factor(s, MB_MAT_S, s->p.rank_tol);
    if (st) return st;
#if !MBI_ONLY
    {   /* in pairs on restrict pointers: GCC's -O2 packs each pair into one vector operation
         * (a loop of unknown length is not vectorized at -O2); the same products */
        const mb_real *restrict mi = s->minv, *restrict bb = b1, *restrict cc = b2, *restrict vv = v;
        mb_real *restrict xx = x, *restrict yy = y;
        int i = 0;
        if (vv) {   /* M^-1 b1 + cv v: mbi_kkt_solve_v */
            for (; i + 1 < n; i += 2) {
                xx[i] = mi[i] * bb[i] + cv * vv[i];
                xx[i + 1] = mi[i + 1] * bb[i + 1] + cv * vv[i + 1];
            }
            if (i < n) xx[i] = mi[i] * bb[i] + cv * vv[i];
        } else {
            for (; i + 1 < n; i += 2) {
                xx[i] = mi[i] * bb[i];
                xx[i + 1] = mi[i + 1] * bb[i + 1];
            }
            if (i < n) xx[i] = mi[i] * bb[i];
        }
        mb_sp_phiq_mv(m, s->Pq, x, y);   /* (s->Pq: Phi_q's values) */
        for (i = 0; i + 1 < nc; i += 2) {
            yy[i] -= cc[i];
            yy[i + 1] -= cc[i + 1];
        }
        if (i < nc) yy[i] -= cc[i];
    }
#else
    for (int i = 0; i < n; i++) x[i] = s->minv[i] * b1[i];
    pq_mv(m, s->Pq, x, y);
    for (int r = 0; r < nc; r++) y[r] -= b2[r];
#endif
    mbi_ls_solve(s, MB_MAT_S, y);
#if !MBI_ONLY
    /* x = M^-1 (b1 - Phi_q^T y) and its finiteness, four sums of x * 0 (one chain of additions
     * waits 4 cycles an entry; the same answer: mb_vec.h's finite_vec) */
    mb_real f0 = 0, f1 = 0, f2 = 0, f3 = 0;
    const mb_real *restrict mi = s->minv;
    mb_real *restrict xr = x;
    int i = 0;
#if MB_WITH_PHIQ_PRODUCTS
    const mb_pq_products *pq = m->plan->pq;
    if (pq && pq->phiq_x) {   /* the model's one pass, Phi_q's +-1 entries as such: the same bits */
        pq->phiq_x(s->Pq, y, b1, mi, x);
        for (; i + 3 < n; i += 4) {
            f0 += xr[i] * 0;
            f1 += xr[i + 1] * 0;
            f2 += xr[i + 2] * 0;
            f3 += xr[i + 3] * 0;
        }
        for (; i < n; i++) f0 += xr[i] * 0;
        return f0 + f1 + f2 + f3 == 0 && finite_vec(nc, y) ? MB_OK : MB_ERR_NONFINITE;
    }
#endif
    copy(n, x, b1);
    pq_mtv(m, s->Pq, y, -1, x);
    for (; i + 3 < n; i += 4) {
        xr[i] *= mi[i];
        xr[i + 1] *= mi[i + 1];
        xr[i + 2] *= mi[i + 2];
        xr[i + 3] *= mi[i + 3];
        f0 += xr[i] * 0;
        f1 += xr[i + 1] * 0;
        f2 += xr[i + 2] * 0;
        f3 += xr[i + 3] * 0;
    }
    for (; i < n; i++) {
        xr[i] *= mi[i];
        f0 += xr[i] * 0;
    }
    return f0 + f1 + f2 + f3 == 0 && finite_vec(nc, y) ? MB_OK : MB_ERR_NONFINITE;
#else                                   /* a firmware build: two passes, as before (flash) */
    copy(n, x, b1);
    pq_mtv(m, s->Pq, y, -1, x);
    for (int i = 0; i < n; i++) x[i] *= s->minv[i];
    return finite_vec(n, x) && finite_vec(nc, y) ? MB_OK : MB_ERR_NONFINITE;
#endif
}

#if !MBI_ONLY
int mbi_kkt_solve(mb_sim *s, const mb_real *b1, const mb_real *b2, mb_real *x, mb_real *y)
{
    return kkt_solve(s, b1, NULL, 0, b2, x, y);
}

int mbi_kkt_solve_v(mb_sim *s, const mb_real *b1, const mb_real *v, mb_real cv, const mb_real *b2,
                    mb_real *x, mb_real *y)
{
    return kkt_solve(s, b1, v, cv, b2, x, y);
}
#endif
#endif
