/* mb_sim_options.c - the simulator's options, one row each (mb_sim_options.h): the parser, the
 * refusal of an option that has no effect, --help and docs/cli.md's option rows all read them.
 *
 * The order of the rows is the order of --help and of docs/cli.md, and the order in which the
 * options given are checked: the first that does not apply is named. Among those of the dynamic
 * run (group MB_SIM_G_DYNAMIC) an option that fails where another also fails comes after it:
 * --project-velocity before --alpha (both fail with canonical), --warn-sigma before
 * --newton-reuse (baumgarte), --extrapolate before --full-jacobian (bdf), ... */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "mb_sim.h"
#include "mb_sim_options.h"

#define STR2(a) #a
#define STR(a) STR2(a)
#define A(k) (1u << (unsigned)(k))
#define F(k) (1u << (unsigned)(k))
#define I(k) (1u << (unsigned)(k))
#define DYN A(MB_CLI_DYNAMIC)
#define TIMED (DYN | A(MB_CLI_QUASISTATIC) | A(MB_CLI_KINEMATIC) | A(MB_CLI_INVERSE))
#define ALL MB_OPT_ALL
#define ALF (F(MB_ALF_EXPLICIT) | F(MB_ALF_TRAPEZOID))
#define SIGMA (F(MB_CANONICAL) | ALF)
#define ADAPTIVE_I (I(MB_DOPRI5) | I(MB_DOP853) | I(MB_BDF) | I(MB_TRAPEZOID))
#define OFF(f) offsetof(mb_sim_cli, f)
#define NOT_DYNAMIC "it steers the dynamic simulation, and this analysis integrates nothing (docs/analyses.md)"
#define FREQ_ONLY "--input, --response, --f-min, --f-max and --f-points apply to --analysis frequency"

/* --set NAME=VALUE: kept in the order given, the value a number (the name is the model's:
 * checked before the run) */
static const char *accept_set(void *opts, const char *val)
{
    mb_sim_cli *c = opts;
    if (c->nset >= MB_SIM_MAX_SET) return "too many --set options (at most " STR(MB_SIM_MAX_SET) ")";
    const char *e = strchr(val, '=');
    if (!e || e == val) return "expected NAME=VALUE";
    double x;
    const char *why = mb_opt_num(e + 1, &x);
    if (why) return why;
    c->set[c->nset++] = val;
    return NULL;
}

static const char *accept_eval(void *opts, const char *val)
{
    (void)val;
    return mb_sim_eval_accept(((mb_sim_cli *)opts)->eval);
}

/* --about static | initial | t=T */
static const char *accept_about(void *opts, const char *val)
{
    mb_cli_aopt *ao = &((mb_sim_cli *)opts)->anl;
    char *end;
    ao->about_t = -1;
    if (!strcmp(val, "static")) ao->about_initial = 0;
    else if (!strcmp(val, "initial")) ao->about_initial = 1;
    else if (!strncmp(val, "t=", 2)) {
        errno = 0;
        double tv = strtod(val + 2, &end);
        if (!val[2] || *end || errno || !isfinite(tv) || tv < 0 || tv > 1e9)
            return "expected t=<time in s, 0 to 1e9> (linearize: the simulated state at that time)";
        ao->about_t = tv;
        ao->about_initial = 0;
    } else
        return "expected static (the equilibrium, default), initial (the assembled initial state) "
               "or t=<time in s> (linearize only)";
    return NULL;
}

/* --about t=T: a state in time, which only linearize takes */
static const char *about_value(const void *opts, int analysis, const char **as)
{
    if (((const mb_sim_cli *)opts)->anl.about_t < 0 || analysis == MB_CLI_LINEARIZE) return NULL;
    *as = "--about t=..";
    return "a state in time applies to --analysis linearize (modal and frequency: static or initial)";
}

/* --f-min, --f-max: a frequency in Hz (a subnormal value is refused with the others) */
static const char *freq(const char *val, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(val, &end);
    if (!*val || *end || errno || !isfinite(v) || !(v > 0)) return "expected a frequency > 0 in Hz";
    *out = v;
    return NULL;
}
static const char *accept_fmin(void *o, const char *v) { return freq(v, &((mb_sim_cli *)o)->anl.f_min); }
static const char *accept_fmax(void *o, const char *v) { return freq(v, &((mb_sim_cli *)o)->anl.f_max); }

