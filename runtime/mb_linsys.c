/* mb_linsys.c - the linear-system slot: every factorization and solve of the formulations goes
 * through mbi_ls_factor / mbi_ls_solve, on a matrix already assembled into the model's plan
 * storage (mb_model.h: mb_plan). Back ends: the compact sparse kernels (default), dense
 * LAPACKE / builtin (the reference), or an external one given by the caller (mb_linsys_ops).
 * Layer: runtime core (mb_sim_impl.h); never allocates or prints. */
#include "mb_sim_impl.h"
#include "mb_sparse.h"

static const mb_symbolic *sym_of(const mb_sim *s, int which)
{
    return which == MB_MAT_S ? &s->m->plan->s : &s->m->plan->a;
}
static mb_real *storage_of(mb_sim *s, int which) { return which == MB_MAT_S ? s->FS : s->FA; }

#if MB_WITH_DENSE
/* The dense reference: F scattered into scr (original order, column-major). S is scaled to a
 * unit diagonal so that its Cholesky pivot-ratio test is unit-free like the sparse one; *bad
 * (S only) its failing pivot's constraint equation, on success the smallest ratio's (the
 * original order is the equations': no map back) */
static int dense_factor(mb_sim *s, int which, mb_real rank_tol, mb_real *ratio, int *bad)
{
    const mb_symbolic *sy = sym_of(s, which);
    const mb_real *F = storage_of(s, which);
    int n = sy->n, nl = sy->nl;
    mb_real *A = s->scr, *d = s->lsd;
    for (long k = 0; k < (long)n * n; k++) A[k] = 0;
    for (int j = 0; j < n; j++) {
        int oj = sy->perm[j];
        A[oj + (long)oj * n] = F[j];
        for (int p = sy->lp[j]; p < sy->lp[j + 1]; p++) {
            int oi = sy->perm[sy->li[p]];
            A[oi + (long)oj * n] = F[n + p];
            A[oj + (long)oi * n] = which == MB_MAT_A_LU ? F[n + nl + p] : F[n + p];
        }
    }
    if (which == MB_MAT_A_LU) return mb_lu_factor(n, A, s->piv, 0, ratio);
    if (which == MB_MAT_A_SYM) return mb_chol_factor(n, A, 0, ratio);
    for (int i = 0; i < n; i++) d[i] = A[i + (long)i * n] > 0 ? 1 / MB_SQRT(A[i + (long)i * n]) : 1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) A[i + (long)j * n] *= d[i] * d[j];
    int st = mb_chol_factor_row(n, A, rank_tol, ratio, bad);
    return st == MB_ERR_NOT_SPD ? MB_ERR_SINGULAR : st;
}

static void dense_solve(mb_sim *s, int which, mb_real *b)
{
    int n = sym_of(s, which)->n;
    if (which == MB_MAT_A_LU) { mb_lu_solve(n, s->scr, s->piv, b); return; }
    if (which == MB_MAT_A_SYM) { mb_chol_solve(n, s->scr, b); return; }
    for (int i = 0; i < n; i++) b[i] *= s->lsd[i];
    mb_chol_solve(n, s->scr, b);
    for (int i = 0; i < n; i++) b[i] *= s->lsd[i];
}

#endif

#if MBI_HAS_KKT
#define STEP_RATIO(s) ((s)->step_ratio)
#else
#define STEP_RATIO(s) 0
#endif

static int ls_monitor(mb_sim *s, int which, mb_real rank_tol, int st, mb_real ratio, int bad);

