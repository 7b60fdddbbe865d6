/* test_runtime_linalg.c - LU and Cholesky of both backends (LAPACKE and the builtin used by the
 * embedded build) against each other and against residuals; singular and non-finite input.
 * The builtin is linked under mbb_* names (see LINALG_B_RENAME in the Makefile). */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "mb_linalg.h"
#include "mb_status.h"

int mbb_lu_factor(int n, mb_real *a, int *piv, mb_real rank_tol, mb_real *ratio);
void mbb_lu_solve(int n, const mb_real *lu, const int *piv, mb_real *b);
int mbb_chol_factor(int n, mb_real *a, mb_real rank_tol, mb_real *ratio);
int mbb_chol_factor_row(int n, mb_real *a, mb_real rank_tol, mb_real *ratio, int *row);
void mbb_chol_solve(int n, const mb_real *l, mb_real *b);
const char *mbb_linalg_backend(void);

#define NMAX 48
static unsigned long rng = 12345;
static double rnd(void)   /* deterministic uniform in [-1, 1) */
{
    rng = rng * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}

static double resid(int n, const double *a, const double *x, const double *b)
{
    double r = 0, s = 0;
    for (int i = 0; i < n; i++) {
        double e = -b[i];
        for (int j = 0; j < n; j++) e += a[i + j * n] * x[j];
        if (fabs(e) > r) r = fabs(e);
        if (fabs(b[i]) > s) s = fabs(b[i]);
    }
    return r / (s > 0 ? s : 1);
}

