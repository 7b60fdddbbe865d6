/* test_params.c - the runtime's tunable parameters (mb_sim_set_param, mb_sim.h) on the
 * generated suspension model (models/suspension.lua): lookup by name, the rules the generator
 * emitted (a refused value leaves the old one), the mass matrix following a tunable mass, and
 * the motion against the closed form of the damped oscillator at values other than the
 * defaults. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "mb_sim.h"
#include "suspension.h"
#include "check.h"

/* m y'' + c y' + k y = -m g from rest at y = 0 (F = 0, a = 0): y(t), underdamped */
static double closed_form(double m, double k, double c, double t)
{
    double g = 9.81, yeq = -m * g / k, u0 = -yeq;
    double wn = sqrt(k / m), z = c / (2 * sqrt(k * m)), wd = wn * sqrt(1 - z * z);
    return yeq + u0 * exp(-z * wn * t) * (cos(wd * t) + z * wn / wd * sin(wd * t));
}

static void *workspace(const mb_model *m, const mb_params *p, mb_sim *s)
{
    size_t ws = mb_sim_workspace_size(m, p);
    void *w = malloc(ws);
    CHECK(ws > 0 && w && mb_sim_init(s, m, p, w, ws) == MB_OK, "init");
    return w;
}

int main(void)
{
    const mb_model *m = &suspension_model;
    mb_params p;
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    int rule;
    CHECK(m->npar == SUSPENSION_NPAR && SUSPENSION_MASS_TUNABLE == 1 && m->par_mass, "descriptor");
    for (int f = MB_BAUMGARTE; f <= MB_ALF_TRAPEZOID; f++) {
        mb_params_default(&p, f);
        p.h = 1e-4;
        p.max_steps = 100000;
        void *w = workspace(m, &p, s);
        int im = mb_sim_param_index(s, "m"), ik = mb_sim_param_index(s, "k");
        int ic = mb_sim_param_index(s, "c"), iF = mb_sim_param_index(s, "F");
        CHECK(im == SUSPENSION_PAR_M && ik == SUSPENSION_PAR_K && ic == SUSPENSION_PAR_C &&
              iF == SUSPENSION_PAR_F, "indices %d %d %d %d", im, ik, ic, iF);
        CHECK(mb_sim_param_index(s, "kk") == -1 && mb_sim_param_index(s, "") == -1 &&
              mb_sim_param_index(s, "K") == -1, "unknown names");
        CHECK(check_close(mb_sim_get_param(s, ik), 16000, 0), "default k");
        /* refused values: the old one stays, the rule is named */
        CHECK(mb_sim_set_param(s, im, -1, &rule) == MB_ERR_PARAM && rule >= 0 &&
              mb_sim_get_param(s, im) == 250, "m = -1 refused (rule %d)", rule);
        if (rule >= 0) CHECK(strstr(m->par_rules[rule], "mass > 0") != NULL, "rule text %s", m->par_rules[rule]);
        CHECK(mb_sim_set_param(s, ik, -5, &rule) == MB_ERR_PARAM && rule >= 0, "k < 0 refused");
        CHECK(mb_sim_set_param(s, ik, NAN, &rule) == MB_ERR_PARAM && rule == -1, "NaN refused");
        CHECK(mb_sim_set_param(s, 99, 1, &rule) == MB_ERR_PARAM && rule == -1, "bad index refused");
        /* a subnormal value, or a normal one whose derived inertia 0.1 m is subnormal: refused
         * (1 / inertia would overflow: the next reset failed with MB_ERR_NONFINITE), the rule
         * named, the old value kept; the smallest mass whose inertia stays normal is accepted */
        CHECK(mb_sim_set_param(s, im, 1e-310, &rule) == MB_ERR_PARAM && rule == -1 &&
              mb_sim_get_param(s, im) == 250, "m = 1e-310 (subnormal) refused (rule %d)", rule);
        CHECK(mb_sim_set_param(s, ik, -1e-310, &rule) == MB_ERR_PARAM && rule == -1,
              "k = -1e-310 (subnormal) refused");
        CHECK(mb_sim_set_param(s, im, 2.5e-308, &rule) == MB_ERR_PARAM && rule >= 0 &&
              mb_sim_get_param(s, im) == 250, "m = 2.5e-308 (inertia subnormal) refused (rule %d)", rule);
        if (rule >= 0)
            CHECK(strstr(m->par_rules[rule], "inertia > 0, normal") != NULL, "rule text %s", m->par_rules[rule]);
        CHECK(mb_sim_set_param(s, ik, 1e-300, &rule) == MB_OK, "k = 1e-300 (normal) allowed");
        CHECK(mb_sim_set_param(s, im, 2.3e-307, &rule) == MB_OK, "m = 2.3e-307 (inertia normal) allowed");
        CHECK(mb_sim_set_param(s, im, 250, &rule) == MB_OK && mb_sim_set_param(s, ik, 16000, &rule) == MB_OK,
              "back to the defaults");
        /* k = 0 is allowed (>= 0) but not kept for the run below */
        CHECK(mb_sim_set_param(s, ik, 0, &rule) == MB_OK, "k = 0 allowed");
        double M = 400, K = 20000, C = 0.5 * 2 * sqrt(20000.0 * 400);
        CHECK(mb_sim_set_param(s, im, M, NULL) == MB_OK && mb_sim_set_param(s, ik, K, NULL) == MB_OK &&
              mb_sim_set_param(s, ic, C, NULL) == MB_OK && mb_sim_set_param(s, iF, 0, NULL) == MB_OK,
              "set m, k, c, F");
        const mb_model *sm = mb_sim_model(s);
        CHECK(sm != m && sm->par[im] == M && sm->mass[0] == M && sm->mass[2] == 0.1 * M &&
              m->mass[0] == 250, "the sim's descriptor has the new mass, the model's the default");
        CHECK(mb_sim_step(s, 1) == MB_ERR_STATE, "a set needs a reset before stepping");
        CHECK(mb_sim_reset(s, 0, NULL, NULL, 1) == MB_OK, "reset");
        double worst = 0;
        for (int i = 1; i <= 10; i++) {
            double t = 0.05 * i;
            int st = 0;
            while (mb_sim_get_t(s) < t - 1e-12 && (st = mb_sim_step(s, t)) >= 0) {}
            CHECK(st >= 0, "%s: step failed: %s", mb_formulation_name(f), mb_status_str(st));
            double e = fabs(mb_sim_get_q(s)[1] - closed_form(M, K, C, t));
            if (e > worst) worst = e;
        }
        /* rk4 / trapezoid at h = 1e-4 on a 1.6 Hz oscillator: far below 1e-6 m; the defaults'
         * motion (m 250, c 1000, F 500) differs from this one by centimetres */
        CHECK(worst < 1e-6, "%s: |y - closed form| = %.3g m", mb_formulation_name(f), worst);
        printf("%s: m=%g k=%g c=%g: max |y - closed form| over 0.5 s = %.2e m\n",
               mb_formulation_name(f), M, K, C, worst);
        CHECK(fabs(closed_form(250, 16000, 1000, 0.5) - closed_form(M, K, C, 0.5)) > 1e-3,
              "negative control: the defaults' motion differs");
        free(w);
    }
    return check_report();
}
