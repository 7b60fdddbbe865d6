/* test_switches.c - step{} switches as events (runtime/mb_event.c, docs/validation.md "Events"):
 * tests/models/step_spring.lua, a mass on a spring (period 1 s) and a force that steps on at
 * t0 = 0.3137 s, whose closed form is known. With events every integrator stops just before the
 * switch and starts again after it, so its error at t = 1 s falls at its order: the adaptive ones
 * (dopri5, dop853, bdf; alf-trapezoid's step control, its extrapolated trapezoid and bdf)
 * with rtol (the extrapolated trapezoid also with its step held: order 4), the fixed ones (rk4, trapezoid,
 * hht) with h, the switch off their grid. Without events (the negative control) a step straddles
 * the jump and the error is first order in h (fixed steps) or stalls (adaptive). Also: the
 * events are counted (one per run), a run without events reports none; the generated switch
 * function; the generic evaluator's (the same values, its runs locate the switch as generated
 * code's do: the same steps and errors, rk4's order restored); a switch at the stop time the
 * caller asks for; the event blocks in the workspace
 * (a switch on the step grid: tests/test_sim_cli.sh, step_crane). Prints the error tables. Ends
 * with "N passed, N failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "mb_plan_build.h"
#include "mb_sim.h"

/* the generated model (build/gen_test/step_spring.c; its header is not included: a test's
 * header name would become a reserved model name, generator/model.lua RESERVED_HEADERS) */
extern const mb_model step_spring_model;
/* the same model for the generic evaluator (build/gen_test/step_spring_data.c) */
extern const mb_model step_spring_generic_model;
static const mb_model *model = &step_spring_model;   /* run()'s model */
static double hmax = 0;                               /* run()'s p.h_max */

static const double W = 6.283185307179586, K = 39.47841760435743, F = 5, T0 = 0.3137, TEND = 1;

/* x(t), v(t) of the closed form */
static void exact(double t, double *x, double *v)
{
    *x = sin(W * t) / W;
    *v = cos(W * t);
    if (t >= T0) {
        *x += F / K * (1 - cos(W * (t - T0)));
        *v += F / K * W * sin(W * (t - T0));
    }
}

typedef struct { double err; long events, onsets, steps; int st; } run_out;

/* One run to TEND (mb_sim_step towards TEND, or towards each of the stops when given) */
static run_out run(int form, int integ, int adaptive, double rtol, double h, int events,
                   const double *stops, int nstop)
{
    run_out o;
    memset(&o, 0, sizeof o);
    mb_params p;
    mb_params_default(&p, form);
    p.integrator = integ;
    p.adaptive = adaptive;
    p.rtol = rtol;
    p.atol = rtol;
    p.h = h;
    p.h_max = hmax;
    p.events = events;
    size_t sz = mb_sim_workspace_size(model, &p);
    void *w = malloc(sz ? sz : 1);
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    o.st = sz ? mb_sim_init(s, model, &p, w, sz) : MB_ERR_PARAM;
    if (o.st == MB_OK) o.st = mb_sim_reset(s, 0, NULL, NULL, 0);
    for (int k = 0; k <= nstop && o.st >= 0; k++) {
        double ts = k < nstop ? stops[k] : TEND;
        while (o.st >= 0 && mb_sim_get_t(s) < ts) o.st = mb_sim_step(s, (mb_real)ts);
    }
    if (o.st >= 0) {
        double x, v;
        exact(TEND, &x, &v);
        const mb_real *q = mb_sim_get_q(s), *vv = mb_sim_get_v(s);
        o.err = fabs((double)q[0] - x) + fabs((double)vv[0] - v) / W;
        if (fabs((double)mb_sim_get_t(s) - TEND) > 0) o.st = MB_ERR_STATE;
    }
    const mb_monitor *mo = mb_sim_get_monitor(s);
    o.events = mo->events;
    o.onsets = mo->onsets;
    o.steps = mo->steps;
    free(w);
    return o;
}

