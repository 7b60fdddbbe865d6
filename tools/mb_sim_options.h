/* mb_sim_options.h - what the simulator's command line asks for (mb_sim_cli) and the table of
 * its options that fills it (tools/mb_sim_options.c, through tools/mb_optable.h): each option
 * once, with its kind, its field, where it applies and its help text. docs/cli.md's option
 * rows are the table's (build/<m>_sim --help=markdown; tests/test_sim_options.sh).
 * Layer: host tool (tools/). */
#ifndef MB_SIM_OPTIONS_H
#define MB_SIM_OPTIONS_H

#include "mb_analysis_cli.h"
#include "mb_optable.h"

#define MB_SIM_MAX_SET 2000   /* --set options per run: each of 1000 tunables and 1000 inputs */
#define MB_SIM_MAX_OPT 64    /* rows of the table */
#define LINSYS_KLU 100       /* --linsys klu: SuiteSparse KLU through mb_params.linsys_ops */

/* What the command line asks for; -1 (o_hht: 1): not given, the default applies. */
typedef struct mb_sim_cli {
    int form, integ, every, quiet, proj, strict, fulljac, reuse, linsys, o_maxit;
    int events;                /* --events / --no-events (not given: on) */
    int adaptive, trap_adaptive;   /* derived: an adaptive run; alf-trapezoid's step control */
    int extrap;                /* --extrapolate (alf-trapezoid's step control, p.adaptive 2) */
    int analysis;              /* MB_CLI_DYNAMIC (0) or another --analysis (tools/mb_analysis_cli.c) */
    int eval;                  /* --eval: 0 generated, 1 generic */
    long o_maxsteps;
    const char *out, *every_arg;
    int nset;                  /* --set NAME=VALUE, in the order given (a later one wins) */
    const char *set[MB_SIM_MAX_SET];
    const char *input_file;    /* --input-file (tools/mb_input_file.h) */
    const char *batch;         /* --batch: read by main before the table (tools/mb_batch.c) */
    int foh;                   /* --hold foh */
    double h, t_end, dt_out;   /* step, end time, output interval (adaptive) */
    double o_rtol, o_atol, o_alpha, o_xi, o_omega, o_tol, o_sreset, o_cap, o_warn[5];
    double o_hht;              /* --hht-alpha */
    int est;                   /* --estimate-error (--max-error implies it) */
    double max_err;            /* --max-error (0: not given) */
    double o_warn_err;         /* --warn-error (fixed steps' companion at 2h; -1: not given) */
    mb_cli_aopt anl;           /* the analyses' own options */
    unsigned char given[MB_SIM_MAX_OPT];   /* the table's rows given */
} mb_sim_cli;

/* The refusal passes (mb_opt.group), in the order the simulator runs them. */
enum { MB_SIM_G_ANALYSIS, MB_SIM_G_DYNAMIC, MB_SIM_G_TIME, MB_SIM_G_OTHER };

/* The table, its messages prefixed with prog ("<model>_sim"). */
void mb_sim_options(mb_optable *t, const char *prog);
/* c's fields at "not given" (the model's defaults of h and t_end are the caller's). */
void mb_sim_cli_reset(mb_sim_cli *c);

/* --eval's choice, checked by the simulator (it knows the model): NULL or why not
 * (tools/mb_sim_main.c). */
const char *mb_sim_eval_accept(int eval);

#endif /* MB_SIM_OPTIONS_H */
