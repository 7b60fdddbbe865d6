/* mb_kkt.c - the KKT system of F1 and F2 by its Schur complement on the sparse plan.
 * Layer: runtime core (mb_sim_impl.h); never allocates or prints. */
#include "mb_sim_impl.h"

#if MBI_F1 || MBI_F2
/* Solve [[M, Phi_q^T], [Phi_q, 0]] [x; y] = [b1; b2] (Phi_q values in s->Pq) by its Schur
 * complement: M is diagonal, so S = Phi_q M^-1 Phi_q^T is sparse and positive definite while
 * Phi_q has full rank; S y = Phi_q M^-1 b1 - b2, x = M^-1 (b1 - Phi_q^T y). Rank loss of Phi_q
 * shows as a vanishing pivot of S, which names its constraint row (MB_ERR_SINGULAR). */
#if !MBI_ONLY
/* The vector passes below, in pairs on restrict parameters: GCC honours restrict on a
 * function's parameters (inlined too), not on block-scope pointers, and only then packs each
 * pair into one vector operation (a loop of unknown length is not vectorized at -O2); the same
 * products and sums, the same bits. */
/* x = M^-1 b + cv v (v non-NULL: mbi_kkt_solve_v), else M^-1 b */
static void scaled_rhs(int n, const mb_real *restrict mi, const mb_real *restrict b,
                       const mb_real *restrict v, mb_real cv, mb_real *restrict x)
{
    int i = 0;
    if (v) {
        for (; i + 1 < n; i += 2) {
            x[i] = mi[i] * b[i] + cv * v[i];
            x[i + 1] = mi[i + 1] * b[i + 1] + cv * v[i + 1];
        }
        if (i < n) x[i] = mi[i] * b[i] + cv * v[i];
    } else {
        for (; i + 1 < n; i += 2) {
            x[i] = mi[i] * b[i];
            x[i + 1] = mi[i + 1] * b[i + 1];
        }
        if (i < n) x[i] = mi[i] * b[i];
    }
}
/* y -= b2: given (c), F1's ga - (c1 pt + c2 ph) (ga), or F2's -pt - c1 ph - c2 I (I): b2 of
 * mbi_kkt_solve_v, _f2 formed where it is subtracted (the same operations as forming it first,
 * the same bits) */
static void sub_vec(int n, mb_real *restrict y, const mb_real *restrict c, const mb_real *restrict ga,
                    const mb_real *restrict pt, const mb_real *restrict ph, const mb_real *restrict I,
                    mb_real c1, mb_real c2)
{
    int i = 0;
    if (ga) {
        for (; i + 1 < n; i += 2) {
            y[i] -= ga[i] - (c1 * pt[i] + c2 * ph[i]);
            y[i + 1] -= ga[i + 1] - (c1 * pt[i + 1] + c2 * ph[i + 1]);
        }
        if (i < n) y[i] -= ga[i] - (c1 * pt[i] + c2 * ph[i]);
        return;
    }
    if (I) {
        for (; i + 1 < n; i += 2) {
            y[i] -= -pt[i] - c1 * ph[i] - c2 * I[i];
            y[i + 1] -= -pt[i + 1] - c1 * ph[i + 1] - c2 * I[i + 1];
        }
        if (i < n) y[i] -= -pt[i] - c1 * ph[i] - c2 * I[i];
        return;
    }
    for (; i + 1 < n; i += 2) {
        y[i] -= c[i];
        y[i + 1] -= c[i + 1];
    }
    if (i < n) y[i] -= c[i];
}
/* x *= M^-1 and whether x is finite, in one pass: sums of x * 0 in pairs of pairs (one chain of
 * additions waits 4 cycles an entry; the same answer: mb_vec.h's finite_vec) */
static int scale_finite(int n, mb_real *restrict x, const mb_real *restrict mi)
{
    mb_real f0 = 0, f1 = 0, f2 = 0, f3 = 0;
    int i = 0;
    for (; i + 3 < n; i += 4) {
        x[i] *= mi[i];
        x[i + 1] *= mi[i + 1];
        x[i + 2] *= mi[i + 2];
        x[i + 3] *= mi[i + 3];
        f0 += x[i] * 0;
        f1 += x[i + 1] * 0;
        f2 += x[i + 2] * 0;
        f3 += x[i + 3] * 0;
    }
    for (; i < n; i++) {
        x[i] *= mi[i];
        f0 += x[i] * 0;
    }
    return f0 + f1 + f2 + f3 == 0;
}

