/* bench_generic.c - generated versus generic evaluator: ns per model-function call for every
 * model, and (with the runtime) whole simulations per formulation, with cost per step against N.
 * Not a test: prints a table; ratios are measured side by side, repeated, medians and spread. */
#define _POSIX_C_SOURCE 199309L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "mb_model.h"
#ifdef BENCH_SIM
#include "mb_sim.h"
#include "test_plan.h"
#endif

/* bench_models.h (written by the Makefile): B(name, chain_n, sim) per model; chain_n > 0 marks
 * the chain of that length (scaling table), sim = 1 asks for whole simulations. */
#define B(name, n, sim) extern const mb_model name##_model, name##_generic_model;
#include "bench_models.h"
#undef B

typedef struct pair_s {
    const char *name;
    const mb_model *gen, *gnr;
    int chain_n;      /* chain length for the scaling table, 0 otherwise */
    int sim;          /* 1: whole simulations too */
} pair_t;

static const pair_t pairs[] = {
#define B(name, n, sim) { #name, &name##_model, &name##_generic_model, n, sim },
#include "bench_models.h"
#undef B
};

#define NREP 7       /* repetitions per function: medians and spreads over these */
#define NREP_SIM 5   /* repetitions per simulation */
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
    /* the floor both evaluators share: cos and sin of every body angle, once */
    double tt[NREP], st = 0.0;
    long calls = 1L << 14;
    for (int r = 0; r < NREP; r++) {
        double t0 = now();
        for (long i = 0; i < calls; i++) {
            double acc = 0.0;
            q[2] += (mb_real)1e-12;
            for (int b = 0; b < g->nbody; b++) acc += (double)(MB_COS(q[3 * b + 2]) + MB_SIN(q[3 * b + 2]));
            sink += acc;
        }
        tt[r] = (now() - t0) * 1e9 / (double)calls;
    }
    double mt = median(tt, NREP, &st);
    say("%-16s %-10s %10.1f %5.0f%%   (cos and sin of the %d body angles: both evaluators pay it)\n",
        pr->name, "(trig)", mt, 100 * st, g->nbody);
    free(q);
    free(v);
    free(out);
}

#ifdef BENCH_SIM
/* Parameters of a benchmark run: the simulator's per-model defaults (thesis values). */
static void bench_params(const mb_model *m, int f, mb_params *p)
{
    mb_params_default(p, f);
    if (strcmp(m->name, "andrews") == 0) {
        p->h = MB_R(1e-5);
        if (f == MB_BAUMGARTE || f == MB_CANONICAL) {
            p->xi = MB_R(1.0);
            p->omega = MB_R(100.0);
        } else {
            p->alpha = MB_R(1e8);
            p->xi = MB_R(1e4);
            p->omega = MB_R(1.0);
        }
    }
}

typedef struct simrun_s {
    mb_sim s;
    void *work;
    size_t size;
    mb_real *z0;   /* assembled start [q; v] */
} simrun_t;

/* Prepare a simulation of m with formulation f at the assembled start. Returns the status. */
static int sim_open(simrun_t *r, const mb_model *m, int f)
{
    mb_params p;
    bench_params(m, f, &p);
    m = planned(m);
    r->size = mb_sim_workspace_size(m, &p);
    r->work = malloc(r->size ? r->size : 1);
    r->z0 = malloc(2 * (size_t)m->nq * sizeof *r->z0);
    int rc = mb_sim_init(&r->s, m, &p, r->work, r->size);
    if (rc == MB_OK) rc = mb_sim_reset(&r->s, MB_R(0.0), NULL, NULL, 1);
    if (rc >= 0) {
        memcpy(r->z0, mb_sim_get_q(&r->s), (size_t)m->nq * sizeof *r->z0);
        memcpy(r->z0 + m->nq, mb_sim_get_v(&r->s), (size_t)m->nq * sizeof *r->z0);
    }
    return rc;
}

static void sim_close(simrun_t *r)
{
    free(r->work);
    free(r->z0);
}

/* ns per step over `steps` steps from the start z0 (reset without assembly, not timed);
 * -1 if a step fails. */
static double time_steps(simrun_t *r, const mb_real *z0, int nq, long steps)
{
    if (mb_sim_reset(&r->s, MB_R(0.0), z0, z0 + nq, 0) < 0) return -1.0;
    double t0 = now();
    for (long i = 0; i < steps; i++)
        if (mb_sim_step(&r->s, MB_R(1e9)) < 0) return -1.0;
    double dt = now() - t0;
    sink += (double)mb_sim_get_q(&r->s)[0];
    return dt * 1e9 / (double)steps;
}

#define NFORM 4
typedef struct simres_s {
    double gen, gnr, ratio, sg, sh, sr;   /* medians (ns per step) and spreads */
    size_t work;
    int ok;
} simres_t;

static void bench_sim(const pair_t *pr, int f, simres_t *res)
{
    simrun_t a, b;
    int ra = sim_open(&a, pr->gen, f), rb = sim_open(&b, pr->gnr, f);
    res->ok = 0;
    res->work = a.size;
    if (ra >= 0 && rb >= 0) {
        /* calibrate on the generic side: about 40 ms per measurement, at least 3 steps */
        long steps = 3;
        double ns = time_steps(&b, a.z0, pr->gen->nq, steps);
        if (ns > 0.0) {
            double want = 4e7 / ns;
            steps = want < 3.0 ? 3 : want > 200000.0 ? 200000 : (long)want;
            double tg[NREP_SIM], th[NREP_SIM], ratio[NREP_SIM];
            res->ok = 1;
            for (int r = 0; r < NREP_SIM && res->ok; r++) {
                tg[r] = time_steps(&a, a.z0, pr->gen->nq, steps);
                th[r] = time_steps(&b, a.z0, pr->gen->nq, steps);   /* same start for both */
                if (tg[r] <= 0.0 || th[r] <= 0.0) res->ok = 0;
                ratio[r] = th[r] / tg[r];
            }
            if (res->ok) {
                res->gen = median(tg, NREP_SIM, &res->sg);
                res->gnr = median(th, NREP_SIM, &res->sh);
                res->ratio = median(ratio, NREP_SIM, &res->sr);
            }
        }
    }
    sim_close(&a);
    sim_close(&b);
}

