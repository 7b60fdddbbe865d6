/* mb_rk.c - explicit Runge-Kutta integration of any explicit formulation (F1-F3) through the
 * formulation table: one stage loop driven by a Butcher table (RK4, Dormand-Prince 5(4); a new
 * method is one more table), the fixed-step and the adaptive step, acceptance and undo.
 * Layer: runtime core (mb_sim_impl.h); calls formulations only through mbi_form; no allocation. */
#include "mb_sim_impl.h"

#if MBI_EXPLICIT
/* A Butcher table: s stages (at most 12: the k[] blocks), row-major a[s][s], nodes c, weights b;
 * e (NULL: fixed step only) the error weights b - b^ and err_exp the step-size exponent
 * -1/(q+1), q the lower order; e3 (DOP853 only, else NULL) the weights of a second, 3rd-order
 * estimate that Hairer's DOP853 combines with e as err5^2 / sqrt(err5^2 + 0.01 err3^2).
 * fsal: the last stage is evaluated at the new state (its row of a is b), so f there comes for
 * free; otherwise f at the new state is one more evaluation. */
typedef struct {
    int s, fsal;
    const mb_real *c, *a, *b, *e, *e3;
    mb_real err_exp;
} mbi_tableau;

#if MBI_RK4
static const mb_real rk4_c[4] = {0, MB_R(0.5), MB_R(0.5), 1};
static const mb_real rk4_a[16] = {0, 0, 0, 0, MB_R(0.5), 0, 0, 0, 0, MB_R(0.5), 0, 0, 0, 0, 1, 0};
static const mb_real rk4_b[4] = {MB_R(1.0) / 6, MB_R(1.0) / 3, MB_R(1.0) / 3, MB_R(1.0) / 6};
static const mbi_tableau rk4 = {4, 0, rk4_c, rk4_a, rk4_b, NULL, NULL, 0};
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
static const mbi_tableau dopri5 = {7, 1, dp_c, dp_a, dp_a + 42, dp_e, NULL, -MB_R(0.2)};
#endif

#if MBI_DOP853
/* Hairer's DOP853 (Hairer, Norsett, Wanner, Solving ODE I, 2nd ed.; the coefficients of his code
 * dop853.f): 12 stages, order 8, error estimates of orders 5 and 3, step exponent -1/8. */
#define R_ MB_R
static const mb_real d8_c[12] = {0, R_(0.526001519587677318785587544488e-01),
    R_(0.789002279381515978178381316732e-01), R_(0.118350341907227396726757197510e+00),
    R_(0.281649658092772603273242802490e+00), R_(0.333333333333333333333333333333e+00), R_(0.25),
    R_(0.307692307692307692307692307692e+00), R_(0.651282051282051282051282051282e+00), R_(0.6),
    R_(0.857142857142857142857142857142e+00), 1};
static const mb_real d8_a[144] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    R_(5.26001519587677318785587544488e-2), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    R_(1.97250569845378994544595329183e-2), R_(5.91751709536136983633785987549e-2), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    R_(2.95875854768068491816892993775e-2), 0, R_(8.87627564304205475450678981324e-2), 0, 0, 0, 0, 0, 0, 0, 0, 0,
    R_(2.41365134159266685502369798665e-1), 0, R_(-8.84549479328286085344864962717e-1),
    R_(9.24834003261792003115737966543e-1), 0, 0, 0, 0, 0, 0, 0, 0,
    R_(3.7037037037037037037037037037e-2), 0, 0, R_(1.70828608729473871279604482173e-1),
    R_(1.25467687566822425016691814123e-1), 0, 0, 0, 0, 0, 0, 0,
    R_(3.7109375e-2), 0, 0, R_(1.70252211019544039314978060272e-1), R_(6.02165389804559606850219397283e-2),
    R_(-1.7578125e-2), 0, 0, 0, 0, 0, 0,
    R_(3.70920001185047927108779319836e-2), 0, 0, R_(1.70383925712239993810214054705e-1),
    R_(1.07262030446373284651809199168e-1), R_(-1.53194377486244017527936158236e-2),
    R_(8.27378916381402288758473766002e-3), 0, 0, 0, 0, 0,
    R_(6.24110958716075717114429577812e-1), 0, 0, R_(-3.36089262944694129406857109825e0),
    R_(-8.68219346841726006818189891453e-1), R_(2.75920996994467083049415600797e1),
    R_(2.01540675504778934086186788979e1), R_(-4.34898841810699588477366255144e1), 0, 0, 0, 0,
    R_(4.77662536438264365890433908527e-1), 0, 0, R_(-2.48811461997166764192642586468e0),
    R_(-5.90290826836842996371446475743e-1), R_(2.12300514481811942347288949897e1),
    R_(1.52792336328824235832596922938e1), R_(-3.32882109689848629194453265587e1),
    R_(-2.03312017085086261358222928593e-2), 0, 0, 0,
    R_(-9.3714243008598732571704021658e-1), 0, 0, R_(5.18637242884406370830023853209e0),
    R_(1.09143734899672957818500254654e0), R_(-8.14978701074692612513997267357e0),
    R_(-1.85200656599969598641566180701e1), R_(2.27394870993505042818970056734e1),
    R_(2.49360555267965238987089396762e0), R_(-3.0467644718982195003823669022e0), 0, 0,
    R_(2.27331014751653820792359768449e0), 0, 0, R_(-1.05344954667372501984066689879e1),
    R_(-2.00087205822486249909675718444e0), R_(-1.79589318631187989172765950534e1),
    R_(2.79488845294199600508499808837e1), R_(-2.85899827713502369474065508674e0),
    R_(-8.87285693353062954433549289258e0), R_(1.23605671757943030647266201528e1),
    R_(6.43392746015763530355970484046e-1), 0};
