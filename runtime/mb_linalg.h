/* mb_linalg.h - the small dense linear algebra the runtime needs, behind one interface.
 * Layer: runtime core. Host build: LAPACKE (d* or s* by mb_real); with -DMB_NO_LAPACKE our own
 * LU with partial pivoting and Cholesky. Matrices are column-major, a[i + j*n]; nothing allocates. */
#ifndef MB_LINALG_H
#define MB_LINALG_H

#include "mb_config.h"

/* Name of the compiled backend: "lapacke" or "builtin". */
const char *mb_linalg_backend(void);

/* LU factorization with partial pivoting of the n x n matrix a, in place; piv[n] receives the
 * row interchanges. Returns MB_OK, MB_ERR_NONFINITE (NaN/Inf entry), or MB_ERR_SINGULAR when a
 * pivot is exactly zero or min|u_ii| < rank_tol * max|u_ii| (rank_tol 0: exact zero only).
 * *ratio (may be NULL) receives min|u_ii| / max|u_ii|, a cheap rank indicator. */
int mb_lu_factor(int n, mb_real *a, int *piv, mb_real rank_tol, mb_real *ratio);

/* Solve with the factors of mb_lu_factor; b[n] is overwritten by the solution. */
void mb_lu_solve(int n, const mb_real *lu, const int *piv, mb_real *b);

/* Cholesky a = L L^T of the symmetric positive definite n x n matrix a (lower triangle read),
 * in place. Returns MB_OK, MB_ERR_NONFINITE, MB_ERR_NOT_SPD (non-positive pivot), or
 * MB_ERR_SINGULAR when min l_ii^2 < rank_tol * max l_ii^2 (rank_tol 0: no ratio test). */
int mb_chol_factor(int n, mb_real *a, mb_real rank_tol, mb_real *ratio);
/* The same, and *row (may be NULL) the pivot that failed, or on success the smallest: the first
 * pivot l_ii^2 below rank_tol times the largest (before the breakdown, MB_ERR_NOT_SPD: a tiny
 * pivot left by rounding at a singular matrix makes a later one negative), else the column of
 * the non-positive pivot (MB_ERR_NOT_SPD) or the first smallest l_ii^2 (MB_ERR_SINGULAR, MB_OK);
 * -1 for MB_ERR_NONFINITE, MB_ERR_PARAM and n = 0. As the sparse LDL^T's (mb_sparse.h), whose
 * test stops at the first pivot d_k <= rank_tol d0_k: with a unit diagonal, l_ii^2 = d_i / d0_i. */
int mb_chol_factor_row(int n, mb_real *a, mb_real rank_tol, mb_real *ratio, int *row);

/* Solve with the factor of mb_chol_factor; b[n] is overwritten by the solution. */
void mb_chol_solve(int n, const mb_real *l, mb_real *b);

#endif /* MB_LINALG_H */
