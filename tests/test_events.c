/* test_events.c - events (runtime/mb_event.c, docs/validation.md "Events"): the shipped bouncing
 * ball (models/bouncing_ball.lua, baumgarte) with and without root finding on its contact gap.
 * The apex heights after the first four bounces (y + vy^2 / (2 g) at the first accepted state of
 * each flight: the flight is ballistic, so any of its states gives the same apex) against a
 * reference run (dop853 with events at rtol 1e-13). With events, dop853's error falls with rtol
 * (log-log slope at least 0.7 over rtol 1e-5 .. 1e-10) and is at least 10x below the error
 * without them over rtol 1e-5 .. 1e-8; without them dop853's steps straddle each
 * first touch and lift-off and its error hardly converges there (the negative control: over
 * rtol 1e-5 .. 1e-8 it falls at most a tenth as far as with events). The contacts' step limit
 * (mb_event.c, mbi_contact_hmax) holds in both runs: each approach's last step ends near the
 * predicted touch with or without events. bdf converges either way (slope at least 0.7 with
 * events; with them as accurate as without on the whole, never 3x less: its own error control
 * already sees the kink). alf-trapezoid locates inside its step (the trial's cubic Hermite):
 * with Milne's step control its error falls with rtol (slope at least 0.5) and is, on the whole,
 * no larger than without events (the step limit ends the approach at the touch in both); its fixed step is cut at the roots too (10 events) and
 * is as accurate as without them. rk4 locates inside its step too (the step undone and taken
 * again to the root): at least 3x more accurate than without events at h = 4e-4 .. 5e-5.
 * bdf on alf-trapezoid locates on its Nordsieck polynomial (10 events): its error falls with
 * rtol (slope at least 0.6), never 3x above the run without events. The extrapolated trapezoid
 * (p.adaptive = 2) locates on its macro step's cubic Hermite and takes the step again: its error
 * falls with rtol (slope at least 0.7) and is smaller than without events (geometric mean of
 * the ratios at least 4). With its step held at H (h_max, a tolerance always met; the contacts'
 * step limit shortens the approach's last step) on the linear
 * ball (tests/models/ball_drop.lua with exponent 1: the force smooth inside the contact) it
 * keeps its order 4 (at least 3.5) with events and drops below 3 without (the negative
 * control); on the shipped ball, whose k x^1.5 limits any method to order 2.5 at a touch, it
 * is never 2x less accurate with events. hht (fixed step) on the linear ball: second order
 * with events (at least 1.8; a step across a kink of a continuous force costs a second-order
 * method nothing, so there is no negative control).
 * Also: a run without events reports none; events are
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
/* the linear ball (build/gen_test/ball_linear.c: tests/models/ball_drop.lua with exponent 1,
 * k = 1e6 N/m, no friction; its header is not included: a test's build dir is not on the
 * include path): its force is smooth inside the contact, so a method keeps its order there
 * when no step straddles a touch or a lift-off (and the shipped ball's stiction slope defeats
 * hht's Newton above h = 1e-5) */