/* least-squares slope of log err over log x */
static double slope(const double *x, const double *e, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int r = 0; r < n; r++) {
        double a = log10(x[r]), b = log10(e[r] > 1e-15 ? e[r] : 1e-15);
        sx += a; sy += b; sxx += a * a; sxy += a * b;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

typedef struct { const char *name; int form, integ, adaptive; double min_slope; } variant;

int main(void)
{
    /* the generated switch: one, > 0 before t0, <= 0 from t0 on */
    mb_real g[1];
    CHECK(step_spring_model.nswitch == 1 && step_spring_model.switches, "nswitch %d",
          step_spring_model.nswitch);
    step_spring_model.switches(&step_spring_model, (mb_real)0.3, NULL, g);
    CHECK(g[0] > 0 && check_close((double)g[0], T0 - 0.3, 1e-15), "switch before t0: %g",
          (double)g[0]);
    step_spring_model.switches(&step_spring_model, (mb_real)T0, NULL, g);
    CHECK(!(g[0] > 0), "switch at t0: %g", (double)g[0]);

    /* adaptive: the error over rtol, with and without events */
    static const double rtols[] = {1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
    enum { NR = sizeof rtols / sizeof rtols[0] };
    static const variant av[] = {
        {"dopri5", MB_BAUMGARTE, MB_DOPRI5, 0, 0.8},
        {"dop853", MB_BAUMGARTE, MB_DOP853, 0, 0.8},
        {"bdf", MB_BAUMGARTE, MB_BDF, 0, 0.6},
        {"trap-ad", MB_ALF_TRAPEZOID, MB_TRAPEZOID, 1, 0.55},
        {"trap-x", MB_ALF_TRAPEZOID, MB_TRAPEZOID, 2, 0.55},
        {"bdf-F4", MB_ALF_TRAPEZOID, MB_BDF, 0, 0.5},
    };
    printf("%-8s %-7s %12s %12s %8s %8s\n", "integ", "rtol", "err events", "err none", "steps ev",
           "steps no");
    for (size_t i = 0; i < sizeof av / sizeof av[0]; i++) {
        const variant *a = &av[i];
        double ev[NR], no[NR];
        for (int r = 0; r < NR; r++) {
            run_out x = run(a->form, a->integ, a->adaptive, rtols[r], 1e-3, 1, NULL, 0);
            run_out y = run(a->form, a->integ, a->adaptive, rtols[r], 1e-3, 0, NULL, 0);
            CHECK(x.st >= 0 && y.st >= 0, "%s rtol %g: status %d / %d", a->name, rtols[r], x.st, y.st);
            CHECK(x.events == 1 && x.onsets == 0 && y.events == 0 && y.onsets == 0,
                  "%s rtol %g: events %ld onsets %ld with, %ld %ld without", a->name, rtols[r],
                  x.events, x.onsets, y.events, y.onsets);
            ev[r] = x.err;
            no[r] = y.err;
            printf("%-8s %-7.0e %12.3e %12.3e %8ld %8ld\n", a->name, rtols[r], ev[r], no[r], x.steps,
                   y.steps);
        }
        double se = slope(rtols, ev, NR), sn = slope(rtols, no, NR);
        printf("%s: slope of log err over log rtol %.2f with events, %.2f without\n", a->name, se, sn);
        CHECK(se >= a->min_slope, "%s: error falls as rtol^%.2f with events", a->name, se);
        /* the negative control: without events a step straddles the jump; its error is
         * larger (geometric mean of the ratios over the table at least 4), except bdf's, whose
         * own error control sees the jump (its Nordsieck predictor fails there): with events
         * never more than 2x less accurate than without */
        double lr = 0;
        for (int r = 0; r < NR; r++) lr += log(no[r] / ev[r]) / NR;
        printf("%s: error without events / with, geometric mean %.1f\n", a->name, exp(lr));
        if (a->integ == MB_BDF)
            for (int r = 0; r < NR; r++)
                CHECK(ev[r] <= 2 * no[r], "bdf rtol %g: with events %.3g, without %.3g", rtols[r],
                      ev[r], no[r]);
        else
            CHECK(exp(lr) >= 4, "%s: error without events only %.1fx that with them", a->name,
                  exp(lr));
    }

    /* fixed steps: the error over h (the switch off the grid) */
    static const double hs[] = {1e-2, 5e-3, 2.5e-3, 1.25e-3};
    enum { NH = sizeof hs / sizeof hs[0] };
    static const variant fv[] = {
        {"rk4", MB_BAUMGARTE, MB_RK4, 0, 3.5},
        {"trap", MB_ALF_TRAPEZOID, MB_TRAPEZOID, 0, 1.8},
        {"hht", MB_BAUMGARTE, MB_HHT, 0, 1.8},
    };
    printf("%-8s %-7s %12s %12s\n", "integ", "h", "err events", "err none");
    for (size_t i = 0; i < sizeof fv / sizeof fv[0]; i++) {
        const variant *a = &fv[i];
        double ev[NH], no[NH];
        for (int r = 0; r < NH; r++) {
            run_out x = run(a->form, a->integ, 0, 1e-6, hs[r], 1, NULL, 0);
            run_out y = run(a->form, a->integ, 0, 1e-6, hs[r], 0, NULL, 0);
            CHECK(x.st >= 0 && y.st >= 0, "%s h %g: status %d / %d", a->name, hs[r], x.st, y.st);
            CHECK(x.events == 1 && y.events == 0, "%s h %g: events %ld with, %ld without", a->name,
                  hs[r], x.events, y.events);
            ev[r] = x.err;
            no[r] = y.err;
            printf("%-8s %-7.2e %12.3e %12.3e\n", a->name, hs[r], ev[r], no[r]);
        }
        double se = slope(hs, ev, NH), sn = slope(hs, no, NH);
        printf("%s: order (slope of log err over log h) %.2f with events, %.2f without\n", a->name,
               se, sn);
        CHECK(se >= a->min_slope, "%s: order %.2f with events", a->name, se);
        CHECK(sn < 1.3, "%s without events: order %.2f (the negative control: first order)",
              a->name, sn);
    }

    /* the generic evaluator's switch (the step's argument as the last time function): the
     * same as the generated one's, and its runs locate it (rk4 and dopri5 with events as
     * generated code: the same steps, errors within 1e-12; rk4's order restored) */
    /* (a generic model has no symbolic plan: one from its patterns, as the simulator makes) */
    mb_model gplanned = step_spring_generic_model;
    mb_plan *gplan = mbp_build(gplanned.nq, gplanned.nc, &gplanned.phi_q_pat, &gplanned.dq_dq_pat,
                               &gplanned.dq_dv_pat, MBP_ORDER_AMD);
    gplanned.plan = gplan;
    const mb_model *gm = &gplanned;
    CHECK(gplan && gm->nswitch == 1 && gm->switches, "generic: nswitch %d", gm->nswitch);
    for (double t = 0; t < 1; t += 0.0625) {
        mb_real g1[1], g2[1];
        step_spring_model.switches(&step_spring_model, (mb_real)t, NULL, g1);
        gm->switches(gm, (mb_real)t, NULL, g2);
        CHECK(g1[0] == g2[0], "generic switch at t = %g: %.17g, generated %.17g", t, (double)g2[0],
              (double)g1[0]);
    }
    double gev[NH], gno[NH];
    for (int r = 0; r < NH; r++) {
        run_out x = run(MB_BAUMGARTE, MB_RK4, 0, 1e-6, hs[r], 1, NULL, 0);
        model = gm;
        run_out y = run(MB_BAUMGARTE, MB_RK4, 0, 1e-6, hs[r], 1, NULL, 0);
        run_out z = run(MB_BAUMGARTE, MB_RK4, 0, 1e-6, hs[r], 0, NULL, 0);
        model = &step_spring_model;
        CHECK(y.st >= 0 && z.st >= 0 && y.events == 1 && z.events == 0 && y.steps == x.steps &&
              fabs(y.err - x.err) <= 1e-12, "generic rk4 h %g: status %d, %ld events, %ld steps, "
              "error %.6g (generated: %ld steps, %.6g)", hs[r], y.st, y.events, y.steps, y.err,
              x.steps, x.err);
        gev[r] = y.err;
        gno[r] = z.err;
        printf("%-8s %-7.2e %12.3e %12.3e\n", "rk4-gen", hs[r], gev[r], gno[r]);
    }
    double sg = slope(hs, gev, NH), sgn = slope(hs, gno, NH);
    printf("rk4, generic evaluator: order %.2f with events, %.2f without\n", sg, sgn);
    CHECK(sg >= 3.5 && sgn < 1.3, "generic rk4: order %.2f with events, %.2f without", sg, sgn);
    {
        run_out x = run(MB_BAUMGARTE, MB_DOPRI5, 0, 1e-9, 1e-3, 1, NULL, 0);
        model = gm;
        run_out y = run(MB_BAUMGARTE, MB_DOPRI5, 0, 1e-9, 1e-3, 1, NULL, 0);
        model = &step_spring_model;
        CHECK(y.st >= 0 && y.events == 1 && y.steps == x.steps && fabs(y.err - x.err) <= 1e-12,
              "generic dopri5: status %d, %ld events, %ld steps, error %.6g (generated: %ld, %.6g)",
              y.st, y.events, y.steps, y.err, x.steps, x.err);
    }

    mbp_free(gplan);

    /* the extrapolated trapezoid with its step held at H (h_max; a tolerance it always meets):
     * its order 4 with events; without, the macro step across the jump leaves an error of
     * order 1 .. 2 depending on where in it the switch falls (1.65 over the table) */
    {
        double xe[NH], xn[NH];
        for (int r = 0; r < NH; r++) {
            hmax = hs[r];
            run_out x = run(MB_ALF_TRAPEZOID, MB_TRAPEZOID, 2, 1e3, 1e-3, 1, NULL, 0);
            run_out y = run(MB_ALF_TRAPEZOID, MB_TRAPEZOID, 2, 1e3, 1e-3, 0, NULL, 0);
            hmax = 0;
            CHECK(x.st >= 0 && y.st >= 0 && x.events == 1 && y.events == 0,
                  "extrapolated H %g: status %d / %d, events %ld / %ld", hs[r], x.st, y.st,
                  x.events, y.events);
            xe[r] = x.err;
            xn[r] = y.err;
            printf("%-8s %-7.2e %12.3e %12.3e\n", "trap-x H", hs[r], xe[r], xn[r]);
        }
        double se = slope(hs, xe, NH), sn = slope(hs, xn, NH);
        printf("extrapolated trapezoid, H held: order %.2f with events, %.2f without\n", se, sn);
        CHECK(se >= 3.5 && sn <= 2, "extrapolated trapezoid, H held: order %.2f with events, "
              "%.2f without", se, sn);
    }

    /* the switch at a stop time (the caller asks for t0 itself), rk4 and dopri5 */
    double stop[1] = {T0};
    run_out s1 = run(MB_BAUMGARTE, MB_RK4, 0, 1e-6, 2.5e-3, 1, stop, 1);
    run_out s2 = run(MB_BAUMGARTE, MB_RK4, 0, 1e-6, 2.5e-3, 1, NULL, 0);
    CHECK(s1.st >= 0 && s1.events == 1 && s1.err < 2 * s2.err + 1e-12,
          "rk4 stopping at t0: status %d, %ld events, error %.3g (%.3g without the stop)", s1.st,
          s1.events, s1.err, s2.err);
    run_out s3 = run(MB_BAUMGARTE, MB_DOPRI5, 0, 1e-9, 1e-3, 1, stop, 1);
    CHECK(s3.st >= 0 && s3.events == 1 && s3.err < 1e-7, "dopri5 stopping at t0: status %d, %ld "
          "events, error %.3g", s3.st, s3.events, s3.err);
    /* the workspace: the event blocks with events on, not dopri5's dense output (switches are
     * functions of time: nothing to interpolate) */
    mb_params p;
    mb_params_default(&p, MB_BAUMGARTE);
    p.integrator = MB_DOPRI5;
    size_t w0 = mb_sim_workspace_size(&step_spring_model, &p);
    p.events = 1;
    size_t w1 = mb_sim_workspace_size(&step_spring_model, &p);
    p.events = 0;
    p.dense = 1;
    size_t wd = mb_sim_workspace_size(&step_spring_model, &p);
    CHECK(w1 > w0 && w1 < wd, "workspace: %zu without events, %zu with, %zu with dense output",
          w0, w1, wd);
    return check_report();
}
