/* test_dense.c - dense output of dopri5, dop853 and the adaptive trapezoid (both step controls;
 * mb_sim_dense): the interpolant's order on a closed-form model (tests/models/harmonic.lua: x = 0.1 cos t), its end points, the velocity and
 * monitors at an interpolated time, the contract (states, times, parameters), and that
 * interpolating never changes the trajectory. Ends with "N passed, N failed". */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "mb_sim.h"

extern const mb_model harmonic_model, double_pendulum_model;
#define X0 0.1   /* harmonic: x(t) = X0 cos t, v = -X0 sin t */

#if MB_FLOAT
#define PREC 1e-6
#else
#define PREC 1e-13
#endif

typedef struct { mb_sim_storage mem; mb_sim *s; void *w; } run;

/* the adaptive trapezoid's step control (mb_params.adaptive) for integ = MB_TRAPEZOID */
static int trap_mode(int integ) { return integ == MB_TRAPEZOID ? 1 : integ == -MB_TRAPEZOID ? 2 : 0; }
static const char *integ_name(int integ)
{
    return trap_mode(integ) == 2 ? "trapezoid (extrapolated)" : mb_integrator_name(integ);
}

/* integ -MB_TRAPEZOID: the trapezoid with the extrapolated step control (adaptive 2, with
 * xi = omega = 1 as the simulator's --extrapolate sets); MB_TRAPEZOID: Milne's (adaptive 1).
 * The trapezoid keeps its dense output without p.dense. */
static int start(run *r, const mb_model *m, int form, int integ, double h, double rtol, int dense)
{
    mb_params p;
    mb_params_default(&p, form);
    p.integrator = trap_mode(integ) ? MB_TRAPEZOID : integ;
    p.adaptive = trap_mode(integ);
    if (p.adaptive == 2) p.xi = p.omega = 1;
    p.h = (mb_real)h;
    p.rtol = (mb_real)rtol;
    p.atol = (mb_real)rtol;
    p.dense = trap_mode(integ) ? 0 : dense;
#if MB_FLOAT
    if (form >= MB_ALF_EXPLICIT) { p.alpha = MB_R(1e3); p.tol = MB_R(1e-6); }
#endif
    size_t ws = mb_sim_workspace_size(m, &p);
    r->w = malloc(ws ? ws : 1);
    r->s = mb_sim_of(&r->mem);
    int st = ws ? mb_sim_init(r->s, m, &p, r->w, ws) : MB_ERR_PARAM;
    return st ? st : mb_sim_reset(r->s, 0, NULL, NULL, 1);
}

/* One step of exactly h from the start (tolerances so loose that it is accepted), then the
 * interpolant at theta = 1/2: its error in x against the closed form. */
static double half_step_error(int form, int integ, double h)
{
    run r;
    mb_real q[3], v[3];
    double e = 1;
    if (start(&r, &harmonic_model, form, integ, h, 1e3, 1) == MB_OK &&
        mb_sim_step(r.s, (mb_real)h) >= 0 && mb_sim_get_t(r.s) == (mb_real)h &&
        mb_sim_dense(r.s, (mb_real)(h / 2), q, v, NULL) == MB_OK)
        e = fabs((double)q[0] - X0 * cos(h / 2));
    free(r.w);
    return e;
}

static void check_order(void)
{
    /* interpolant of order 4 (dopri5) and 7 (dop853): local error h^5 and h^8 at theta = 1/2;
     * the trapezoid's own extension (Milne's control): h^3, the step's; the extrapolated
     * step's quintic through its start, middle and end: h^5, its middle's (the step's own) */
    static const struct { int integ, f0, f1; double h0, order; } cases[] = {
        {MB_DOPRI5, MB_BAUMGARTE, MB_CANONICAL, 0.4, 5}, {MB_DOP853, MB_BAUMGARTE, MB_CANONICAL, 1.6, 8},
        {MB_TRAPEZOID, MB_ALF_TRAPEZOID, MB_ALF_TRAPEZOID, 0.2, 3},
        {-MB_TRAPEZOID, MB_ALF_TRAPEZOID, MB_ALF_TRAPEZOID, 0.4, 5}};
    for (int c = 0; c < 4; c++)
        for (int f = cases[c].f0; f <= cases[c].f1; f++) {
            double h = cases[c].h0, e0 = half_step_error(f, cases[c].integ, h), e1 = 0;
            for (int k = 1; k <= 2; k++, e0 = e1) {
                h /= 2;
                e1 = half_step_error(f, cases[c].integ, h);
                double order = log(e0 / e1) / log(2.0);
#if !MB_FLOAT
                CHECK(order > cases[c].order - 0.5, "%s/%s h %g: observed order %.2f (errors %.3g -> %.3g), expected %g",
                      mb_formulation_name(f), integ_name(cases[c].integ), h, order, e0, e1,
                      cases[c].order);
#else
                CHECK(e1 < 1e-4, "float %s/%s h %g: error %.3g", mb_formulation_name(f),
                      integ_name(cases[c].integ), h, e1);
                (void)order;
#endif
            }
        }
}