extern const mb_model ball_linear_model;
static const mb_model *model = &bouncing_ball_model;   /* run()'s model */
static double hmax = 0;                                 /* run()'s p.h_max */

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
    p.h_max = hmax;
    p.events = events;
    size_t sz = mb_sim_workspace_size(model, &p);
    void *w = malloc(sz ? sz : 1);
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    o.st = sz ? mb_sim_init(s, model, &p, w, sz) : MB_ERR_PARAM;
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
             * there): events neither gain nor lose it accuracy on the whole (geometric mean of
             * the ratios within 1.5; 1.1 measured), a single rtol within 3x (2.4 at rtol 1e-5
             * with the proportional error test and the contacts' step limit, where the run
             * without events lands 6x rtol from the apex and the one with them 14x) */
            double lg = 0;
            for (int r = 0; r < NR; r++) {
                CHECK(ev[r] <= 3 * no[r], "bdf rtol %g: with events %.3g, without %.3g", rtols[r], ev[r], no[r]);
                lg += log(ev[r] / no[r]) / NR;
            }
            CHECK(exp(lg) <= 1.5, "bdf: error with / without events, geometric mean %.2f", exp(lg));
            continue;
        }
        if (ig == MB_DOPRI5) continue;    /* (its figures printed for the table) */
        /* dop853: with events at least 10x more accurate over rtol 1e-5 .. 1e-8; without them it
         * hardly converges there (the negative control: its error falls at most a tenth as far
         * as with events while rtol falls 1000x; 15x against 550x) */
        double lo = 1, hi = 0;
        for (int r = 0; r < 4; r++) {
            CHECK(ev[r] * 10 <= no[r], "%s rtol %g: with events %.3g, "
                  "without %.3g", nm, rtols[r], ev[r], no[r]);
            if (no[r] < lo) lo = no[r];
            if (no[r] > hi) hi = no[r];
        }
        CHECK(ev[0] / ev[3] >= 10 * (hi / lo), "dop853 without events converges over rtol 1e-5 .. "
              "1e-8 (%.3g .. %.3g) as far as with them (%.3g .. %.3g)", hi, lo, ev[0], ev[3]);
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
     * rtol (slope at least 0.5, never rising by more than 50 % from one rtol to the next: from
     * 1e-9 on it sits at the floor of k x^1.5, 9e-7 m as the fixed step h = 1e-5's) and is, on
     * the whole, no larger than without events (geometric mean of the ratios at least 0.8: the
     * contacts' step limit ends the approach's last step at the touch in both runs; before it
     * the run without events wandered, 1.8e-3 at rtol 1e-8, and the mean was 6.6). The fixed step (h = 1e-5; 2e-5
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
            CHECK(tev[r] <= 1.5 * tev[r - 1], "alf-trapezoid adaptive: error %.3g at rtol %g above "
                  "%.3g at %g", tev[r], trtols[r], tev[r - 1], trtols[r - 1]);
    }
    trap_adaptive = 0;
    double sa = fit_slope(trtols, tev, NT), lr = 0;
    for (int r = 0; r < NT; r++) lr += log(tno[r] / tev[r]) / NT;
    printf("alf-trapezoid adaptive: slope over rtol %.2f with events, %.2f without; error without "
           "/ with, geometric mean %.1f\n", sa, fit_slope(trtols, tno, NT), exp(lr));
    CHECK(sa >= 0.5, "alf-trapezoid adaptive: error falls as rtol^%.2f with events", sa);
    CHECK(exp(lr) >= 0.8, "alf-trapezoid adaptive: error without events only %.1fx that with them",
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
    /* bdf on alf-trapezoid: located on its Nordsieck polynomial, restarted there at order 1 */
    static const double brtols[] = {1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
    enum { NB = sizeof brtols / sizeof brtols[0] };
    double bev[NB], bno[NB];
    for (int r = 0; r < NB; r++) {
        run_out a = run(MB_BDF, brtols[r], 1, 1e-5), b = run(MB_BDF, brtols[r], 0, 1e-5);
        CHECK(a.st >= 0 && b.st >= 0 && a.events == 10 && a.onsets == 0 && b.events == 0,
              "alf-trapezoid bdf rtol %g: status %d / %d, %ld events, %ld onsets", brtols[r],
              a.st, b.st, a.events, a.onsets);
        bev[r] = apex_err(&a, &ref);
        bno[r] = apex_err(&b, &ref);
        printf("%-8s %-7.0e %12.3e %12.3e %8ld %8ld\n", "bdf-F4", brtols[r], bev[r], bno[r], a.steps,
               b.steps);
    }
    double sb = fit_slope(brtols, bev, NB);
    printf("alf-trapezoid bdf: slope over rtol %.2f with events, %.2f without\n", sb,
           fit_slope(brtols, bno, NB));
    /* as on baumgarte, bdf's own error control sees the kink: events neither gain nor lose it
     * much accuracy (its F4 figures wander by 2x either way) */
    CHECK(sb >= 0.6, "alf-trapezoid bdf: error falls as rtol^%.2f with events", sb);
    for (int r = 0; r < NB; r++)
        CHECK(bev[r] <= 3 * bno[r], "alf-trapezoid bdf rtol %g: with events %.3g, without %.3g",
              brtols[r], bev[r], bno[r]);
    /* the extrapolated trapezoid (p.adaptive = 2): located on the macro step's cubic Hermite */
    trap_adaptive = 2;
    double xev[NT], xno[NT];
    for (int r = 0; r < NT; r++) {
        run_out a = run(MB_TRAPEZOID, trtols[r], 1, 1e-5), b = run(MB_TRAPEZOID, trtols[r], 0, 1e-5);
        CHECK(a.st >= 0 && b.st >= 0 && a.events == 10 && a.onsets == 0 && b.events == 0,
              "alf-trapezoid extrapolated rtol %g: status %d / %d, %ld events, %ld onsets",
              trtols[r], a.st, b.st, a.events, a.onsets);
        xev[r] = apex_err(&a, &ref);
        xno[r] = apex_err(&b, &ref);
        printf("%-8s %-7.0e %12.3e %12.3e %8ld %8ld\n", "trap-x", trtols[r], xev[r], xno[r], a.steps,
               b.steps);
    }
    trap_adaptive = 0;
    double sx = fit_slope(trtols, xev, NT), lx = 0;
    for (int r = 0; r < NT; r++) lx += log(xno[r] / xev[r]) / NT;
    printf("alf-trapezoid extrapolated: slope over rtol %.2f with events, %.2f without; error "
           "without / with, geometric mean %.1f\n", sx, fit_slope(trtols, xno, NT), exp(lx));
    /* (0.99 before the contacts' step limit, whose approach to the touch took the error at rtol
     * 1e-4 from 7.4e-2 to 1.7e-4 m: a flatter slope from a better start) */
    CHECK(sx >= 0.7, "alf-trapezoid extrapolated: error falls as rtol^%.2f with events", sx);
    CHECK(exp(lx) >= 4, "alf-trapezoid extrapolated: error without events only %.1fx that with "
          "them", exp(lx));
    form = MB_BAUMGARTE;
    /* hht (fixed step, F1's index-3 equations): the step undone and taken again to the root;
     * on the linear ball, against its own dop853 reference */
    model = &ball_linear_model;
    run_out sref = run(MB_DOP853, 1e-13, 1, 1e-3);
    CHECK(sref.st >= 0 && sref.events == 10, "linear ball reference: status %d, %ld events", sref.st,
          sref.events);
    static const double hhs[] = {4e-4, 2e-4, 1e-4, 5e-5, 2.5e-5};
    enum { NH = sizeof hhs / sizeof hhs[0] };
    double hev[NH], hno[NH];
    for (int r = 0; r < NH; r++) {
        run_out a = run(MB_HHT, 1e-6, 1, hhs[r]), b = run(MB_HHT, 1e-6, 0, hhs[r]);
        CHECK(a.st >= 0 && b.st >= 0 && a.events == 10 && a.onsets == 0 && b.events == 0,
              "hht h %g: status %d / %d, %ld events, %ld onsets", hhs[r], a.st, b.st, a.events,
              a.onsets);
        hev[r] = apex_err(&a, &sref);
        hno[r] = apex_err(&b, &sref);
        printf("%-8s h %-5.1e %12.3e %12.3e %8ld %8ld\n", "hht", hhs[r], hev[r], hno[r], a.steps,
               b.steps);
    }
    double oh = fit_slope(hhs, hev, NH);
    printf("hht: order in h %.2f with events, %.2f without\n", oh, fit_slope(hhs, hno, NH));
    CHECK(oh >= 1.8, "hht: order %.2f with events", oh);
    /* the extrapolated trapezoid at a step held at H (h_max, a tolerance it always meets) */
    static const double xhs[] = {1e-3, 5e-4, 2.5e-4, 1.25e-4, 6.25e-5};
    enum { NXH = sizeof xhs / sizeof xhs[0] };
    double xhe[NXH], xhn[NXH];
    for (int mdl = 0; mdl < 2; mdl++) {
    form = MB_BAUMGARTE;
    trap_adaptive = 0;
    model = mdl ? &ball_linear_model : &bouncing_ball_model;
    const run_out *rf = mdl ? &sref : &ref;
    trap_adaptive = 2;
    form = MB_ALF_TRAPEZOID;
    for (int r = 0; r < NXH; r++) {
        hmax = xhs[r];
        run_out a = run(MB_TRAPEZOID, 1e3, 1, 1e-5), b = run(MB_TRAPEZOID, 1e3, 0, 1e-5);
        hmax = 0;
        CHECK(a.st >= 0 && b.st >= 0 && a.events == 10 && a.onsets == 0 && b.events == 0,
              "alf-trapezoid extrapolated H %g: status %d / %d, %ld events, %ld onsets",
              xhs[r], a.st, b.st, a.events, a.onsets);
        xhe[r] = apex_err(&a, rf);
        xhn[r] = apex_err(&b, rf);
        printf("%-8s H %-5.1e %12.3e %12.3e %8ld %8ld\n", "trap-x", xhs[r], xhe[r], xhn[r], a.steps,
               b.steps);
    }
    double oe = fit_slope(xhs, xhe, NXH), on = fit_slope(xhs, xhn, NXH);
    printf("alf-trapezoid extrapolated, %s, H held: order %.2f with events, %.2f without\n",
           mdl ? "linear ball" : "bouncing ball", oe, on);
    if (mdl) {   /* the force smooth inside the contact: order 4 with events, not without */
        CHECK(oe >= 3.5, "extrapolated, linear ball: order %.2f with events", oe);
        CHECK(on <= 3, "extrapolated, linear ball: order %.2f without events", on);
    } else {     /* k x^1.5: order 2.5 either way; with events never 2x less accurate (the
                  * contacts' step limit ends the approach at the touch without them too: 2x
                  * more accurate with events before it) */
        for (int r = 0; r < NXH; r++)
            CHECK(xhe[r] <= 2 * xhn[r], "extrapolated, H %g: error %.3g with events, %.3g "
                  "without", xhs[r], xhe[r], xhn[r]);
    }
    }
    trap_adaptive = 0;
    form = MB_BAUMGARTE;
    model = &bouncing_ball_model;
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
