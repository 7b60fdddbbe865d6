/* mb_sparse.c - the compact sparse kernels: right-looking LDL^T and LU on a symbolic plan whose
 * update list was computed by the generator (generator/mb_plan_build.c), so the numeric phase
 * is a flat walk over const index arrays with no searching and no fill-in bookkeeping.
 * Layer: runtime core; no allocation, no printing. */
#define MBI_VEC_BODIES   /* mb_vec.h's shared bodies of a firmware build */
#include "mb_sparse.h"
#include "mb_status.h"
#include "mb_vec.h"

/* The compact right-looking LDL^T: -1, or the permuted pivot that failed the test d_k > tol d0_k
 * (0 <= tol <= 1: every update of a diagonal subtracts u (u / d_j) >= 0, so d_k <= d0_k, and the
 * test also fails where d0_k <= 0). F[k] keeps 1 / d_k for a pivot that passed with
 * MB_LDL_RECIPROCAL (the solves multiply), else d_k; d_k itself for the pivot that failed.
 * *qmax (MB_LDL_RECIPROCAL; else not written): the largest of 1 and the products d0_k (1 / d_k) of the
 * pivots that passed, as the unrolled ldl's (mb_model.h: mb_symbolic). */
static int ldl_compact(const mb_symbolic *sy, mb_real *F, mb_real *d0, mb_real tol, mb_real *qmax)
{
    const int n = sy->n;
    const mb_index *lp = sy->lp, *upd = sy->upd;
    mb_real *L = F + n;
    int u = 0;
#if MB_LDL_RECIPROCAL
    mb_real m = 1;
#define LDL_QMAX(x) (*qmax = (x))
#else
#define LDL_QMAX(x) (void)qmax   /* (not read: D keeps d_k, and the status loop divides) */
#endif
    for (int k = 0; k < n; k++) d0[k] = F[k];
    for (int k = 0; k < n; k++) {
        mb_real d = F[k];
        if (!(d > tol * d0[k])) { LDL_QMAX(m); return k; }
        mb_real inv = 1 / d;
        for (int p = lp[k]; p < lp[k + 1]; p++) {
            mb_real yp = L[p] * inv;
            for (int q = p; q < lp[k + 1]; q++) F[upd[u++]] -= L[q] * yp;
        }
        for (int p = lp[k]; p < lp[k + 1]; p++) L[p] *= inv;
#if MB_LDL_RECIPROCAL
        F[k] = inv;
        mb_real q = d0[k] * inv;
        m = q > m ? q : m;
#endif
    }
    LDL_QMAX(m);
#undef LDL_QMAX
    return -1;
}

/* The result of a factorization the kernels stopped at kf (-1: done), mmax their largest
 * d0_k / d_k (1 / the smallest ratio): status, *ratio, *bad as mb_sp_ldl's (mb_sparse.h). */
#if MBI_ONLY
static int ldl_status(const mb_symbolic *sy, const mb_real *F, const mb_real *d0, mb_real rank_tol,
                      mb_real *ratio, int *bad, int kf, mb_real mmax)
#else
int mb_sp_ldl_status(const mb_symbolic *sy, const mb_real *F, const mb_real *d0, mb_real rank_tol,
                     mb_real *ratio, int *bad, mb_real below, int kf, mb_real mmax)