/* A run of many steps on the harmonic model: rows on a grid by dense output against the closed
 * form; the end points of each step; v and the monitors in between. */
static void check_run(int form, int integ)
{
    run r;
    const char *fn = mb_formulation_name(form), *in = integ_name(integ);
    mb_real q[3], v[3];
    mb_monitor mo;
    double dt = 0.01, tend = 3, worst = 0, worst_v = 0, worst_e = 0, t0 = 0, worst_end = 0;
    long k = 1;
#if MB_FLOAT
    double rtol = trap_mode(integ) ? 1e-6 : 1e-9;   /* the trapezoid's Newton tolerance is float's */
#else
    double rtol = 1e-9;
#endif
    if (start(&r, &harmonic_model, form, integ, 0.1, rtol, 1) != MB_OK) {
        CHECK(0, "%s/%s: start failed", fn, in);
        free(r.w);
        return;
    }
    CHECK(mb_sim_dense(r.s, 0, q, NULL, NULL) == MB_ERR_STATE, "%s/%s: dense before a step", fn, in);
    while (mb_sim_get_t(r.s) < (mb_real)tend) {
        int st = mb_sim_step(r.s, (mb_real)tend);
        if (st < 0) { CHECK(0, "%s/%s: step failed: %s", fn, in, mb_status_str(st)); break; }
        double t1 = (double)mb_sim_get_t(r.s), eend = fabs((double)mb_sim_get_q(r.s)[0] - X0 * cos(t1));
        if (eend > worst_end) worst_end = eend;
        /* end points: the step's start exactly, its end to rounding */
        CHECK(mb_sim_dense(r.s, (mb_real)t0, q, NULL, NULL) == MB_OK, "%s/%s: dense at t_prev", fn, in);
        CHECK(mb_sim_dense(r.s, (mb_real)t1, q, NULL, NULL) == MB_OK &&
              fabs((double)(q[0] - mb_sim_get_q(r.s)[0])) <= 4 * PREC, "%s/%s: dense at t_now %.3g vs %.3g",
              fn, in, (double)q[0], (double)mb_sim_get_q(r.s)[0]);
        CHECK(mb_sim_dense(r.s, (mb_real)(t1 + 1e-3), q, NULL, NULL) == MB_ERR_PARAM &&
              mb_sim_dense(r.s, (mb_real)(t0 - 1e-3), q, NULL, NULL) == MB_ERR_PARAM,
              "%s/%s: a time outside the step", fn, in);
        for (; (double)k * dt < t1; k++) {
            double t = (double)k * dt;
            if (mb_sim_dense(r.s, (mb_real)t, q, v, &mo) != MB_OK) { CHECK(0, "%s/%s: dense at %g", fn, in, t); break; }
            double e = fabs((double)q[0] - X0 * cos(t)), ev = fabs((double)v[0] + X0 * sin(t));
            if (e > worst) worst = e;
            if (ev > worst_v) worst_v = ev;
            if (fabs((double)mo.energy_dev) > worst_e) worst_e = fabs((double)mo.energy_dev);
        }
        t0 = t1;
    }
    /* rtol = atol = 1e-9 on a unit-frequency oscillator over 3 s: global errors of a few 1e-9,
     * the interpolated rows within 20x the error at the steps' ends (dop853: its interpolant is of
     * order 7 on steps of order 8, measured 9x); the trapezoid with Milne's control, second
     * order, ends 8.9e-7 off (its rows as much) */
#if MB_FLOAT
    const double tol = trap_mode(integ) == 1 ? 2e-3 : 1e-4;   /* (Milne's at rtol 1e-6: 8.4e-5) */
#else
    const double tol = trap_mode(integ) == 1 ? 2e-5 : 1e-7;
#endif
    CHECK(worst < tol * X0 && worst < 20 * worst_end + 1e-10, "%s/%s: dense x error %.3g, at the steps' ends %.3g",
          fn, in, worst, worst_end);
    CHECK(worst_v < tol * X0 * 10, "%s/%s: dense v error %.3g", fn, in, worst_v);
    /* energy X0^2 / 2 = 5e-3 J; its deviation at the interpolated times, work included */
    CHECK(worst_e < tol * 5e-3 * 10, "%s/%s: dense energy deviation %.3g J", fn, in, worst_e);
    CHECK(k > 250, "%s/%s: %ld grid points", fn, in, k);
    free(r.w);
}

