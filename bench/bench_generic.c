/* bench_generic.c - generated versus generic evaluator: ns per model-function call for every
 * model, and (with the runtime) whole simulations per formulation, with cost per step against N.
 * In the simulations each side runs on its best linear algebra: the generated model on its own
 * plan (the default back end, runtime/mb_sparse.c), the generic evaluator on SuiteSparse KLU
 * (tools/mb_linsys_klu.c, as the simulator's --eval generic). Work per step (right-hand sides,
 * factorizations, solves) comes from the runtime's monitor.
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
#include "mb_linsys_klu.h"
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
#define NREP_MAX 15  /* most repetitions of any measurement */
static volatile double sink;   /* keeps results alive */

/* The benchmark thread's CPU time: on a machine shared with other jobs, time the scheduler
 * gives them is not counted (their cache and memory traffic still is). -DBENCH_CLOCK=
 * CLOCK_MONOTONIC measures wall time instead. */
#ifndef BENCH_CLOCK
#define BENCH_CLOCK CLOCK_THREAD_CPUTIME_ID
#endif
static double now(void)
{
    struct timespec ts;
    clock_gettime(BENCH_CLOCK, &ts);
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
    /* what one alf-trapezoid Newton iteration evaluates: the fused eval_kin_dyn against the
     * seven single functions of the same generated model, side by side */
    if (g->eval_kin_dyn) {
        mb_real *buf = malloc(sizeof(mb_real) * (size_t)(2 * g->nc + 2 * g->phi_q_pat.nnz + g->nq +
                                                         g->dq_dq_pat.nnz + g->dq_dv_pat.nnz + 1));
        mb_real *o1 = buf, *o2 = o1 + g->nc, *o3 = o2 + g->nc, *o4 = o3 + g->phi_q_pat.nnz;
        mb_real *o5 = o4 + g->nq, *o6 = o5 + g->phi_q_pat.nnz, *o7 = o6 + g->dq_dq_pat.nnz;
        double tf[NREP], ts[NREP], sf, ss;
        long nc2 = 1L << 14;
        for (int r = 0; r < NREP; r++) {
            double t0 = now();
            for (long i = 0; i < nc2; i++) {
                q[0] += (mb_real)1e-12;
                g->eval_kin_dyn(g, (mb_real)1e-3, q, v, o1, o2, o3, o4, o5, o6, o7, NULL);
                sink += (double)(o1[0] + o4[0]);
            }
            double t1 = now();
            for (long i = 0; i < nc2; i++) {
                q[0] += (mb_real)1e-12;
                g->phi(g, (mb_real)1e-3, q, o1); g->phi_t(g, (mb_real)1e-3, q, o2);
                g->phi_q(g, (mb_real)1e-3, q, o3); g->force(g, (mb_real)1e-3, q, v, o4);
                g->phi_q_dot(g, (mb_real)1e-3, q, v, o5); g->dforce_dq(g, (mb_real)1e-3, q, v, o6);
                g->dforce_dv(g, (mb_real)1e-3, q, v, o7);
                sink += (double)(o1[0] + o4[0]);
            }
            tf[r] = (t1 - t0) * 1e9 / (double)nc2;
            ts[r] = (now() - t1) * 1e9 / (double)nc2;
        }
        double mf = median(tf, NREP, &sf), ms = median(ts, NREP, &ss);
        say("%-16s %-10s %10.1f %5.0f%%   (eval_kin_dyn: one alf-trapezoid iteration; its 7 single "
            "functions %.1f ns, %.0f%%)\n", pr->name, "(fused)", mf, 100 * sf, ms, 100 * ss);
        free(buf);
    }
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
    mb_sim_storage mem;
    mb_sim *s;            /* in mem (set before mb_sim_init) */
    void *work;
    size_t size;
    mb_real *z0;          /* assembled start [q; v] */
    mb_linsys_ops *klu;   /* the generic side's back end (SuiteSparse KLU); NULL: the plan's */
} simrun_t;

/* Prepare a simulation of m with parameters p at the assembled start, on SuiteSparse KLU when
 * klu != 0 (the generic side, as the simulator's --eval generic), else on the model's plan
 * (the default back end). Returns the status; sim_close in every case. */
