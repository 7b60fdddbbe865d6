/* mb_linalg.c - dense LU and Cholesky: LAPACKE on the host, our own loops with MB_NO_LAPACKE.
 * Layer: runtime core; no allocation, no printing. Both backends share the finiteness and the
 * rank (pivot ratio) tests so they report the same status for the same matrix. */
#include <stddef.h>
#include "mb_linalg.h"
#include "mb_status.h"

#if !MB_NO_LAPACKE
#include <lapacke.h>
/* piv is an int array in our interface; LAPACKE must use the same integer width. */
typedef char mb_lapack_int_is_int[sizeof(lapack_int) == sizeof(int) ? 1 : -1];
#if MB_FLOAT
#define XGETRF LAPACKE_sgetrf_work
#define XGETRS LAPACKE_sgetrs_work
#define XPOTRF LAPACKE_spotrf_work
#define XPOTRS LAPACKE_spotrs_work
#else
#define XGETRF LAPACKE_dgetrf_work
#define XGETRS LAPACKE_dgetrs_work
#define XPOTRF LAPACKE_dpotrf_work
#define XPOTRS LAPACKE_dpotrs_work
#endif
#endif

const char *mb_linalg_backend(void)
{
#if MB_NO_LAPACKE
    return "builtin";
#else
    return "lapacke";
#endif
}

static int all_finite(int n, const mb_real *a)
{
    for (long k = 0; k < (long)n * n; k++)
        if (!isfinite(a[k])) return 0;
    return 1;
}

/* Pivot ratio test on the diagonal d_ii (|u_ii| or l_ii^2); *row (may be NULL): the index of
 * the smallest d_ii, the first of equals. */
static int ratio_test(int n, const mb_real *a, int square, mb_real rank_tol, mb_real *ratio, int *row)
{
    mb_real lo = 0, hi = 0;
    int ilo = 0;
    for (int i = 0; i < n; i++) {
        mb_real d = MB_FABS(a[i + (long)i * n]);
        if (square) d = d * d;
        if (i == 0 || d < lo) { lo = d; ilo = i; }
        if (d > hi) hi = d;
    }
    mb_real r = hi > 0 ? lo / hi : 0;
    if (ratio) *ratio = r;
    if (row) *row = n > 0 ? ilo : -1;
    if (lo == 0 || r < rank_tol) return MB_ERR_SINGULAR;
    return MB_OK;
}

/* The first of the Cholesky pivots l_ii^2, i < m, below rank_tol times the largest of them (the
 * rows after a vanishing pivot carry its rounding: the first is the one the sparse LDL^T's test
 * stops at), or -1 */
static int first_small(int m, int n, const mb_real *a, mb_real rank_tol)
{
    mb_real hi = 0;
    for (int i = 0; i < m; i++) {
        mb_real d = a[i + (long)i * n];
        if (d * d > hi) hi = d * d;
    }
    for (int i = 0; i < m; i++) {
        mb_real d = a[i + (long)i * n];
        if (d * d < rank_tol * hi) return i;
    }
    return -1;
}

int mb_lu_factor(int n, mb_real *a, int *piv, mb_real rank_tol, mb_real *ratio)
{
    if (ratio) *ratio = 0;
    if (!all_finite(n, a)) return MB_ERR_NONFINITE;
#if MB_NO_LAPACKE
    for (int k = 0; k < n; k++) {
        int p = k;                       /* partial pivoting: largest |a_ik|, i >= k */
        mb_real best = MB_FABS(a[k + (long)k * n]);
        for (int i = k + 1; i < n; i++) {
            mb_real v = MB_FABS(a[i + (long)k * n]);
            if (v > best) { best = v; p = i; }
        }
        piv[k] = p + 1;                  /* 1-based like LAPACK */
        if (p != k)
            for (int j = 0; j < n; j++) {
                mb_real t = a[k + (long)j * n];
                a[k + (long)j * n] = a[p + (long)j * n];
                a[p + (long)j * n] = t;
            }
        mb_real d = a[k + (long)k * n];
        if (d == 0) continue;            /* singular; reported by the ratio test below */
        for (int i = k + 1; i < n; i++) a[i + (long)k * n] /= d;
        for (int j = k + 1; j < n; j++) {
            mb_real akj = a[k + (long)j * n];
            if (akj == 0) continue;
            mb_real *cj = a + (long)j * n, *ck = a + (long)k * n;
            for (int i = k + 1; i < n; i++) cj[i] -= ck[i] * akj;
        }
    }
#else
    int info = XGETRF(LAPACK_COL_MAJOR, n, n, a, n, piv);
    if (info < 0) return MB_ERR_PARAM;
#endif
    return ratio_test(n, a, 0, rank_tol, ratio, NULL);
}