#endif
{
    const int n = sy->n;
    mb_real rmin = 1;
    int kmin = -1;
    (void)mmax;                           /* (D keeps d_k: the loop below divides) */
    *bad = -1;
    int kend = kf < 0 ? n : kf + 1;
    mb_real fin = 0;                      /* x * 0: +-0 for a finite x, NaN for an Inf or NaN */
    /* F[k] is 1 / d_k (MB_LDL_RECIPROCAL, else d_k) for k < kf, d_kf at a failing kf */
    if (!ratio)                           /* no ratio wanted: the finiteness alone */
        for (int k = 0; k < kend; k++) fin += F[k] * 0 + d0[k] * 0;
    else {
        /* pivots done: ratio d_k / d0_k (0 where d0_k <= 0), finiteness. The smallest ratio is
         * 1 / the largest d0_k (1 / d_k), which the kernel found where both were in registers:
         * one division, not one a pivot; its value within 2 ulp of d_k / d0_k (two roundings
         * more). The kernels passed 0 < d_k (<= d0_k, finite) at every pivot before kf, so only
         * kf's are tested, and there d0_k (1 / d_k) is finite but where d_k is too small to
         * invert or d_k / d0_k below 1 / MB_REAL_MAX: then it is Inf and the largest, so the
         * finiteness of the largest alone tests them all (no chain of sums a pivot; such a
         * pivot is MB_ERR_NONFINITE) */
#if MB_LDL_RECIPROCAL
        int kok = kf < 0 ? n : kf;
        fin += mmax * 0;
        if (mmax > 1) {
            rmin = 1 / mmax;
#if !MBI_ONLY
            if (rmin < below) { /* the first pivot of the largest d0_k / d_k, as a loop keeping
                                 * the first strict maximum finds it */
#endif
                /* where no product here equals the kernel's mmax (another rounding of it: excess
                 * precision, FLT_EVAL_METHOD != 0), the first of the largest found by a second
                 * pass: always a pivot done (-1 where none is). (The first pass tests equality
                 * alone: the largest is mostly a late pivot, Andrews' about the 20th of 20) */
                for (kmin = 0; kmin < kok; kmin++) {
                    mb_real q = d0[kmin] * F[kmin];   /* (rounded to mb_real, as the kernel's) */
                    if (q == mmax) break;
                }
                if (kmin == kok) {
                    mb_real big = 0;
                    kmin = -1;
                    for (int k = 0; k < kok; k++) {
                        mb_real q = d0[k] * F[k];
                        if (q > big) { big = q; kmin = k; }
                    }
                }
#if !MBI_ONLY
            }
#endif
        }
        if (kf >= 0) {
            mb_real dk = F[kf], ok = d0[kf], r = ok > 0 ? dk / ok : 0;
            fin += dk * 0;
            if (r < rmin) { rmin = r; kmin = kf; }
        }
#else      /* D keeps d_k (a firmware build): one loop, a division a pivot (flash: two loops
              cost 40-48 B on the M4F) */
        for (int k = 0; k < kend; k++) {
            mb_real dk = F[k], ok = d0[k], r = ok > 0 ? dk / ok : 0;
            fin += dk * 0 + ok * 0;
            if (r < rmin) { rmin = r; kmin = k; }
        }
#if !MBI_ONLY
        if (!(rmin < below)) kmin = -1;
#endif
#endif
        *ratio = rmin;
        if (kmin >= 0) *bad = sy->perm[kmin];   /* success: the row of the smallest ratio */
    }
    int nonfinite = !(fin == 0);
    /* a NaN or Inf reaches the pivots it updates (see mb_sp_lu); the rest shows in solutions */
    if (nonfinite) return MB_ERR_NONFINITE;
    if (kf >= 0) {
        *bad = sy->perm[kf];
        return rank_tol > 0 ? MB_ERR_SINGULAR : MB_ERR_NOT_SPD;
    }
    return MB_OK;
}

#if MBI_ONLY
int mb_sp_ldl(const mb_symbolic *sy, mb_real *F, mb_real *d0, mb_real rank_tol, mb_real *ratio,
              int *bad)
#else
int mb_sp_ldl_below(const mb_symbolic *sy, mb_real *F, mb_real *d0, mb_real rank_tol, mb_real *ratio,
                    int *bad, mb_real below)
#endif
{
    mb_real mmax = 1;
    int kf = sy->ldl ? sy->ldl(F, d0, rank_tol, &mmax) : ldl_compact(sy, F, d0, rank_tol, &mmax);
#if MBI_ONLY
    return ldl_status(sy, F, d0, rank_tol, ratio, bad, kf, mmax);
#else
    return mb_sp_ldl_status(sy, F, d0, rank_tol, ratio, bad, below, kf, mmax);
#endif
}

