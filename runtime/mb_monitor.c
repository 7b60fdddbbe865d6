/* mb_monitor.c - energy, work and constraint monitors updated after every accepted step
 * (energy balance 6.19 with the work of non-conservative loads and drivers).
 * Layer: runtime core (mb_sim_impl.h); never allocates or prints. */
#include "mb_sim_impl.h"

/* Energies, constraint norms and the powers at the current state (q = z, v = s->v). */
void mbi_measure(mb_sim *s, mb_real *pnc, mb_real *pdrv)
{
    const mb_model *m = s->m;
    int nc = s->nc;
    mb_real e[3], *pdot = s->tm[2];
    const mb_real *q = s->z;
    m->energy(m, s->t, q, s->v, e);
    mbi_eval_kin(s, s->t, q);
    sp_mv(&m->phi_q_pat, s->Pq, s->v, pdot, nc);
    for (int r = 0; r < nc; r++) pdot[r] += s->Phit[r];
    s->mon.T = e[0];
    s->mon.V = e[1];
    s->mon.phi_norm = nrm2(nc, s->Phi);
    s->mon.phid_norm = nrm2(nc, pdot);
    s->mon.sigma_norm = s->p.formulation == MB_BAUMGARTE ? 0 : nrm2(nc, s->sig);
    *pnc = e[2];
    /* Driver power lambda^T Phi_t (F1); for F2-F4 the work uses Delta S (see advance_monitor). */
    *pdrv = s->p.formulation == MB_BAUMGARTE ? dot(nc, s->lam, s->Phit) : 0;
}

void mbi_update_max(mb_sim *s)
{
    mb_monitor *o = &s->mon;
    o->energy_dev = o->T + o->V - o->E0 - o->W;
    if (MB_FABS(o->energy_dev) > o->max_energy_dev) o->max_energy_dev = MB_FABS(o->energy_dev);
    if (o->phi_norm > o->max_phi) o->max_phi = o->phi_norm;
    if (o->phid_norm > o->max_phid) o->max_phid = o->phid_norm;
    if (o->sigma_norm > o->max_sigma) o->max_sigma = o->sigma_norm;
}

/* After a step from t_old (powers pnc_old, pdrv_old, Phi_t in ptq, multiplier integral in
 * S_old = tm[3]): W += trapezoid of P_nc + work of drivers. Driver work: F1 trapezoid of
 * lambda^T Phi_t; F2-F4 lambda = dS/dt so the trapezoid is (S_new - S_old)^T (Phit_old +
 * Phit_new) / 2. Constraint forces on the system are -Phi_q^T lambda (M a + Phi_q^T lambda = Q),
 * their power -lambda^T Phi_q v = lambda^T Phi_t on Phidot = 0. */
void mbi_advance_monitor(mb_sim *s, mb_real dt, mb_real pnc_old, mb_real pdrv_old)
{
    mb_real pnc, pdrv;
    mbi_measure(s, &pnc, &pdrv);
    mb_real w = dt / 2 * (pnc_old + pnc);
    if (s->p.formulation == MB_BAUMGARTE) w += dt / 2 * (pdrv_old + pdrv);
    else
        for (int r = 0; r < s->nc; r++) w += (s->S[r] - s->tm[3][r]) * (s->ptq[r] + s->Phit[r]) / 2;
    s->mon.W += w;
    s->pnc = pnc;
    s->pdrv = pdrv;
    copy(s->nc, s->ptq, s->Phit);
    mbi_update_max(s);
}