static const mb_real d8_b[12] = {R_(5.42937341165687622380535766363e-2), 0, 0, 0, 0,
    R_(4.45031289275240888144113950566e0), R_(1.89151789931450038304281599044e0),
    R_(-5.8012039600105847814672114227e0), R_(3.1116436695781989440891606237e-1),
    R_(-1.52160949662516078556178806805e-1), R_(2.01365400804030348374776537501e-1),
    R_(4.47106157277725905176885569043e-2)};
/* the 5th-order estimate (er) and b minus the 3rd-order weights (bhh on stages 1, 9, 12) */
static const mb_real d8_e[12] = {R_(0.1312004499419488073250102996e-01), 0, 0, 0, 0,
    R_(-0.1225156446376204440720569753e+01), R_(-0.4957589496572501915214079952e+00),
    R_(0.1664377182454986536961530415e+01), R_(-0.3503288487499736816886487290e+00),
    R_(0.3341791187130174790297318841e+00), R_(0.8192320648511571246570742613e-01),
    R_(-0.2235530786388629525884427845e-01)};
static const mb_real d8_e3[12] = {
    R_(5.42937341165687622380535766363e-2) - R_(0.244094488188976377952755905512e+00), 0, 0, 0, 0,
    R_(4.45031289275240888144113950566e0), R_(1.89151789931450038304281599044e0),
    R_(-5.8012039600105847814672114227e0),
    R_(3.1116436695781989440891606237e-1) - R_(0.733846688281611857341361741547e+00),
    R_(-1.52160949662516078556178806805e-1), R_(2.01365400804030348374776537501e-1),
    R_(4.47106157277725905176885569043e-2) - R_(0.220588235294117647058823529412e-01)};
#undef R_
static const mbi_tableau dop853 = {12, 0, d8_c, d8_a, d8_b, d8_e, d8_e3, -MB_R(0.125)};
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
        mb_real e2 = 0, e32 = 0;
        for (int i = 0; i < nz; i++) {
            mb_real e = 0, e3 = 0;
            for (int l = 0; l < ns; l++) e += tb->e[l] * s->k[l][i];
            if (tb->e3) for (int l = 0; l < ns; l++) e3 += tb->e3[l] * s->k[l][i];
            mb_real ym = MB_FABS(s->z[i]) > MB_FABS(y[i]) ? MB_FABS(s->z[i]) : MB_FABS(y[i]);
            mb_real sc = s->p.atol + s->p.rtol * ym;
            e2 += (h * e / sc) * (h * e / sc);
            if (tb->e3) e32 += (h * e3 / sc) * (h * e3 / sc);
        }
        if (tb->e3) {   /* DOP853: err5^2 / sqrt(err5^2 + 0.01 err3^2), RMS-scaled */
            mb_real den = e2 + MB_R(0.01) * e32;
            *err = den > 0 ? e2 / MB_SQRT(den * (nz > 0 ? nz : 1)) : 0;
        } else {
            *err = MB_SQRT(e2 / (nz > 0 ? nz : 1));
        }
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

#if MBI_ADAPTIVE
int mbi_step_adaptive(mb_sim *s, mb_real t_stop, const mb_monitor *mon0, mb_real pnc0, mb_real pdrv0)
{
#if MBI_DOPRI5 && MBI_DOP853
    const mbi_tableau *tb = s->p.integrator == MB_DOP853 ? &dop853 : &dopri5;
#elif MBI_DOP853
    const mbi_tableau *tb = &dop853;
#else
    const mbi_tableau *tb = &dopri5;
#endif
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
            mb_real t_new = last ? t_stop : s->t + h, *fnew = s->k[tb->s - 1];
            if (!tb->fsal) {              /* f at the new state: one more evaluation (k[1] free) */
                fnew = s->k[1];
                if ((st = rhs(s, t_new, s->ztmp, fnew)) < 0) return mbi_explicit_fail(s, t_start, st);
            }
            s->t = t_new;
            st = accept(s, fnew);
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
