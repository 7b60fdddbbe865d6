/* mb_analysis_cli.h - the simulator's side of the analyses (runtime/mb_analysis.h): the CSV
 * columns of velocities, accelerations and reactions that every CSV carries, and the analyses
 * other than dynamics (--analysis static|quasistatic|kinematic|inverse|modal|frequency|linearize).
 * Layer: host tool (tools/); allocates and prints. See docs/analyses.md and docs/cli.md. */
#ifndef MB_ANALYSIS_CLI_H
#define MB_ANALYSIS_CLI_H

#include <stddef.h>
#include <stdio.h>
#include "mb_model.h"

enum { MB_CLI_DYNAMIC = 0, MB_CLI_STATIC = 1, MB_CLI_KINEMATIC = 2, MB_CLI_INVERSE = 3,
       MB_CLI_MODAL = 4, MB_CLI_QUASISTATIC = 5, MB_CLI_FREQUENCY = 6, MB_CLI_LINEARIZE = 7 };

/* "dynamic", "static", "kinematic", "inverse", "modal", "quasistatic", "frequency",
 * "linearize" -> MB_CLI_*, -1 for anything else; the names indexed by MB_CLI_*. */
int mb_cli_analysis_parse(const char *s);
const char *mb_cli_analysis_name(int a);
#define MB_CLI_NANALYSES 8
extern const char *const mb_cli_analysis_names[MB_CLI_NANALYSES];

/* The analyses' own options (--about, --input, --response, --f-min, --f-max, --f-points,
 * --mode-frames; their rows: tools/mb_sim_options.c). */
typedef struct mb_cli_aopt {
    int about_initial;              /* --about initial: linearize about the assembled q0 */
    double about_t;                 /* --about t=T (linearize): the state at T, else -1 */
    const char *input, *response;   /* --input, --response (frequency) */
    double f_min, f_max;            /* --f-min, --f-max in Hz (0: from the natural frequencies) */
    int f_points;                   /* --f-points (default 200) */
    int frames;                     /* --mode-frames: animation frames per mode (default 48) */
} mb_cli_aopt;
#define MB_CLI_AOPT_DEFAULT { 0, -1, NULL, NULL, 0, 0, 200, 48 }
/* What the analysis `which` needs of them beyond the options that apply to it (those the
 * option table refuses): NULL, or why not (frequency without --input, an empty range). */
const char *mb_cli_analysis_check(int which, const mb_cli_aopt *ao);

/* The extra columns of a dynamic run's CSV: open (allocates the reaction solver; -1 when out of
 * memory), the header part (",<body>.vx,...,<J>.fx,..."), the row part at (t, q, v) (v NULL:
 * not known, empty fields), close. */
int mb_cli_csv_open(const mb_model *m, const char *prog);
void mb_cli_csv_header(FILE *f, const mb_model *m);
void mb_cli_csv_row(FILE *f, const mb_model *m, mb_real t, const mb_real *q, const mb_real *v);
void mb_cli_csv_close(void);
/* The sensors y [nout] at (t, q, v) (m: the model mb_cli_csv_open was given); those that read
 * reactions take the multipliers of the reaction columns. 1, or 0 when the multipliers could
 * not be solved (the row's sensors are then left empty). */
int mb_cli_csv_outputs(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *y);
/* The multipliers (the joints' reactions in the constraint rows' units: N, N m) at (t, q, v) by
 * the CSV's reaction solver (open first) into lam[nc]; MB_OK or why not (lam untouched). */
int mb_cli_multipliers(mb_real t, const mb_real *q, const mb_real *v, mb_real *lam, int nc);

/* Redundant constraint equations at the assembled configuration (t, q), named by element on
 * stderr, one warning line per element ("<prog>_sim: warning: redundant constraint: joint "A2"
 * (A2.x, A2.y) duplicates joint "A1" (rank 2 of 4 ...)"), by mb_anl_redundant. Returns their number, 0 if none, -1 when not
 * checked (a model too large for the dense check, out of memory). dep_out: NULL or nc bytes, the
 * flags of the dependent equations when there are any (mb_params: redundant_rows). */
int mb_cli_redundant(const mb_model *m, mb_real t, const mb_real *q, const char *prog, unsigned char *dep_out);

/* Run analysis `which` (not dynamic) on m: the CSV to `out` (may be NULL) through the temporary
 * path tmp[tmpsize] (which the caller's signal handler removes), the summary line on stdout.
 * ao: the analyses' own options. t_end, h, every: the output times of kinematic, inverse and quasistatic analysis. Returns the exit status
 * (0 done, 1 the analysis failed or the CSV could not be written). */
int mb_cli_run_analysis(int which, const mb_model *m, const mb_cli_aopt *ao, const char *out,
                        char *tmp, size_t tmpsize, double t_end, double h, int every, int quiet);

#endif /* MB_ANALYSIS_CLI_H */