int mbi_ls_factor(mb_sim *s, int which, mb_real rank_tol)
{
    const mb_symbolic *sy = sym_of(s, which);
    mb_real *F = storage_of(s, which), ratio = 1;
    int st, bad = -1;
    s->mon.factorizations++;
    if (sy->n == 0) st = MB_OK;           /* no constraints: nothing to factor */
    else if (s->p.linsys_ops)
        st = s->p.linsys_ops->factor(s->p.linsys_ops->ctx, which, sy, F, rank_tol, &ratio, &bad);
#if MB_WITH_DENSE
    else if (s->p.linsys == MB_LINSYS_DENSE)
        st = dense_factor(s, which, rank_tol, &ratio, &bad);
#endif
    else if (which == MB_MAT_A_LU)       /* (its pivot ratio is not monitored) */
        st = mb_sp_lu(sy, F, NULL, &bad);
#if !MBI_ONLY
    else   /* the pivot ratio is monitored for S with a rank test only; its row is wanted (on
            * success) only for a new smallest ratio of the step (step_row below) */
        st = mb_sp_ldl_below(sy, F, s->lsd, rank_tol, which == MB_MAT_S && rank_tol > 0 ? &ratio : NULL,
                             &bad, STEP_RATIO(s));
#else      /* (a firmware build: always, as the test costs flash, 128 B on the M4F) */
    else
        st = mb_sp_ldl(sy, F, s->lsd, rank_tol, &ratio, &bad);
#endif
    return ls_monitor(s, which, rank_tol, st, ratio, bad);
}

/* mbi_ls_factor's monitoring of a factorization's result st, its smallest pivot ratio and row */
static int ls_monitor(mb_sim *s, int which, mb_real rank_tol, int st, mb_real ratio, int bad)
{
    if (which == MB_MAT_S && rank_tol > 0 &&
        (ratio < s->mon.min_pivot_ratio || s->mon.min_pivot_ratio == 0))
        s->mon.min_pivot_ratio = ratio;
    s->mon.singular_row = st == MB_ERR_SINGULAR && which == MB_MAT_S ? bad : -1;
#if MBI_HAS_KKT
    if (which == MB_MAT_S && rank_tol > 0 && ratio < s->step_ratio) {   /* near-singular steps */
        s->step_ratio = ratio;
        s->step_row = bad;
    }
#endif
    return st;
}

#if MB_WITH_S_FACTOR && !MBI_ONLY && MBI_HAS_KKT
/* S = Phi_q W Phi_q^T (w: W's diagonal, Pq: s->Pq) assembled and factored: by the model's one
 * kernel (mb_pq_products.s_factor) where it has one and the compact sparse back end factors, the
 * same bits, counting and monitoring as mbi_assemble_s and mbi_ls_factor, which do it otherwise */
static int s_by_kernel(const mb_sim *s)
{
    const mb_plan *P = s->m->plan;
    return P->pq && P->pq->s_factor && P->s.ldl_solve && P->s.n > 0 && !s->p.linsys_ops &&
           s->p.linsys == MB_LINSYS_SPARSE;
}

int mbi_ls_factor_s(mb_sim *s, const mb_real *w, mb_real rank_tol)
{
    const mb_plan *P = s->m->plan;
    if (!s_by_kernel(s)) {
        mbi_assemble_s(s, w);
        return mbi_ls_factor(s, MB_MAT_S, rank_tol);
    }
    mb_real mmax, ratio = 1;
    int bad = -1;
    s->mon.factorizations++;
    int kf = P->pq->s_factor(s->FS, s->lsd, rank_tol, &mmax, s->Pq, w);
    int st = mb_sp_ldl_status(&P->s, s->FS, s->lsd, rank_tol, rank_tol > 0 ? &ratio : NULL, &bad,
                              STEP_RATIO(s), kf, mmax);
    return ls_monitor(s, MB_MAT_S, rank_tol, st, ratio, bad);
}

/* mbi_ls_solve(s, MB_MAT_S, b) after mbi_ls_factor_s: where the model's kernel factored S, its
 * unrolled solve (mb_symbolic.ldl_solve, which an unrolled S has) called directly */
void mbi_ls_solve_s(mb_sim *s, mb_real *b)
{
    if (s_by_kernel(s)) {
        s->mon.solves++;
        s->m->plan->s.ldl_solve(s->FS, b, s->lsy);
        return;
    }
    mbi_ls_solve(s, MB_MAT_S, b);
}
#endif

#if MB_WITH_F3_KERNEL && (MBI_F3 || MBI_F4)
/* mbi_ls_factor's bookkeeping and status for A (MB_MAT_A_SYM, rank_tol 0) factored by the
 * model's own kernel (mb_f3_kernels.factor), k its result: the pivots before k passed, so they
 * are finite, and pivot k (stored) tells a non-finite matrix from one not positive definite, as
 * mb_sp_ldl's test over the pivots does */
