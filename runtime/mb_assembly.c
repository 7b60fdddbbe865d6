/* mb_assembly.c - initial conditions: positions by damped Gauss-Newton on Phi(t0, q) = 0 with
 * locked coordinates held, then velocities from Phi_q v = -Phi_t with given components held.
 * Layer: runtime core (mb_sim_impl.h); never allocates or prints. */
#include "mb_sim_impl.h"

#if MB_WITH_ASSEMBLY
/* S = J J^T + mu I on the plan of S, J = Phi_q (values in Pq) restricted to the columns with
 * mask[c] == 0 (weights 0/1 in the scratch wt[nq]); mu = 1e3 eps max diag keeps it definite for
 * rank-deficient or overdetermined systems (mbi_ls_factor_s_reg). Factored; MB_OK or a failure. */
static int masked_gram(mb_sim *s, const unsigned char *mask, mb_real *wt)
{
    for (int c = 0; c < s->n; c++) wt[c] = mask[c] ? 0 : 1;
    return mbi_ls_factor_s_reg(s, wt, MB_R(1e3));
}

/* out[c] = a (J^T w)[c] for unmasked columns (masked ones get 0). */
static void masked_jtw(mb_sim *s, const unsigned char *mask, const mb_real *w, mb_real a, mb_real *out)
{
    const mb_pattern *pat = &s->m->phi_q_pat;
    zero(s->n, out);
    for (int k = 0; k < pat->nnz; k++)
        if (!mask[pat->col[k]]) out[pat->col[k]] += a * s->Pq[k] * w[pat->row[k]];
}

int mb_sim_assemble(mb_sim *s, mb_real t0, mb_real *q, mb_real *v, int *iters)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc, it;
    const MBI_VIEW(MB_VIEW_ASM) b = MBI_VIEW_OF(MB_VIEW_ASM);   /* its blocks (mb_layout.h) */
    mb_real *w = b.w, *dq = b.dq, *wt = s->Q;   /* Q is free before the first evaluation */
    mb_real *qt = b.qt, *Ph = b.Ph;
    if (iters) *iters = 0;
    if (nc == 0) return MB_OK;
    /* Positions: Gauss-Newton, minimum-norm step dq = -J^T (J J^T + mu I)^-1 Phi over the free
     * coordinates; mu is tiny (rank-deficient or overdetermined systems), halving on increase. */
    m->phi(m, t0, q, Ph);
    mb_real res = nrminf(nc, Ph);
    for (it = 0; it < s->p.asm_max_iter && !(res <= s->p.asm_tol); it++) {
        m->phi_q(m, t0, q, s->Pq);
        if (masked_gram(s, m->locked, wt)) return MB_ERR_ASSEMBLY_POS;
        copy(nc, w, Ph);
        mbi_ls_solve(s, MB_MAT_S, w);
        masked_jtw(s, m->locked, w, -1, dq);
        mb_real lam = 1, rnew = 0;
        for (int tries = 0; tries < 20; tries++, lam /= 2) {  /* backtrack on |Phi| */
            for (int c = 0; c < n; c++) qt[c] = q[c] + lam * dq[c];
            m->phi(m, t0, qt, Ph);
            rnew = nrminf(nc, Ph);
            if (isfinite(rnew) && rnew < res) break;
        }
        if (!(rnew < res)) break;       /* no decrease: stuck */
        copy(n, q, qt);
        res = rnew;
    }
    if (iters) *iters = it;
    if (!(res <= s->p.asm_tol) || !finite_vec(n, q)) return MB_ERR_ASSEMBLY_POS;
    /* Velocities: Phi_q v = -Phi_t with v_given held; minimum-norm change of the others. */
    for (int pass = 0; pass < 3; pass++) {
        m->phi_q(m, t0, q, s->Pq);
        m->phi_t(m, t0, q, s->Phit);
        pq_mv(m, s->Pq, v, w);
        for (int r = 0; r < nc; r++) w[r] = -(w[r] + s->Phit[r]);
        mb_real vs = 1 + nrminf(n, v), r0 = nrminf(nc, w);
        if (r0 <= MB_R(1e3) * MB_EPS * vs) return MB_OK;
        if (pass == 2) break;
        if (masked_gram(s, m->v_given, wt)) return MB_ERR_ASSEMBLY_VEL;
        mbi_ls_solve(s, MB_MAT_S, w);
        masked_jtw(s, m->v_given, w, 1, dq);
        for (int c = 0; c < n; c++) v[c] += dq[c];
    }
    return MB_ERR_ASSEMBLY_VEL;
}
#else

/* Left out of the build (MB_WITH_ASSEMBLY=0): start from a consistent state instead. */
int mb_sim_assemble(mb_sim *s, mb_real t0, mb_real *q, mb_real *v, int *iters)
{
    (void)s; (void)t0; (void)q; (void)v;
    if (iters) *iters = 0;
    return MB_ERR_PARAM;
}
#endif
