/* mb_f2_canonical.c - F2 canonical (5.17, 5.21): Hamilton's equations with the constraint
 * stabilization; the KKT system by its Schur complement (mb_kkt.c).
 * Layer: runtime core, one row of the formulation table (mb_sim_impl.h); no allocation. */
#include "mb_sim_impl.h"

#if MBI_F2
#if MBI_ONLY
/* b = -Phi_t - c1 Phi - c2 I (a firmware build; the host's is formed in the KKT solve's pass,
 * mbi_kkt_solve_f2: the same products and sums) */
static void stab_rhs(int nc, mb_real *restrict b, const mb_real *restrict pt, const mb_real *restrict ph,
                     const mb_real *restrict I, mb_real c1, mb_real c2)
{
    for (int r = 0; r < nc; r++) b[r] = -pt[r] - c1 * ph[r] - c2 * I[r];
}
#endif

/* F2 (5.17, 5.21): [[M, Phi_q^T], [Phi_q, 0]] [v; sigma] = [p; -Phi_t - 2 xi w Phi - w^2 I],
 * pdot = Q + Phidot_q^T sigma, Idot = Phi. z = [q; p; I]. */
static int rhs_canonical(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc;
    const mb_real *q = z, *p = z + n, *I = z + 2 * n;
    const MBI_VIEW(MB_VIEW_F2) b = MBI_VIEW_OF(MB_VIEW_F2);   /* its block (mb_layout.h) */
    mb_real *b2 = b.b2, xi = s->p.xi, w = s->p.omega;
    mbi_eval_kin(s, t, q);
#if MBI_ONLY
    stab_rhs(nc, b2, s->Phit, s->Phi, I, 2 * xi * w, w * w);
    int st = mbi_kkt_solve(s, p, b2, s->ev_v, s->ev_sig);
#else
    (void)b2;
    int st = mbi_kkt_solve_f2(s, p, s->Phit, s->Phi, I, 2 * xi * w, w * w, s->ev_v, s->ev_sig);
#endif
    if (st) return st;
    mbi_eval_force_pqd(s, t, q, s->ev_v);
    copy(n, f, s->ev_v);
    copy(n, f + n, s->Q);
    pq_mtv(m, s->Pqd, s->ev_sig, 1, f + n);
    copy(nc, f + 2 * n, s->Phi);
    copy(nc, s->ev_S, s->ev_sig);
    return MB_OK;
}
const mbi_form mbi_form_canonical = {.rhs = rhs_canonical, .accept = mbi_sigma_reset};
#endif

#if MBI_F2 || MBI_F3
/* The sigma reset of thesis 6.3.4 for the explicit canonical formulations, after an accepted
 * step: when |sigma|_2 > sigma_reset, p -= Phi_q^T sigma at the accepted state. v is unchanged
 * (p = M v + Phi_q^T sigma: 5.17 for F2, 5.30 for F3) and the new sigma is 0; S and its value at
 * the step's start drop together, so the reset does no work. f is evaluated again (*reeval). */
int mbi_sigma_reset(mb_sim *s, int *reeval)
{
    const mb_model *m = s->m;
    int nc = s->nc;
    *reeval = 0;
    if (!mbi_sigma_reset_due(s)) return MB_OK;
    m->phi_q(m, s->t, s->z, s->Pq);
    pq_mtv(m, s->Pq, s->sig, -1, s->z + s->n);
    for (int r = 0; r < nc; r++) s->S0[r] -= s->sig[r];
    zero(nc, s->sig);
    s->mon.sigma_resets++;
    *reeval = 1;
    return MB_EVENT_SIGMA_RESET;
}
#endif
