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
 * free; otherwise f at the new state is one more evaluation. stab: h |lambda| at the edge of the
 * stability region on the negative real axis (the warning MB_WARN_STABILITY). nz (not in
 * one-formulation builds): the stages of each weight row with a nonzero weight, in stage order,
 * rows 0 .. s-1 of a, then b, e and e3 (empty where NULL): row r's are nz[nz[r] .. nz[r + 1]),
 * the s + 4 offsets first; the constant tables' own pattern. w: those weights, packed in the
 * same order (row r's are w[nz[r] - nz[0] .. nz[r + 1] - nz[0]); the same expressions as the
 * tables', mbi_rk_nz_check compares their bits), so that a row's terms need no gather of their
 * weights. */
typedef struct {
    int s, fsal;
    const mb_real *c, *a, *b, *e, *e3;
    mb_real err_exp, stab;
#if !MBI_ONLY
    const unsigned char *nz;
    const mb_real *w;
#endif
} mbi_tableau;
#if !MBI_ONLY
#define NZ_(t, w) , t, w
#else
#define NZ_(t, w)
#endif

static const mb_real rk4_c[4] = {0, MB_R(0.5), MB_R(0.5), 1};
static const mb_real rk4_a[16] = {0, 0, 0, 0, MB_R(0.5), 0, 0, 0, 0, MB_R(0.5), 0, 0, 0, 0, 1, 0};
static const mb_real rk4_b[4] = {MB_R(1.0) / 6, MB_R(1.0) / 3, MB_R(1.0) / 3, MB_R(1.0) / 6};
#if !MBI_ONLY
static const unsigned char rk4_nz[15] = {8, 8, 9, 10, 11, 15, 15, 15,
    0,  1,  2,  0, 1, 2, 3};
static const mb_real rk4_w[7] = {
    MB_R(0.5), MB_R(0.5), 1, MB_R(1.0) / 6, MB_R(1.0) / 3, MB_R(1.0) / 3, MB_R(1.0) / 6};
#endif
static const mbi_tableau rk4 = {4, 0, rk4_c, rk4_a, rk4_b, NULL, NULL, 0, MB_R(2.785) NZ_(rk4_nz, rk4_w)};

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
#if !MBI_ONLY
static const unsigned char dp_nz[42] = {11, 11, 12, 14, 17, 21, 26, 31, 36, 42, 42,
    0,  0, 1,  0, 1, 2,  0, 1, 2, 3,  0, 1, 2, 3, 4,  0, 2, 3, 4, 5,  0, 2, 3, 4, 5,  0, 2, 3, 4, 5, 6};
static const mb_real dp_w[31] = {
    MB_R(0.2), MB_R(3.0) / 40, MB_R(9.0) / 40, MB_R(44.0) / 45, -MB_R(56.0) / 15, MB_R(32.0) / 9,
    MB_R(19372.0) / 6561, -MB_R(25360.0) / 2187, MB_R(64448.0) / 6561, -MB_R(212.0) / 729,
    MB_R(9017.0) / 3168, -MB_R(355.0) / 33, MB_R(46732.0) / 5247, MB_R(49.0) / 176,
    -MB_R(5103.0) / 18656, MB_R(35.0) / 384, MB_R(500.0) / 1113, MB_R(125.0) / 192,
    -MB_R(2187.0) / 6784, MB_R(11.0) / 84, MB_R(35.0) / 384, MB_R(500.0) / 1113, MB_R(125.0) / 192,
    -MB_R(2187.0) / 6784, MB_R(11.0) / 84, MB_R(71.0) / 57600, -MB_R(71.0) / 16695,
    MB_R(71.0) / 1920, -MB_R(17253.0) / 339200, MB_R(22.0) / 525, -MB_R(1.0) / 40};
#endif
static const mbi_tableau dopri5 = {7, 1, dp_c, dp_a, dp_a + 42, dp_e, NULL, -MB_R(0.2), MB_R(3.3) NZ_(dp_nz, dp_w)};

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
#if !MBI_ONLY
static const unsigned char d8_nz[90] = {16, 16, 17, 19, 21, 24, 27, 31, 36, 42, 49, 57, 66, 74, 82, 90,
    0,  0, 1,  0, 2,  0, 2, 3,  0, 3, 4,  0, 3, 4, 5,  0, 3, 4, 5, 6,  0, 3, 4, 5, 6, 7,
    0, 3, 4, 5, 6, 7, 8,  0, 3, 4, 5, 6, 7, 8, 9,  0, 3, 4, 5, 6, 7, 8, 9, 10,
    0, 5, 6, 7, 8, 9, 10, 11,  0, 5, 6, 7, 8, 9, 10, 11,  0, 5, 6, 7, 8, 9, 10, 11};
static const mb_real d8_w[74] = {
    MB_R(5.26001519587677318785587544488e-2), MB_R(1.97250569845378994544595329183e-2),
    MB_R(5.91751709536136983633785987549e-2), MB_R(2.95875854768068491816892993775e-2),
    MB_R(8.87627564304205475450678981324e-2), MB_R(2.41365134159266685502369798665e-1),
    MB_R(-8.84549479328286085344864962717e-1), MB_R(9.24834003261792003115737966543e-1),
    MB_R(3.7037037037037037037037037037e-2), MB_R(1.70828608729473871279604482173e-1),
    MB_R(1.25467687566822425016691814123e-1), MB_R(3.7109375e-2),
    MB_R(1.70252211019544039314978060272e-1), MB_R(6.02165389804559606850219397283e-2),
    MB_R(-1.7578125e-2), MB_R(3.70920001185047927108779319836e-2),
    MB_R(1.70383925712239993810214054705e-1), MB_R(1.07262030446373284651809199168e-1),
    MB_R(-1.53194377486244017527936158236e-2), MB_R(8.27378916381402288758473766002e-3),
    MB_R(6.24110958716075717114429577812e-1), MB_R(-3.36089262944694129406857109825e0),
    MB_R(-8.68219346841726006818189891453e-1), MB_R(2.75920996994467083049415600797e1),
    MB_R(2.01540675504778934086186788979e1), MB_R(-4.34898841810699588477366255144e1),
    MB_R(4.77662536438264365890433908527e-1), MB_R(-2.48811461997166764192642586468e0),
    MB_R(-5.90290826836842996371446475743e-1), MB_R(2.12300514481811942347288949897e1),
    MB_R(1.52792336328824235832596922938e1), MB_R(-3.32882109689848629194453265587e1),
    MB_R(-2.03312017085086261358222928593e-2), MB_R(-9.3714243008598732571704021658e-1),
    MB_R(5.18637242884406370830023853209e0), MB_R(1.09143734899672957818500254654e0),
    MB_R(-8.14978701074692612513997267357e0), MB_R(-1.85200656599969598641566180701e1),
    MB_R(2.27394870993505042818970056734e1), MB_R(2.49360555267965238987089396762e0),
    MB_R(-3.0467644718982195003823669022e0), MB_R(2.27331014751653820792359768449e0),
    MB_R(-1.05344954667372501984066689879e1), MB_R(-2.00087205822486249909675718444e0),
    MB_R(-1.79589318631187989172765950534e1), MB_R(2.79488845294199600508499808837e1),
    MB_R(-2.85899827713502369474065508674e0), MB_R(-8.87285693353062954433549289258e0),
    MB_R(1.23605671757943030647266201528e1), MB_R(6.43392746015763530355970484046e-1),
    MB_R(5.42937341165687622380535766363e-2), MB_R(4.45031289275240888144113950566e0),
    MB_R(1.89151789931450038304281599044e0), MB_R(-5.8012039600105847814672114227e0),
    MB_R(3.1116436695781989440891606237e-1), MB_R(-1.52160949662516078556178806805e-1),
    MB_R(2.01365400804030348374776537501e-1), MB_R(4.47106157277725905176885569043e-2),
    MB_R(0.1312004499419488073250102996e-01), MB_R(-0.1225156446376204440720569753e+01),
    MB_R(-0.4957589496572501915214079952e+00), MB_R(0.1664377182454986536961530415e+01),
    MB_R(-0.3503288487499736816886487290e+00), MB_R(0.3341791187130174790297318841e+00),
    MB_R(0.8192320648511571246570742613e-01), MB_R(-0.2235530786388629525884427845e-01),
    MB_R(5.42937341165687622380535766363e-2) - MB_R(0.244094488188976377952755905512e+00),
    MB_R(4.45031289275240888144113950566e0), MB_R(1.89151789931450038304281599044e0),
    MB_R(-5.8012039600105847814672114227e0),
    MB_R(3.1116436695781989440891606237e-1) - MB_R(0.733846688281611857341361741547e+00),
    MB_R(-1.52160949662516078556178806805e-1), MB_R(2.01365400804030348374776537501e-1),
    MB_R(4.47106157277725905176885569043e-2) - MB_R(0.220588235294117647058823529412e-01)};
#endif
static const mbi_tableau dop853 = {12, 0, d8_c, d8_a, d8_b, d8_e, d8_e3, -MB_R(0.125), MB_R(6.0) NZ_(d8_nz, d8_w)};
#undef NZ_

/* f(t, z) through the formulation table, counted. */
static int rhs(mb_sim *s, mb_real t, const mb_real *z, mb_real *f)
{
    s->mon.evals++;
    return MBI_FORM(s)->rhs(s, t, z, f);
}

/* F2, F3: their drivers' work integral lambda^T Phi_t with lambda = dS/dt, which no stage has
 * (S has), by parts: [S^T Phi_t] over the step (mbi_step_adaptive, mb_sim_dense) minus the
 * integral of S^T dPhi_t/dt, whose integrand this returns for the stage at (t, q) with S:
 * -S^T dPhi_t/dt by a central difference of phi_t in t over +-d, d = cbrt(eps) h (the step h
 * resolves the driver's time scale; the model interface has no Phi_tt). dPhi_t/dt = Phi_tt:
 * Phi_tq = 0 for every element of the model language (a driver is linear in q minus f(t); the
 * other constraints do not depend on t). The trapezoid on Delta S would be second order: on
 * dop853's long steps its error is an energy warning on an accurate run
 * (tests/test_audit.sh, the driven pendulum). Exactly 0 for a model without drivers (phi_t is
 * 0). Scratch: MB_VIEW_DRV (mb_layout.h). */
static mb_real drv_by_parts(mb_sim *s, mb_real t, const mb_real *q, const mb_real *S, mb_real h)
{
    const mb_model *m = s->m;
    int nc = s->nc;
    const MBI_VIEW(MB_VIEW_DRV) w = MBI_VIEW_OF(MB_VIEW_DRV);
    mb_real *fp = w.fp, *fm = w.fm;
#if MB_FLOAT
    mb_real d = MB_R(4.9e-3) * h;        /* cbrt(eps) */
#else
    mb_real d = MB_R(6.06e-6) * h;
#endif
    mb_real tl = MB_FABS(t) * 64 * MB_EPS;
    if (d < tl) d = tl;
    mb_real tp = t + d, tm = t - d;
    m->phi_t(m, tp, q, fp);
    m->phi_t(m, tm, q, fm);
    mb_real acc = 0;
    for (int r = 0; r < nc; r++) acc += S[r] * (fp[r] - fm[r]);
    return tp > tm ? -acc / (tp - tm) : 0;
}

/* The power of the loads at a stage just evaluated at (t, y) in a step of h: P_nc and the
 * drivers' share, F1 lambda^T Phi_t, F2 and F3 drv_by_parts (the adaptive integrators integrate
 * the work with their own weights). A scleronomic model (Phi_t = 0, mb_model.h) has no share:
 * drv_by_parts is -0 there and lambda^T Phi_t +0 (lambda finite), so the same sums but for the
 * sign of a zero P_nc on baumgarte, which the work's sum (from +0) does not keep. */
static mb_real stage_power(mb_sim *s, mb_real t, const mb_real *y, mb_real h)
{
    const mb_model *m = s->m;
    mb_real e[3];
#if MB_WITH_STAGE_POWER
    if (m->power) m->power(m, t, y, s->ev_v, e + 2);   /* P_nc alone: no T, no V */
    else
#endif
        m->energy(m, t, y, s->ev_v, e);
    if (m->scleronomic) return e[2];
    if (s->p.formulation == MB_BAUMGARTE) return e[2] + dot(s->nc, s->ev_lam, s->Phit);
    return e[2] + drv_by_parts(s, t, y, s->ev_S, h);
}

/* The host's stage sums (below) cost flash: a firmware build (MB_ONLY_*, runtime/mb_config.h)
 * keeps the plain loops, which give the same bits (M4F Andrews baumgarte flash-lean: +460 B of
 * flash and +192 B of stack with the host's). */
/* rk4's stability warning: h |lambda| as the first two stages see it, |k2 - k1| / (c2 |k1|)
 * (they lie c2 h k1 apart; a growing unstable mode dominates both), 0 when the step moves the
 * state only at round-off */
static mb_real first_stages_rate(const mb_sim *s, const mbi_tableau *tb, mb_real h)
{
    mb_real d2 = 0, f2 = 0, z2 = 0;
    for (int i = 0; i < s->nz; i++) {
        mb_real d = s->k[1][i] - s->k[0][i];
        d2 += d * d;
        f2 += s->k[0][i] * s->k[0][i];
        z2 += s->z[i] * s->z[i];
    }
    return h * h * f2 > MB_R(1e6) * MB_EPS * MB_EPS * z2 ? MB_SQRT(d2 / f2) / tb->c[1] : 0;
}

/* The scaled RMS norm of the error estimate from its sums of squares (e3: DOP853's
 * err5^2 / sqrt(err5^2 + 0.01 err3^2)) */
static mb_real error_norm(const mbi_tableau *tb, mb_real e2, mb_real e32, int nz)
{
    if (tb->e3) {
        mb_real den = e2 + MB_R(0.01) * e32;
        return den > 0 ? e2 / MB_SQRT(den * (nz > 0 ? nz : 1)) : 0;
    }
    return MB_SQRT(e2 / (nz > 0 ? nz : 1));
}

/* The error test's scale of F2's and F3's momenta p = M v + Phi_q^T sigma: rtol of |p_i|, but
 * of no more than the momentum scale (the run's largest |M v|_2, mon.pscale). The impulse sigma
 * of a lasting reaction grows with t (a pendulum's rod: |p| 1e3 x |M v| after 250 s), and
 * rtol |p| then passes a velocity error of that many tolerances, which becomes a phase error
 * (docs/validation.md, section 10). Before the first step (pscale 0) and in F1 (v tested
 * itself) no cap. */
#if MBI_F2 || MBI_F3   /* (not compiled without them: firmware keeps its flash) */
static mb_real momentum_cap(const mb_sim *s)   /* -1: no cap (not a large number: a state that
                                                  * grows past it, a blow-up, kept the test) */
{
    mb_real ps = s->mon.pscale;
    return s->p.formulation == MB_BAUMGARTE || !(ps > 0) ? -1 : ps;
}
#define MOMENTUM_CAP(i, ym)                                                                        \
    do {                                                                                           \
        if (pcap >= 0 && (i) >= n && (i) < 2 * n && (ym) > pcap) (ym) = pcap;                      \
    } while (0)
#else
#define MOMENTUM_CAP(i, ym) ((void)0)
#endif

#if !MBI_ONLY
/* Weight row r of tb: r < s a's row r, then b, e, e3 (NULL where the table has none) */
static const mb_real *weight_row(const mbi_tableau *tb, int r)
{
    return r < tb->s ? tb->a + r * tb->s : r == tb->s ? tb->b : r == tb->s + 1 ? tb->e : tb->e3;
}

/* The stages of weight row r of tb with a nonzero weight, in stage order (tb->nz): their
 * weights at *c (tb->w's packed row), their blocks to kk; returns how many. A zero weight's term
 * would add +-0 to the sum: leaving it out moves no bit but the sign of a zero sum. Inlined
 * into rk_trial's four calls (the calls' overhead: 24 k of 4.12 M instructions of Andrews
 * baumgarte dop853 at rtol 3.2e-7). */
static inline MB_ALWAYS_INLINE int nonzero_terms(const mbi_tableau *tb, int r, mb_real *const *k,
                                                 const mb_real **c, const mb_real **kk)
{
    const unsigned char *nz = tb->nz;
    int p0 = nz[r], nt = nz[r + 1] - p0;
    *c = tb->w + (p0 - nz[0]);
    for (int m = 0; m < nt; m++) kk[m] = k[nz[p0 + m]];
    return nt;
}

/* y = z + h sum_m c[m] kk[m], each entry's sum in stage order as the plain loop has it (the same
 * bits), sixteen entries at a time (eight pairs in registers), then eight, then pairs: one load
 * of a weight and a block pointer serves sixteen terms, and the independent sums vectorize
 * (Andrews, nz = 42: two blocks of sixteen, one of eight and a pair, no scalar tail) */
static void stage_combine(int nz, mb_real *restrict y, const mb_real *restrict z, mb_real h, int nt,
                          const mb_real *restrict c, const mb_real *const *restrict kk)
{
    int i = 0;
    for (; i + 16 <= nz; i += 16) {
        mb_real a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
        mb_real a8 = 0, a9 = 0, a10 = 0, a11 = 0, a12 = 0, a13 = 0, a14 = 0, a15 = 0;
        for (int m = 0; m < nt; m++) {
            const mb_real *km = kk[m] + i, cm = c[m];
            a0 += cm * km[0];
            a1 += cm * km[1];
            a2 += cm * km[2];
            a3 += cm * km[3];
            a4 += cm * km[4];
            a5 += cm * km[5];
            a6 += cm * km[6];
            a7 += cm * km[7];
            a8 += cm * km[8];
            a9 += cm * km[9];
            a10 += cm * km[10];
            a11 += cm * km[11];
            a12 += cm * km[12];
            a13 += cm * km[13];
            a14 += cm * km[14];
            a15 += cm * km[15];
        }
        y[i] = z[i] + h * a0;
        y[i + 1] = z[i + 1] + h * a1;
        y[i + 2] = z[i + 2] + h * a2;
        y[i + 3] = z[i + 3] + h * a3;
        y[i + 4] = z[i + 4] + h * a4;
        y[i + 5] = z[i + 5] + h * a5;
        y[i + 6] = z[i + 6] + h * a6;
        y[i + 7] = z[i + 7] + h * a7;
        y[i + 8] = z[i + 8] + h * a8;
        y[i + 9] = z[i + 9] + h * a9;
        y[i + 10] = z[i + 10] + h * a10;
        y[i + 11] = z[i + 11] + h * a11;
        y[i + 12] = z[i + 12] + h * a12;
        y[i + 13] = z[i + 13] + h * a13;
        y[i + 14] = z[i + 14] + h * a14;
        y[i + 15] = z[i + 15] + h * a15;
    }
    for (; i + 8 <= nz; i += 8) {
        mb_real a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
        for (int m = 0; m < nt; m++) {
            const mb_real *km = kk[m] + i, cm = c[m];
            a0 += cm * km[0];
            a1 += cm * km[1];
            a2 += cm * km[2];
            a3 += cm * km[3];
            a4 += cm * km[4];
            a5 += cm * km[5];
            a6 += cm * km[6];
            a7 += cm * km[7];
        }
        y[i] = z[i] + h * a0;
        y[i + 1] = z[i + 1] + h * a1;
        y[i + 2] = z[i + 2] + h * a2;
        y[i + 3] = z[i + 3] + h * a3;
        y[i + 4] = z[i + 4] + h * a4;
        y[i + 5] = z[i + 5] + h * a5;
        y[i + 6] = z[i + 6] + h * a6;
        y[i + 7] = z[i + 7] + h * a7;
    }
    for (; i + 2 <= nz; i += 2) {
        mb_real a0 = 0, a1 = 0;
        for (int m = 0; m < nt; m++) {
            const mb_real *km = kk[m] + i, cm = c[m];
            a0 += cm * km[0];
            a1 += cm * km[1];
        }
        y[i] = z[i] + h * a0;
        y[i + 1] = z[i + 1] + h * a1;
    }
    if (i < nz) {
        mb_real a = 0;
        for (int m = 0; m < nt; m++) a += c[m] * kk[m][i];
        y[i] = z[i] + h * a;
    }
}

/* e[r] = sum_m c[m] kk[m][i + r] for r < nb (nb <= 8), each sum in stage order: a block of 8
 * as stage_combine's, a shorter one in pairs */
static void error_terms(int i, int nb, int nt, const mb_real *restrict c, const mb_real *const *restrict kk,
                        mb_real *restrict e)
{
    if (nb == 8) {
        mb_real a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
        for (int m = 0; m < nt; m++) {
            const mb_real *km = kk[m] + i, cm = c[m];
            a0 += cm * km[0];
            a1 += cm * km[1];
            a2 += cm * km[2];
            a3 += cm * km[3];
            a4 += cm * km[4];
            a5 += cm * km[5];
            a6 += cm * km[6];
            a7 += cm * km[7];
        }
        e[0] = a0; e[1] = a1; e[2] = a2; e[3] = a3;
        e[4] = a4; e[5] = a5; e[6] = a6; e[7] = a7;
        return;
    }
    for (int r = 0; r < nb; r += 2) {
        mb_real a0 = 0, a1 = 0;
        int two = r + 1 < nb;
        for (int m = 0; m < nt; m++) {
            const mb_real *km = kk[m] + i + r, cm = c[m];
            a0 += cm * km[0];
            if (two) a1 += cm * km[1];
        }
        e[r] = a0;
        if (two) e[r + 1] = a1;
    }
}

/* error_terms of two weight rows c, c3 over the same stages kk in one pass (DOP853's e and e3):
 * a block's load serves both sums, each sum in stage order as error_terms has it (the same
 * bits) */
static void error_terms2(int i, int nb, int nt, const mb_real *restrict c, const mb_real *restrict c3,
                         const mb_real *const *restrict kk, mb_real *restrict e, mb_real *restrict e3)
{
    if (nb == 8) {
        mb_real a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
        mb_real b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0, b7 = 0;
        for (int m = 0; m < nt; m++) {
            const mb_real *km = kk[m] + i, cm = c[m], dm = c3[m];
            a0 += cm * km[0];
            a1 += cm * km[1];
            a2 += cm * km[2];
            a3 += cm * km[3];
            a4 += cm * km[4];
            a5 += cm * km[5];
            a6 += cm * km[6];
            a7 += cm * km[7];
            b0 += dm * km[0];
            b1 += dm * km[1];
            b2 += dm * km[2];
            b3 += dm * km[3];
            b4 += dm * km[4];
            b5 += dm * km[5];
            b6 += dm * km[6];
            b7 += dm * km[7];
        }
        e[0] = a0; e[1] = a1; e[2] = a2; e[3] = a3;
        e[4] = a4; e[5] = a5; e[6] = a6; e[7] = a7;
        e3[0] = b0; e3[1] = b1; e3[2] = b2; e3[3] = b3;
        e3[4] = b4; e3[5] = b5; e3[6] = b6; e3[7] = b7;
        return;
    }
    if (nb == 2) {                        /* (a state of 8 m + 2 entries: Andrews' 42) */
        mb_real a0 = 0, a1 = 0, b0 = 0, b1 = 0;
        for (int m = 0; m < nt; m++) {
            const mb_real *km = kk[m] + i, cm = c[m], dm = c3[m];
            a0 += cm * km[0];
            a1 += cm * km[1];
            b0 += dm * km[0];
            b1 += dm * km[1];
        }
        e[0] = a0; e[1] = a1;
        e3[0] = b0; e3[1] = b1;
        return;
    }
    error_terms(i, nb, nt, c, kk, e);
    error_terms(i, nb, nt, c3, kk, e3);
}

/* One trial step of h from (t, z) with k[0] = fz cached: the new state to ztmp and, for an FSAL
 * table, f at it in k[s-1]. With an error estimate, *err receives its scaled RMS norm. *hrho:
 * h |lambda| as the first two stages see it, |k2 - k1| / (c2 |k1|) (they lie c2 h k1 apart; a
 * growing unstable mode dominates both), 0 when the step moves the state only at round-off. */
static int rk_trial(mb_sim *s, const mbi_tableau *tb, mb_real h, mb_real *err, mb_real *hrho)
{
    int nz = s->nz, st, ns = tb->s, nt;
    mb_real *y = s->ztmp, t = s->t;
    const mb_real *kk[12], *c;
    s->k[0] = s->fz;
    if (tb->e)
        s->kp[0] = s->pnc + (s->p.formulation == MB_BAUMGARTE ? s->pdrv
                                                               : drv_by_parts(s, t, s->z, s->S, h));
    for (int j = 1; j < ns; j++) {
        nt = nonzero_terms(tb, j, s->k, &c, kk);
        stage_combine(nz, y, s->z, h, nt, c, kk);
        if ((st = rhs(s, t + tb->c[j] * h, y, s->k[j]))) return st;
        if (tb->e) s->kp[j] = stage_power(s, t + tb->c[j] * h, y, h);
        if (j == 1 && !tb->e && s->p.warn_stability > 0) *hrho = first_stages_rate(s, tb, h);
    }
    if (!tb->fsal) {                      /* the new state from the weights */
        nt = nonzero_terms(tb, ns, s->k, &c, kk);
        stage_combine(nz, y, s->z, h, nt, c, kk);
    }
    if (tb->e) {
        mb_real e2 = 0, e32 = 0, ev[8], e3v[8];
        const mb_real *ce, *ce3 = NULL;
        const mb_real *kk3[12];
        int ne = nonzero_terms(tb, ns + 1, s->k, &ce, kk), ne3 = 0;
#if MBI_F2 || MBI_F3
        int n = s->n;
        mb_real pcap = momentum_cap(s);
#endif
        if (tb->e3) ne3 = nonzero_terms(tb, ns + 2, s->k, &ce3, kk3);
        int same = ne3 == ne;              /* the two estimates over the same stages: one pass */
        for (int m = 0; m < ne && same; m++) same = kk3[m] == kk[m];
        for (int i = 0; i < nz; i += 8) {  /* the estimates eight entries at a time, then their sums */
            int nb = nz - i < 8 ? nz - i : 8;
            if (same) {
                error_terms2(i, nb, ne, ce, ce3, kk, ev, e3v);
            } else {
                error_terms(i, nb, ne, ce, kk, ev);
                error_terms(i, nb, ne3, ce3, kk3, e3v);
            }
            for (int r = 0; r < nb; r++) {
                mb_real zi = s->z[i + r], yi = y[i + r];
                mb_real ym = MB_FABS(zi) > MB_FABS(yi) ? MB_FABS(zi) : MB_FABS(yi);
                MOMENTUM_CAP(i + r, ym);
                mb_real sc = s->p.atol + s->p.rtol * ym;
                e2 += (h * ev[r] / sc) * (h * ev[r] / sc);
                if (tb->e3) e32 += (h * e3v[r] / sc) * (h * e3v[r] / sc);
            }
        }
        *err = error_norm(tb, e2, e32, nz);
        if (!isfinite(*err) || !finite_vec(nz, y)) *err = MB_R(1e30);
        return MB_OK;
    }
    return finite_vec(nz, y) ? MB_OK : MB_ERR_NONFINITE;
}

#else
/* One trial step of h from (t, z) with k[0] = fz cached: the new state to ztmp and, for an FSAL
 * table, f at it in k[s-1]. With an error estimate, *err receives its scaled RMS norm. *hrho:
 * h |lambda| as the first two stages see it, |k2 - k1| / (c2 |k1|) (they lie c2 h k1 apart; a
 * growing unstable mode dominates both), 0 when the step moves the state only at round-off. */
static int rk_trial(mb_sim *s, const mbi_tableau *tb, mb_real h, mb_real *err, mb_real *hrho)
{
    int nz = s->nz, st, ns = tb->s;
    mb_real *y = s->ztmp, t = s->t;
    s->k[0] = s->fz;
    if (tb->e)
        s->kp[0] = s->pnc + (s->p.formulation == MB_BAUMGARTE ? s->pdrv
                                                               : drv_by_parts(s, t, s->z, s->S, h));
    for (int j = 1; j < ns; j++) {
        const mb_real *aj = tb->a + j * ns;
        for (int i = 0; i < nz; i++) {
            mb_real acc = 0;
            for (int l = 0; l < j; l++) acc += aj[l] * s->k[l][i];
            y[i] = s->z[i] + h * acc;
        }
        if ((st = rhs(s, t + tb->c[j] * h, y, s->k[j]))) return st;
        if (tb->e) s->kp[j] = stage_power(s, t + tb->c[j] * h, y, h);
        if (j == 1 && !tb->e && s->p.warn_stability > 0) *hrho = first_stages_rate(s, tb, h);
    }
    if (!tb->fsal)                        /* the new state from the weights */
        for (int i = 0; i < nz; i++) {
            mb_real acc = 0;
            for (int l = 0; l < ns; l++) acc += tb->b[l] * s->k[l][i];
            y[i] = s->z[i] + h * acc;
        }
    if (tb->e) {
        mb_real e2 = 0, e32 = 0;
#if MBI_F2 || MBI_F3
        int n = s->n;
        mb_real pcap = momentum_cap(s);
#endif
        for (int i = 0; i < nz; i++) {
            mb_real e = 0, e3 = 0;
            for (int l = 0; l < ns; l++) e += tb->e[l] * s->k[l][i];
            if (tb->e3) for (int l = 0; l < ns; l++) e3 += tb->e3[l] * s->k[l][i];
            mb_real ym = MB_FABS(s->z[i]) > MB_FABS(y[i]) ? MB_FABS(s->z[i]) : MB_FABS(y[i]);
            MOMENTUM_CAP(i, ym);
            mb_real sc = s->p.atol + s->p.rtol * ym;
            e2 += (h * e / sc) * (h * e / sc);
            if (tb->e3) e32 += (h * e3 / sc) * (h * e3 / sc);
        }
        *err = error_norm(tb, e2, e32, nz);
        if (!isfinite(*err) || !finite_vec(nz, y)) *err = MB_R(1e30);
        return MB_OK;
    }
    return finite_vec(nz, y) ? MB_OK : MB_ERR_NONFINITE;
}

#endif

/* After an accepted step: state = ztmp, fz = f at it, then the formulation's acceptance
 * (projection, sigma reset), which may ask for f again. */
static int accept(mb_sim *s, const mb_real *fnew)
{
    int reeval = 0, ev = MB_OK;
    copy(s->nz, s->z, s->ztmp);
    copy(s->nz, s->fz, fnew);
    mbi_take_eval(s);
    const mbi_form *f = MBI_FORM(s);
#if MBI_GE
    /* the sigma a reset takes out of the momenta, for the accuracy companion's own (ge_shift) */
    if (f->accept && s->gz && s->p.warn_accuracy != 0 && mbi_sigma_reset_due(s))
        copy(s->nc, s->gz + 2 * s->nz + s->n, s->sig);
#endif
    if (f->accept) {
        ev = f->accept(s, &reeval);
        if (ev < 0) return ev;
    }
    if (reeval) {
        int st = rhs(s, s->t, s->z, s->fz);
        if (st) return st;
        mbi_take_eval(s);
    }
#if !MBI_ONLY
    /* Phi, Phi_t, Phi_q are the last evaluation's, at the new state (fnew's, or the evaluation
     * again), so the monitor takes them (mbi_measure_at) when it was also at the new time
     * (dopri5's last stage is at t + 1 h, which may differ from t_new by an ulp: then not);
     * the next evaluation clears the flag. The same values: one evaluation less a step (not in
     * a firmware build: flash) */
    s->kin_fresh = s->kin_t == s->t;
#endif
    return ev;
}

/* The stability monitor of an accepted step: h |lambda| over the method's limit, lambda the larger
 * of the stabilization's rate and the rate the first two stages saw (rk4 only, for the
 * warning; 0 with the warning off). */
/* The stages' rate is a Rayleigh quotient of the Jacobian along k1 and spikes where k1 nearly
 * vanishes: on the pendulum (canonical and alf-explicit, h = 1e-3) it reached 2.2 and 4.4 x the
 * limit for single steps at turning points (the steps around them below the limit) while the run
 * was 4e-8 from the exact solution. A mode beyond the limit grows and keeps the quotient beyond
 * it, the sign of an oscillating one at times less: the quotient counts when this step and
 * another of the last three were beyond the limit (stab_run: those three as bits). The 3-link
 * chain at h = 0.02, baumgarte: 1.0, 1.9, 1.5, 1.6, 3e3 x the limit, NaN at the next step; the
 * forced oscillator's quadratic damper at h = 5e-4: 1.0, 0.5, 1.2, 0.8, 7.2, then NaN. */
static void stiffness(mb_sim *s, const mbi_tableau *tb, mb_real h, mb_real hrho)
{
    mb_real hs = h * s->stab_rate / tb->stab, hm = hrho / tb->stab;
    unsigned b = ((unsigned)s->stab_run << 1 | (s->p.warn_stability > 0 && hm > 1)) & 7u;
    s->stab_run = (int)b;
    if (!(b & 1u) || !(b & (b - 1))) hm = 0;   /* this step, and at least one more */
    s->mon.stiffness = hm > hs ? hm : hs;
}

/* ------------------------------------------------------------------ dense output
 * The continuous extension of the last adaptive step y(t0 + theta h), theta in [0, 1], in the
 * form of Hairer's codes: with r1 = y1 - y0, r2 = h k1 - r1, r3 = r1 - h f(y1) - r2,
 *   dopri5:  y0 + theta (r1 + (1-theta) (r2 + theta (r3 + (1-theta) r4))),
 *            r4 = h sum d_j k_j (Shampine's 4th-order interpolant, Hairer-Norsett-Wanner I, II.6);
 *   dop853:  y0 + theta (r1 + (1-theta) (r2 + theta (r3 + (1-theta) (r4 + theta (r5 + (1-theta)
 *            (r6 + theta r7)))))), r4..r7 = h sum d_j k_j over stages 1, 6..16, where 13 is f(y1)
 *            and 14..16 three more stages (order 7; DOP853's dense output, ibid. II.10).
 * Blocks of s->dn (nz each): dopri5 r3 r1 r2 r4 (k1 kept in block 0 until the coefficients are
 * formed); dop853 r7 r1 r2 r4 r5 r6 r3 (k1 in block 6, block 0 the extra stages' scratch). After
 * them sigma and Phi_t at the step's start (the work at an interpolated time), then the run's
 * evaluation's v and sigma (F3's warm start) while rk_dense evaluates (dense_saved): its own,
 * so that an interpolation inside a step (event location, mb_event.c) leaves the step's start
 * v0, S0 for an undo. */
static const mb_real dp_d[7] = {-MB_R(12715105075.0) / MB_R(11282082432.0), 0,
    MB_R(87487479700.0) / MB_R(32700410799.0), -MB_R(10690763975.0) / MB_R(1880347072.0),
    MB_R(701980252875.0) / MB_R(199316789632.0), -MB_R(1453857185.0) / MB_R(822651844.0),
    MB_R(69997945.0) / MB_R(29380423.0)};
#define R_ MB_R
/* Stages 14..16 (nodes 0.1, 0.2, 7/9) and the four rows d of the interpolant, over stages 1..16
 * (index j - 1; stages 2..5 enter neither). Hairer's published coefficients (dop853.f). */
static const mb_real d8_cx[3] = {R_(0.1), R_(0.2), R_(0.777777777777777777777777777778)};
static const mb_real d8_ax[3][16] = {
    {R_(5.61675022830479523392909219681e-2), 0, 0, 0, 0, 0, R_(2.53500210216624811088794765333e-1),
     R_(-2.46239037470802489917441475441e-1), R_(-1.24191423263816360469010140626e-1),
     R_(1.5329179827876569731206322685e-1), R_(8.20105229563468988491666602057e-3),
     R_(7.56789766054569976138603589584e-3), R_(-8.298e-3), 0, 0, 0},
    {R_(3.18346481635021405060768473261e-2), 0, 0, 0, 0, R_(2.83009096723667755288322961402e-2),
     R_(5.35419883074385676223797384372e-2), R_(-5.49237485713909884646569340306e-2), 0, 0,
     R_(-1.08347328697249322858509316994e-4), R_(3.82571090835658412954920192323e-4),
     R_(-3.40465008687404560802977114492e-4), R_(1.41312443674632500278074618366e-1), 0, 0},
    {R_(-4.28896301583791923408573538692e-1), 0, 0, 0, 0, R_(-4.69762141536116384314449447206e0),
     R_(7.68342119606259904184240953878e0), R_(4.06898981839711007970213554331e0),
     R_(3.56727187455281109270669543021e-1), 0, 0, 0, R_(-1.39902416515901462129418009734e-3),
     R_(2.9475147891527723389556272149e0), R_(-9.15095847217987001081870187138e0), 0}};
static const mb_real d8_d[4][16] = {
    {R_(-0.84289382761090128651353491142e+01), 0, 0, 0, 0, R_(0.56671495351937776962531783590e+00),
     R_(-0.30689499459498916912797304727e+01), R_(0.23846676565120698287728149680e+01),
     R_(0.21170345824450282767155149946e+01), R_(-0.87139158377797299206789907490e+00),
     R_(0.22404374302607882758541771650e+01), R_(0.63157877876946881815570249290e+00),
     R_(-0.88990336451333310820698117400e-01), R_(0.18148505520854727256656404962e+02),
     R_(-0.91946323924783554000451984436e+01), R_(-0.44360363875948939664310572000e+01)},
    {R_(0.10427508642579134603413151009e+02), 0, 0, 0, 0, R_(0.24228349177525818288430175319e+03),
     R_(0.16520045171727028198505394887e+03), R_(-0.37454675472269020279518312152e+03),
     R_(-0.22113666853125306036270938578e+02), R_(0.77334326684722638389603898808e+01),
     R_(-0.30674084731089398182061213626e+02), R_(-0.93321305264302278729567221706e+01),
     R_(0.15697238121770843886131091075e+02), R_(-0.31139403219565177677282850411e+02),
     R_(-0.93529243588444783865713862664e+01), R_(0.35816841486394083752465898540e+02)},
    {R_(0.19985053242002433820987653617e+02), 0, 0, 0, 0, R_(-0.38703730874935176555105901742e+03),
     R_(-0.18917813819516756882830838328e+03), R_(0.52780815920542364900561016686e+03),
     R_(-0.11573902539959630126141871134e+02), R_(0.68812326946963000169666922661e+01),
     R_(-0.10006050966910838403183860980e+01), R_(0.77771377980534432092869265740e+00),
     R_(-0.27782057523535084065932004339e+01), R_(-0.60196695231264120758267380846e+02),
     R_(0.84320405506677161018159903784e+02), R_(0.11992291136182789328035130030e+02)},
    {R_(-0.25693933462703749003312586129e+02), 0, 0, 0, 0, R_(-0.15418974869023643374053993627e+03),
     R_(-0.23152937917604549567536039109e+03), R_(0.35763911791061412378285349910e+03),
     R_(0.93405324183624310003907691704e+02), R_(-0.37458323136451633156875139351e+02),
     R_(0.10409964950896230045147246184e+03), R_(0.29840293426660503123344363579e+02),
     R_(-0.43533456590011143754432175058e+02), R_(0.96324553959188282948394950600e+02),
     R_(-0.39177261675615439165231486172e+02), R_(-0.14972683625798562581422125276e+03)}};
#undef R_

static mb_real *dn_block(const mb_sim *s, int b) { return s->dn + (size_t)b * (size_t)s->nz; }
static int dn_blocks(const mb_sim *s) { return MB_L_NDENSE(s->p.integrator); }
/* the run's evaluation's v (n) and sigma (nc after it) kept while rk_dense evaluates */
static mb_real *dense_saved(const mb_sim *s) { return dn_block(s, dn_blocks(s)) + 2 * s->nc; }

/* Before an adaptive step, keep what the work at an interpolated time needs (W at the step's
 * start; sigma and Phi_t there). */
static void dense_begin(mb_sim *s, mb_real W0)
{
    mb_real *S0 = dn_block(s, dn_blocks(s));
    s->dn_W0 = W0;
    copy(s->nc, S0, s->S);
    copy(s->nc, S0 + s->nc, s->ptq);
}

/* After the accepted step from t0 of h (y0 in zold, y1 in ztmp, f(y1) in fnew): keep k1. */
static void dense_keep(mb_sim *s, mb_real t0, mb_real h)
{
    copy(s->nz, dn_block(s, s->p.integrator == MB_DOP853 ? 6 : 0), s->fz);
    s->t_prev = t0;
    s->h_prev = h;
    s->dense_state = 1;
}

/* Stage j (1..16) of the last DOP853 step and its extra stages: 1 kept in block 6, 6..12 in their
 * k blocks, 13 = f(y1) in k[1], 14..16 in k[2..4] (the blocks of stages 3..5, which the
 * interpolant does not use). */
static const mb_real *d8_stage(const mb_sim *s, int j)
{
    return j == 1 ? dn_block(s, 6) : j == 13 ? s->k[1] : j >= 14 ? s->k[j - 12] : s->k[j - 1];
}
/* out = h sum_j w[j - 1] stage_j over the stages 1, 6..16 (plus base when given); returns the
 * same sum over the stages' powers (the work's coefficient) */
static mb_real d8_combine(const mb_sim *s, const mb_real *w, mb_real h, const mb_real *base, mb_real *out)
{
    mb_real pw = 0;
    for (int i = 0; i < s->nz; i++) {
        mb_real acc = 0;
        for (int j = 1; j <= 16; j++)
            if (w[j - 1] != 0) acc += w[j - 1] * d8_stage(s, j)[i];
        out[i] = (base ? base[i] : 0) + h * acc;
    }
    for (int j = 1; j <= 16; j++) pw += w[j - 1] * s->kp[j - 1];
    return h * pw;
}

/* the work's first three coefficients, as r1 r2 r3 of the state (pe: the power at y1) */
static void dense_work3(mb_sim *s, const mbi_tableau *tb, mb_real pe)
{
    mb_real h = s->h_prev, w = 0;
    for (int j = 0; j < tb->s; j++) w += tb->b[j] * s->kp[j];
    s->dn_w[0] = h * w;
    s->dn_w[1] = h * s->kp[0] - s->dn_w[0];
    s->dn_w[2] = s->dn_w[0] - h * pe - s->dn_w[1];
}

/* The coefficients r1.. of the last step (dop853: after its three extra stages). */
static int dense_coefficients(mb_sim *s)
{
    int nz = s->nz;
    mb_real h = s->h_prev, *y0 = s->zold, *y1 = s->ztmp;
    mb_real *B0 = dn_block(s, 0), *B1 = dn_block(s, 1), *B2 = dn_block(s, 2);
    if (MBI_DOP853 && s->p.integrator == MB_DOP853) {
        for (int x = 0; x < 3; x++) {     /* stages 14..16 (scratch state in block 0) */
            mb_real tx = s->t_prev + d8_cx[x] * h;
            d8_combine(s, d8_ax[x], h, y0, B0);
            int st = rhs(s, tx, B0, s->k[2 + x]);
            if (st) return st;
            s->kp[13 + x] = stage_power(s, tx, B0, h);
        }
        dense_work3(s, &dop853, s->kp[12]);
        s->dn_w[3] = d8_combine(s, d8_d[0], h, NULL, dn_block(s, 3));
        s->dn_w[4] = d8_combine(s, d8_d[1], h, NULL, dn_block(s, 4));
        s->dn_w[5] = d8_combine(s, d8_d[2], h, NULL, dn_block(s, 5));
        s->dn_w[6] = d8_combine(s, d8_d[3], h, NULL, B0);
        mb_real *k1 = dn_block(s, 6), *k13 = s->k[1];
        for (int i = 0; i < nz; i++) {
            B1[i] = y1[i] - y0[i];
            B2[i] = h * k1[i] - B1[i];
            k1[i] = B1[i] - h * k13[i] - B2[i];   /* r3 over k1, its last use */
        }
        return MB_OK;
    }
    if (MBI_DOPRI5) {
        mb_real *B3 = dn_block(s, 3), *k7 = s->k[6], w = 0;
        dense_work3(s, &dopri5, s->kp[6]);
        for (int j = 0; j < 7; j++) w += dp_d[j] * s->kp[j];
        s->dn_w[3] = h * w;
        for (int i = 0; i < nz; i++) {
            mb_real acc = dp_d[0] * B0[i];
            for (int j = 2; j < 7; j++) acc += dp_d[j] * s->k[j][i];
            B3[i] = h * acc;
            B1[i] = y1[i] - y0[i];
            B2[i] = h * B0[i] - B1[i];
            B0[i] = B1[i] - h * k7[i] - B2[i];
        }
    }
    return MB_OK;
}

/* dop853's interpolant in a step at DENSE_STIFF of the stabilization's stability limit or beyond
 * (h stab_rate >= 0.6 x 6.0) carries the fast constraint mode of its stage values where that
 * mode is excited: the step's own combination damps it, the interpolant's does not (its
 * continuous stability function on the real axis: max over theta |R(theta, z)| 1.16 at 0.8 of
 * the limit, 2.5 at 0.9, 10.5 at it) and the step's error test does not see it. Such a step's
 * dense output is the cubic Hermite of its ends (y0, y1, f0, f1; third order) where the
 * interpolant leaves the constraints by more than twice as much at theta = 1/2 (|Phi|, two
 * evaluations of Phi once a step): the constraint mode is what leaves them, and the Hermite,
 * with no such mode, leaves them by its own truncation error only (a smooth step held long by
 * accuracy: the interpolant's Phi is the smaller one, and it is kept; linear constraints: both
 * 0, kept). Andrews, alf-explicit, rows every 25 us against a run at rtol 1e-13, rtol 1e-5 ..
 * 1e-10: 375, 257, 343, 480, 580, 882 tolerances -> 18, 14, 12.5, 15, 44, 351 (docs/formulations.md). */
#define DENSE_STIFF MB_R(0.6)

/* The last step's interpolant at theta, its first len entries into y: dop853's 7th-order one,
 * its cubic Hermite part alone (hermite: y0, y1, f0, f1), or dopri5's. */
static void dense_at(const mb_sim *s, mb_real th, int len, int hermite, mb_real *y)
{
    const mb_real *y0 = s->zold, *B0 = dn_block(s, 0), *B1 = dn_block(s, 1), *B2 = dn_block(s, 2),
                  *B3 = dn_block(s, 3);
    mb_real u = 1 - th;
    if (MBI_DOP853 && hermite) {
        const mb_real *B6 = dn_block(s, 6);
        for (int i = 0; i < len; i++) y[i] = y0[i] + th * (B1[i] + u * (B2[i] + th * B6[i]));
    } else if (MBI_DOP853 && s->p.integrator == MB_DOP853) {
        const mb_real *B4 = dn_block(s, 4), *B5 = dn_block(s, 5), *B6 = dn_block(s, 6);
        for (int i = 0; i < len; i++)
            y[i] = y0[i] + th * (B1[i] + u * (B2[i] + th * (B6[i] + u * (B3[i] + th * (B4[i] +
                   u * (B5[i] + th * B0[i]))))));
    } else {
        for (int i = 0; i < len; i++)
            y[i] = y0[i] + th * (B1[i] + u * (B2[i] + th * (B0[i] + u * B3[i])));
    }
}

/* After the coefficients of a DOP853 step near the stability limit: dense_state 3 (the
 * cubic Hermite) where the interpolant leaves the constraints more than it at theta = 1/2.
 * Scratch: ztmp and k[2] (the interpolations' q), Phi (an evaluation's; kin_fresh cleared). */
static void dense_choose(mb_sim *s, mb_real t1)
{
    int n = s->n, nc = s->nc;
    if (nc == 0 || !(s->h_prev * s->stab_rate >= DENSE_STIFF * dop853.stab)) return;
    mb_real *y7 = s->ztmp, *yh = s->k[2], half = MB_R(0.5), tm = s->t_prev + half * (t1 - s->t_prev);
    dense_at(s, half, n, 0, y7);
    dense_at(s, half, n, 1, yh);
    s->m->phi(s->m, tm, y7, s->Phi);
    mb_real p7 = nrminf(nc, s->Phi);
    s->m->phi(s->m, tm, yh, s->Phi);
    mb_real ph = nrminf(nc, s->Phi);
    s->kin_fresh = 0;
    if (p7 > 2 * ph) s->dense_state = 3;
}

/* mb_sim_dense for dopri5 and dop853 */
static int rk_dense(mb_sim *s, mb_real t, mb_real *q, mb_real *v, mb_monitor *mo)
{
    int n = s->n, nc = s->nc, nz = s->nz, st = MB_OK;
    if (!s->dn || !s->dense_state || !s->ready) return MB_ERR_STATE;
    if (!(t >= s->t_prev && t <= s->t)) return MB_ERR_PARAM;
    mb_real *vsave = dense_saved(s), *ssave = vsave + n;   /* F3's warm start, kept */
    copy(n, vsave, s->ev_v);
    copy(nc, ssave, s->ev_sig);
    mb_real t1 = s->t;                    /* the step's end (a step cut at an event: as taken) */
#if MBI_HAS_EV
    if (s->ev_cut) t1 = s->ev_t1;
#endif
    if (s->dense_state == 1) {
        st = dense_coefficients(s);
        if (st) goto out;
        s->dense_state = 2;
        if (MBI_DOP853 && s->p.integrator == MB_DOP853) dense_choose(s, t1);
    }
    mb_real th = (t - s->t_prev) / (t1 - s->t_prev), u = 1 - th, *y = s->ztmp;
    const mb_real *dw = s->dn_w;
    int herm = MBI_DOP853 && s->dense_state == 3;
    dense_at(s, th, nz, herm, y);
    mb_real wt = dw[0] + u * (dw[1] + th * (dw[2] + u * dw[3]));   /* the work of the loads */
    if (herm) wt = dw[0] + u * (dw[1] + th * dw[2]);
    else if (MBI_DOP853 && s->p.integrator == MB_DOP853)
        wt = dw[0] + u * (dw[1] + th * (dw[2] + u * (dw[3] + th * (dw[4] + u * (dw[5] + th * dw[6])))));
    copy(n, q, y);
    if (v && s->p.formulation == MB_BAUMGARTE && !mo) { copy(n, v, y + n); goto out; }
    if (!v && !mo) goto out;
    if ((st = rhs(s, t, y, s->k[1]))) goto out;
    if (v) copy(n, v, s->ev_v);
    if (mo) {   /* the monitors at t; the work of the loads interpolated like the state (F2, F3
                 * the drivers' by parts: plus [S^T Phi_t] from the step's start, drv_by_parts) */
        const mb_real *S0 = dn_block(s, dn_blocks(s)), *P0 = S0 + nc;
        mb_real pnc, pdrv, w = s->dn_W0 + th * wt;
        *mo = s->mon;
        mbi_measure_at(s, t, y, s->ev_v, s->ev_S, s->ev_lam, mo, &pnc, &pdrv);
        if (s->p.formulation != MB_BAUMGARTE) w += dot(nc, s->ev_S, s->Phit) - dot(nc, S0, P0);
        mo->W = w;
        mo->energy_dev = mo->T + mo->V - mo->E0 - w;
    }
out:
    copy(n, s->ev_v, vsave);
    copy(nc, s->ev_sig, ssave);
    return st;
}

/* A step accepted by the error test that fails after it (its end does not evaluate, or the
 * energies overflow): the state of the step's start t_start again (mb_sim_step's: after an
 * event's cut, cut_redo's undo has put it there), and the next step the one proposed there, not
 * after the discarded step; returns st */
static int undo_accepted(mb_sim *s, const mbi_step0 *b, mb_real t_start, int st)
{
#if MBI_STEP_H0
    s->h_next = b->h0;
#else
    (void)b;                               /* (a build without dopri5 and dop853 calls none) */
#endif
    return mbi_undo_step(s, t_start, st);
}

/* One accepted adaptive step with table tb towards t_stop, rejections retried inside; monitor
 * advanced. */
static int step_adaptive(mb_sim *s, const mbi_tableau *tb, mb_real t_stop, const mbi_step0 *b)
{
    const mb_monitor *mon0 = &b->mon0;
    mb_real pnc0 = b->pnc0, pdrv0 = b->pdrv0;
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
        mb_real hm = mbi_h_max(s);
        if (hm > 0 && h > hm) h = hm;
        int last = 0;
        if (h >= rem * (1 - MB_R(1e-9))) { h = rem; last = 1; }
        mb_real err = MB_R(1e30), hrho = 0;
        st = rk_trial(s, tb, h, &err, &hrho);
        /* a stage that fails in the linear algebra or leaves the finite numbers (a first trial
         * step far too long: baumgarte + dop853 at h = 0.5 on the audit's slider-crank) is a
         * rejected trial: retry smaller, fail below h_min */
        if (st < 0 && st != MB_ERR_SINGULAR && st != MB_ERR_NOT_SPD && st != MB_ERR_NONFINITE) return st;
        if (st < 0) { err = MB_R(1e30); lastfail = st; }
        mb_real fac = err > 0 ? MB_R(0.9) * MB_POW(err, tb->err_exp) : 5;
        if (fac > 5) fac = 5;
        if (fac < MB_R(0.2)) fac = MB_R(0.2);
        if (err <= 1) {
            if (!last) s->h_next = h * fac;
            mb_real t_new = last ? t_stop : s->t + h, *fnew = s->k[tb->s - 1], wq = 0;
            for (int j = 0; j < tb->s; j++) wq += tb->b[j] * s->kp[j];
            wq *= h;                      /* the work of the loads, by the method's weights */
            if (!tb->fsal) {              /* f at the new state: one more evaluation (k[1] free) */
                fnew = s->k[1];
                if ((st = rhs(s, t_new, s->ztmp, fnew)) < 0) return undo_accepted(s, b, t_start, st);
                s->kp[tb->s] = stage_power(s, t_new, s->ztmp, h);
            }
            /* F2, F3: the drivers' work by parts, its boundary term [S^T Phi_t] (drv_by_parts;
             * S, Phi_t at the new state from its evaluation, before a sigma reset shifts S) */
            if (s->p.formulation != MB_BAUMGARTE)
                wq += dot(s->nc, s->ev_S, s->Phit) - dot(s->nc, s->S0, s->ptq);
            stiffness(s, tb, h, hrho);
            if (MBI_DENSE && s->dn) dense_keep(s, t_start, h);
            s->t = t_new;
            st = accept(s, fnew);
            if (st < 0) return undo_accepted(s, b, t_start, st);
            mbi_advance_monitor(s, h, pnc0, pdrv0, &wq);
            if (!isfinite(s->mon.energy_dev)) {     /* energies or work overflow: not a good state */
                s->mon = *mon0; s->pnc = pnc0; s->pdrv = pdrv0;
                return undo_accepted(s, b, t_start, MB_ERR_NONFINITE);
            }
#if MBI_GE
            if (++s->ge_n == 1) s->ge_tm = s->t;   /* the accuracy companion's count (ge_step) */
            s->ge_tlast = s->t;
#endif
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

/* One fixed step (RK4) of h ending at time t_new; the monitor is not advanced. */
static int step_rk4(mb_sim *s, mb_real h, mb_real t_new)
{
    const mbi_tableau *tb = &rk4;
    mb_real t_old = s->t, hrho = 0;
    int st = rk_trial(s, tb, h, NULL, &hrho);
    if (st < 0) { copy(s->nz, s->z, s->zold); return st; }
    stiffness(s, tb, h, hrho);
    s->t = t_new;
    mb_real *fnew = s->k[1];          /* f at the new state (k[1] is free now), next step's k[0] */
    if ((st = rhs(s, s->t, s->ztmp, fnew)) < 0) { s->t = t_old; return st; }
    st = accept(s, fnew);
    if (st < 0) return mbi_undo_step(s, t_old, st);
    return st;
}

#if MBI_GE
/* ------------------------------------------------------------------ the accuracy companion
 * dopri5's and dop853's error estimates are of their embedded lower-order solutions, not of the
 * solution they advance, and a step's error says nothing of how the errors grow (a phase error:
 * linearly in t), so no sum of them tells an accurate run from one 1e3 x rtol off
 * (docs/validation.md, section 10). The run's own global error is estimated instead by global
 * Richardson extrapolation: a companion solution of the same method from the same start takes
 * one step over every two of the run's (H = h1 + h2, in lock-step at every second step point),
 * so its global error is about 2^p times the run's (order p: 5, 8) and, at the common points,
 * run - companion = (2^p - 1) x the run's error. Its largest value so far over the positions, in
 * tolerances (atol + rtol max(|q_i|, lscale)), plus what it had estimated before a sigma reset
 * that came with a restart (ge_sync), is mon.err_sum, which the accuracy warning tests (mb_monitor.c).
 * Where H is beyond the stability limit of the stabilization's rate (w (xi + sqrt(xi^2 - 1));
 * baumgarte at rtol 1e-4 holds the run's step there) the companion's step of H runs with w
 * scaled by max(h1, h2) / H: its h lambda of the constraint dynamics is then the run's longer
 * step's, and the exact solution (on the constraints, where the terms vanish) the same. There
 * the run's error is not the method's h^p term but what the constraint dynamics at that
 * h lambda make of each step (the pendulum's baumgarte dop853 at rtol 1e-4: h omega 0.08, 347 x
 * rtol off): at the same h lambda an explicit Runge-Kutta method's error in
 * the stiff mode is that of its stage order 1, O(h^2) a step, so the companion's step has
 * 2^2 = 4 times the run's and such a pair's new difference is divided by 3, not 2^p - 1 (the
 * sum of the pairs' in est).
 * Taking the run's two steps instead (as before) added no error: no estimate (4e-3 .. 6 there).
 * Cost: the companion's stages, half the run's evaluations. The companion starts anew from the
 * run's state (ge_sync) after a reset, a restart, an event cut (its comparison at the cut
 * step's start kept: mb_event.c, cut_redo) or a failed or non-finite step of its own; a sigma
 * reset it takes itself and goes on (ge_shift); it is taken at the start of
 * the run's next step, when the stages and ztmp are free (the dense output of the last step is
 * dropped then), and leaves the run's evaluation (ev_v, ev_sig: F3's warm start), its
 * monitor (but the evaluations it counts) and its pivot record as they were: with the
 * companion the run's own steps are bit for bit those without it. */
static void ge_restart(mb_sim *s, int keep_est)
{
    mb_real *dp = s->gz + 2 * s->nz + s->n + s->nc;
    copy(s->nz, s->gz, s->z);
    copy(s->nz, s->gz + s->nz, s->fz);
    for (int i = 0; i < (keep_est ? 1 : 2) * s->n; i++) dp[i] = 0;   /* the difference so far, est */
    s->ge_t = s->ge_tlast = s->t;
    s->ge_n = 0;
    s->ge_resets = s->mon.sigma_resets;
}

/* Starting anew where a sigma reset came with a restart (keep: both at one step) keeps what
 * was estimated: the run's error so far does not vanish with the companion's difference. Its last estimate (ge_e, in tolerances) is added to ge_off, and the estimate is
 * ge_off plus the new one (as the extrapolated trapezoid's xg_off), in magnitude: increments
 * carried over as a vector let the new ones cancel them. A sigma reset alone does not start it
 * anew (ge_shift): added up so, the windows between resets missed how the error each had made
 * grows after it (the A01 pendulum, canonical dop853 at rtol 1e-5 with --sigma-reset 100, 480 x
 * rtol off after 300 s, read 4.8). Not after an event cut or a failed step of its own: summed
 * over the bouncing ball's six impacts (baumgarte dopri5 at its default rtol 1e-6, 5.4e-6 m off
 * at most, against dop853 at 1e-12) the windows summed read 11.3, each alone 6.9 at most. A new
 * run (mb_sim_reset: ge_n -2) clears them. */
static void ge_sync(mb_sim *s, int keep)
{
    if (s->ge_n == -2) s->ge_off = 0;
    else if (keep) s->ge_off += s->ge_e;
    s->ge_e = 0;
    ge_restart(s, 0);
}

/* What the companion's evaluations overwrite of the run's, kept and put back: the monitor (but
 * its count of evaluations), the pivot record of S (F1, F2), and ev_v, ev_sig (to sv: n + nc) */
typedef struct {
    mb_monitor mon;
#if MBI_HAS_KKT
    mb_real ratio;
    int row;
#endif
} ge_kept;

static void ge_keep(const mb_sim *s, ge_kept *k, mb_real *sv)
{
    k->mon = s->mon;
#if MBI_HAS_KKT
    k->ratio = s->step_ratio;
    k->row = s->step_row;
#endif
    copy(s->n, sv, s->ev_v);
    copy(s->nc, sv + s->n, s->ev_sig);
}

static void ge_put_back(mb_sim *s, const ge_kept *k, const mb_real *sv)
{
    long ev = s->mon.evals;
    s->mon = k->mon;
    s->mon.evals = ev;
#if MBI_HAS_KKT
    s->step_ratio = k->ratio;
    s->step_row = k->row;
#endif
    copy(s->n, s->ev_v, sv);
    copy(s->nc, s->ev_sig, sv + s->n);
}

/* The run's sigma reset (mbi_sigma_reset) took Phi_q^T sigma out of its momenta, sigma kept in
 * the companion's slot of the saved ev_sig (accept). The companion takes the same sigma out of
 * its own momenta at its own positions: exact for it as for the run (p = M v + Phi_q^T sigma in
 * F2 and F3: v unchanged, its sigma less by that vector, near the run's 0), so it carries on
 * with its difference and estimate, as without a reset, and f at its state is evaluated again
 * (the run's evaluation, monitor and pivot record put back, as in ge_compare). Started anew from
 * the run's state instead, it shared the run's error so far, and with it the phase error's
 * growth that error drives (quadratic in t on the pendulum, whose energy error accumulates):
 * each window between resets saw only its own local errors, and their estimates added up
 * missed the growth (the A01 pendulum, canonical dop853 at rtol 1e-5 with --sigma-reset 100, 40
 * resets in 300 s: 4.8e-3 m off, 242 tolerances, read 4.8; carried, 199, warned from 67 s). */
static int ge_shift(mb_sim *s)
{
    const mb_model *m = s->m;
    int n = s->n, nz = s->nz;
    mb_real *sg = s->gz + 2 * nz + n, *sv = s->ztmp;   /* (ztmp is free: ge_step) */
    ge_kept kept;
    ge_keep(s, &kept, sv);
    m->phi_q(m, s->ge_t, s->gz, s->Pq);
    pq_mtv(m, s->Pq, sg, -1, s->gz + n);
    int st = rhs(s, s->ge_t, s->gz, s->gz + nz);
    ge_put_back(s, &kept, sv);
    s->ge_resets = s->mon.sigma_resets;
    return st;
}

/* dr sigma resets since the companion's last: one it takes itself (ge_shift); where that fails
 * it starts anew, its estimate kept: 1, else 0 */
static int ge_take_reset(mb_sim *s, long dr)
{
    if (dr != 1 || ge_shift(s) == MB_OK) return 0;
    ge_sync(s, 1);
    return 1;
}

/* One step of the companion from (t0, gz) of h: its state and f there to gz (its error estimate
 * to *err, untouched when *err > lim: then MB_ERR_PARAM, the step not taken). The trial runs
 * as the run's does from (t, z, fz), the companion's in their place. */
static int ge_trial(mb_sim *s, const mbi_tableau *tb, mb_real t0, mb_real h, mb_real lim, mb_real *err)
{
    int nz = s->nz, st;
    mb_real *zm = s->z, *fm = s->fz, tm = s->t, hrho = 0, *y = s->ztmp;
    *err = MB_R(1e30);
    s->z = s->gz;
    s->fz = s->gz + nz;
    s->t = t0;
    st = rk_trial(s, tb, h, err, &hrho);
    if (st == MB_OK && !(*err <= lim)) st = MB_ERR_PARAM;
    if (st == MB_OK) {
        if (tb->fsal) copy(nz, s->fz, s->k[tb->s - 1]);
        else st = rhs(s, t0 + h, y, s->fz);
        if (st == MB_OK) copy(nz, s->gz, y);
    }
    s->z = zm;
    s->fz = fm;
    s->t = tm;
    return st;
}

/* The companion's steps of this comparison came near a singular position: the smallest pivot
 * ratio of S they saw (step_ratio, which ge_compare restores to the run's after them) below
 * sqrt(rank_tol), as a step of the run's (mb_sim.c, near_singular). F1 and F2 only. */
static int ge_near_singular(const mb_sim *s)
{
#if MBI_HAS_KKT
    return s->step_ratio < 0 || s->step_ratio * s->step_ratio < s->p.rank_tol;
#else
    (void)s;
    return 0;
#endif
}

/* The run's two steps since ge_t, taken from the companion's state where its own step of their
 * sum is not trusted (ge_compare): they passed the run's error test, so from a state this close
 * their estimates are about the run's, at most 1, and the pair's difference is carried without
 * an error of the companion's own. Not near a singular position, where the local solution turns
 * on how close a state passes it: there the same step from the companion's state can have an
 * error many times the tolerance (the chain N = 10, baumgarte dopri5 at rtol 1e-6: the run
 * passing at a pivot ratio of 5e-8 at 9.09 s, the companion 20 tolerances from it, its steps'
 * estimates 2.2e3 and 2.7e4, after which it went another way, 1.3e4 tolerances from the run by
 * 10.5 s while the run stayed within 7.4 x rtol: estimated 443; 0.43 now, four such pairs with
 * estimates of 45 .. 778, the run passing at pivot ratios of 2e-8 .. 4e-7). MB_ERR_PARAM, which
 * ge_compare takes as a failed step of the companion's own (it starts anew from the run's
 * state, its estimate so far kept as the largest value), when such a step came near a singular
 * position (ge_near_singular) with an estimate above lim, what the companion's own step of
 * twice the length may have, and above the difference so far dp, in tolerances: the
 * companion's own error is then what it would go on to measure. Not away from singular
 * positions: the walker's contacts (friction's stick-slip, no event) make such steps too, where
 * the companion's difference is the error's growth that a run 80 .. 110 x rtol off (canonical
 * and alf-explicit dop853 at 1e-4) is warned by. Nor below the difference so far: a companion
 * that carries 2^p x a real error into a passage measures how the passage amplifies it. */
static int ge_run_steps(mb_sim *s, const mbi_tableau *tb, mb_real lim, const mb_real *dp)
{
    mb_real err, d = mbi_err_tols(s, dp, NULL, s->z);
    if (d > lim) lim = d;
    int st = ge_trial(s, tb, s->ge_t, s->ge_tm - s->ge_t, MB_R(1e30), &err);
    if (st == MB_OK && err > lim && ge_near_singular(s)) return MB_ERR_PARAM;
    if (st == MB_OK) st = ge_trial(s, tb, s->ge_tm, s->t - s->ge_tm, MB_R(1e30), &err);
    if (st == MB_OK && err > lim && ge_near_singular(s)) return MB_ERR_PARAM;
    return st;
}

/* The comparison of the run's steps since ge_t with the companion's: two (ge_n 2) by one
 * step of their sum, as above; one (ge_n 1: the run's last step, mbi_rk_finish) by one step of
 * the run's own length, whose difference adds no local error of its own but carries the
 * difference so far through that step (a run that goes wrong in its last step shows there). */
static void ge_compare(mb_sim *s, const mbi_tableau *tb)
{
    int nz = s->nz, n = s->n, nc = s->nc, st = MB_OK, one = s->ge_n == 1;
    int d8 = tb == &dop853;
    mb_real H = s->t - s->ge_t, err, *sv = s->gz + 2 * nz, *zm = s->z, *dp = sv + n + nc, *est = dp + n;
    /* the companion's step is trusted where the local errors scale as h^(q+1) (q: the
     * estimate's order, dopri5 4, dop853's combination 7): its estimate at most 2^(q+1) x the
     * tolerance; beyond it takes the run's two steps instead, carrying the difference so far
     * without adding to it (ge_run_steps; its w scaled where H is beyond the stabilization's
     * stability limit: above; dop853's not trusted at 0.75 .. 1 of that limit: below) */
    mb_real lim = d8 ? 256 : 32;
    ge_kept kept;
    ge_keep(s, &kept, sv);
    mb_real w0 = s->p.omega, h1 = s->ge_tm - s->ge_t, h2 = s->t - s->ge_tm;
    int held = !one && H * s->stab_rate > tb->stab;   /* H beyond the stabilization's stability limit */
    /* dop853, H within that limit but at 0.75 of it or beyond: its stability function is
     * negative there (R(z) = 0 at 0.72 of the limit, R / e^z = -3.9 at 0.8, -33 at 0.9), so a
     * companion step of H flips the sign of the constraint mode's error at every step, which
     * the run's steps (R = e^z to 0.2 % up to half the limit) do not, and makes an error of
     * that mode of its own, not 2^8 times the run's: not trusted, as a step whose own estimate
     * fails (above). tests/models/acc_pendulum.lua, canonical dop853 at rtol 1e-5 (xi 10:
     * w = 20 /s): 48 steps of H at 0.6 .. 0.99 of the limit in its first 40 s, its energy
     * error +5.7e-4 J by 53 s against the run's -1.4e-5 J, the run 465 x rtol off after 1000
     * periods read 8.4 tolerances, silent; 154 now. Taken with w scaled instead (as beyond
     * the limit), from 0.9 on, it read 109, but at xi 30 (w = 60 /s) 2.2 .. 5.5 for runs 258 ..
     * 850 x rtol off (9.1 .. 18.5 unscaled, 11.6 .. 19.4 as now). dopri5's R stays in (0, 1)
     * up to its limit (R / e^z 10.4 at 0.9), and there its own step measured the runs whose
     * steps sit near half the limit (the crank-rocker's baumgarte dopri5 at rtol 1e-4, 2.6e3 x
     * rtol off: 1.0e3 tolerances; 11.9 with w scaled from 0.9 on). */
    int own = one || held || !d8 || H * s->stab_rate < MB_R(0.75) * tb->stab;
    if (held) {
        /* the run's longer step's h lambda, but not beyond the limit: a run's first step from
         * the assembled start can be (Andrews, alf-explicit dop853 at rtol 1e-6: h lambda 15,
         * the limit 6), harmless there, where the fast constraint mode has no amplitude yet, but
         * the companion's step carries the difference so far into that mode, which kept it
         * excited for the rest of the run: estimated 1.6e6 tolerances, 2.5 off */
        mb_real r = (h1 > h2 ? h1 : h2) / H;
        if (r * H * s->stab_rate > tb->stab) r = tb->stab / (H * s->stab_rate);
        s->p.omega = w0 * r;
    }
    st = own ? ge_trial(s, tb, s->ge_t, H, one ? MB_R(1e30) : lim, &err) : MB_ERR_PARAM;
    s->p.omega = w0;
    if (st == MB_ERR_PARAM) {
        held = 0;
        st = ge_run_steps(s, tb, one ? MB_R(1e30) : lim, dp);
    }
    ge_put_back(s, &kept, sv);
    if (st != MB_OK) { ge_sync(s, 0); return; }
    /* A companion more than 10 x the mechanism's size (the length scale L or the largest
     * |q_i|: a particle's L is 0, a crank's angle grows) from the run has left it, not
     * estimated its error: the run's own steps from the companion's state near a singular
     * position, where it went another way, then diverged (the chain N = 2, baumgarte dopri5
     * at rtol 1e-4: 678 m apart in one pair, 9.6 x rtol off before its rank-loss stop;
     * N = 10: 6e5 m). The run's error cannot jump so far in a pair (its steps' local errors
     * are within the tolerance; a switch of branch moves it by about the mechanism's size),
     * and a gradual one passes the warning's 10 tolerances long before: it starts anew from
     * the run's state, keeping est so far. */
    mb_real qs = s->mon.lscale;
    for (int i = 0; i < n; i++) if (MB_FABS(zm[i]) > qs) qs = MB_FABS(zm[i]);
    for (int i = 0; i < n; i++)
        if (!(MB_FABS(s->gz[i] - zm[i]) <= 10 * qs)) { ge_restart(s, 1); return; }   /* (NaN too) */
    /* A held pair's difference is divided by 2^2 - 1 (above) only where the run's own steps
     * are held at the limit (both at 0.9 of it or beyond: the pendulum's baumgarte dop853 at
     * rtol 1e-4, 86 % of its pairs), not where H alone is beyond it: a run whose steps the
     * accuracy sets, at 0.1 .. 0.94 of the limit (slider_crank's baumgarte dop853 at 1e-4),
     * has the method's h^p error, which the companion has 2^p times, and a full count read 754
     * tolerances for 3.0 off (2.8 with 2^p - 1). Not in full (the companion's error taken for
     * the run's): Andrews' alf-explicit at xi = 1e5 holds its steps there for its first 2 ms,
     * where the difference, 3 .. 11 tolerances, stays bounded (the stiff mode's error does not
     * accumulate) while the run is at most 4.9 off; in full dopri5 warned at 0.98 ms and dop853
     * (5.0 off in all) at 10 ms. The pendulum's, 344 x rtol off, reads 1.2e4 (3.6e4 in full).
     * In tolerances of the mechanism's size (mbi_err_tols). */
    mb_real hf = MB_R(0.9);
    int atlim = held && (h1 < h2 ? h1 : h2) * s->stab_rate >= hf * tb->stab;
    mb_real a = atlim ? 3 : d8 ? 255 : 31;   /* 2^2 - 1 held, 2^p - 1 (above) */
    for (int i = 0; i < n; i++) {
        mb_real g = s->gz[i] - zm[i];
        est[i] += (g - dp[i]) / a;
        dp[i] = g;
    }
    mb_real e = mbi_err_tols(s, est, NULL, zm);
    s->ge_e = e;
    e += s->ge_off;                       /* (ge_sync) */
    if (!(e <= s->mon.err_sum)) s->mon.err_sum = e;   /* (NaN too) */
    s->ge_t = s->t;
    s->ge_n = 0;
}

static void ge_step(mb_sim *s, const mbi_tableau *tb)
{
    if (s->p.warn_accuracy == 0 || !s->gz) return;
    /* (a sigma reset shifts the run's momenta: the companion takes it too, ge_shift; kept
     * unshifted, its sigma's growth would lose what the reset keeps, the momenta's digits: the
     * driven pendulum of test_audit.sh, 100 s with 35 resets, estimated 2e3 tolerances, 3e-6 m
     * off at rtol 1e-6. One reset per accepted step at most: another count starts it anew) */
    long dr = s->mon.sigma_resets - s->ge_resets;
    if (s->ge_n < 0 || s->t != s->ge_tlast || (dr != 0 && dr != 1)) {
        ge_sync(s, dr != 0);
        return;
    }
    if (ge_take_reset(s, dr)) return;
    if (s->ge_n == 2) ge_compare(s, tb);
}

/* mb_sim_finish: the run ends; the one or two steps since the last comparison (ge_step
 * compares at the start of the step after a pair, which the run's end never takes) are
 * compared now, a sigma reset at the last step taken first (ge_shift): the run may go on, and
 * the comparison's save of ev_sig overwrites the reset's sigma in its slot, so a reset left for
 * the next step would be lost to the companion (its |Phi_q^T sigma| the sum of those it missed:
 * 596 against the run's 0.33 with mb_sim_finish after every step, test_runtime). Nothing when
 * the companion was to start anew (a reset, a restart, an event cut at the last step): it has
 * no steps of its own to compare. */
int mbi_rk_finish(mb_sim *s)
{
    const mbi_tableau *tb = s->p.integrator == MB_DOP853 ? &dop853 : &dopri5;
    if (s->p.warn_accuracy == 0 || !s->gz) return 0;
    if (s->p.integrator != MB_DOPRI5 && s->p.integrator != MB_DOP853) return 0;
    long dr = s->mon.sigma_resets - s->ge_resets;
    if (s->ge_n < 1 || s->t != s->ge_tlast || (dr != 0 && dr != 1)) return 0;
    if (ge_take_reset(s, dr)) return 0;
    ge_compare(s, tb);
    s->dense_state = 0;   /* its stages and ztmp were the companion's */
    return 1;
}
#endif

/* the adaptive step with dense output's bookkeeping */
static int step_tableau(mb_sim *s, const mbi_tableau *tb, mb_real t_stop, const mbi_step0 *b)
{
#if MBI_GE
    ge_step(s, tb);
#endif
    if (MBI_DENSE) {
        s->dense_state = 0;
        if (s->dn) dense_begin(s, b->mon0.W);
    }
    return step_adaptive(s, tb, t_stop, b);
}

/* The rows. Every explicit build compiles all three and what they call; those the build leaves
 * out are not in mb_sim.c's integrator table (NULL there), so nothing references them and a
 * link with --gc-sections (or link-time optimization) drops them; dense output likewise (NULL
 * in the rows with MB_WITH_DENSE_OUTPUT=0: nothing to interpolate). */
#define RK_DENSE (MBI_DENSE ? rk_dense : NULL)
const mbi_integ mbi_integ_rk4 = {mbi_form_start, mbi_form_restart, step_rk4, NULL, NULL,
                                 mbi_undo_step, NULL};
static int step_dopri5(mb_sim *s, mb_real t_stop, const mbi_step0 *b)
{
    return step_tableau(s, &dopri5, t_stop, b);
}
const mbi_integ mbi_integ_dopri5 = {mbi_form_start, mbi_form_restart, NULL, step_dopri5, RK_DENSE,
                                    mbi_undo_step, NULL};
static int step_dop853(mb_sim *s, mb_real t_stop, const mbi_step0 *b)
{
    return step_tableau(s, &dop853, t_stop, b);
}
const mbi_integ mbi_integ_dop853 = {mbi_form_start, mbi_form_restart, NULL, step_dop853, RK_DENSE,
                                    mbi_undo_step, NULL};

#if !MBI_ONLY
/* 1 when tb's nz lists, for each weight row, exactly the stages of a nonzero weight in stage
 * order, and its offsets end at len, the table's size */
static int nz_matches(const mbi_tableau *tb, int len)
{
    const unsigned char *nz = tb->nz;
    int ns = tb->s, p;
    if (nz[0] != ns + 4 || nz[ns + 3] != len) return 0;
    for (int r = 0; r < ns + 3; r++) {
        const mb_real *w = weight_row(tb, r);
        if (nz[r + 1] < nz[r]) return 0;
        p = nz[r];
        for (int l = 0; w && l < ns; l++)
            if (w[l] != 0 && (p >= nz[r + 1] || nz[p++] != l)) return 0;
        if (p != nz[r + 1]) return 0;
        for (p = nz[r]; p < nz[r + 1]; p++)   /* the packed weights: the same bits */
            if (memcmp(&tb->w[p - nz[0]], &w[nz[p]], sizeof(mb_real)) != 0) return 0;
    }
    return 1;
}

int mbi_rk_nz_check(void)
{
    return nz_matches(&rk4, (int)sizeof rk4_nz) && nz_matches(&dopri5, (int)sizeof dp_nz) &&
           nz_matches(&dop853, (int)sizeof d8_nz);
}
#endif
#endif /* MBI_EXPLICIT */

