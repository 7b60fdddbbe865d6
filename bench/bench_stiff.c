/* bench_stiff.c - make bench-stiff: issue 11's stiffened Andrews, bdf against dopri5 at equal
 * accuracy. Andrews' squeezer to t = 0.03 s with the augmented Lagrangian penalty alpha = 1e9
 * (the model's is 1e8): alf-explicit (F3) with dopri5 and dop853, alf-trapezoid (F4) with bdf
 * and with its adaptive trapezoid, each swept over rtol = atol. Accuracy: the correct digits of
 * Hairer & Wanner's 7 relative angles against our own high-precision run (baumgarte dop853
 * 1e-14, as make bench-wp). Work: the instructions of one solve (mb_sim_reset from the assembled
 * state, the steps to t = 0.03), counted by callgrind around bs_solve alone
 * (scripts/bench_stiff.sh), which is exact where the shared machine's clock is not.
 * Usage: bench_stiff --list (the runs, one a line) | bench_stiff --run NAME RTOL (one solve in
 * bs_solve; prints digits and counters) | bench_stiff --ref (the reference's angles). Not a
 * test: no figure passes or fails anything. See docs/work-precision.md, "Stiffened Andrews". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mb_sim.h"

extern const mb_model andrews_model;

#define T_END 0.03
#define ALPHA 1e9

/* The solvers compared: name, formulation, integrator (the model file's xi, omega for each). */
static const struct { const char *name, *form, *integ; } SOLVER[] = {
    {"alf-explicit+dopri5", "alf-explicit", "dopri5"},
    {"alf-explicit+dop853", "alf-explicit", "dop853"},
    {"alf-trapezoid+bdf", "alf-trapezoid", "bdf"},
    {"alf-trapezoid+trapezoid", "alf-trapezoid", "trapezoid"},
};
#define NSOLVER (int)(sizeof SOLVER / sizeof SOLVER[0])

static const mb_model *M;

static int ix_of(const char *name)
{
    for (int i = 0; i < M->nq; i++) if (strcmp(M->info->coord_names[i], name) == 0) return i;
    fprintf(stderr, "bench_stiff: model %s has no coordinate %s\n", M->name, name);
    exit(1);
}

/* Hairer & Wanner's 7 relative angles from the bodies' absolute angles (the mapping of
 * bench/bench_wp.c, angles(): body frames along the links of models/andrews.lua). */
static void angles(const mb_real *q, double a[7])
{
    const char *nm[7] = {"OF.phi", "EF.phi", "EBD.phi", "GE.phi", "AG.phi", "HE.phi", "AH.phi"};
    const double hp = 1.57079632679489661923;
    double x[7];
    for (int i = 0; i < 7; i++) x[i] = (double)q[ix_of(nm[i])];
    a[0] = x[0];
    a[1] = x[1] - x[0];
    a[2] = x[2];
    a[3] = x[3] + hp - x[4];
    a[4] = x[4];
    a[5] = x[5] - x[6] - hp;
    a[6] = x[6] + hp;
}

/* The parameters andrews_sim uses for --formulation F --integrator I --rtol R --atol R
 * (tools/mb_sim_main.c, build_params), alpha = ALPHA for the augmented Lagrangian ones. */
static int make_params(mb_params *p, int form, int integ, double rtol)
{
    const mb_preset *pr = M->preset;
    mb_params_default(p, form);
    p->integrator = integ;
    p->h = (mb_real)(pr && pr->h > 0 ? pr->h : 1e-3);
    mb_params_preset(p, pr, form);
    if (form == MB_ALF_EXPLICIT || form == MB_ALF_TRAPEZOID) p->alpha = (mb_real)ALPHA;
    p->adaptive = 1;
    p->rtol = p->atol = (mb_real)rtol;
    p->max_steps = 100000000L;
    p->warn_accuracy = 0;   /* the bench measures the run's error itself (bench_wp.c) */
    return mb_params_check(p, NULL);
}

typedef struct box { mb_sim_storage mem; mb_sim *s; void *w; } box;

static int open_box(box *b, int form, int integ, double rtol)
{
    mb_params p;
    int st = make_params(&p, form, integ, rtol);
    if (st) return st;
    size_t ws = mb_sim_workspace_size(M, &p);
    b->w = malloc(ws ? ws : 1);
    if (!b->w) { fprintf(stderr, "bench_stiff: out of memory\n"); exit(1); }
    b->s = mb_sim_of(&b->mem);
    return mb_sim_init(b->s, M, &p, b->w, ws);
}

/* One solve from (q0, v0). */
static int solve(box *b, const mb_real *q0, const mb_real *v0)
{
    int st = mb_sim_reset(b->s, 0, q0, v0, 0);
    while (st >= 0 && mb_sim_get_t(b->s) < (mb_real)T_END) st = mb_sim_step(b->s, (mb_real)T_END);
    return st > 0 ? MB_OK : st;
}