/* the choices whose names are the runtime's and the analyses' (filled by mb_sim_options) */
static mb_opt_choice form_choices[5], integ_choices[7], anl_choices[MB_CLI_NANALYSES + 1];
static const mb_opt_choice hold_choices[] = { {"zoh", 0}, {"foh", 1}, {NULL, 0} };
static const mb_opt_choice eval_choices[] = { {"generated", 0}, {"generic", 1}, {NULL, 0} };
static const mb_opt_choice linsys_choices[] = {
    {"sparse", MB_LINSYS_SPARSE}, {"dense", MB_LINSYS_DENSE}, {"klu", LINSYS_KLU}, {NULL, 0} };

#define REAL_POS(f) .kind = MB_OPT_REAL, .off = OFF(f), .lo = 0, .lo_open = 1, .hi = HUGE_VAL, .why_bad = "must be > 0"
#define REAL_NONNEG(f) .kind = MB_OPT_REAL, .off = OFF(f), .lo = 0, .hi = HUGE_VAL, .why_bad = "must be >= 0"
#define WARN(k) .kind = MB_OPT_REAL, .off = OFF(o_warn[k]), .lo = 0, .hi = HUGE_VAL, .why_bad = "must be >= 0 (0: off)"
/* where: the dynamic run only, with these formulations and integrators */
#define DYNAMIC(f, i) .analyses = DYN, .forms = (f), .integs = (i), .group = MB_SIM_G_DYNAMIC
#define EVERYWHERE .analyses = ALL, .forms = ALL, .integs = ALL, .group = MB_SIM_G_OTHER

