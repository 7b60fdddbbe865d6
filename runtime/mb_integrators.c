/* mb_integrators.c - explicit integrators for F1-F3: classical RK4 (fixed step) and adaptive
 * Dormand-Prince 5(4) with FSAL, step acceptance (projection, sigma reset) and undo.
 * Layer: runtime core (mb_sim_impl.h); never allocates or prints. */
#include "mb_sim_impl.h"

#if MBI_DOPRI5
static const mb_real dp_c[7] = {0, MB_R(0.2), MB_R(0.3), MB_R(0.8), MB_R(8.0) / 9, 1, 1};
static const mb_real dp_a[7][6] = {
    {0},
    {MB_R(0.2)},
    {MB_R(3.0) / 40, MB_R(9.0) / 40},
    {MB_R(44.0) / 45, -MB_R(56.0) / 15, MB_R(32.0) / 9},
    {MB_R(19372.0) / 6561, -MB_R(25360.0) / 2187, MB_R(64448.0) / 6561, -MB_R(212.0) / 729},
    {MB_R(9017.0) / 3168, -MB_R(355.0) / 33, MB_R(46732.0) / 5247, MB_R(49.0) / 176, -MB_R(5103.0) / 18656},
    {MB_R(35.0) / 384, 0, MB_R(500.0) / 1113, MB_R(125.0) / 192, -MB_R(2187.0) / 6784, MB_R(11.0) / 84}};
static const mb_real dp_e[7] = {MB_R(71.0) / 57600, 0, -MB_R(71.0) / 16695, MB_R(71.0) / 1920,
                                -MB_R(17253.0) / 339200, MB_R(22.0) / 525, -MB_R(1.0) / 40};
#endif

#if MBI_RK4
/* Classical RK4 from (t, z) with f(t, z) cached in fz; result in ztmp, f(t+h) in k[3]'s slot. */
static int rk4_step(mb_sim *s, mb_real h)
{
    int nz = s->nz, st;
    mb_real *k1 = s->fz, *k2 = s->k[1], *k3 = s->k[2], *k4 = s->k[3], *y = s->ztmp, t = s->t;
    for (int i = 0; i < nz; i++) y[i] = s->z[i] + h / 2 * k1[i];
    if ((st = mbi_rhs(s, t + h / 2, y, k2))) return st;
    for (int i = 0; i < nz; i++) y[i] = s->z[i] + h / 2 * k2[i];
    if ((st = mbi_rhs(s, t + h / 2, y, k3))) return st;
    for (int i = 0; i < nz; i++) y[i] = s->z[i] + h * k3[i];
    if ((st = mbi_rhs(s, t + h, y, k4))) return st;
    for (int i = 0; i < nz; i++) y[i] = s->z[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    return finite_vec(nz, y) ? MB_OK : MB_ERR_NONFINITE;
}
#endif

#if MBI_DOPRI5
/* Dormand-Prince 5(4) trial step; *err receives the scaled RMS error estimate. The new state
 * goes to ztmp and f at it (FSAL) to k[6]. */
static int dopri_step(mb_sim *s, mb_real h, mb_real *err)
{
    int nz = s->nz, st;
    mb_real *y = s->ztmp, t = s->t;
    s->k[0] = s->fz;
    for (int j = 1; j < 7; j++) {
        for (int i = 0; i < nz; i++) {
            mb_real acc = 0;
            for (int l = 0; l < j; l++) acc += dp_a[j][l] * s->k[l][i];
            y[i] = s->z[i] + h * acc;
        }
        if ((st = mbi_rhs(s, t + dp_c[j] * h, y, s->k[j]))) return st;
    }
    mb_real e2 = 0;
    for (int i = 0; i < nz; i++) {
        mb_real e = 0;
        for (int l = 0; l < 7; l++) e += dp_e[l] * s->k[l][i];
        e *= h;
        mb_real ym = MB_FABS(s->z[i]) > MB_FABS(y[i]) ? MB_FABS(s->z[i]) : MB_FABS(y[i]);
        mb_real sc = s->p.atol + s->p.rtol * ym;
        e2 += (e / sc) * (e / sc);
    }
    *err = MB_SQRT(e2 / (nz > 0 ? nz : 1));
    if (!isfinite(*err) || !finite_vec(nz, y)) *err = MB_R(1e30);
    return MB_OK;
}
#endif

#if MBI_EXPLICIT
/* After an accepted explicit step: state = ztmp, fz = f at it, optional projection / reset. */
static int accept_explicit(mb_sim *s, const mb_real *fnew)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc, ev = MB_OK;
    copy(s->nz, s->z, s->ztmp);
    copy(s->nz, s->fz, fnew);
    mbi_take_eval(s);
    if (s->p.formulation == MB_BAUMGARTE && s->p.project_velocity) {
        int st = mbi_project_velocity(s);
        if (st) return st;
        if ((st = mbi_rhs(s, s->t, s->z, s->fz))) return st;
        mbi_take_eval(s);
        copy(n, s->v, s->z + n);
    }
    if (s->p.formulation == MB_ALF_EXPLICIT && s->p.sigma_reset > 0 &&
        nrm2(nc, s->sig) > s->p.sigma_reset) {
        /* 6.3.4: p consistent with 5.30 for sigma~ = 0, v unchanged; S drops by sigma~ */
        m->phi_q(m, s->t, s->z, s->Pq);
        sp_mtv_add(&m->phi_q_pat, s->Pq, s->sig, -1, s->z + n);
        for (int r = 0; r < nc; r++) s->tm[3][r] -= s->sig[r];
        zero(nc, s->ev_sig);
        int st = mbi_rhs(s, s->t, s->z, s->fz);
        if (st) return st;
        mbi_take_eval(s);
        s->mon.sigma_resets++;
        ev = MB_EVENT_SIGMA_RESET;
    }
    return ev;
}