/* The measured solve: the only code callgrind counts (--toggle-collect=bs_solve). */
__attribute__((noinline)) int bs_solve(box *b, const mb_real *q0, const mb_real *v0);
__attribute__((noinline)) int bs_solve(box *b, const mb_real *q0, const mb_real *v0)
{
    return solve(b, q0, v0);
}

/* The assembled initial state (the model's guesses, beta0 locked). */
static void assembled(mb_real *q0, mb_real *v0)
{
    box b;
    mb_params p;
    make_params(&p, MB_BAUMGARTE, MB_RK4, 1e-6);
    p.adaptive = 0;
    size_t ws = mb_sim_workspace_size(M, &p);
    b.w = malloc(ws);
    b.s = mb_sim_of(&b.mem);
    if (!b.w || mb_sim_init(b.s, M, &p, b.w, ws) || mb_sim_reset(b.s, 0, NULL, NULL, 1)) {
        fprintf(stderr, "bench_stiff: assembly of %s failed\n", M->name);
        exit(1);
    }
    memcpy(q0, mb_sim_get_q(b.s), sizeof *q0 * (size_t)M->nq);
    memcpy(v0, mb_sim_get_v(b.s), sizeof *v0 * (size_t)M->nq);
    free(b.w);
}

/* Our own high-precision run: baumgarte dop853 at rtol = atol = 1e-14 (make bench-wp's). */
static void reference(const mb_real *q0, const mb_real *v0, double ref[7])
{
    box b;
    if (open_box(&b, MB_BAUMGARTE, mb_integrator_parse("dop853"), 1e-14) || solve(&b, q0, v0)) {
        fprintf(stderr, "bench_stiff: the reference run failed\n");
        exit(1);
    }
    angles(mb_sim_get_q(b.s), ref);
    free(b.w);
}

int main(int argc, char **argv)
{
    M = &andrews_model;
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int k = 0; k < NSOLVER; k++) printf("%s\n", SOLVER[k].name);
        return 0;
    }
    int run = argc == 4 && strcmp(argv[1], "--run") == 0, refonly = argc == 2 && strcmp(argv[1], "--ref") == 0;
    int help = argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
    if (!run && !refonly) {
        fprintf(help ? stdout : stderr, "usage: bench_stiff --list | --ref | --run SOLVER RTOL (scripts/bench_stiff.sh)\n"
                "  --list the solvers; --ref the reference's 7 angles; --run one solve of the stiffened\n"
                "  Andrews (one line: status, digits, counters). What make bench-stiff runs; never a test\n");
        return help ? 0 : 2;
    }
    mb_real *q0 = malloc(sizeof *q0 * (size_t)M->nq), *v0 = malloc(sizeof *v0 * (size_t)M->nq);
    if (!q0 || !v0) return 1;
    assembled(q0, v0);
    double ref[7], a[7];
    reference(q0, v0, ref);
    if (refonly) {
        for (int i = 0; i < 7; i++) printf("%.15g%s", ref[i], i < 6 ? " " : "\n");
        return 0;
    }
    int k = 0;
    while (k < NSOLVER && strcmp(SOLVER[k].name, argv[2]) != 0) k++;
    char *end;
    double rtol = strtod(argv[3], &end);
    if (k == NSOLVER || *end || !(rtol > 0)) {
        fprintf(stderr, "bench_stiff: unknown solver %s or bad rtol %s\n", argv[2], argv[3]);
        return 2;
    }
    box b;
    int st = open_box(&b, mb_formulation_parse(SOLVER[k].form), mb_integrator_parse(SOLVER[k].integ), rtol);
    if (st == MB_OK) st = bs_solve(&b, q0, v0);
    double e = 0, db = 0;
    if (st == MB_OK) {
        angles(mb_sim_get_q(b.s), a);
        for (int i = 0; i < 7; i++) {
            double r = fabs(a[i] - ref[i]) / fabs(ref[i]);
            if (!(r <= e)) e = r;
        }
        db = fabs(a[0] - ref[0]);
    }
    const mb_monitor *mo = mb_sim_get_monitor(b.s);
    int nw = 0;
    for (int j = 0; j < MB_NWARN; j++) nw += (mo->warn >> j) & 1u;
    /* one line: status, digits (-log10 of the largest relative error of the 7 angles), |beta -
       ref|, steps, rejected, rhs evals, Newton iterations, F3 iterations, factorizations, warnings */
    printf("status=%d digits=%.2f dbeta=%.2e steps=%ld rejected=%ld evals=%ld newton=%ld alf=%ld fact=%ld warnings=%d\n",
           st, st ? 0.0 : (e > 0 ? -log10(e) : 16.0), db, mo->steps, mo->rejected, mo->evals,
           mo->newton_iters, mo->alf_iters, mo->factorizations, nw);
    free(b.w);
    free(q0);
    free(v0);
    return st ? 1 : 0;
}
