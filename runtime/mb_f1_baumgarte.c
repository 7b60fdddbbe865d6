/* mb_f1_baumgarte.c - F1 baumgarte (5.1-5.5): the index-1 right-hand side with Baumgarte
 * stabilization and the optional velocity projection after each accepted step.
 * Layer: runtime core, one row of the formulation table (mb_sim_impl.h); no allocation. */
#include "mb_sim_impl.h"

#if MBI_F1
/* F1 (5.2): M a + Phi_q^T lambda = Q, Phi_q a = Gamma - 2 xi w Phidot - w^2 Phi,
 * Phidot = Phi_q v + Phi_t. z = [q; v]. */
static int rhs_baumgarte(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    const mb_real *q = z, *v = z + n;
    const MBI_VIEW(MB_VIEW_F1) b = MBI_VIEW_OF(MB_VIEW_F1);   /* its blocks (mb_layout.h) */
    mb_real *b2 = b.b2, *pd = b.pd, xi = s->p.xi, w = s->p.omega;
    mbi_eval_kin(s, t, q);
#if !MB_OMIT_GAMMA && MB_WITH_TRIG_CACHE
    if (m->eval_gamma_force) m->eval_gamma_force(m, t, q, v, s->Gam, s->Q, MBI_TRIG(s));
    else
#endif
    {
        m->gamma(m, t, q, v, s->Gam);
        m->force(m, t, q, v, s->Q);
    }
#if !MBI_ONLY
    if (!(s->p.baumgarte_cap > 0)) {   /* the host, no cap: 2 xi w Phi_q v goes into the KKT */
        /* solve's one product with Phi_q (mbi_kkt_solve_v: Phi_q (M^-1 Q + 2 xi w v)), so the
         * right-hand side makes two products with Phi_q, not three (chain100: 2.6 k fewer
         * instructions); the same equations, its sums in another order: round-off apart from
         * the firmware build's passes below. b2 = Gamma - (c1 Phi_t + w^2 Phi) is formed in
         * the solve's pass that subtracts it (no pass of its own) */
        const mb_real c1 = 2 * xi * w;
        int st = mbi_kkt_solve_v(s, s->Q, v, c1, s->Gam, s->Phit, s->Phi, w * w, f + n, s->ev_lam);
        if (st) return st;
        copy(n, f, v);
        copy(n, s->ev_v, v);
        return MB_OK;
    }
#endif
    pq_mv(m, s->Pq, v, pd);
    {
        for (int r = 0; r < nc; r++) {
            pd[r] += s->Phit[r];
            b2[r] = 2 * xi * w * pd[r] + w * w * s->Phi[r];
        }
        if (s->p.baumgarte_cap > 0) {   /* keep the stabilization from dominating Gamma */
            mb_real nb = nrm2(nc, b2), ng = nrm2(nc, s->Gam);
            if (nb > s->p.baumgarte_cap * ng)
                for (int r = 0; r < nc; r++) b2[r] *= s->p.baumgarte_cap * ng / nb;
        }
        for (int r = 0; r < nc; r++) b2[r] = s->Gam[r] - b2[r];
    }
    int st = mbi_kkt_solve(s, s->Q, b2, f + n, s->ev_lam);
    if (st) return st;
    copy(n, f, v);
    copy(n, s->ev_v, v);
    return MB_OK;
}
/* Velocity projection remedy (F1): v -= Phi_q^T (Phi_q Phi_q^T)^-1 (Phi_q v + Phi_t), with
 * S = Phi_q Phi_q^T (unit weights, MB_VIEW_F1P's ones) on the plan of S. */
static int project_velocity(mb_sim *s)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    const MBI_VIEW(MB_VIEW_F1P) b = MBI_VIEW_OF(MB_VIEW_F1P);
    mb_real *w = b.w, *v = s->z + n, *ones = b.ones;
    if (nc == 0) return MB_OK;
    m->phi_q(m, s->t, s->z, s->Pq);
    m->phi_t(m, s->t, s->z, s->Phit);
    for (int i = 0; i < n; i++) ones[i] = 1;
    mbi_assemble_s(s, ones);
    int st = mbi_ls_factor(s, MB_MAT_S, s->p.rank_tol);
    if (st) return st;
    for (int pass = 0; pass < 3; pass++) {
        pq_mv(m, s->Pq, v, w);
        for (int r = 0; r < nc; r++) w[r] += s->Phit[r];
        if (nrminf(nc, w) <= 10 * MB_EPS * (1 + nrminf(n, v))) break;
        mbi_ls_solve(s, MB_MAT_S, w);
        pq_mtv(m, s->Pq, w, -1, v);
    }
    return MB_OK;
}

/* After an accepted step: the optional projection (then f is evaluated again: *reeval). */
static int accept_baumgarte(mb_sim *s, int *reeval)
{
    *reeval = 0;
    if (!s->p.project_velocity) return MB_OK;
    int st = project_velocity(s);
    if (st) return st;
    *reeval = 1;
    return MB_OK;
}

const mbi_form mbi_form_baumgarte = {.rhs = rhs_baumgarte, .accept = accept_baumgarte};
#endif
