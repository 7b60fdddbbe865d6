/* mb_sparse.h - numeric factorization and solves on a symbolic plan (mb_model.h: mb_symbolic):
 * the compact form of the generated linear algebra, one loop kernel over const index arrays.
 * Layer: runtime core; no allocation, no printing. F is the plan storage [D | L | U]. */
#ifndef MB_SPARSE_H
#define MB_SPARSE_H

#include "mb_model.h"

/* LDL^T of the symmetric matrix in F = [D | L], in place (right-looking over sy->upd); D receives
 * the pivots' reciprocals 1 / d_k (the solve multiplies; MB_LDL_RECIPROCAL 0, a firmware build:
 * the pivots d_k, and it divides), but a failing pivot's d_k itself. d0[n]
 * is scratch (the diagonal before elimination). A pivot d_k <= rank_tol d0_k (d0_k its diagonal
 * entry before elimination: the ratio is scale-free and measures how far row k is from the span
 * of the rows before it; 0 <= rank_tol <= 1, as mb_params_check keeps it, so that the test also
 * catches d0_k <= 0) stops with MB_ERR_SINGULAR when rank_tol > 0, else MB_ERR_NOT_SPD.
 * *ratio = min d_k / d0_k over the pivots done; *bad = original index of the failing pivot, on
 * success of the pivot with the smallest ratio (-1 for n = 0); ratio NULL: neither is computed
 * on success. MB_ERR_NONFINITE when a pivot is NaN or Inf or too small to invert (a non-finite
 * entry reaches every pivot it updates; one that reaches none leaves a non-finite solution,
 * which callers check). */
#if MBI_ONLY
int mb_sp_ldl(const mb_symbolic *sy, mb_real *F, mb_real *d0, mb_real rank_tol, mb_real *ratio,
              int *bad);
#else
/* The same, but on success the pivot of the smallest ratio is named (*bad) only when that ratio
 * is also below `below` (else -1; mb_sp_ldl: below 1): finding it costs a pass over the pivots,
 * which a caller that keeps the smallest ratio of several factorizations needs only for a new
 * smallest (mbi_ls_factor) */
int mb_sp_ldl_below(const mb_symbolic *sy, mb_real *F, mb_real *d0, mb_real rank_tol, mb_real *ratio,
                    int *bad, mb_real below);
/* mb_sp_ldl_below's result for F, d0 already factored by a kernel of the ldl's contract
 * (mb_model.h: mb_symbolic.ldl; mb_plan.s_factor) that returned kf with *qmax = mmax */
int mb_sp_ldl_status(const mb_symbolic *sy, const mb_real *F, const mb_real *d0, mb_real rank_tol,
                     mb_real *ratio, int *bad, mb_real below, int kf, mb_real mmax);
static inline int mb_sp_ldl(const mb_symbolic *sy, mb_real *F, mb_real *d0, mb_real rank_tol,
                            mb_real *ratio, int *bad)
{
    return mb_sp_ldl_below(sy, F, d0, rank_tol, ratio, bad, 1);
}
#endif
/* Solve with the factors of mb_sp_ldl: b[n] (original order) is overwritten by x; y[n] scratch. */
void mb_sp_ldl_solve(const mb_symbolic *sy, const mb_real *F, mb_real *b, mb_real *y);

/* LU without pivoting on the symmetric pattern, F = [D | L | U] in place (U stored transposed on
 * L's pattern; D receives the pivots' reciprocals 1 / u_kk, so that the solve multiplies): for
 * matrices dominated by a positive definite part (F4's Newton matrix). A zero pivot is
 * MB_ERR_SINGULAR (*bad its original index), a NaN or Inf MB_ERR_NONFINITE;
 * *ratio = min |u_kk| / max |u_kk| (the same from the reciprocals; ratio NULL: not formed, the
 * pivots only tested). */
int mb_sp_lu(const mb_symbolic *sy, mb_real *F, mb_real *ratio, int *bad);
void mb_sp_lu_solve(const mb_symbolic *sy, const mb_real *F, mb_real *b, mb_real *y);

/* S = Phi_q diag(w) Phi_q^T of model m (Phi_q values Pq, w[nq]) into its plan storage F: the
 * unrolled form's s_assemble when generated (it writes every entry), else F zeroed and the loop
 * over the plan's terms. Pq must be Phi_q's values: s_assemble takes the entries that are the
 * constant +-1 in the model's Phi_q as such (generator/emit_linalg.lua: assembly_s). */
void mb_sp_assemble_s(const mb_model *m, const mb_real *Pq, const mb_real *w, mb_real *F);
/* The same product of any values val on Phi_q's pattern (e.g. Phi_q with scaled rows) by the
 * loop over the plan's terms, F zeroed first. */
void mb_sp_assemble_s_maps(const mb_model *m, const mb_real *val, const mb_real *w, mb_real *F);

/* Storage index of entry (i, j) of the permuted matrix (diagonal, L, or U transposed on L's
 * pattern), or -1 when it is not in the pattern. A binary search in column min(i, j): for the
 * planner (generator/mb_plan_build.c) and rare run-time use (F4 full_jacobian). */
int mb_sp_locate(const mb_symbolic *sy, int i, int j);

#endif /* MB_SPARSE_H */