static int sim_open_p(simrun_t *r, const mb_model *m, const mb_params *pp, int klu)
{
    mb_params p = *pp;
    memset(r, 0, sizeof *r);
    m = planned(m);
    if (klu) {
        if (!(r->klu = mb_klu_open())) return MB_ERR_WORKSPACE;
        p.linsys_ops = r->klu;
    }
    r->size = mb_sim_workspace_size(m, &p);
    r->work = malloc(r->size ? r->size : 1);
    r->z0 = malloc(2 * (size_t)m->nq * sizeof *r->z0);
    if (!r->work || !r->z0) return MB_ERR_WORKSPACE;
    r->s = mb_sim_of(&r->mem);
    int rc = mb_sim_init(r->s, m, &p, r->work, r->size);
    if (rc == MB_OK) rc = mb_sim_reset(r->s, MB_R(0.0), NULL, NULL, 1);
    if (rc >= 0) {
        memcpy(r->z0, mb_sim_get_q(r->s), (size_t)m->nq * sizeof *r->z0);
        memcpy(r->z0 + m->nq, mb_sim_get_v(r->s), (size_t)m->nq * sizeof *r->z0);
    }
    return rc;
}

static int sim_open(simrun_t *r, const mb_model *m, int f, int klu)
{
    mb_params p;
    bench_params(m, f, &p);
    return sim_open_p(r, m, &p, klu);
}

static void sim_close(simrun_t *r)
{
    free(r->work);
    free(r->z0);
    mb_klu_close(r->klu);
    r->work = NULL;
    r->z0 = NULL;
    r->klu = NULL;
}

/* Work per step from the runtime's monitor: right-hand sides (explicit formulations),
 * factorizations, solves, Newton iterations (F4). */
typedef struct work_s {
    double evals, fact, solves, newton;
} work_t;

static void work_between(const mb_monitor *a, const mb_monitor *b, work_t *w)
{
    double st = (double)(b->steps - a->steps);
    if (st < 1.0) st = 1.0;
    w->evals = (double)(b->evals - a->evals) / st;
    w->fact = (double)(b->factorizations - a->factorizations) / st;
    w->solves = (double)(b->solves - a->solves) / st;
    w->newton = (double)(b->newton_iters - a->newton_iters) / st;
}

/* Two work counts differ (the generic side rounds differently; Newton may take another
 * iteration now and then): more than 0.5 % apart in any field. */
static int work_differs(const work_t *a, const work_t *b)
{
    double x[4] = { a->evals, a->fact, a->solves, a->newton };
    double y[4] = { b->evals, b->fact, b->solves, b->newton };
    for (int i = 0; i < 4; i++)
        if (fabs(x[i] - y[i]) > 0.005 * fmax(fabs(x[i]), fabs(y[i]))) return 1;
    return 0;
}

/* ns per step over `steps` steps from the start z0 (reset without assembly, not timed), in
 * segments of at most `seg` steps each restarting from z0 (seg <= 0: one segment), so that a
 * long measurement repeats the same stretch of motion instead of running into later, harder
 * dynamics; -1 if a step fails. *w (may be NULL): the work per step of these steps. */
static double time_steps_seg(simrun_t *r, const mb_real *z0, int nq, long steps, long seg,
                             work_t *w)
{
    double dt = 0.0;
    work_t acc = { 0, 0, 0, 0 };
    if (seg <= 0 || seg > steps) seg = steps;
    for (long done = 0; done < steps; done += seg) {
        long k = steps - done < seg ? steps - done : seg;
        if (mb_sim_reset(r->s, MB_R(0.0), z0, z0 + nq, 0) < 0) return -1.0;
        mb_monitor m0 = *mb_sim_get_monitor(r->s);
        double t0 = now();
        for (long i = 0; i < k; i++)
            if (mb_sim_step(r->s, MB_R(1e9)) < 0) return -1.0;
        dt += now() - t0;
        work_t ws;
        work_between(&m0, mb_sim_get_monitor(r->s), &ws);
        acc.evals += ws.evals * (double)k;
        acc.fact += ws.fact * (double)k;
        acc.solves += ws.solves * (double)k;
        acc.newton += ws.newton * (double)k;
        sink += (double)mb_sim_get_q(r->s)[0];
    }
    if (w) {
        w->evals = acc.evals / (double)steps;
        w->fact = acc.fact / (double)steps;
        w->solves = acc.solves / (double)steps;
        w->newton = acc.newton / (double)steps;
    }
    return dt * 1e9 / (double)steps;
}

