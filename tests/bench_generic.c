/* bench_generic.c - generated versus generic evaluator: ns per model-function call for every
 * model, and (with the runtime) whole simulations per formulation, with cost per step against N.
 * Not a test: prints a table; ratios are measured side by side, repeated, medians and spread. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "mb_model.h"
#ifdef BENCH_SIM
#include "mb_sim.h"
#endif

#define X(name) extern const mb_model name##_model, name##_generic_model;
#include "bench_models.h"
#undef X

typedef struct pair_s {
    const char *name;
    const mb_model *gen, *gnr;
    int chain_n;      /* chain length for the scaling table, 0 otherwise */
    int sim;          /* 1: whole simulations too */
} pair_t;

static const pair_t pairs[] = {
#define X(name) { #name, &name##_model, &name##_generic_model, 0, 0 },
#include "bench_models.h"
#undef X
};

#define NREP 5
static volatile double sink;   /* keeps results alive */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median and relative spread (max - min) / median of n samples (sorted in place). */
static double median(double *x, int n, double *spread)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    double med = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    if (spread) *spread = med > 0.0 ? (x[n - 1] - x[0]) / med : 0.0;
    return med;
}

/* One function of the interface, called uniformly. */
enum { F_PHI, F_PHI_Q, F_PHI_T, F_PHI_Q_DOT, F_GAMMA, F_FORCE, F_DQ_DQ, F_DQ_DV, F_ENERGY,
       F_POINTS, NFN };
static const char *fn_names[NFN] = { "phi", "phi_q", "phi_t", "phi_q_dot", "gamma", "force",
                                     "dforce_dq", "dforce_dv", "energy", "points" };

static void call(const mb_model *m, int f, mb_real t, const mb_real *q, const mb_real *v,
                 mb_real *out)
{
    switch (f) {
    case F_PHI: m->phi(m, t, q, out); break;
    case F_PHI_Q: m->phi_q(m, t, q, out); break;
    case F_PHI_T: m->phi_t(m, t, q, out); break;
    case F_PHI_Q_DOT: m->phi_q_dot(m, t, q, v, out); break;
    case F_GAMMA: m->gamma(m, t, q, v, out); break;
    case F_FORCE: m->force(m, t, q, v, out); break;
    case F_DQ_DQ: m->dforce_dq(m, t, q, v, out); break;
    case F_DQ_DV: m->dforce_dv(m, t, q, v, out); break;
    case F_ENERGY: m->energy(m, t, q, v, out); break;
    default: m->points(m, t, q, out); break;
    }
}

/* ns per call of function f of m over `calls` calls (state varied slightly per call). */
static double time_fn(const mb_model *m, int f, long calls, mb_real *q, const mb_real *v,
                      mb_real *out)
{
    double t0 = now();
    for (long i = 0; i < calls; i++) {
        q[0] += (mb_real)1e-12;   /* defeats hoisting; negligible change of state */
        call(m, f, (mb_real)1e-3, q, v, out);
        sink += (double)out[0];
    }
    return (now() - t0) * 1e9 / (double)calls;
}

static FILE *out_file;
/* Print to stdout and to the results file. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    if (out_file) {
        va_start(ap, fmt);
        vfprintf(out_file, fmt, ap);
        va_end(ap);
    }
}

static void bench_functions(const pair_t *pr)
{
    const mb_model *g = pr->gen, *h = pr->gnr;
    int n = g->nq + g->nc + g->phi_q_pat.nnz + g->dq_dq_pat.nnz + g->dq_dv_pat.nnz
            + 2 * g->npoint + 3;
    mb_real *q = malloc((size_t)g->nq * sizeof *q), *v = malloc((size_t)g->nq * sizeof *v);
    mb_real *out = malloc((size_t)n * sizeof *out);
    for (int k = 0; k < g->nq; k++) {
        q[k] = g->q0[k] + (mb_real)(0.01 * sin(1.0 + k));
        v[k] = (mb_real)(0.5 * cos(2.0 + k));
    }
    double tot_g = 0.0, tot_h = 0.0;
    for (int f = 0; f < NFN; f++) {
        /* calibrate: about 2 ms per measurement of the slower (generic) side */
        long calls = 16;
        while (calls < (1L << 26)) {
            double dt = time_fn(h, f, calls, q, v, out) * (double)calls * 1e-9;
            if (dt > 2e-3) break;
            calls *= 2;
        }
        double tg[NREP], th[NREP], ratio[NREP], sg, sh, sr;
        for (int r = 0; r < NREP; r++) {   /* side by side, alternating */
            tg[r] = time_fn(g, f, calls, q, v, out);
            th[r] = time_fn(h, f, calls, q, v, out);
            ratio[r] = th[r] / tg[r];
        }
        double mg = median(tg, NREP, &sg), mh = median(th, NREP, &sh);
        double mr = median(ratio, NREP, &sr);
        tot_g += mg;
        tot_h += mh;
        say("%-16s %-10s %10.1f %5.0f%% %10.1f %5.0f%% %8.1fx %5.0f%%\n", pr->name, fn_names[f],
            mg, 100 * sg, mh, 100 * sh, mr, 100 * sr);
    }
    say("%-16s %-10s %10.1f %6s %10.1f %6s %8.1fx\n", pr->name, "(sum)", tot_g, "", tot_h, "",
        tot_h / tot_g);
    free(q);
    free(v);
    free(out);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : NULL;
    if (path && !(out_file = fopen(path, "a"))) {
        fprintf(stderr, "bench: cannot open %s\n", path);
        return 1;
    }
    int npair = (int)(sizeof pairs / sizeof pairs[0]);
    say("\n## Model functions: ns per call, median of %d side-by-side repetitions "
        "(spread = (max - min) / median)\n\n", NREP);
    say("%-16s %-10s %10s %6s %10s %6s %9s %6s\n", "model", "function", "generated", "spread",
        "generic", "spread", "gnr/gen", "spread");
    for (int p = 0; p < npair; p++) bench_functions(&pairs[p]);
    if (out_file) fclose(out_file);
    return sink == 12345.0;   /* practically never; keeps the compiler honest */
}