/* A failure after the new state was taken (projection, sigma reset): back to the step's start;
 * the cached derivative is recomputed by the next mb_sim_step. */
int mbi_explicit_fail(mb_sim *s, mb_real t_start, int st)
{
    copy(s->nz, s->z, s->zold);
    copy(s->n, s->v, s->tn[7]);
    copy(s->nc, s->S, s->tm[3]);
    s->t = t_start;
    s->have_f = 0;
    return st;
}
#endif

/* ------------------------------------------------------------------ steps */

#if MBI_DOPRI5
int mbi_step_dopri5(mb_sim *s, mb_real t_stop, const mb_monitor *mon0, mb_real pnc0, mb_real pdrv0)
{
    int st;
    mb_real rem = t_stop - s->t, t_start = s->t;
    /* Below 16 eps |t| the stage times t + c_j h (c_2 = 0.2) are resolved to a few ulps only and
     * t + h to 16: the step no longer discretizes time. Relative to the interval's endpoints
     * (not 1 s), so the rule does not depend on the time unit and also holds near t = 0. */
    mb_real ts = MB_FABS(s->t) > MB_FABS(t_stop) ? MB_FABS(s->t) : MB_FABS(t_stop);
    mb_real hmin = s->p.h_min > 0 ? s->p.h_min : 16 * MB_EPS * ts;
    int lastfail = 0;
    for (;;) {
        mb_real h = s->h_next;
        if (s->p.h_max > 0 && h > s->p.h_max) h = s->p.h_max;
        int last = 0;
        if (h >= rem * (1 - MB_R(1e-9))) { h = rem; last = 1; }
        mb_real err = MB_R(1e30);
        st = dopri_step(s, h, &err);
        if (st < 0 && st != MB_ERR_SINGULAR && st != MB_ERR_NOT_SPD) return st;
        if (st < 0) { err = MB_R(1e30); lastfail = st; }  /* retry smaller, fail below h_min */
        mb_real fac = err > 0 ? MB_R(0.9) * MB_POW(err, -MB_R(0.2)) : 5;
        if (fac > 5) fac = 5;
        if (fac < MB_R(0.2)) fac = MB_R(0.2);
        if (err <= 1) {
            if (!last) s->h_next = h * fac;
            s->t = last ? t_stop : s->t + h;
            st = accept_explicit(s, s->k[6]);
            if (st < 0) return mbi_explicit_fail(s, t_start, st);
            mbi_advance_monitor(s, h, pnc0, pdrv0);
            if (!isfinite(s->mon.energy_dev)) {     /* energies or work overflow: not a good state */
                s->mon = *mon0; s->pnc = pnc0; s->pdrv = pdrv0;
                return mbi_explicit_fail(s, t_start, MB_ERR_NONFINITE);
            }
            return st;
        }
        s->mon.rejected++;
        s->h_next = h * (fac < 1 ? fac : MB_R(0.5));
        if (s->h_next < hmin) {   /* name the rank loss if it is what shrank the step */
            copy(s->nz, s->z, s->zold);
            return lastfail ? lastfail : MB_ERR_STEP_UNDERFLOW;
        }
    }
}
#endif

#if MBI_RK4
int mbi_step_rk4(mb_sim *s, mb_real h, mb_real t_new)
{
    mb_real t_old = s->t;
    int st = rk4_step(s, h);
    if (st < 0) { copy(s->nz, s->z, s->zold); return st; }
    s->t = t_new;
    mb_real *fnew = s->k[1];          /* f at the new state, reused as next k1 */
    if ((st = mbi_rhs(s, s->t, s->ztmp, fnew)) < 0) { s->t = t_old; return st; }
    st = accept_explicit(s, fnew);
    if (st < 0) return mbi_explicit_fail(s, t_old, st);
    return st;
}
#endif