static int kkt_solve(mb_sim *s, const mb_real *b1, const mb_real *v, mb_real cv, const mb_real *b2,
                     const mb_real *ga, const mb_real *pt, const mb_real *ph, const mb_real *I,
                     mb_real c1, mb_real c2, mb_real *x, mb_real *y)
#else
int mbi_kkt_solve(mb_sim *s, const mb_real *b1, const mb_real *b2, mb_real *x, mb_real *y)
#endif
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
#if MB_WITH_S_FACTOR && !MBI_ONLY
    int st = mbi_ls_factor_s(s, s->minv, s->p.rank_tol);
#else
    mbi_assemble_s(s, s->minv);
    int st = mbi_ls_factor(s, MB_MAT_S, s->p.rank_tol);
#endif
    if (st) return st;
#if !MBI_ONLY
#if MB_WITH_S_FACTOR
    const mb_pq_products *pk = m->plan->pq;
    if (v && ga && pk && pk->kkt_bv)   /* the three below in the model's one pass: the same bits */
        pk->kkt_bv(s->Pq, s->minv, b1, v, cv, ga, pt, ph, c1, c2, y);
    else if (!v && I && pk && pk->kkt_bi)
        pk->kkt_bi(s->Pq, s->minv, b1, pt, ph, I, c1, c2, y);
    else
#endif
    {
        scaled_rhs(n, s->minv, b1, v, cv, x);
        mb_sp_phiq_mv(m, s->Pq, x, y);   /* (s->Pq: Phi_q's values, its +-1 entries as such) */
        sub_vec(nc, y, b2, ga, pt, ph, I, c1, c2);
    }
#else
    for (int i = 0; i < n; i++) x[i] = s->minv[i] * b1[i];
    pq_mv(m, s->Pq, x, y);
    for (int r = 0; r < nc; r++) y[r] -= b2[r];
#endif
#if MB_WITH_S_FACTOR && !MBI_ONLY
    mbi_ls_solve_s(s, y);
#else
    mbi_ls_solve(s, MB_MAT_S, y);
#endif
    /* Only x is tested: a NaN or Inf in y reaches x. Every row r of Phi_q has an entry (an empty
     * row makes S's row r zero, and its pivot fails the rank test above), so y_r enters some
     * x_c = w_c (b1_c - ... - Phi_q[r][c] y_r - ...), and a NaN or Inf stays one under + - and
     * * with any operand (Inf * 0 and Inf - Inf are NaN). So x finite means y finite too, as
     * when both were tested (Andrews' baumgarte right-hand side: 75 instructions fewer). */
#if !MBI_ONLY
#if MB_WITH_PHIQ_PRODUCTS
    const mb_pq_products *pq = m->plan->pq;
    if (pq && pq->phiq_x) {   /* x = M^-1 (b1 - Phi_q^T y) in the model's one pass: the same bits */
        pq->phiq_x(s->Pq, y, b1, s->minv, x);
        return finite_vec(n, x) ? MB_OK : MB_ERR_NONFINITE;
    }
#endif
    copy(n, x, b1);
    pq_mtv(m, s->Pq, y, -1, x);
    return scale_finite(n, x, s->minv) ? MB_OK : MB_ERR_NONFINITE;
#else                                   /* a firmware build: two passes, as before (flash) */
    copy(n, x, b1);
    pq_mtv(m, s->Pq, y, -1, x);
    for (int i = 0; i < n; i++) x[i] *= s->minv[i];
    return finite_vec(n, x) ? MB_OK : MB_ERR_NONFINITE;
#endif
}

#if !MBI_ONLY
int mbi_kkt_solve(mb_sim *s, const mb_real *b1, const mb_real *b2, mb_real *x, mb_real *y)
{
    return kkt_solve(s, b1, NULL, 0, b2, NULL, NULL, NULL, NULL, 0, 0, x, y);
}

int mbi_kkt_solve_v(mb_sim *s, const mb_real *b1, const mb_real *v, mb_real cv, const mb_real *ga,
                    const mb_real *pt, const mb_real *ph, mb_real c2, mb_real *x, mb_real *y)
{
    return kkt_solve(s, b1, v, cv, NULL, ga, pt, ph, NULL, cv, c2, x, y);
}

int mbi_kkt_solve_f2(mb_sim *s, const mb_real *b1, const mb_real *pt, const mb_real *ph,
                     const mb_real *I, mb_real c1, mb_real c2, mb_real *x, mb_real *y)
{
    return kkt_solve(s, b1, NULL, 0, NULL, NULL, pt, ph, I, c1, c2, x, y);
}
#endif
#endif
