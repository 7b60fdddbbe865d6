/* mb_linsys_klu.c - SuiteSparse KLU behind mb_linsys_ops (see mb_linsys_klu.h). Each of the
 * three matrices (S, F3's A, F4's A) keeps its compressed-column copy, the map from the plan
 * storage to it, KLU's symbolic analysis (once) and numeric factors (refactored in place).
 * Layer: host tool; allocates. */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <klu.h>
#include "mb_linsys_klu.h"
#include "mb_status.h"

#if MB_FLOAT
#error "the KLU back end is double precision only"
#endif

typedef struct {
    const mb_symbolic *sy;   /* the plan this copy was built for */
    int n, nnz;
    int *Ap, *Ai, *map;      /* CSC of the full matrix (original order); map: CSC slot -> F index */
    double *Ax, *dsc;        /* values; S's unit-diagonal scaling */
    klu_symbolic *sym;
    klu_numeric *num;
    double rcond_full;       /* pivot ratio at the last full factorization */
} kmat;

typedef struct {
    mb_linsys_ops ops;
    klu_common c;
    double tol;              /* KLU's default pivot threshold and BTF (F3's and F4's A) */
    int btf;
    kmat m[3];
} kctx;

static void kmat_free(kctx *k, kmat *a)
{
    if (a->num) klu_free_numeric(&a->num, &k->c);
    if (a->sym) klu_free_symbolic(&a->sym, &k->c);
    free(a->Ap); free(a->Ai); free(a->map); free(a->Ax); free(a->dsc);
    memset(a, 0, sizeof *a);
}

/* The CSC pattern of the full matrix from the plan: the diagonal, L at (row, col) and its
 * mirror (U for LU, L again for the symmetric matrices). */
static int kmat_build(kctx *k, kmat *a, int which, const mb_symbolic *sy)
{
    int n = sy->n, nl = sy->nl, nnz = n + 2 * nl;
    kmat_free(k, a);
    a->sy = sy;
    a->n = n;
    a->nnz = nnz;
    a->Ap = calloc((size_t)n + 1, sizeof(int));
    a->Ai = malloc(sizeof(int) * (size_t)(nnz + 1));
    a->map = malloc(sizeof(int) * (size_t)(nnz + 1));
    a->Ax = malloc(sizeof(double) * (size_t)(nnz + 1));
    a->dsc = malloc(sizeof(double) * (size_t)(n + 1));
    int *next = malloc(sizeof(int) * (size_t)(n + 1));
    if (!a->Ap || !a->Ai || !a->map || !a->Ax || !a->dsc || !next) { free(next); return 0; }
    /* count per original column */
    for (int j = 0; j < n; j++) {
        a->Ap[sy->perm[j] + 1]++;
        for (int p = sy->lp[j]; p < sy->lp[j + 1]; p++) {
            a->Ap[sy->perm[j] + 1]++;            /* (li, j) lower in column perm j */
            a->Ap[sy->perm[sy->li[p]] + 1]++;    /* (j, li) upper in column perm li */
        }
    }
    for (int j = 0; j < n; j++) a->Ap[j + 1] += a->Ap[j];
    memcpy(next, a->Ap, sizeof(int) * (size_t)n);
    for (int j = 0; j < n; j++) {
        int oj = sy->perm[j], s;
        s = next[oj]++; a->Ai[s] = oj; a->map[s] = j;
        for (int p = sy->lp[j]; p < sy->lp[j + 1]; p++) {
            int oi = sy->perm[sy->li[p]];
            s = next[oj]++; a->Ai[s] = oi; a->map[s] = n + p;
            s = next[oi]++; a->Ai[s] = oj; a->map[s] = which == MB_MAT_A_LU ? n + nl + p : n + p;
        }
    }
    free(next);
    /* S: no block triangular form (its maximum matching may leave S's diagonal; and S is
     * irreducible or block diagonal): P = Q, KLU's "diagonal" the diagonal (k_factor) */
    k->c.btf = which == MB_MAT_S ? 0 : k->btf;
    a->sym = klu_analyze(n, a->Ap, a->Ai, &k->c);
    return a->sym != NULL;
}