int mbi_ls_factored_a(mb_sim *s, int k)
{
    s->mon.factorizations++;
    s->mon.singular_row = -1;
    if (k < 0) return MB_OK;
    return s->FA[k] * 0 == 0 ? MB_ERR_NOT_SPD : MB_ERR_NONFINITE;
}
#endif

#if MB_WITH_F4_KERNELS && MBI_F4
/* mbi_ls_factor's bookkeeping and status for A (MB_MAT_A_LU) factored by the model's own kernel
 * (mb_f4_kernels.factor), k its result: a zero pivot, or mb_sp_lu's finiteness test over the
 * pivots' reciprocals (four sums: x * 0 is NaN for an Inf or NaN x, else +-0) */
int mbi_ls_factored_lu(mb_sim *s, int k)
{
    const mb_real *F = s->FA;
    int n = s->m->plan->a.n;
    s->mon.factorizations++;
    s->mon.singular_row = -1;
    if (k >= 0) return MB_ERR_SINGULAR;
    return finite_vec(n, F) ? MB_OK : MB_ERR_NONFINITE;   /* four sums on a host */
}
#endif

void mbi_ls_solve(mb_sim *s, int which, mb_real *b)
{
    const mb_symbolic *sy = sym_of(s, which);
    s->mon.solves++;
    if (sy->n == 0) return;
    if (s->p.linsys_ops)
        s->p.linsys_ops->solve(s->p.linsys_ops->ctx, which, sy, storage_of(s, which), b);
#if MB_WITH_DENSE
    else if (s->p.linsys == MB_LINSYS_DENSE)
        dense_solve(s, which, b);
#endif
    else if (which == MB_MAT_A_LU)
        mb_sp_lu_solve(sy, s->FA, b, s->lsy);
    else
        mb_sp_ldl_solve(sy, storage_of(s, which), b, s->lsy);
}

void mbi_assemble_a(mb_sim *s, const mb_real *E, const mb_real *D, int unsym)
{
    const mb_model *m = s->m;
    const mb_plan *P = m->plan;
    int n = s->n, nl = P->a.nl;
    mb_real *F = s->FA;
    zero((unsym ? 2 : 1) * nl, F + n);                      /* (the diagonal: M's, below) */
    for (int i = 0; i < n; i++) F[P->a.pinv[i]] = m->mass[i];
    if (P->a_assemble) { P->a_assemble(F, E, D, unsym); return; }   /* the unrolled form */
    int lo = unsym ? n : n + nl;        /* the terms off the diagonal have a transpose (unsym) */
    for (int t = 0; t < P->na; t++) {
        int k = P->a_k[t], l = P->a_l[t], d = P->a_dst[t];
        F[d] += E[k] * D[l];
        if (d >= lo) F[d + nl] += E[l] * D[k];
    }
}

void mbi_assemble_s(mb_sim *s, const mb_real *w) { mb_sp_assemble_s(s->m, s->Pq, w, s->FS); }

#if MB_WITH_ASSEMBLY || (MBI_ACC && MBI_F4)
/* S + mu I, mu = k eps max diag (1 for a zero diagonal): definite where S is singular
 * (rank-deficient or overdetermined constraints, singular positions), factored without a rank
 * test; mu is far below S's pivots, and a null vector of S is not in Phi_q's range, which the
 * solves' right-hand sides are in */
int mbi_ls_factor_s_reg(mb_sim *s, const mb_real *w, mb_real k)
{
    int nc = s->nc;
    mb_real dmax = 0;
    mbi_assemble_s(s, w);
    for (int r = 0; r < nc; r++) if (s->FS[r] > dmax) dmax = s->FS[r];
    mb_real mu = (dmax > 0 ? dmax : 1) * k * MB_EPS;
    for (int r = 0; r < nc; r++) s->FS[r] += mu;
    return mbi_ls_factor(s, MB_MAT_S, 0);
}
#endif