#define NFORM 4
typedef struct simres_s {
    double gen, gnr, ratio, sg, sh, sr;   /* medians (ns per step) and spreads */
    work_t wg, wh;                        /* work per step, generated and generic side */
    long steps;                           /* steps per measurement */
    size_t work;
    int ok;
} simres_t;

/* Generated (on its plan) against generic (on KLU), side by side from the same start, nrep
 * times. Each measurement lasts about `target` seconds on the generic side (at least 3 steps),
 * in segments of at most `seg` steps from the start (seg <= 0: one run); whole != 0: whole
 * segments only (every measurement covers the same stretch of motion). */
static void bench_sim_t(const pair_t *pr, int f, double target, long seg, int whole, int nrep,
                        simres_t *res)
{
    simrun_t a, b;
    int ra = sim_open(&a, pr->gen, f, 0), rb = sim_open(&b, pr->gnr, f, 1);
    res->ok = 0;
    res->work = a.size;
    if (nrep > NREP_MAX) nrep = NREP_MAX;
    if (ra >= 0 && rb >= 0) {
        /* calibrate on the generic side (this also warms it up: KLU's analysis, caches) */
        long steps = whole && seg > 0 ? seg : 3;
        double ns = time_steps_seg(&b, a.z0, pr->gen->nq, steps, seg, NULL);
        if (ns > 0.0) {
            double want = target * 1e9 / ns;
            steps = want < 3.0 ? 3 : want > 200000.0 ? 200000 : (long)want;
            if (whole && seg > 0) steps = (steps + seg - 1) / seg * seg;
            res->steps = steps;
            double tg[NREP_MAX], th[NREP_MAX], ratio[NREP_MAX];
            res->ok = time_steps_seg(&a, a.z0, pr->gen->nq, whole && seg > 0 ? seg : 3, seg,
                                     NULL) > 0.0;   /* warm up */
            for (int r = 0; r < nrep && res->ok; r++) {
                tg[r] = time_steps_seg(&a, a.z0, pr->gen->nq, steps, seg, &res->wg);
                th[r] = time_steps_seg(&b, a.z0, pr->gen->nq, steps, seg, &res->wh);   /* same start */
                if (tg[r] <= 0.0 || th[r] <= 0.0) res->ok = 0;
                ratio[r] = th[r] / tg[r];
            }
            if (res->ok) {
                res->gen = median(tg, nrep, &res->sg);
                res->gnr = median(th, nrep, &res->sh);
                res->ratio = median(ratio, nrep, &res->sr);
            }
        }
    }
    sim_close(&a);
    sim_close(&b);
}

/* The tables' measurements: about 40 ms each, in segments of at most 1000 steps from the start
 * (Andrews: the first 0.01 s; whole runs: bench_andrews_runs). */
