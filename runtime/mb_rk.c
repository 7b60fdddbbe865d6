/* mb_rk.c - explicit Runge-Kutta integration of any explicit formulation (F1-F3) through the
 * formulation table: one stage loop driven by a Butcher table (RK4, Dormand-Prince 5(4); a new
 * method is one more table), the fixed-step and the adaptive step, acceptance and undo.
 * Layer: runtime core (mb_sim_impl.h); calls formulations only through mbi_form; no allocation. */
#include "mb_sim_impl.h"

#if MBI_EXPLICIT
/* A Butcher table: s stages (at most 7: the k[] blocks), row-major a[s][s], nodes c, weights b;
 * e (NULL: fixed step only) the error weights b - b^ and err_exp the step-size exponent
 * -1/(q+1), q the lower order. fsal: the last stage is evaluated at the new state (its row of a
 * is b), so f there comes for free. */
typedef struct {
    int s, fsal;
    const mb_real *c, *a, *b, *e;
    mb_real err_exp;
} mbi_tableau;

#if MBI_RK4
static const mb_real rk4_c[4] = {0, MB_R(0.5), MB_R(0.5), 1};
static const mb_real rk4_a[16] = {0, 0, 0, 0, MB_R(0.5), 0, 0, 0, 0, MB_R(0.5), 0, 0, 0, 0, 1, 0};
static const mb_real rk4_b[4] = {MB_R(1.0) / 6, MB_R(1.0) / 3, MB_R(1.0) / 3, MB_R(1.0) / 6};
static const mbi_tableau rk4 = {4, 0, rk4_c, rk4_a, rk4_b, NULL, 0};
#endif

#if MBI_DOPRI5
static const mb_real dp_c[7] = {0, MB_R(0.2), MB_R(0.3), MB_R(0.8), MB_R(8.0) / 9, 1, 1};
static const mb_real dp_a[49] = {
    0, 0, 0, 0, 0, 0, 0,
    MB_R(0.2), 0, 0, 0, 0, 0, 0,
    MB_R(3.0) / 40, MB_R(9.0) / 40, 0, 0, 0, 0, 0,
    MB_R(44.0) / 45, -MB_R(56.0) / 15, MB_R(32.0) / 9, 0, 0, 0, 0,
    MB_R(19372.0) / 6561, -MB_R(25360.0) / 2187, MB_R(64448.0) / 6561, -MB_R(212.0) / 729, 0, 0, 0,
    MB_R(9017.0) / 3168, -MB_R(355.0) / 33, MB_R(46732.0) / 5247, MB_R(49.0) / 176, -MB_R(5103.0) / 18656, 0, 0,
    MB_R(35.0) / 384, 0, MB_R(500.0) / 1113, MB_R(125.0) / 192, -MB_R(2187.0) / 6784, MB_R(11.0) / 84, 0};
static const mb_real dp_e[7] = {MB_R(71.0) / 57600, 0, -MB_R(71.0) / 16695, MB_R(71.0) / 1920,
                                -MB_R(17253.0) / 339200, MB_R(22.0) / 525, -MB_R(1.0) / 40};
static const mbi_tableau dopri5 = {7, 1, dp_c, dp_a, dp_a + 42, dp_e, -MB_R(0.2)};
#endif

/* f(t, z) through the formulation table, counted. */
static int rhs(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    s->mon.evals++;
    return mbi_forms[s->p.formulation]->rhs(s, t, z, f);
}

int mbi_rk_start(mb_sim *s, mb_real t0)
{
    int st = rhs(s, t0, s->z, s->fz);
    if (st) return st;
    mbi_take_eval(s);
    s->have_f = 1;
    return MB_OK;
}

/* One trial step of h from (t, z) with k[0] = fz cached: the new state to ztmp and, for an FSAL
 * table, f at it in k[s-1]. With an error estimate, *err receives its scaled RMS norm. */