int main(void)
{
    static double a[NMAX * NMAX], a1[NMAX * NMAX], a2[NMAX * NMAX], b[NMAX], x1[NMAX], x2[NMAX];
    int p1[NMAX], p2[NMAX];
    (void)check_close;
    CHECK(strcmp(mb_linalg_backend(), "lapacke") == 0 && strcmp(mbb_linalg_backend(), "builtin") == 0,
          "backends: %s / %s", mb_linalg_backend(), mbb_linalg_backend());
    for (int n = 1; n <= NMAX; n += 7) {
        /* general nonsymmetric, diagonally weighted so it is well conditioned */
        for (int k = 0; k < n * n; k++) a[k] = rnd();
        for (int i = 0; i < n; i++) { a[i + i * n] += 2.0; b[i] = rnd(); }
        memcpy(a1, a, sizeof(double) * n * n); memcpy(a2, a, sizeof(double) * n * n);
        memcpy(x1, b, sizeof(double) * n); memcpy(x2, b, sizeof(double) * n);
        int s1 = mb_lu_factor(n, a1, p1, 1e-12, NULL), s2 = mbb_lu_factor(n, a2, p2, 1e-12, NULL);
        CHECK(s1 == MB_OK && s2 == MB_OK, "LU n=%d: %d %d", n, s1, s2);
        mb_lu_solve(n, a1, p1, x1);
        mbb_lu_solve(n, a2, p2, x2);
        double d = 0;
        for (int i = 0; i < n; i++) if (fabs(x1[i] - x2[i]) > d) d = fabs(x1[i] - x2[i]);
        CHECK(resid(n, a, x1, b) < 1e-13 && resid(n, a, x2, b) < 1e-13, "LU residual n=%d: %.3g %.3g", n,
              resid(n, a, x1, b), resid(n, a, x2, b));
        CHECK(d < 1e-12, "LU backends differ by %.3g at n=%d", d, n);
        /* SPD: A A^T + n I */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = i == j ? n : 0;
                for (int k = 0; k < n; k++) s += a[i + k * n] * a[j + k * n];
                a1[i + j * n] = s;
            }
        memcpy(a, a1, sizeof(double) * n * n); memcpy(a2, a1, sizeof(double) * n * n);
        memcpy(x1, b, sizeof(double) * n); memcpy(x2, b, sizeof(double) * n);
        s1 = mb_chol_factor(n, a1, 0, NULL); s2 = mbb_chol_factor(n, a2, 0, NULL);
        CHECK(s1 == MB_OK && s2 == MB_OK, "Cholesky n=%d: %d %d", n, s1, s2);
        mb_chol_solve(n, a1, x1);
        mbb_chol_solve(n, a2, x2);
        d = 0;
        for (int i = 0; i < n; i++) if (fabs(x1[i] - x2[i]) > d) d = fabs(x1[i] - x2[i]);
        CHECK(resid(n, a, x1, b) < 1e-13 && resid(n, a, x2, b) < 1e-13, "Cholesky residual n=%d", n);
        CHECK(d < 1e-12, "Cholesky backends differ by %.3g at n=%d", d, n);
    }
    /* rank loss: a rank-deficient matrix (row 3 = row 1 + row 2) is reported, never solved */
    int n = 6;
    for (int k = 0; k < n * n; k++) a[k] = rnd();
    for (int j = 0; j < n; j++) a[3 + j * n] = a[1 + j * n] + a[2 + j * n];
    memcpy(a1, a, sizeof a1); memcpy(a2, a, sizeof a2);
    double r1, r2;
    int s1 = mb_lu_factor(n, a1, p1, 1e-10, &r1), s2 = mbb_lu_factor(n, a2, p2, 1e-10, &r2);
    CHECK(s1 == MB_ERR_SINGULAR && s2 == MB_ERR_SINGULAR, "rank-deficient LU: %d %d (ratios %.3g %.3g)", s1, s2, r1, r2);
    /* near-singular but full rank passes with rank_tol 0 and fails the ratio test above it */
    memcpy(a1, a, sizeof a1);
    for (int j = 0; j < n; j++) a1[3 + j * n] += 1e-9 * rnd();
    memcpy(a2, a1, sizeof a2);
    CHECK(mb_lu_factor(n, a1, p1, 0, &r1) == MB_OK && mbb_lu_factor(n, a2, p2, 0, &r2) == MB_OK,
          "near-singular LU with rank_tol 0");
    CHECK(r1 < 1e-7 && r2 < 1e-7 && r1 > 0, "pivot ratio reflects near rank loss: %.3g %.3g", r1, r2);
    memcpy(a1, a, sizeof a1);
    for (int j = 0; j < n; j++) a1[3 + j * n] += 1e-9;
    CHECK(mb_lu_factor(n, a1, p1, 1e-6, NULL) == MB_ERR_SINGULAR, "ratio test");
    /* not SPD: indefinite diagonal */
    memset(a1, 0, sizeof a1);
    for (int i = 0; i < n; i++) a1[i + i * n] = i == 2 ? -1 : 1;
    memcpy(a2, a1, sizeof a2);
    CHECK(mb_chol_factor(n, a1, 0, NULL) == MB_ERR_NOT_SPD && mbb_chol_factor(n, a2, 0, NULL) == MB_ERR_NOT_SPD,
          "indefinite matrix rejected by Cholesky");
    /* non-finite input */
    memset(a1, 0, sizeof a1);
    for (int i = 0; i < n; i++) a1[i + i * n] = 1;
    a1[7] = NAN;
    memcpy(a2, a1, sizeof a2);
    CHECK(mb_lu_factor(n, a1, p1, 0, NULL) == MB_ERR_NONFINITE && mbb_lu_factor(n, a2, p2, 0, NULL) == MB_ERR_NONFINITE,
          "NaN reported by LU");
    a1[7] = INFINITY; memcpy(a2, a1, sizeof a2);
    CHECK(mb_chol_factor(n, a1, 0, NULL) == MB_ERR_NONFINITE && mbb_chol_factor(n, a2, 0, NULL) == MB_ERR_NONFINITE,
          "Inf reported by Cholesky");
    /* the row of mb_chol_factor_row, both backends. (a) row 1 nearly row 0: its pivot 1e-14 is
     * positive, and the next one 1 - 1e14 breaks the factorization down: the row is the tiny
     * pivot's with a rank test, the breakdown's column without (rank_tol 0) */
    static const double near[9] = {1, 1, 0, 1, 1 + 1e-14, 1, 0, 1, 1};
    for (int pass = 0; pass < 2; pass++) {
        double tol = pass == 0 ? 1e-8 : 0;
        int w1 = -7, w2 = -7;
        memcpy(a1, near, sizeof near); memcpy(a2, near, sizeof near);
        s1 = mb_chol_factor_row(3, a1, tol, NULL, &w1); s2 = mbb_chol_factor_row(3, a2, tol, NULL, &w2);
        CHECK(s1 == MB_ERR_NOT_SPD && s2 == MB_ERR_NOT_SPD && w1 == 2 - !pass && w2 == w1,
              "breakdown after a tiny pivot, rank_tol %g: st %d %d, rows %d %d (expected %d)", tol, s1,
              s2, w1, w2, 2 - !pass);
    }
    /* (b) l_ii^2 = d_i on a diagonal: the first below rank_tol x the largest (1e-10, before the
     * smaller 1e-12); on success the smallest; a breakdown at column 0; NaN: no row */
    static const double dg[4][4] = {{1, 1e-10, 1e-12, 1}, {4, 1, 0.25, 2}, {-1, 1, 1, 1}, {1, NAN, 1, 1}};
    static const int want_st[4] = {MB_ERR_SINGULAR, MB_OK, MB_ERR_NOT_SPD, MB_ERR_NONFINITE};
    static const int want_row[4] = {1, 2, 0, -1};
    for (int c = 0; c < 4; c++) {
        int w1 = -7, w2 = -7;
        memset(a1, 0, sizeof(double) * 16);
        for (int i = 0; i < 4; i++) a1[i + 4 * i] = dg[c][i];
        memcpy(a2, a1, sizeof(double) * 16);
        s1 = mb_chol_factor_row(4, a1, 1e-8, &r1, &w1); s2 = mbb_chol_factor_row(4, a2, 1e-8, &r2, &w2);
        CHECK(s1 == want_st[c] && s2 == s1 && w1 == want_row[c] && w2 == w1 && r1 == r2,
              "diagonal case %d: st %d %d, rows %d %d, ratios %g %g (expected st %d row %d)", c, s1,
              s2, w1, w2, r1, r2, want_st[c], want_row[c]);
    }
    /* (c) rank 5 of 6 (row 4 = row 1 - row 2 of P, S = P P^T): the dependent pivot is 4, the
     * last of {1, 2, 4} in this order, whether rounding leaves it tiny or negative */
    double P[6 * 8];
    for (int k = 0; k < 6 * 8; k++) P[k] = rnd();
    for (int j = 0; j < 8; j++) P[4 + 6 * j] = P[1 + 6 * j] - P[2 + 6 * j];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double t = 0;
            for (int k = 0; k < 8; k++) t += P[i + 6 * k] * P[j + 6 * k];
            a1[i + 6 * j] = t;
        }
    memcpy(a2, a1, sizeof(double) * 36);
    {
        int w1 = -7, w2 = -7;
        s1 = mb_chol_factor_row(6, a1, 1e-8, NULL, &w1); s2 = mbb_chol_factor_row(6, a2, 1e-8, NULL, &w2);
        CHECK((s1 == MB_ERR_SINGULAR || s1 == MB_ERR_NOT_SPD) && (s2 == MB_ERR_SINGULAR || s2 == MB_ERR_NOT_SPD) &&
              w1 == 4 && w2 == 4, "dependent Gram matrix: st %d %d, rows %d %d", s1, s2, w1, w2);
    }
    return check_report();
}