/* Least-squares slope of log(y) against log(x). */
static double loglog_slope(const double *x, const double *y, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        double lx = log(x[i]), ly = log(y[i]);
        sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly;
    }
    double d = n * sxx - sx * sx;
    return d != 0.0 ? (n * sxy - sx * sy) / d : 0.0;
}

static void bench_sims(void)
{
    int npair = (int)(sizeof pairs / sizeof pairs[0]);
    enum { MAXC = 32 };
    double cn[MAXC], cg[NFORM][MAXC], ch[NFORM][MAXC];
    int ok[NFORM][MAXC], nc = 0;
    say("\n## Whole simulations: ns per step, median of %d side-by-side repetitions "
        "(same start, fixed step)\n\n", NREP_SIM);
    say("%-16s %-14s %12s %6s %12s %6s %9s %6s %10s\n", "model", "formulation", "generated",
        "spread", "generic", "spread", "gnr/gen", "spread", "work B");
    for (int p = 0; p < npair; p++) {
        const pair_t *pr = &pairs[p];
        if (!pr->sim) continue;
        int ci = pr->chain_n > 0 && nc < MAXC ? nc++ : -1;
        if (ci >= 0) cn[ci] = pr->chain_n;
        for (int f = 0; f < NFORM; f++) {
            simres_t r = { 0 };
            bench_sim(pr, f, &r);
            if (ci >= 0) {
                ok[f][ci] = r.ok;
                cg[f][ci] = r.gen;
                ch[f][ci] = r.gnr;
            }
            if (!r.ok) {
                say("%-16s %-14s %12s\n", pr->name, mb_formulation_name(f), "(fails)");
                continue;
            }
            say("%-16s %-14s %12.0f %5.0f%% %12.0f %5.0f%% %8.2fx %5.0f%% %10zu\n", pr->name,
                mb_formulation_name(f), r.gen, 100 * r.sg, r.gnr, 100 * r.sh, r.ratio,
                100 * r.sr, r.work);
        }
    }
    if (nc < 2) return;
    say("\n## Chain: log-log slope of the cost per step against N (n = 3N), N = %g..%g\n\n",
        cn[0], cn[nc - 1]);
    say("%-14s %10s %10s\n", "formulation", "generated", "generic");
    for (int f = 0; f < NFORM; f++) {
        int all = 1;
        for (int i = 0; i < nc; i++) all &= ok[f][i];
        if (!all) {
            say("%-14s %10s\n", mb_formulation_name(f), "(a size failed)");
            continue;
        }
        say("%-14s %10.2f %10.2f\n", mb_formulation_name(f), loglog_slope(cn, cg[f], nc),
            loglog_slope(cn, ch[f], nc));
    }
}
#endif

#ifdef BENCH_SIM
/* --run MODEL FORMULATION generated|generic STEPS: only simulate (for a profiler). */
static int run_only(char **argv)
{
    int npair = (int)(sizeof pairs / sizeof pairs[0]), f = mb_formulation_parse(argv[1]);
    long steps = atol(argv[3]);
    for (int p = 0; p < npair; p++) {
        if (strcmp(pairs[p].name, argv[0]) != 0) continue;
        const mb_model *m = strcmp(argv[2], "generic") == 0 ? pairs[p].gnr : pairs[p].gen;
        simrun_t r;
        int rc = f < 0 ? MB_ERR_PARAM : sim_open(&r, m, f);
        for (long i = 0; i < steps && rc >= 0; i++) rc = mb_sim_step(&r.s, MB_R(1e9));
        if (f >= 0) {
            const mb_monitor *mon = mb_sim_get_monitor(&r.s);
            printf("%s %s %s: %ld steps, %ld Newton iterations, status %d\n", argv[0], argv[1],
                   argv[2], mon->steps, mon->newton_iters, rc);
            sim_close(&r);
        }
        return rc < 0;
    }
    fprintf(stderr, "bench: no model %s\n", argv[0]);
    return 1;
}
#endif

int main(int argc, char **argv)
{
#ifdef BENCH_SIM
    if (argc == 6 && strcmp(argv[1], "--run") == 0) return run_only(argv + 2);
#endif
    const char *path = argc > 1 ? argv[1] : NULL;
    if (path && !(out_file = fopen(path, "a"))) {
        fprintf(stderr, "bench: cannot open %s\n", path);
        return 1;
    }
    int npair = (int)(sizeof pairs / sizeof pairs[0]);
    say("\n## Model functions: ns per call, median of %d side-by-side repetitions "
        "(spread = (max - min) / median; the\n## machine is shared, so spreads can be large: the medians and the ratios, measured side by side,\n## are the figures to read)\n\n", NREP);
    say("%-16s %-10s %10s %6s %10s %6s %9s %6s\n", "model", "function", "generated", "spread",
        "generic", "spread", "gnr/gen", "spread");
    for (int p = 0; p < npair; p++) bench_functions(&pairs[p]);
#ifdef BENCH_SIM
    bench_sims();
#endif
    if (out_file) fclose(out_file);
    return sink == 12345.0;   /* practically never; keeps the compiler honest */
}