/* y = P b, forward with unit L */
static void forward(const mb_symbolic *sy, const mb_real *L, const mb_real *b, mb_real *y)
{
    const int n = sy->n;
    const mb_index *lp = sy->lp, *li = sy->li;
    for (int k = 0; k < n; k++) y[k] = b[sy->perm[k]];
    for (int k = 0; k < n; k++) {
        mb_real yk = y[k];
        if (yk != 0)
            for (int p = lp[k]; p < lp[k + 1]; p++) y[li[p]] -= L[p] * yk;
    }
}

void mb_sp_ldl_solve(const mb_symbolic *sy, const mb_real *F, mb_real *b, mb_real *y)
{
    const int n = sy->n;
    const mb_index *lp = sy->lp, *li = sy->li;
    const mb_real *L = F + n;
    if (sy->ldl_solve) { sy->ldl_solve(F, b, y); return; }
    forward(sy, L, b, y);
    for (int k = n - 1; k >= 0; k--) {     /* D^-1 (F: its values), then L^T, row k of L^T = column k of L */
        mb_real s = MB_LDL_DIV(y[k], F[k]);
        for (int p = lp[k]; p < lp[k + 1]; p++) s -= L[p] * y[li[p]];
        y[k] = s;
    }
    for (int k = 0; k < n; k++) b[sy->perm[k]] = y[k];
}

/* The compact right-looking LU: -1, or the permuted pivot that is exactly zero. */
static int lu_compact(const mb_symbolic *sy, mb_real *F)
{
    const int n = sy->n, nl = sy->nl;
    const mb_index *lp = sy->lp, *upd = sy->upd;
    mb_real *L = F + n, *U = F + n + nl;
    int u = 0;
    for (int k = 0; k < n; k++) {
        mb_real d = F[k];
        if (d == 0) return k;
        mb_real inv = 1 / d;
        int p1 = lp[k + 1];
        /* column k of L scaled first: the updates below use l_(i, k) = L[p] * inv, the same
         * product once per entry instead of once per update (no update reaches column k) */
        for (int p = lp[k]; p < p1; p++) L[p] *= inv;
        for (int p = lp[k]; p < p1; p++) {
            mb_real lpk = L[p], up = U[p];         /* l_(li p, k) and u_(k, li p) */
            int t = upd[u++];
            F[t] -= lpk * up;                      /* diagonal (li p, li p) */
            for (int q = p + 1; q < p1; q++) {
                t = upd[u++];
                F[t] -= L[q] * up;                 /* lower (li q, li p) */
                F[t + nl] -= lpk * U[q];           /* upper (li p, li q) */
            }
        }
        F[k] = inv;                                /* the solve multiplies (mb_sp_lu) */
    }
    return -1;
}

int mb_sp_lu(const mb_symbolic *sy, mb_real *F, mb_real *ratio, int *bad)
{
    const int n = sy->n, nl = sy->nl;
    *bad = -1;
    if (ratio) *ratio = 0;
    (void)nl;
    int kf = sy->lu ? sy->lu(F) : lu_compact(sy, F);   /* unrolled form, or compact */
    if (kf >= 0) { *bad = sy->perm[kf]; return MB_ERR_SINGULAR; }
    /* A NaN or Inf anywhere in the matrix reaches every later pivot it updates; one in the last
     * columns may not, but then the solution is not finite, which every caller checks. */
    if (!ratio) {                        /* no pivot ratio wanted: the finiteness only (x * 0 is
                                            NaN for an Inf or NaN x, else +-0) */
        return finite_vec(n, F) ? MB_OK : MB_ERR_NONFINITE;   /* four sums on a host */
    }
    mb_real lo = 0, hi = 0;              /* min |u_kk| / max |u_kk|, as the dense LU reports */
    for (int k = 0; k < n; k++) {
        mb_real r = MB_FABS(F[k]);
        if (!isfinite(r)) return MB_ERR_NONFINITE;
        if (k == 0 || r < lo) lo = r;
        if (r > hi) hi = r;
    }
    *ratio = hi > 0 ? lo / hi : 1;
    return MB_OK;
}