static int k_factor(void *ctx, int which, const mb_symbolic *sy, mb_real *F, mb_real rank_tol,
                    mb_real *ratio, int *bad)
{
    kctx *k = ctx;
    kmat *a = &k->m[which];
    *bad = -1;
    *ratio = 1;
    if (sy->n == 0) return MB_OK;   /* nothing to factor (a model without constraints) */
    *ratio = 0;
    if (a->sy != sy && !kmat_build(k, a, which, sy)) return MB_ERR_WORKSPACE;
    int n = a->n;
    for (int s = 0; s < a->nnz; s++) {
        a->Ax[s] = (double)F[a->map[s]];
        if (!isfinite(a->Ax[s])) return MB_ERR_NONFINITE;
    }
    if (which == MB_MAT_S) {   /* unit diagonal: the pivot ratio is unit-free */
        for (int j = 0; j < n; j++) {
            double d = (double)F[sy->pinv[j]];
            a->dsc[j] = d > 0 ? 1 / sqrt(d) : 1;
        }
        for (int j = 0; j < n; j++)
            for (int s = a->Ap[j]; s < a->Ap[j + 1]; s++) a->Ax[s] *= a->dsc[a->Ai[s]] * a->dsc[j];
    }
    /* S arrives with a unit diagonal, KLU's own row scaling off, no BTF (kmat_build) and pivot
     * threshold 0, so that KLU always takes the diagonal (S is symmetric positive
     * semi-definite: LDL^T needs no pivoting): its pivots u_kk are then the Schur complement
     * pivots d_k / d0_k of the sparse kernels in KLU's order, the rank test means the same and
     * a small pivot's row is one of a dependent set. (With the default threshold 1e-3 and BTF,
     * the diagonal of a nearly dependent row fell below 1e-3 x its column near a singular
     * position and KLU took an off-diagonal pivot: the one tiny d_k / d0_k became two moderate
     * pivots, 2.0e-8 and -7.3e-9 at the collinear four-bar, canonical rk4, whose row and column
     * were A.x and A.y; on the velocity projection's S none fell below rank_tol.) */
    k->c.scale = which == MB_MAT_S ? 0 : 2;
    k->c.tol = which == MB_MAT_S ? 0 : k->tol;
    int full = a->num == NULL;
    if (!full && (!klu_refactor(a->Ap, a->Ai, a->Ax, a->sym, a->num, &k->c) ||
                  !klu_rcond(a->sym, a->num, &k->c) || k->c.rcond < 1e-3 * a->rcond_full)) {
        klu_free_numeric(&a->num, &k->c);   /* the old pivot order no longer holds: redo */
        full = 1;
    }
    if (full) {
        a->num = klu_factor(a->Ap, a->Ai, a->Ax, a->sym, &k->c);
        if (!a->num) {
            if (k->c.status == KLU_SINGULAR && k->c.singular_col >= 0 && k->c.singular_col < n)
                *bad = which == MB_MAT_S ? k->c.singular_col : -1;
            return k->c.status == KLU_SINGULAR ? MB_ERR_SINGULAR : MB_ERR_WORKSPACE;
        }
        if (!klu_rcond(a->sym, a->num, &k->c)) return MB_ERR_SINGULAR;
        a->rcond_full = k->c.rcond;
    }
    const double *Ud = a->num->Udiag;
    int kmin = 0;
    if (which == MB_MAT_S)   /* the smallest pivot d_k / d0_k (a negative one fails the test) */
        for (int j = 1; j < n; j++) { if (Ud[j] < Ud[kmin]) kmin = j; }
    else
        for (int j = 1; j < n; j++) if (fabs(Ud[j]) < fabs(Ud[kmin])) kmin = j;
    /* S: the smallest pivot of the unit-diagonal matrix; the others: min / max |u_kk| */
    *ratio = which == MB_MAT_S ? (mb_real)Ud[kmin] : (mb_real)k->c.rcond;
    /* S: the row of that pivot, U's diagonal in KLU's row order Pnum (= its column order Q
     * on the diagonal); also on success, as the sparse kernels keep theirs, to name a step
     * that broke down near a singular position (mb_linsys.c, ls_monitor: step_row) */
    if (which == MB_MAT_S && rank_tol > 0) *bad = a->num->Pnum[kmin];
    if (Ud[kmin] == 0 || !isfinite(k->c.rcond) ||
        (which == MB_MAT_S && rank_tol > 0 && *ratio < rank_tol)) {
        if (which == MB_MAT_S) *bad = a->num->Pnum[kmin];
        if (!isfinite(k->c.rcond)) return MB_ERR_NONFINITE;
        return which == MB_MAT_A_SYM && rank_tol == 0 ? MB_ERR_NOT_SPD : MB_ERR_SINGULAR;
    }
    return MB_OK;
}

static void k_solve(void *ctx, int which, const mb_symbolic *sy, const mb_real *F, mb_real *b)
{
    kctx *k = ctx;
    kmat *a = &k->m[which];
    (void)F;
    if (sy->n == 0) return;
    if (which == MB_MAT_S) for (int i = 0; i < a->n; i++) b[i] *= a->dsc[i];
    klu_solve(a->sym, a->num, a->n, 1, b, &k->c);
    if (which == MB_MAT_S) for (int i = 0; i < a->n; i++) b[i] *= a->dsc[i];
}

mb_linsys_ops *mb_klu_open(void)
{
    kctx *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    klu_defaults(&k->c);
    k->tol = k->c.tol;
    k->btf = k->c.btf;
    k->ops.name = "klu";
    k->ops.factor = k_factor;
    k->ops.solve = k_solve;
    k->ops.ctx = k;
    return &k->ops;
}

void mb_klu_close(mb_linsys_ops *ops)
{
    if (!ops) return;
    kctx *k = ops->ctx;
    for (int i = 0; i < 3; i++) kmat_free(k, &k->m[i]);
    free(k);
}