static mb_opt rows[] = {
    { .name = "--formulation", .example = "canonical", .kind = MB_OPT_ENUM, .meta = "F", .off = OFF(form), .choices = form_choices,
      DYNAMIC(ALL, ALL),
      .help = "baumgarte | canonical | alf-explicit | alf-trapezoid (default)" },
    { .name = "--integrator", .example = "rk4", .kind = MB_OPT_ENUM, .meta = "I", .off = OFF(integ), .choices = integ_choices,
      DYNAMIC(ALL, ALL),
      .help = "rk4 | dopri5 | dop853 | bdf | trapezoid | hht (default: trapezoid for\n"
              "alf-trapezoid, rk4 otherwise); bdf: implicit, variable order 1-5\n"
              "(baumgarte, canonical, alf-trapezoid); hht: fixed-step HHT-alpha\n"
              "on the index-3 equations with Lagrange multipliers (baumgarte's\n"
              "equations without its stabilization; the formulation when none is\n"
              "given)" },
    { .name = "--hht-alpha", .example = "-0.1", .meta = "A", .kind = MB_OPT_REAL, .off = OFF(o_hht), .lo = -1.0 / 3, .hi = 0,
      .why_bad = "must be in [-1/3, 0]",
      DYNAMIC(ALL, I(MB_HHT)), .why = "it is the numerical damping of --integrator hht",
      .help = "hht: numerical damping, A in [-1/3, 0] (default -0.05; 0: no damping,\n"
              "the trapezoidal rule)" },
    { .name = "--t-end", .example = "0.01", .meta = "S", REAL_POS(t_end),
      .analyses = TIMED, .forms = ALL, .integs = ALL, .group = MB_SIM_G_TIME,
      .why_analysis = "only quasistatic, kinematic and inverse analysis step through time "
                      "(--h to --t-end, a CSV row every --every steps)",
      .help = "end time" },
    { .name = "--h", .example = "1e-3", .meta = "S", REAL_POS(h),
      .analyses = TIMED, .forms = ALL, .integs = ALL, .group = MB_SIM_G_TIME,
      .why_analysis = "only quasistatic, kinematic and inverse analysis step through time "
                      "(--h to --t-end, a CSV row every --every steps)",
      .help = "step (rk4, trapezoid, hht); first trial step and default output\n"
              "interval (dopri5, dop853, bdf, the adaptive trapezoid)" },
    { .name = "--rtol", .example = "1e-6", .meta = "R", REAL_POS(o_rtol),
      DYNAMIC(ALL, ADAPTIVE_I),
      .why = "a fixed-step integrator (its step is --h); the tolerances steer dopri5, dop853, bdf "
             "and alf-trapezoid's trapezoid (whose step control they switch on)",
      .help = "relative error tolerance of dopri5 / dop853 / bdf (default 1e-6);\n"
              "with alf-trapezoid it (or --atol) switches on its step control\n"
              "(local error of the positions; a step whose Newton iteration fails\n"
              "is retried smaller; see docs/formulations.md); without them its\n"
              "step is fixed h" },
    { .name = "--atol", .example = "1e-8", .meta = "A", REAL_POS(o_atol), .doc_joined = 1,
      DYNAMIC(ALL, ADAPTIVE_I),
      .why = "a fixed-step integrator (its step is --h); the tolerances steer dopri5, dop853, bdf "
             "and alf-trapezoid's trapezoid (whose step control they switch on)",
      .help = "absolute error tolerance (default 1e-8); as --rtol" },
    { .name = "--xi", .example = "2", .meta = "X", REAL_NONNEG(o_xi),
      DYNAMIC(ALL, ALL & ~I(MB_HHT)),
      .why = "hht integrates the index-3 equations, without the stabilization xi and omega set",
      .help = "stabilization damping ratio (not hht)" },
    { .name = "--omega", .example = "3", .meta = "W", REAL_NONNEG(o_omega), .doc_joined = 1,
      DYNAMIC(ALL, ALL & ~I(MB_HHT)),
      .why = "hht integrates the index-3 equations, without the stabilization xi and omega set",
      .help = "stabilization frequency, 1/s (not hht)" },
    { .name = "--project-velocity", .kind = MB_OPT_FLAG, .off = OFF(proj), .set = 1,
      DYNAMIC(F(MB_BAUMGARTE), ALL & ~I(MB_HHT)), .why = "it applies to baumgarte only",
      .why_integ = "hht keeps Phi = 0 at every step itself, without baumgarte's stabilization",
      .help = "baumgarte (not hht): project v onto the velocity constraints\n"
              "each step" },
    { .name = "--baumgarte-cap", .example = "1", .meta = "C", REAL_NONNEG(o_cap),
      DYNAMIC(F(MB_BAUMGARTE), ALL & ~I(MB_HHT)), .why = "it applies to baumgarte only",
      .why_integ = "hht keeps Phi = 0 at every step itself, without baumgarte's stabilization",
      .help = "baumgarte (not hht): cap the stabilization term at C |Gamma| (0: off)" },
    { .name = "--alpha", .example = "1e7", .meta = "A", REAL_POS(o_alpha),
      DYNAMIC(ALF, ALL), .also_integs = I(MB_HHT),
      .why = "it is the penalty of alf-explicit and alf-trapezoid (and of hht's multiplier "
             "iteration); baumgarte and canonical have none",
      .help = "penalty (alf-*; hht: of its multiplier iteration, default 1e8)" },
    { .name = "--tol", .example = "1e-9", .meta = "E", REAL_POS(o_tol),
      DYNAMIC(ALF, ALL), .also_integs = I(MB_HHT),
      .why = "it bounds the iteration of alf-explicit's sigma and the Newton iterations of "
             "alf-trapezoid and hht; baumgarte and canonical do not iterate",
      .help = "alf-*, hht: eps of the sigma / Newton iteration (5.37, 5.60),\n"
              "default 1e-10 (alf-trapezoid's fixed step: at most E, below its\n"
              "truncation error)" },
    { .name = "--max-iter", .example = "5", .meta = "N", .kind = MB_OPT_INT, .off = OFF(o_maxit), .lo = 1,
      .hi = MB_MAX_ITER_LIMIT, .why_bad = "expected an integer >= 1", .why_hi = "at most " STR(MB_MAX_ITER_LIMIT),
      DYNAMIC(ALF, ALL), .also_integs = I(MB_HHT),
      .why = "it bounds the iteration of alf-explicit's sigma and the Newton iterations of "
             "alf-trapezoid and hht; baumgarte and canonical do not iterate",
      .help = "alf-*, hht: iteration limit, 1..1000 (default 10)" },
    { .name = "--max-steps", .example = "100000", .meta = "N", .kind = MB_OPT_LONG, .off = OFF(o_maxsteps), .lo = 1,
      .hi = (double)LONG_MAX, .why_bad = "expected an integer >= 1",
      DYNAMIC(ALL, ALL),
      .help = "stop with an error after N accepted steps (default 1e8; fixed-step\n"
              "runs: at least the steps t-end needs)" },
    { .name = "--sigma-reset", .example = "10", .meta = "S", REAL_NONNEG(o_sreset),
      DYNAMIC(SIGMA, ALL), .why = "baumgarte has no sigma (canonical, alf-explicit and alf-trapezoid do)",
      .ctl = MB_OPT_CTL_FIXED,
      .why_ctl = "the step control re-references sigma to zero after every step itself "
                 "(docs/formulations.md)",
      .help = "canonical, alf-*: zero sigma when |sigma| > S, p kept consistent\n"
              "(0: off, default)" },
    { .name = "--strict", .kind = MB_OPT_FLAG, .off = OFF(strict), .set = 1,
      DYNAMIC(ALL, ALL),
      .help = "every warning is an error (exit 1, status=error); alf-trapezoid, hht:\n"
              "Newton not converged in max-iter is an error" },
    { .name = "--warn-energy", .example = "0.1", .meta = "F", WARN(0),
      DYNAMIC(ALL, ALL),
      .help = "warn when |energy deviation| > F x the energy scale (default 1e-2)" },
    { .name = "--warn-phi", .example = "0.01", .meta = "F", WARN(1),
      DYNAMIC(ALL, ALL),
      .help = "warn when |Phi| > F x the length scale (default 1e-3)" },
    { .name = "--warn-sigma", .example = "5", .meta = "R", WARN(2),
      DYNAMIC(SIGMA, ALL), .why = "baumgarte has no sigma (canonical, alf-explicit and alf-trapezoid do)",
      .help = "canonical, alf-*: warn when |Phi_q^T sigma| > R x the momentum\n"
              "scale (default 5e5, float 1e3: M v keeps about eps x R of it)" },
    { .name = "--newton-reuse", .kind = MB_OPT_FLAG, .off = OFF(reuse), .set = 1,
      DYNAMIC(F(MB_ALF_TRAPEZOID), ALL),
      .why = "it steers alf-trapezoid's Newton iteration (trapezoid or bdf)",
      .help = "alf-trapezoid: keep a step's factorization while each correction\n"
              "shrinks at least 4x, full Newton for a while after a slow one\n"
              "(the default; docs/linear-systems.md)" },
    { .name = "--no-newton-reuse", .kind = MB_OPT_FLAG, .off = OFF(reuse), .set = 0, .doc_joined = 1,
      DYNAMIC(F(MB_ALF_TRAPEZOID), ALL),
      .why = "it steers alf-trapezoid's Newton iteration (trapezoid or bdf)",
      .help = "alf-trapezoid: refactor the Newton matrix at every iteration" },
    { .name = "--events", .kind = MB_OPT_FLAG, .off = OFF(events), .set = 1,
      DYNAMIC(ALL, ALL),
      .help = "locate the contacts' first touch and lift-off and the switches of\n"
              "step{} (the default): the adaptive runs of baumgarte, canonical,\n"
              "alf-explicit and bdf cut the step where a gap changes sign, found\n"
              "on the dense output, alf-trapezoid's trapezoid (also extrapolated),\n"
              "rk4 and hht on their step's cubic Hermite; every integrator ends\n"
              "its step just before a switch and starts again after it (summary\n"
              "events=, onsets=; docs/formulations.md, \"Events\")" },
    { .name = "--no-events", .kind = MB_OPT_FLAG, .off = OFF(events), .set = 0, .doc_joined = 1,
      DYNAMIC(ALL, ALL),
      .help = "locate neither contacts' first touch and lift-off nor switches" },
    { .name = "--extrapolate", .kind = MB_OPT_FLAG, .off = OFF(extrap), .set = 1,
      DYNAMIC(F(MB_ALF_TRAPEZOID), I(MB_TRAPEZOID)),
      .why = "it is a step control of alf-trapezoid's trapezoid integrator",
      .ctl = MB_OPT_CTL_STEPCTL,
      .why_ctl = "it is a mode of alf-trapezoid's step control, which --rtol or --atol switches on",
      .help = "alf-trapezoid with --rtol/--atol: the extrapolated trapezoid, order\n"
              "4 (a step is 2 trapezoid steps of half and 4 of a quarter of it,\n"
              "combined; for long runs); its xi and omega default to 1,\n"
              "over the model file's (--xi, --omega to choose)" },
    { .name = "--full-jacobian", .kind = MB_OPT_FLAG, .off = OFF(fulljac), .set = 1,
      DYNAMIC(F(MB_ALF_TRAPEZOID), I(MB_TRAPEZOID)),
      .why = "it adds terms to the Newton matrix of alf-trapezoid's trapezoid integrator",
      .help = "alf-trapezoid with trapezoid: add the second-derivative Newton\n"
              "terms the thesis neglects (finite differences of Phi_q, Phidot_q)" },
    { .name = "--warn-stability", .example = "3", .meta = "F", WARN(3),
      DYNAMIC(ALL, I(MB_RK4)),
      .why = "it watches rk4's stability limit (the adaptive integrators control their error, "
             "the implicit ones are stable)",
      .help = "rk4: warn when h |lambda| > F x its stability limit\n"
              "(default 2)" },
    { .name = "--warn-accuracy", .example = "100", .meta = "N", WARN(4),
      DYNAMIC(ALL, ALL),
      .help = "bdf, alf-trapezoid with --rtol/--atol (not --extrapolate): warn\n"
              "when the positions' error the steps' local errors add up to\n"
              "(velocity errors times the time since, with their signs) is\n"
              "> N tolerances (on alf-trapezoid S factored each step: bdf\n"
              "~15 % more work, the step control 9 .. 51 % on Andrews);\n"
              "dopri5, dop853, --extrapolate: when a companion solution at twice\n"
              "the step (half the evaluations or Newton iterations more) puts\n"
              "the global error above N tolerances. N: one threshold for all;\n"
              "default: each its own (docs/validation.md, section 10): the\n"
              "companions 10, bdf 15 (on alf-trapezoid 30), the step control 30;\n"
              "summary: err_est, the largest estimate. 0 turns the warning\n"
              "off, and the companion (docs/formulations.md)" },
    { .name = "--warn-error", .example = "1e-3", .meta = "E", .kind = MB_OPT_REAL, .off = OFF(o_warn_err),
      .lo = 0, .hi = HUGE_VAL, .why_bad = "must be >= 0 (0: off)",
      DYNAMIC(ALL, I(MB_RK4) | I(MB_HHT) | I(MB_TRAPEZOID)),
      .why = "it is the fixed-step runs' accuracy warning (the adaptive integrators' is "
             "--warn-accuracy)",
      .ctl = MB_OPT_CTL_FIXED,
      .why_ctl = "it is the fixed-step runs' accuracy warning (the step control's is --warn-accuracy)",
      .help = "rk4, hht, alf-trapezoid at a fixed step: warn when a companion\n"
              "run at twice the step (half the steps more) puts the positions'\n"
              "global error above E x the mechanism's size (default 1e-3);\n"
              "0 turns the warning and the companion off (docs/formulations.md)" },
    { .name = "--estimate-error", .kind = MB_OPT_FLAG, .off = OFF(est), .set = 1,
      DYNAMIC(ALL, ALL),
      .help = "run the problem a second time alongside, at a tenth of --rtol and\n"
              "--atol (adaptive) or half the step (fixed), and report the\n"
              "largest differences of positions, velocities and reactions at the\n"
              "output rows (est_err_q= est_err_v= est_err_r= est_steps=)" },
    { .name = "--max-error", .example = "1e-3", .meta = "E", REAL_POS(max_err),
      DYNAMIC(ALL, ALL),
      .help = "with --estimate-error: exit 1 when est_err_q > E" },
    { .name = "--linsys", .example = "dense", .meta = "L", .kind = MB_OPT_ENUM, .off = OFF(linsys), .choices = linsys_choices,
      DYNAMIC(ALL, ALL), .why_analysis = "the analyses solve their own dense systems (docs/analyses.md)",
      .help = "linear systems: sparse (the model's plan: AMD-ordered LDL^T / LU,\n"
              "default for generated code), klu (SuiteSparse KLU, default for\n"
              "--eval generic) or dense (LAPACK, the reference)" },
    { .name = "--eval", .example = "generated", .meta = "E", .kind = MB_OPT_ENUM, .off = OFF(eval), .choices = eval_choices,
      .expect = "expected generated or generic (when built with the generic evaluator)",
      .accept = accept_eval, EVERYWHERE,
      .help = "model functions: generated (default) or generic (the element-\n"
              "walking evaluator, evaluator/mb_generic.c; see docs/generic-evaluator.md)" },
    { .name = "--analysis", .example = "dynamic", .meta = "A", .kind = MB_OPT_ENUM, .off = OFF(analysis), .choices = anl_choices,
      EVERYWHERE,
      .help = "dynamic (default) | static (equilibrium from the model's guesses and\n"
              "its stability, one CSV row) | quasistatic (an equilibrium at every\n"
              "--h to --t-end along the time-varying loads and drivers) |\n"
              "kinematic | inverse (a fully driven mechanism at every --h to\n"
              "--t-end: motion, driver efforts, reactions) | modal (frequencies\n"
              "and damping, one line per mode; mode-shape frames in the CSV) |\n"
              "frequency (the steady-state response to a harmonic force: FRF\n"
              "magnitude and phase in the CSV) | linearize (A, B, C, D in\n"
              "minimal coordinates and the descriptor form E x' = A x + B u: the\n"
              "CSV and Octave/NumPy text files next to it); see docs/analyses.md" },
    { .name = "--about", .example = "static", .meta = "P", .kind = MB_OPT_CUSTOM, .off = OFF(anl.about_initial),
      .accept = accept_about, .refuse_value = about_value,
      .analyses = A(MB_CLI_MODAL) | A(MB_CLI_FREQUENCY) | A(MB_CLI_LINEARIZE), .forms = ALL, .integs = ALL,
      .group = MB_SIM_G_ANALYSIS, .why_analysis = "it applies to --analysis modal, frequency and linearize",
      .help = "modal, frequency, linearize: about the static equilibrium (static,\n"
              "default) or the assembled initial state (initial); linearize also\n"
              "t=T: the state a simulation from the initial state reaches at T s" },
    { .name = "--mode-frames", .example = "8", .meta = "N", .kind = MB_OPT_INT, .off = OFF(anl.frames), .lo = 4, .hi = 10000,
      .why_bad = "expected an integer from 4 to 10000",
      .analyses = A(MB_CLI_MODAL), .forms = ALL, .integs = ALL, .group = MB_SIM_G_ANALYSIS,
      .why_analysis = "it applies to --analysis modal",
      .help = "modal: CSV rows per mode shape, one cycle (default 48)" },
    { .name = "--input", .meta = "C", .kind = MB_OPT_STRING, .off = OFF(anl.input), .why_bad = "empty name",
      .analyses = A(MB_CLI_FREQUENCY), .forms = ALL, .integs = ALL, .group = MB_SIM_G_ANALYSIS,
      .why_analysis = FREQ_ONLY,
      .help = "frequency: where the unit harmonic force acts: <body>.x, <body>.y\n"
              "(at the CoM), <body>.phi (a torque), <body>.<point>.x|y (required)" },
    { .name = "--response", .meta = "C", .kind = MB_OPT_STRING, .off = OFF(anl.response), .why_bad = "empty name",
      .analyses = A(MB_CLI_FREQUENCY), .forms = ALL, .integs = ALL, .group = MB_SIM_G_ANALYSIS,
      .why_analysis = FREQ_ONLY,
      .help = "frequency: the output, same names (default: the input's)" },
    { .name = "--f-min", .example = "0.1", .meta = "F", .kind = MB_OPT_CUSTOM, .off = OFF(anl.f_min), .accept = accept_fmin,
      .analyses = A(MB_CLI_FREQUENCY), .forms = ALL, .integs = ALL, .group = MB_SIM_G_ANALYSIS,
      .why_analysis = FREQ_ONLY, .refuse_as = "--f-min/--f-max",
      .help = "frequency: the lowest frequency in Hz (default: a decade below the\n"
              "lowest natural frequency)" },
    { .name = "--f-max", .example = "10", .meta = "F", .kind = MB_OPT_CUSTOM, .off = OFF(anl.f_max), .accept = accept_fmax,
      .analyses = A(MB_CLI_FREQUENCY), .forms = ALL, .integs = ALL, .group = MB_SIM_G_ANALYSIS,
      .why_analysis = FREQ_ONLY, .refuse_as = "--f-min/--f-max", .doc_joined = 1,
      .help = "frequency: the highest (default: a decade above the highest)" },
    { .name = "--f-points", .example = "5", .meta = "N", .kind = MB_OPT_INT, .off = OFF(anl.f_points), .lo = 2, .hi = 1000000,
      .why_bad = "expected an integer from 2 to 1000000",
      .analyses = A(MB_CLI_FREQUENCY), .forms = ALL, .integs = ALL, .group = MB_SIM_G_ANALYSIS,
      .why_analysis = FREQ_ONLY,
      .help = "frequency: log-spaced frequencies (default 200)" },
    { .name = "--out", .meta = "FILE.csv", .kind = MB_OPT_STRING, .off = OFF(out), .why_bad = "empty file name",
      EVERYWHERE,
      .help = "write t, coordinates, energy_dev, phi_norm, phid_norm, sigma_norm,\n"
              "point coordinates, velocities, accelerations and reactions (joint\n"
              "forces, driver efforts), the model's inputs (in.<u>) and sensors\n"
              "(out.<y>) every K-th step (a regular file, not stdout: '-' is\n"
              "refused; no file when no row was computed)" },
    { .name = "--every", .example = "2", .meta = "K", .kind = MB_OPT_STRING, .off = OFF(every_arg),
      .analyses = TIMED, .forms = ALL, .integs = ALL, .group = MB_SIM_G_TIME,
      .why_analysis = "only quasistatic, kinematic and inverse analysis step through time "
                      "(--h to --t-end, a CSV row every --every steps)",
      .help = "fixed steps: a CSV row every K steps (default 1); adaptive runs\n"
              "(dopri5, dop853, bdf, alf-trapezoid with --rtol/--atol): a row every\n"
              "K seconds at t = 0, K, 2K, ... (default --h), interpolated by the\n"
              "integrator's dense output (the steps are not clipped to them)" },
    { .name = "--set", .meta = "NAME=VALUE", .kind = MB_OPT_CUSTOM, .off = OFF(set), .accept = accept_set,
      EVERYWHERE,
      .help = "set the model's tunable NAME (tunable(\"NAME\", default)) or input NAME\n"
              "(input \"NAME\" {...}: held from t = 0 in place of its default, for\n"
              "the dynamic run and every analysis); repeatable; a tunable's value\n"
              "must keep the model's rules (mass > 0, spring constants >= 0, ...);\n"
              "docs/model-language.md" },
    /* --input-file and --hold: refused by the simulator once the model is known (setup) */
    { .name = "--input-file", .meta = "F.csv", .kind = MB_OPT_STRING, .off = OFF(input_file),
      .why_bad = "empty file name", .analyses = DYN, .forms = ALL, .integs = ALL, .group = MB_SIM_G_OTHER,
      .help = "set the model's inputs from a time series at the start of each\n"
              "step that enters another row: a header t,<input>,... and rows with\n"
              "t increasing; an input it gives may not also be --set (docs/cli.md)" },
    { .name = "--hold", .meta = "zoh|foh", .kind = MB_OPT_ENUM, .off = OFF(foh), .choices = hold_choices,
      .analyses = DYN, .forms = ALL, .integs = ALL, .group = MB_SIM_G_OTHER,
      .help = "how --input-file's values hold over a step: zoh (default) the value\n"
              "of the last row at or before the step's start; foh the table\n"
              "interpolated linearly (adaptive steps stop at every row)" },
    { .name = "--quiet", .kind = MB_OPT_FLAG, .off = OFF(quiet), .set = 1, EVERYWHERE,
      .help = "print only the summary line" },
    /* --batch: main takes it (and its file) out before the table parses the rest */
    { .name = "--batch", .meta = "ROWS.csv", .kind = MB_OPT_STRING, .off = OFF(batch),
      .why_bad = "empty file name", EVERYWHERE,
      .help = "run every row of a sweep table in this one process, each as if its\n"
              "values were options after the others (a column h, t_end,\n"
              "formulation or integrator: that option; any other: --set NAME=VALUE;\n"
              "a first column 'row': the rows' numbers); prints one summary.csv row\n"
              "per table row (row, the columns, status, exit, the summary line's\n"
              "fields, message) and each row's stderr prefixed 'row N: '; exit 0\n"
              "when every row succeeded, 1 when one did not, 2 for a bad table\n"
              "(docs/sweeps.md)" },
    { .name = "-h", .kind = MB_OPT_HELP, EVERYWHERE },
    { .name = "--help", .kind = MB_OPT_HELP, EVERYWHERE, .doc_joined = 1, .help = "this text" },
    { .name = NULL }
};