static void bench_sim(const pair_t *pr, int f, simres_t *res)
{
    bench_sim_t(pr, f, 4e-2, 1000, 0, NREP_SIM, res);
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

/* "4.00 1.00 1.00 0.00": right-hand sides, factorizations, solves, Newton iterations per step */
static const char *work_str(const work_t *w)
{
    static char buf[96];
    snprintf(buf, sizeof buf, "%8.2f %8.2f %8.2f %8.2f", w->evals, w->fact, w->solves, w->newton);
    return buf;
}

/* us per right-hand side: the whole step's cost over the evaluations it made (explicit
 * formulations; includes the integrator's vector updates, which are small). */
static void say_per_rhs(const char *label, double ns_gen, double ns_gnr, const work_t *wg,
                        const work_t *wh)
{
    if (wg->evals > 0 && wh->evals > 0)
        say("%s %9.2f %9.2f", label, ns_gen * 1e-3 / wg->evals, ns_gnr * 1e-3 / wh->evals);
    else
        say("%s %9s %9s", label, "-", "-");
}

static void bench_sims(void)
{
    int npair = (int)(sizeof pairs / sizeof pairs[0]);
    enum { MAXC = 32, MAXROW = 256 };
    double cn[MAXC], cg[NFORM][MAXC], ch[NFORM][MAXC];
    int ok[NFORM][MAXC], nc = 0, nrow = 0;
    static simres_t rows[MAXROW];
    static const char *row_model[MAXROW];
    static int row_form[MAXROW];
    say("\n## Whole simulations: ns per step, median of %d side-by-side repetitions "
        "(same start, fixed step,\n## segments of at most 1000 steps from it).\n## generated: the generated model on its plan (the linear "
        "algebra form mbgen chose);\n## generic: the generic evaluator on SuiteSparse "
        "KLU (tools/mb_linsys_klu.c), as the simulator's --eval generic\n\n", NREP_SIM);
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
            if (nrow < MAXROW) {
                rows[nrow] = r;
                row_model[nrow] = pr->name;
                row_form[nrow++] = f;
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
    say("\n## Work per step of the runs above (runtime monitor: right-hand sides, factorizations,"
        "\n## solves, Newton iterations; the generated side's, the generic side's where they "
        "differ)\n## and us per right-hand side (step time / right-hand sides per step; "
        "explicit formulations)\n\n");
    say("%-16s %-14s %8s %8s %8s %8s %9s %9s\n", "model", "formulation", "rhs", "factor",
        "solves", "newton", "us/rhs g", "us/rhs G");
    for (int i = 0; i < nrow; i++) {
        const simres_t *r = &rows[i];
        if (!r->ok) continue;
        say("%-16s %-14s %s", row_model[i], mb_formulation_name(row_form[i]), work_str(&r->wg));
        say_per_rhs("", r->gen, r->gnr, &r->wg, &r->wh);
        if (work_differs(&r->wg, &r->wh)) say("   generic: %s", work_str(&r->wh));
        say("\n");
    }
    say("(g: generated, G: generic)\n");
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

/* ------------------------------------------------------------ Andrews: whole runs */

/* One whole run: reset with assembly at t = 0, then steps to t_end, timed together (seconds;
 * -1 on a failure, *st its status). *w: the work per step of the run, *steps its accepted
 * steps. */
static double time_run(simrun_t *r, mb_real t_end, work_t *w, long *steps, int *st)
{
    mb_monitor zero_mon;
    memset(&zero_mon, 0, sizeof zero_mon);
    double t0 = now();
    if ((*st = mb_sim_reset(r->s, MB_R(0.0), NULL, NULL, 1)) < 0) return -1.0;
    while (mb_sim_get_t(r->s) < t_end)
        if ((*st = mb_sim_step(r->s, t_end)) < 0) return -1.0;
    double dt = now() - t0;
    const mb_monitor *mo = mb_sim_get_monitor(r->s);
    work_between(&zero_mon, mo, w);   /* the monitor counts from the reset */
    *steps = mo->steps;
    sink += (double)mb_sim_get_q(r->s)[0];
    return dt;
}

#define NREP_RUN 5
typedef struct runres_s {
    double g, h, sg, sh, ratio, sr;   /* us per step (medians), spreads, generic / generated */
    long steps_g, steps_h;
    work_t wg, wh;
    int ok;
    char fail[160];                   /* why a side failed */
} runres_t;

/* Whole runs of p on Andrews, generated on its plan against generic on KLU, side by side. */
static void andrews_case(const pair_t *pr, const mb_params *p, mb_real t_end, runres_t *res)
{
    simrun_t a, b;
    int oa = sim_open_p(&a, pr->gen, p, 0), ob = sim_open_p(&b, pr->gnr, p, 1), st = 0;
    double tg[NREP_RUN], th[NREP_RUN], ratio[NREP_RUN];
    memset(res, 0, sizeof *res);
    int ok = oa >= 0 && ob >= 0;
    if (!ok) snprintf(res->fail, sizeof res->fail, "set-up: %s", mb_status_str(oa < 0 ? oa : ob));
    for (int r = -1; r < NREP_RUN && ok; r++) {   /* r = -1: the untimed warm-up */
        double x = time_run(&a, t_end, &res->wg, &res->steps_g, &st);
        if (x < 0) {
            snprintf(res->fail, sizeof res->fail, "generated fails at t = %.5g: %s",
                     (double)mb_sim_get_t(a.s), mb_status_str(st));
            ok = 0;
            break;
        }
        double y = time_run(&b, t_end, &res->wh, &res->steps_h, &st);
        if (y < 0) {
            snprintf(res->fail, sizeof res->fail, "generic on KLU fails at t = %.5g: %s "
                     "(KLU pivot ratio %.2g, rank_tol %.2g; the generated side's smallest "
                     "pivot ratio %.2g)", (double)mb_sim_get_t(b.s), mb_status_str(st),
                     (double)mb_sim_get_monitor(b.s)->min_pivot_ratio, (double)p->rank_tol,
                     (double)mb_sim_get_monitor(a.s)->min_pivot_ratio);
            ok = 0;
            break;
        }
        if (r >= 0) {
            tg[r] = x * 1e6 / (double)res->steps_g;
            th[r] = y * 1e6 / (double)res->steps_h;
            ratio[r] = y / x;
        }
    }
    sim_close(&a);
    sim_close(&b);
    if (!ok) return;
    res->g = median(tg, NREP_RUN, &res->sg);
    res->h = median(th, NREP_RUN, &res->sh);
    res->ratio = median(ratio, NREP_RUN, &res->sr);
    res->ok = 1;
}

/* Andrews' squeezer with the thesis' parameters, t = 0 .. 0.05 s, generated (its plan) against
 * generic (KLU), whole runs side by side. A case that fails is reported and measured again with
 * the rank test relaxed on both sides (rank_tol 1e-12), marked so. */
static void bench_andrews_runs(void)
{
    static const struct { int f, integ; } cases[] = {
        { MB_ALF_TRAPEZOID, MB_TRAPEZOID }, { MB_BAUMGARTE, MB_RK4 }, { MB_BAUMGARTE, MB_DOPRI5 },
        { MB_CANONICAL, MB_RK4 }, { MB_ALF_EXPLICIT, MB_RK4 },
    };
    enum { NCASE = sizeof cases / sizeof cases[0] };
    const pair_t *pr = NULL;
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
        if (strcmp(pairs[p].name, "andrews") == 0) pr = &pairs[p];
    if (!pr) return;
    const mb_real t_end = MB_R(0.05);
    say("\n## Andrews' squeezer: whole runs t = 0 .. 0.05 s from assembly (thesis parameters, "
        "h = 1e-5 s;\n## dopri5: rtol 1e-6, atol 1e-8), median of %d side-by-side repetitions "
        "after one untimed run each;\n## generated on its plan, generic on KLU. gnr/gen: "
        "generic time over generated time, gen/gnr its inverse\n\n", NREP_RUN);
    say("%-14s %-9s %6s %9s %6s %9s %6s %8s %6s %8s\n", "formulation", "integr.", "steps",
        "us/step g", "spread", "us/step G", "spread", "gnr/gen", "spread", "gen/gnr");
    static runres_t res[NCASE];
    static int relaxed[NCASE];
    for (int c = 0; c < NCASE; c++) {
        mb_params p;
        bench_params(pr->gen, cases[c].f, &p);
        p.integrator = cases[c].integ;
        andrews_case(pr, &p, t_end, &res[c]);
        const char *fn = mb_formulation_name(cases[c].f), *in = mb_integrator_name(cases[c].integ);
        if (!res[c].ok) {
            say("%-14s %-9s (%s)\n", fn, in, res[c].fail);
            p.rank_tol = MB_R(1e-12);
            andrews_case(pr, &p, t_end, &res[c]);
            relaxed[c] = 1;
            if (!res[c].ok) {
                say("%-14s %-9s rank_tol 1e-12: (%s)\n", fn, in, res[c].fail);
                continue;
            }
        }
        const runres_t *r = &res[c];
        say("%-14s %-9s %6ld %9.2f %5.0f%% %9.2f %5.0f%% %7.2fx %5.0f%% %7.3f%s\n", fn, in,
            r->steps_g, r->g, 100 * r->sg, r->h, 100 * r->sh, r->ratio, 100 * r->sr,
            1.0 / r->ratio, relaxed[c] ? "  (rank_tol 1e-12, both sides)" : "");
        if (r->steps_g != r->steps_h) say("%25s (generic: %ld steps)\n", "", r->steps_h);
    }
    say("\nwork per step of those runs (generated; the generic side's where it differs) and us "
        "per right-hand side:\n\n");
    say("%-14s %-9s %8s %8s %8s %8s %9s %9s\n", "formulation", "integr.", "rhs", "factor",
        "solves", "newton", "us/rhs g", "us/rhs G");
    for (int c = 0; c < NCASE; c++) {
        if (!res[c].ok) continue;
        say("%-14s %-9s %s", mb_formulation_name(cases[c].f), mb_integrator_name(cases[c].integ),
            work_str(&res[c].wg));
        say_per_rhs("", res[c].g * 1e3, res[c].h * 1e3, &res[c].wg, &res[c].wh);
        if (work_differs(&res[c].wg, &res[c].wh)) say("   generic: %s", work_str(&res[c].wh));
        say("\n");
    }
}

/* --scaling: one line per formulation for scripts/bench_scaling.sh, fixed steps (rk4 for
 * F1-F3, trapezoid for F4), every chain linked in; SCALING_NREP measurements of about 0.2 s each
 * (generic side) in whole segments of SCALING_SEG steps from the start: the same 0.1 s of motion (h = 1e-3) at every
 * N (a chain left to fall for seconds whips, and F4's Newton fails at N = 30 near t = 2.85 s). */
#define SCALING_SEG 100
#define SCALING_NREP 9
static int bench_scaling(void)
{
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        const pair_t *pr = &pairs[p];
        if (pr->chain_n <= 0) continue;
        for (int f = 0; f < NFORM; f++) {
            simres_t r = { 0 };
            bench_sim_t(pr, f, 0.2, SCALING_SEG, 1, SCALING_NREP, &r);
            if (!r.ok) {
                printf("scaling %d %s fails\n", pr->chain_n, mb_formulation_name(f));
                continue;
            }
            printf("scaling %d %s %.1f %.3f %.1f %.3f %.4f %.3f %ld %s %zu", pr->chain_n,
                   mb_formulation_name(f), r.gen, r.sg, r.gnr, r.sh, r.ratio, r.sr, r.steps,
                   work_str(&r.wg), r.work);
            printf(" %s\n", work_str(&r.wh));
            fflush(stdout);
        }
    }
    return 0;
}
#endif

#ifdef BENCH_SIM
/* --run MODEL FORMULATION generated|generic STEPS: only simulate (for a profiler); the generic
 * side on KLU as in the tables. */
static int run_only(char **argv)
{
    int npair = (int)(sizeof pairs / sizeof pairs[0]), f = mb_formulation_parse(argv[1]);
    long steps = atol(argv[3]);
    for (int p = 0; p < npair; p++) {
        if (strcmp(pairs[p].name, argv[0]) != 0) continue;
        int generic = strcmp(argv[2], "generic") == 0;
        const mb_model *m = generic ? pairs[p].gnr : pairs[p].gen;
        simrun_t r;
        int rc = f < 0 ? MB_ERR_PARAM : sim_open(&r, m, f, generic);
        for (long i = 0; i < steps && rc >= 0; i++) rc = mb_sim_step(r.s, MB_R(1e9));
        if (f >= 0) {
            const mb_monitor *mon = mb_sim_get_monitor(r.s);
            printf("%s %s %s: %ld steps, %ld Newton iterations, %ld factorizations, status %d\n",
                   argv[0], argv[1], argv[2], mon->steps, mon->newton_iters, mon->factorizations,
                   rc);
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
    if (argc == 2 && strcmp(argv[1], "--scaling") == 0) return bench_scaling();
    if (argc == 2 && strcmp(argv[1], "--andrews") == 0) {   /* only Andrews' whole runs */
        bench_andrews_runs();
        return 0;
    }
#endif
    const char *path = argc > 1 ? argv[1] : NULL;
    int help = argc == 2 && (!strcmp(path, "--help") || !strcmp(path, "-h"));
    if (help || argc > 2 || (path && path[0] == '-')) {   /* not an option taken for a file name */
        fprintf(help ? stdout : stderr, "usage: bench_generic [FILE] | --andrews | --run MODEL FORMULATION "
                        "generated|generic STEPS | --scaling (docs/cli.md)\n"
                        "  the benchmark table of make bench (timings, never a test), appended to FILE\n"
                        "  when given; --andrews only Andrews' whole runs; --run one simulation for\n"
                        "  profiling; --scaling the per-N runs of make bench-scaling\n");
        return help ? 0 : 2;
    }
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
    bench_andrews_runs();
#endif
    if (out_file) fclose(out_file);
    return sink == 12345.0;   /* practically never; keeps the compiler honest */
}