void mb_sp_lu_solve(const mb_symbolic *sy, const mb_real *F, mb_real *b, mb_real *y)
{
    const int n = sy->n, nl = sy->nl;
    const mb_index *lp = sy->lp, *li = sy->li;
    const mb_real *U = F + n + nl;
    if (sy->lu_solve) { sy->lu_solve(F, b, y); return; }
    forward(sy, F + n, b, y);
    for (int k = n - 1; k >= 0; k--) {     /* row k of U = column k of U^T */
        mb_real s = y[k];
        /* the rows in descending order: the value computed last (the nearest row) is subtracted
         * last, so the chain from one row to the next is one product and one subtraction */
        for (int p = lp[k + 1] - 1; p >= lp[k]; p--) s -= U[p] * y[li[p]];
        y[k] = s * F[k];
    }
    for (int k = 0; k < n; k++) b[sy->perm[k]] = y[k];
}

int mb_sp_locate(const mb_symbolic *sy, int i, int j)
{
    if (i == j) return i;
    int up = i < j;
    if (up) { int t = i; i = j; j = t; }
    int lo = sy->lp[j], hi = sy->lp[j + 1];   /* column j's rows are sorted: bisect */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (sy->li[mid] < i) lo = mid + 1;
        else hi = mid;
    }
    if (lo < sy->lp[j + 1] && sy->li[lo] == i) return sy->n + lo + (up ? sy->nl : 0);
    return -1;
}

void mb_sp_assemble_s_maps(const mb_model *m, const mb_real *val, const mb_real *w, mb_real *F)
{
    const mb_plan *P = m->plan;
    const mb_index *col = m->phi_q_pat.col;
    for (int k = 0; k < P->s.n + P->s.nl; k++) F[k] = 0;
    for (int t = 0; t < P->ns; t++) {
        int k = P->s_k[t];
        F[P->s_dst[t]] += w[col[k]] * val[k] * val[P->s_l[t]];
    }
}

void mb_sp_assemble_s(const mb_model *m, const mb_real *Pq, const mb_real *w, mb_real *F)
{
    const mb_plan *P = m->plan;
#if MBI_ONLY   /* a firmware build zeroes first as it did (flash: the other order cost 4-12 B) */
    const mb_index *col = m->phi_q_pat.col;
    for (int k = 0; k < P->s.n + P->s.nl; k++) F[k] = 0;
    if (P->s_assemble) { P->s_assemble(F, Pq, w); return; }   /* (it overwrites every entry) */
    for (int t = 0; t < P->ns; t++) {
        int k = P->s_k[t];
        F[P->s_dst[t]] += w[col[k]] * Pq[k] * Pq[P->s_l[t]];
    }
#else
    if (P->s_assemble) { P->s_assemble(F, Pq, w); return; }   /* the unrolled form: writes all */
    mb_sp_assemble_s_maps(m, Pq, w, F);
#endif
}

/* (the plan is required: mb_sim_init's check_plan; the assembly above reads it likewise) */
void mb_sp_pq_mv(const mb_model *m, const mb_real *val, const mb_real *x, mb_real *out)
{
    if (m->plan->pq) m->plan->pq->mv(val, x, out);
    else sp_mv(&m->phi_q_pat, val, x, out, m->nc);
}

void mb_sp_pq_mtv(const mb_model *m, const mb_real *val, const mb_real *y, mb_real a, mb_real *out)
{
    if (m->plan->pq) m->plan->pq->mtv(val, y, a, out);
    else sp_mtv_add(&m->phi_q_pat, val, y, a, out);
}

void mb_sp_phiq_mv(const mb_model *m, const mb_real *Pq, const mb_real *x, mb_real *out)
{
#if MB_WITH_PHIQ_PRODUCTS
    const mb_pq_products *pq = m->plan->pq;
    if (pq && pq->phiq_mv) { pq->phiq_mv(Pq, x, out); return; }
#endif
    mb_sp_pq_mv(m, Pq, x, out);
}