/* mb_sim_cli.given has a flag per row */
typedef char rows_fit_given[sizeof rows / sizeof rows[0] <= MB_SIM_MAX_OPT ? 1 : -1];

static const char *form_names[4], *integ_names[6];

void mb_sim_options(mb_optable *t, const char *prog)
{
    /* the choices in the order the messages list them */
    static const int integ_order[6] = { MB_RK4, MB_DOPRI5, MB_DOP853, MB_BDF, MB_TRAPEZOID, MB_HHT };
    static const int anl_order[MB_CLI_NANALYSES] = { MB_CLI_DYNAMIC, MB_CLI_STATIC, MB_CLI_QUASISTATIC,
        MB_CLI_KINEMATIC, MB_CLI_INVERSE, MB_CLI_MODAL, MB_CLI_FREQUENCY, MB_CLI_LINEARIZE };
    for (int k = 0; k < 4; k++) {
        form_names[k] = mb_formulation_name(k);
        form_choices[k] = (mb_opt_choice){ form_names[k], k };
    }
    for (int k = 0; k < 6; k++) {
        integ_names[k] = mb_integrator_name(k);
        integ_choices[k] = (mb_opt_choice){ mb_integrator_name(integ_order[k]), integ_order[k] };
    }
    for (int k = 0; k < MB_CLI_NANALYSES; k++)
        anl_choices[k] = (mb_opt_choice){ mb_cli_analysis_name(anl_order[k]), anl_order[k] };
    memset(t, 0, sizeof *t);
    t->opt = rows;
    t->prog = prog;
    t->analyses = mb_cli_analysis_names;
    t->nanalyses = MB_CLI_NANALYSES;
    t->forms = form_names;
    t->nforms = 4;
    t->integs = integ_names;
    t->ninteg = 6;
    t->why_analysis = NOT_DYNAMIC;
}

void mb_sim_cli_reset(mb_sim_cli *c)
{
    static const mb_cli_aopt adef = MB_CLI_AOPT_DEFAULT;
    memset(c, 0, sizeof *c);
    c->form = c->integ = c->linsys = c->o_maxit = c->reuse = c->events = -1;
    c->every = 1;
    c->o_maxsteps = -1;
    c->o_rtol = c->o_atol = c->o_alpha = c->o_xi = c->o_omega = c->o_tol = -1;
    c->o_sreset = c->o_cap = -1;
    c->o_hht = 1;
    for (int i = 0; i < 5; i++) c->o_warn[i] = -1;
    c->o_warn_err = -1;
    c->anl = adef;
}