void mb_lu_solve(int n, const mb_real *lu, const int *piv, mb_real *b)
{
#if MB_NO_LAPACKE
    for (int k = 0; k < n; k++) {        /* apply the interchanges in order */
        int p = piv[k] - 1;
        if (p != k) { mb_real t = b[k]; b[k] = b[p]; b[p] = t; }
    }
    for (int j = 0; j < n; j++) {        /* L y = b, unit diagonal, column-oriented */
        mb_real bj = b[j];
        if (bj != 0)
            for (int i = j + 1; i < n; i++) b[i] -= lu[i + (long)j * n] * bj;
    }
    for (int j = n - 1; j >= 0; j--) {   /* U x = y */
        b[j] /= lu[j + (long)j * n];
        mb_real bj = b[j];
        if (bj != 0)
            for (int i = 0; i < j; i++) b[i] -= lu[i + (long)j * n] * bj;
    }
#else
    XGETRS(LAPACK_COL_MAJOR, 'N', n, 1, lu, n, piv, b, n);
#endif
}

/* The row of a Cholesky that broke down at column j (its pivot not positive): the first of the
 * pivots before it below the rank test (the breakdown is then that pivot's rounding carried
 * on), else j. The diagonal before j holds L's (ours; LAPACK's xPOTRF too: its blocks and
 * recursion finish the diagonal of every column before the one that fails). */
static int not_spd_row(int j, int n, const mb_real *a, mb_real rank_tol)
{
    int k = first_small(j, n, a, rank_tol);
    return k >= 0 ? k : j;
}

int mb_chol_factor_row(int n, mb_real *a, mb_real rank_tol, mb_real *ratio, int *row)
{
    if (ratio) *ratio = 0;
    if (row) *row = -1;
    if (!all_finite(n, a)) return MB_ERR_NONFINITE;
#if MB_NO_LAPACKE
    for (int j = 0; j < n; j++) {        /* left-looking, column j of L */
        mb_real d = a[j + (long)j * n];
        for (int k = 0; k < j; k++) d -= a[j + (long)k * n] * a[j + (long)k * n];
        if (!(d > 0)) {
            if (row) *row = not_spd_row(j, n, a, rank_tol);
            return MB_ERR_NOT_SPD;
        }
        d = MB_SQRT(d);
        a[j + (long)j * n] = d;
        for (int i = j + 1; i < n; i++) {
            mb_real s = a[i + (long)j * n];
            for (int k = 0; k < j; k++) s -= a[i + (long)k * n] * a[j + (long)k * n];
            a[i + (long)j * n] = s / d;
        }
    }
#else
    int info = XPOTRF(LAPACK_COL_MAJOR, 'L', n, a, n);
    if (info < 0) return MB_ERR_PARAM;
    if (info > 0) {                      /* the leading minor of order info: column info - 1 */
        if (row) *row = not_spd_row(info - 1, n, a, rank_tol);
        return MB_ERR_NOT_SPD;
    }
#endif
    int st = ratio_test(n, a, 1, rank_tol, ratio, row);
    if (st == MB_ERR_SINGULAR && row) {  /* the first pivot below the test, else the smallest */
        int k = first_small(n, n, a, rank_tol);
        if (k >= 0) *row = k;
    }
    return st;
}

int mb_chol_factor(int n, mb_real *a, mb_real rank_tol, mb_real *ratio)
{
    return mb_chol_factor_row(n, a, rank_tol, ratio, NULL);
}

void mb_chol_solve(int n, const mb_real *l, mb_real *b)
{
#if MB_NO_LAPACKE
    for (int j = 0; j < n; j++) {        /* L y = b */
        b[j] /= l[j + (long)j * n];
        mb_real bj = b[j];
        for (int i = j + 1; i < n; i++) b[i] -= l[i + (long)j * n] * bj;
    }
    for (int i = n - 1; i >= 0; i--) {   /* L^T x = y */
        mb_real s = b[i];
        for (int k = i + 1; k < n; k++) s -= l[k + (long)i * n] * b[k];
        b[i] = s / l[i + (long)i * n];
    }
#else
    XPOTRS(LAPACK_COL_MAJOR, 'L', n, 1, l, n, b, n);
#endif
}
