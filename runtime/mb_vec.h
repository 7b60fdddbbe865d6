/* mb_vec.h - small dense-vector and sparse-pattern helpers shared by the runtime's files.
 * Layer: runtime internal (not part of the API); static inline, no state, no allocation.
 * Sparse values follow an mb_pattern: entry k sits at (row[k], col[k]). */
#ifndef MB_VEC_H
#define MB_VEC_H

#include <string.h>
#include "mb_model.h"

/* dot, nrminf, finite_vec, zero and copy: static inline in a full build; in a firmware build
 * (MB_ONLY_*) one body each in mb_sparse.c (MBI_VEC_BODIES), reached through the inline
 * wrappers below. At -Os the compiler keeps them out of line, one copy per runtime file, which
 * link-time optimization folds only in part (Andrews, M4F, -Os, flash-lean: 16 B less in
 * alf-trapezoid double, 12 B in float, 8 B in baumgarte). The same statements, the same bits. */
#if MBI_ONLY
#define MBI_VEC_SC
#define MBI_VEC(name) mbi_vec_##name
mb_real mbi_vec_dot(int n, const mb_real *a, const mb_real *b);
mb_real mbi_vec_nrminf(int n, const mb_real *a);
int mbi_vec_finite_vec(int n, const mb_real *a);
void mbi_vec_zero(int n, mb_real *a);
void mbi_vec_copy(int n, mb_real *d, const mb_real *s);
static inline mb_real dot(int n, const mb_real *a, const mb_real *b) { return mbi_vec_dot(n, a, b); }
static inline mb_real nrminf(int n, const mb_real *a) { return mbi_vec_nrminf(n, a); }
static inline int finite_vec(int n, const mb_real *a) { return mbi_vec_finite_vec(n, a); }
static inline void zero(int n, mb_real *a) { mbi_vec_zero(n, a); }
static inline void copy(int n, mb_real *d, const mb_real *s) { mbi_vec_copy(n, d, s); }
#else
#define MBI_VEC_SC static inline
#define MBI_VEC(name) name
#endif
#if !MBI_ONLY || defined(MBI_VEC_BODIES)
MBI_VEC_SC mb_real MBI_VEC(dot)(int n, const mb_real *a, const mb_real *b)
{
    mb_real s = 0;
    int i = 0;
#if !MBI_ONLY
    /* four entries a turn, the sum in order (the same bits): a third of the loop's instructions
     * were its own (baumgarte's stage power lambda^T Phi_t, nc = 20: 126 -> 80); a firmware
     * build: one (flash) */
    for (; i + 3 < n; i += 4) {
        s += a[i] * b[i];
        s += a[i + 1] * b[i + 1];
        s += a[i + 2] * b[i + 2];
        s += a[i + 3] * b[i + 3];
    }
#endif
    for (; i < n; i++) s += a[i] * b[i];
    return s;
}
MBI_VEC_SC mb_real MBI_VEC(nrminf)(int n, const mb_real *a)
{
    mb_real s = 0;
    for (int i = 0; i < n; i++) if (MB_FABS(a[i]) > s) s = MB_FABS(a[i]);
    return s;
}
/* Whether every entry is finite: x * 0 is +-0 for a finite x and NaN for an Inf or NaN, so the
 * sum is 0 exactly when all are (one multiply-add per entry, no test: a third of the
 * instructions of isfinite per entry, which was 0.6 k of an Andrews trapezoid step) */
MBI_VEC_SC int MBI_VEC(finite_vec)(int n, const mb_real *a)
{
    mb_real acc = 0;
    int i = 0;
#if !MBI_ONLY
    /* four sums: one chain of additions waits for each entry's, four overlap (chain100's
     * right-hand side: 0.7 k fewer instructions, 0.1-0.2 us); the same answer (a sum of +-0 is
     * +-0, any NaN stays); a firmware build: one (flash) */
    mb_real a1 = 0, a2 = 0, a3 = 0;
    for (; i + 3 < n; i += 4) {
        acc += a[i] * 0;
        a1 += a[i + 1] * 0;
        a2 += a[i + 2] * 0;
        a3 += a[i + 3] * 0;
    }
    acc += a1 + a2 + a3;
#endif
    for (; i < n; i++) acc += a[i] * 0;
    return acc == 0;
}
MBI_VEC_SC void MBI_VEC(zero)(int n, mb_real *a) { for (int i = 0; i < n; i++) a[i] = 0; }
/* d and s may be the same array (aliased workspace blocks), never partly overlapping */
MBI_VEC_SC void MBI_VEC(copy)(int n, mb_real *d, const mb_real *s) { if (n > 0 && d != s) memcpy(d, s, sizeof(mb_real) * (size_t)n); }
#endif
#undef MBI_VEC_SC
#undef MBI_VEC
static inline mb_real nrm2(int n, const mb_real *a) { return MB_SQRT(dot(n, a, a)); }