static int rk_trial(mb_sim *s, const mbi_tableau *tb, mb_real h, mb_real *err)
{
    int nz = s->nz, st, ns = tb->s;
    mb_real *y = s->ztmp, t = s->t;
    s->k[0] = s->fz;
    for (int j = 1; j < ns; j++) {
        const mb_real *aj = tb->a + j * ns;
        for (int i = 0; i < nz; i++) {
            mb_real acc = 0;
            for (int l = 0; l < j; l++) acc += aj[l] * s->k[l][i];
            y[i] = s->z[i] + h * acc;
        }
        if ((st = rhs(s, t + tb->c[j] * h, y, s->k[j]))) return st;
    }
    if (!tb->fsal)                        /* the new state from the weights */
        for (int i = 0; i < nz; i++) {
            mb_real acc = 0;
            for (int l = 0; l < ns; l++) acc += tb->b[l] * s->k[l][i];
            y[i] = s->z[i] + h * acc;
        }
    if (tb->e) {
        mb_real e2 = 0;
        for (int i = 0; i < nz; i++) {
            mb_real e = 0;
            for (int l = 0; l < ns; l++) e += tb->e[l] * s->k[l][i];
            e *= h;
            mb_real ym = MB_FABS(s->z[i]) > MB_FABS(y[i]) ? MB_FABS(s->z[i]) : MB_FABS(y[i]);
            mb_real sc = s->p.atol + s->p.rtol * ym;
            e2 += (e / sc) * (e / sc);
        }
        *err = MB_SQRT(e2 / (nz > 0 ? nz : 1));
        if (!isfinite(*err) || !finite_vec(nz, y)) *err = MB_R(1e30);
        return MB_OK;
    }
    return finite_vec(nz, y) ? MB_OK : MB_ERR_NONFINITE;
}

/* After an accepted step: state = ztmp, fz = f at it, then the formulation's acceptance
 * (projection, sigma reset), which may ask for f again. */
static int accept(mb_sim *s, const mb_real *fnew)
{
    int reeval = 0, ev = MB_OK;
    copy(s->nz, s->z, s->ztmp);
    copy(s->nz, s->fz, fnew);
    mbi_take_eval(s);
    const mbi_form *f = mbi_forms[s->p.formulation];
    if (f->accept) {
        ev = f->accept(s, &reeval);
        if (ev < 0) return ev;
    }
    if (reeval) {
        int st = rhs(s, s->t, s->z, s->fz);
        if (st) return st;
        mbi_take_eval(s);
    }
    return ev;
}

int mbi_explicit_fail(mb_sim *s, mb_real t_start, int st)
{
    copy(s->nz, s->z, s->zold);
    copy(s->n, s->v, s->tn[7]);
    copy(s->nc, s->S, s->tm[3]);
    s->t = t_start;
    s->have_f = 0;
    return st;
}

#if MBI_DOPRI5
int mbi_step_adaptive(mb_sim *s, mb_real t_stop, const mb_monitor *mon0, mb_real pnc0, mb_real pdrv0)
{
    const mbi_tableau *tb = &dopri5;
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
        st = rk_trial(s, tb, h, &err);
        if (st < 0 && st != MB_ERR_SINGULAR && st != MB_ERR_NOT_SPD) return st;
        if (st < 0) { err = MB_R(1e30); lastfail = st; }  /* retry smaller, fail below h_min */
        mb_real fac = err > 0 ? MB_R(0.9) * MB_POW(err, tb->err_exp) : 5;
        if (fac > 5) fac = 5;
        if (fac < MB_R(0.2)) fac = MB_R(0.2);
        if (err <= 1) {
            if (!last) s->h_next = h * fac;
            s->t = last ? t_stop : s->t + h;
            st = accept(s, s->k[tb->s - 1]);
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
int mbi_step_fixed(mb_sim *s, mb_real h, mb_real t_new)
{
    const mbi_tableau *tb = &rk4;
    mb_real t_old = s->t;
    int st = rk_trial(s, tb, h, NULL);
    if (st < 0) { copy(s->nz, s->z, s->zold); return st; }
    s->t = t_new;
    mb_real *fnew = s->k[1];          /* f at the new state (k[1] is free now), next step's k[0] */
    if ((st = rhs(s, s->t, s->ztmp, fnew)) < 0) { s->t = t_old; return st; }
    st = accept(s, fnew);
    if (st < 0) return mbi_explicit_fail(s, t_old, st);
    return st;
}
#endif
#endif /* MBI_EXPLICIT */