/* Interpolating (with monitors: one evaluation each) leaves the trajectory bit for bit alone,
 * also with alf-explicit's warm-started iteration. */
static void check_untouched(int form, int integ)
{
    run a, b;
    const char *fn = mb_formulation_name(form), *in = integ_name(integ);
    const mb_model *m = &double_pendulum_model;
    mb_real q[6], v[6];
    mb_monitor mo;
    int sa = start(&a, m, form, integ, 1e-3, 1e-7, 1), sb = start(&b, m, form, integ, 1e-3, 1e-7, 1);
    for (int k = 0; k < 40 && sa >= 0 && sb >= 0; k++) {
        double t0 = (double)mb_sim_get_t(a.s);
        sa = mb_sim_step(a.s, 2);
        sb = mb_sim_step(b.s, 2);
        double t1 = (double)mb_sim_get_t(a.s);
        for (int j = 1; j < 4 && sa >= 0; j++)
            sa = mb_sim_dense(a.s, (mb_real)(t0 + (t1 - t0) * j / 4), q, v, &mo);
    }
    CHECK(sa >= 0 && sb >= 0, "%s/%s: runs failed: %d %d", fn, in, sa, sb);
    CHECK(mb_sim_get_t(a.s) == mb_sim_get_t(b.s) &&
          !memcmp(mb_sim_get_q(a.s), mb_sim_get_q(b.s), sizeof(mb_real) * 6) &&
          !memcmp(mb_sim_get_v(a.s), mb_sim_get_v(b.s), sizeof(mb_real) * 6),
          "%s/%s: the trajectory changed with dense output", fn, in);
    CHECK(mb_sim_get_monitor(a.s)->steps == mb_sim_get_monitor(b.s)->steps, "%s/%s: steps differ", fn, in);
    free(a.w);
    free(b.w);
}

static void check_contract(void)
{
    mb_params p;
    mb_params_default(&p, MB_BAUMGARTE);
    p.dense = 1;
    const char *what = NULL;
    CHECK(mb_params_check(&p, &what) == MB_ERR_PARAM && what && strstr(what, "dense"),
          "dense with rk4 refused (%s)", what ? what : "-");
    p.integrator = MB_DOPRI5;
    CHECK(mb_params_check(&p, NULL) == MB_OK, "dense with dopri5");
    size_t with = mb_sim_workspace_size(&harmonic_model, &p);
    p.dense = 0;
    size_t without = mb_sim_workspace_size(&harmonic_model, &p);
    /* dopri5: 4 state vectors (nz = 6 for F1), 3 nc and n (sigma and Phi_t at the step's
     * start, rk_dense's own scratch of ev_v and ev_sig) and 7 coefficients for the work */
    CHECK(with == without + sizeof(mb_real) * (4 * 6 + 3 * 2 + 3 + 7), "workspace %zu vs %zu", with, without);
    run r;   /* without p.dense: nothing kept */
    mb_real q[3];
    CHECK(start(&r, &harmonic_model, MB_CANONICAL, MB_DOPRI5, 0.1, 1e-6, 0) == MB_OK &&
          mb_sim_step(r.s, 1) >= 0 && mb_sim_dense(r.s, MB_R(0.01), q, NULL, NULL) == MB_ERR_STATE,
          "dense output without p.dense");
    free(r.w);
}

int main(void)
{
    (void)check_close;
    check_contract();
    check_order();
    for (int f = MB_BAUMGARTE; f <= MB_ALF_EXPLICIT; f++) {
        check_run(f, MB_DOPRI5);
        check_run(f, MB_DOP853);
        check_untouched(f, MB_DOPRI5);
        check_untouched(f, MB_DOP853);
        if (f != MB_ALF_EXPLICIT) check_untouched(f, MB_BDF);   /* (its own scratch: bsv) */
    }
    for (int c = 0; c < 2; c++) {   /* the adaptive trapezoid: Milne's and the extrapolated */
        check_run(MB_ALF_TRAPEZOID, c ? -MB_TRAPEZOID : MB_TRAPEZOID);
        check_untouched(MB_ALF_TRAPEZOID, c ? -MB_TRAPEZOID : MB_TRAPEZOID);
    }
    return check_report();
}