/* out[rows] = P x */
static inline void sp_mv(const mb_pattern *pat, const mb_real *val, const mb_real *x, mb_real *out, int rows)
{
    zero(rows, out);
#if !MBI_ONLY
    /* four entries a turn, in order (the same sums): fewer of the loop's own instructions,
     * which were a quarter of the product's (alf-explicit's sigma iteration calls both products
     * once a pass, and its passes grow with N). A firmware build: one (flash) */
    const mb_index *row = pat->row, *col = pat->col;
    int k = 0, nnz = pat->nnz;
    for (; k + 3 < nnz; k += 4) {
        out[row[k]] += val[k] * x[col[k]];
        out[row[k + 1]] += val[k + 1] * x[col[k + 1]];
        out[row[k + 2]] += val[k + 2] * x[col[k + 2]];
        out[row[k + 3]] += val[k + 3] * x[col[k + 3]];
    }
    for (; k < nnz; k++) out[row[k]] += val[k] * x[col[k]];
#else
    for (int k = 0; k < pat->nnz; k++) out[pat->row[k]] += val[k] * x[pat->col[k]];
#endif
}
/* out += a P^T y */
static inline void sp_mtv_add(const mb_pattern *pat, const mb_real *val, const mb_real *y, mb_real a, mb_real *out)
{
#if !MBI_ONLY
    const mb_index *row = pat->row, *col = pat->col;
    int k = 0, nnz = pat->nnz;
    for (; k + 3 < nnz; k += 4) {   /* four a turn, in order (as sp_mv's) */
        out[col[k]] += a * val[k] * y[row[k]];
        out[col[k + 1]] += a * val[k + 1] * y[row[k + 1]];
        out[col[k + 2]] += a * val[k + 2] * y[row[k + 2]];
        out[col[k + 3]] += a * val[k + 3] * y[row[k + 3]];
    }
    for (; k < nnz; k++) out[col[k]] += a * val[k] * y[row[k]];
#else
    for (int k = 0; k < pat->nnz; k++) out[pat->col[k]] += a * val[k] * y[pat->row[k]];
#endif
}
/* The products with Phi_q's pattern: the model's unrolled code where it has one (mb_plan.pq: mv,
 * mtv; the same arithmetic, so bit-identical), the loops above otherwise. One body each in
 * mb_sparse.c (an inline copy per runtime file cost flash on small targets). */
void mb_sp_pq_mv(const mb_model *m, const mb_real *val, const mb_real *x, mb_real *out);
void mb_sp_pq_mtv(const mb_model *m, const mb_real *val, const mb_real *y, mb_real a, mb_real *out);
static inline void pq_mv(const mb_model *m, const mb_real *val, const mb_real *x, mb_real *out)
{
    mb_sp_pq_mv(m, val, x, out);
}
static inline void pq_mtv(const mb_model *m, const mb_real *val, const mb_real *y, mb_real a, mb_real *out)
{
    mb_sp_pq_mtv(m, val, y, a, out);
}
/* Phi_q x when Pq is Phi_q's own values: the model's phiq_mv where it has one (its constant +-1
 * entries as such: the same bits), else pq_mv. */
void mb_sp_phiq_mv(const mb_model *m, const mb_real *Pq, const mb_real *x, mb_real *out);
/* A (n x n, column-major) += a P */
static inline void add_sparse(mb_real *A, int n, const mb_pattern *pat, const mb_real *val, mb_real a)
{
    for (int k = 0; k < pat->nnz; k++) A[pat->row[k] + (long)pat->col[k] * n] += a * val[k];
}

#endif /* MB_VEC_H */
