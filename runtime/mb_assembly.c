/* mb_assembly.c - initial conditions: positions by damped Gauss-Newton on Phi(t0, q) = 0 with
 * locked coordinates held, then velocities from Phi_q v = -Phi_t with given components held.
 * Layer: runtime core (mb_sim_impl.h); never allocates or prints. */
#include "mb_sim_impl.h"

#if MB_WITH_ASSEMBLY
/* G = J J^T + mu I (nc x nc, returned mu = 1e3 eps max diag) where J is Phi_q (values in Pq)
 * restricted to the columns with mask[c] == 0; built from the sparse rows, no dense J. */
static mb_real masked_gram(mb_sim *s, const unsigned char *mask, mb_real *G)
{
    const int *col = s->m->phi_q_pat.col;
    int nc = s->nc;
    mb_real dmax = 0;
    for (int a = 0; a < nc; a++)
        for (int b = 0; b <= a; b++) {
            mb_real e = 0;
            for (int k = s->rowp[a]; k < s->rowp[a + 1]; k++) {
                if (mask[col[k]]) continue;
                for (int l = s->rowp[b]; l < s->rowp[b + 1]; l++)
                    if (col[l] == col[k]) e += s->Pq[k] * s->Pq[l];
            }
            G[a + (long)b * nc] = G[b + (long)a * nc] = e;
            if (a == b && e > dmax) dmax = e;
        }
    mb_real mu = (dmax > 0 ? dmax : 1) * MB_R(1e3) * MB_EPS;
    for (int a = 0; a < nc; a++) G[a + (long)a * nc] += mu;
    return mu;
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
    mb_real *JJ = s->scr, *w = s->tm[0], *dq = s->tn[0];
    mb_real *qt = s->tn[1], *Ph = s->tm[1];
    if (iters) *iters = 0;
    if (nc == 0) return MB_OK;
    /* Positions: Gauss-Newton, minimum-norm step dq = -J^T (J J^T + mu I)^-1 Phi over the free
     * coordinates; mu is tiny (rank-deficient or overdetermined systems), halving on increase. */
    m->phi(m, t0, q, Ph);
    mb_real res = nrminf(nc, Ph);
    for (it = 0; it < s->p.asm_max_iter && !(res <= s->p.asm_tol); it++) {
        m->phi_q(m, t0, q, s->Pq);
        masked_gram(s, m->locked, JJ);
        int st = mb_chol_factor(nc, JJ, 0, NULL);
        if (st) return MB_ERR_ASSEMBLY_POS;
        copy(nc, w, Ph);
        mb_chol_solve(nc, JJ, w);
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
        sp_mv(&m->phi_q_pat, s->Pq, v, w, nc);
        for (int r = 0; r < nc; r++) w[r] = -(w[r] + s->Phit[r]);
        mb_real vs = 1 + nrminf(n, v), r0 = nrminf(nc, w);
        if (r0 <= MB_R(1e3) * MB_EPS * vs) return MB_OK;
        if (pass == 2) break;
        masked_gram(s, m->v_given, JJ);
        if (mb_chol_factor(nc, JJ, 0, NULL)) return MB_ERR_ASSEMBLY_VEL;
        mb_chol_solve(nc, JJ, w);
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
