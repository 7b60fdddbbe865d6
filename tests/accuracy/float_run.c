/* float_run.c - one fixed-step run with the runtime's defaults, built in double and in float
 * (build/float_run_double, build/float_run_float), for the float measurements of
 * docs/embedding.md ("The sigma reset in float"; scripts/float_sigma.sh compares them with
 * the long-double references of tests/accuracy/ref_*.c and with each other).
 * Usage: float_run MODEL FORMULATION H T_END DT_OUT [RATIO [RESET]] POINT...
 *   MODEL acc_pendulum | acc_crank_rocker | parallelogram_chain | andrews | walker;
 *   FORMULATION canonical | alf-explicit | alf-trapezoid; H 0: the model file's; RATIO p.sigma_reset_ratio (- keeps
 *   the default), RESET p.sigma_reset (- keeps 0); POINT a named point ("crank0.B") or q<i>.
 * FLOAT_RUN_TOL, FLOAT_RUN_MAX_ITER set p.tol, p.max_iter. FLOAT_RUN_TRACE="K0 K1" prints steps K0..K1's |sigma|, sigma_ratio and pscale on stderr.
 * Prints t,<point>.x,<point>.y,... every DT_OUT (as the references do), then the lines
 * "# status S warn W resets R max_sigma_ratio X steps K evals E newton N max_energy_dev D
 * escale ES lscale L t T" and "# energy_warn_t T energy_warn_val V drift D drift_double DD": the
 * energy warning's first time and value, the monitor's drift (float; 0 in double) and the
 * largest |drift| of the same sum in double (docs/embedding.md, "The energy drift in float"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "mb_sim.h"
#include "acc_pendulum.h"
#include "acc_crank_rocker.h"
#include "parallelogram_chain.h"
#include "andrews.h"
#include "walker.h"

static unsigned char work[1 << 21];

static const mb_model *model_of(const char *n)
{
    if (!strcmp(n, "acc_pendulum")) return &acc_pendulum_model;
    if (!strcmp(n, "acc_crank_rocker")) return &acc_crank_rocker_model;
    if (!strcmp(n, "parallelogram_chain")) return &parallelogram_chain_model;
    if (!strcmp(n, "andrews")) return &andrews_model;
    if (!strcmp(n, "walker")) return &walker_model;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: %s MODEL FORMULATION H T_END DT_OUT [RATIO [RESET]] POINT...\n", argv[0]);
        return 2;
    }
    const mb_model *m = model_of(argv[1]);
    int f = !strcmp(argv[2], "canonical") ? MB_CANONICAL : !strcmp(argv[2], "alf-explicit") ? MB_ALF_EXPLICIT :
            !strcmp(argv[2], "alf-trapezoid") ? MB_ALF_TRAPEZOID : -1;
    if (!m || f < 0) { fprintf(stderr, "%s: unknown model or formulation\n", argv[0]); return 2; }
    double h = atof(argv[3]), t_end = atof(argv[4]), dt_out = atof(argv[5]);
    int a = 6;
    mb_params p;
    mb_params_default(&p, f);
    mb_params_preset(&p, m->preset, f);   /* the model file's settings, as the simulator */
    if (m->preset && m->preset->h > 0) p.h = (mb_real)m->preset->h;
    if (h > 0) p.h = (mb_real)h;
    h = (double)p.h;
    const char *e = getenv("FLOAT_RUN_TOL");   /* p.tol and p.max_iter, for F4's Newton */
    if (e) p.tol = (mb_real)atof(e);
    if ((e = getenv("FLOAT_RUN_MAX_ITER"))) p.max_iter = atoi(e);
    if (a < argc && (argv[a][0] == '-' || (argv[a][0] >= '0' && argv[a][0] <= '9'))) {
        if (strcmp(argv[a], "-")) p.sigma_reset_ratio = (mb_real)atof(argv[a]);
        a++;
        if (a < argc && (argv[a][0] == '-' || (argv[a][0] >= '0' && argv[a][0] <= '9'))) {
            if (strcmp(argv[a], "-")) p.sigma_reset = (mb_real)atof(argv[a]);
            a++;
        }
    }
    int pt[32], npt = 0;
    for (; a < argc && npt < 32; a++) {
        int k = -1;
        if (argv[a][0] == 'q') k = -2 - atoi(argv[a] + 1);
        else
            for (int i = 0; i < m->npoint; i++)
                if (!strcmp(m->info->point_names[i], argv[a])) k = i;
        if (k == -1) { fprintf(stderr, "%s: no point %s\n", argv[0], argv[a]); return 2; }
        pt[npt++] = k;
    }
    mb_sim_storage mem;
    mb_sim *s = mb_sim_of(&mem);
    size_t need = mb_sim_workspace_size(m, &p);
    if (need == 0 || need > sizeof work) { fprintf(stderr, "workspace\n"); return 1; }
    int st = mb_sim_init(s, m, &p, work, sizeof work);
    if (st == MB_OK) st = mb_sim_reset(s, 0, NULL, NULL, 1);
    if (st < 0) { fprintf(stderr, "init: %s\n", mb_status_str(st)); return 1; }
    static mb_real xy[2 * 256];
    double max_ratio = 0, dsum = 0, dmax = 0;   /* the drift summed in double (mb_monitor.c) */
    long every = (long)(dt_out / h + 0.5), nsteps = (long)(t_end / h + 0.5);
    long tr0 = -1, tr1 = -2;   /* FLOAT_RUN_TRACE="K0 K1": every step's sigma on stderr */
    const char *trace = getenv("FLOAT_RUN_TRACE");
    if (trace && sscanf(trace, "%ld %ld", &tr0, &tr1) != 2) tr0 = -1, tr1 = -2;
    for (long k = 0; k <= nsteps; k++) {
        if (k > 0) {
            st = mb_sim_step(s, (mb_real)t_end);
            if (st < 0) break;
            const mb_monitor *o = mb_sim_get_monitor(s);
            double r = (double)o->sigma_ratio;
            if (r > max_ratio) max_ratio = r;
            {   /* the monitor's drift, energy_dev / (|M v|_2 + pscale / 10) dt, in double (from
                 * the first step, not from the energy test's arming), its largest |.| */
                const mb_real *v = mb_sim_get_v(s);
                double mv = 0;
                for (int i = 0; i < m->nq; i++) mv += (double)(m->mass[i] * v[i]) * (double)(m->mass[i] * v[i]);
                mv = sqrt(mv) + 0.1 * (double)o->pscale;
                if (mv > 0) dsum += (double)o->energy_dev / mv * h;
                if (fabs(dsum) > dmax) dmax = fabs(dsum);
            }
            if (k >= tr0 && k <= tr1)
                fprintf(stderr, "%ld %.9g sigma %.4g ratio %.4g pscale %.4g resets %ld\n", k,
                        (double)mb_sim_get_t(s), (double)o->sigma_norm, r, (double)o->pscale, o->sigma_resets);
        }
        if (k % every) continue;
        const mb_real *q = mb_sim_get_q(s);
        m->points(m, mb_sim_get_t(s), q, xy);
        printf("%.12g", (double)k * h);
        for (int i = 0; i < npt; i++) {
            if (pt[i] < 0) printf(",%.9e", (double)q[-2 - pt[i]]);
            else printf(",%.9e,%.9e", (double)xy[2 * pt[i]], (double)xy[2 * pt[i] + 1]);
        }
        printf("\n");
    }
    const mb_monitor *o = mb_sim_get_monitor(s);
    printf("# status %d warn %#x resets %ld max_sigma_ratio %.3g steps %ld evals %ld newton %ld "
           "max_energy_dev %.3g escale %.3g lscale %.3g t %.9g\n", st, o->warn, o->sigma_resets, max_ratio, o->steps,
           o->evals, o->newton_iters, (double)o->max_energy_dev, (double)o->escale, (double)o->lscale,
           (double)mb_sim_get_t(s));
    printf("# energy_warn_t %.4g energy_warn_val %.3g drift %.3g drift_double %.3g\n",
           (double)o->warn_t[MB_WARN_ENERGY], (double)o->warn_val[MB_WARN_ENERGY],
#if MB_FLOAT
           (double)o->drift,
#else
           0.0,
#endif
           dmax);
    return st < 0;
}
