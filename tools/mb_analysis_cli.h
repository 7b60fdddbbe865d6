/* mb_analysis_cli.h - the simulator's side of the analyses (runtime/mb_analysis.h): the CSV
 * columns of velocities, accelerations and reactions that every CSV carries, and the analyses
 * other than dynamics (--analysis static|quasistatic|kinematic|inverse|modal|frequency). Layer: host tool (tools/);
 * allocates and prints. See docs/analyses.md and docs/cli.md. */
#ifndef MB_ANALYSIS_CLI_H
#define MB_ANALYSIS_CLI_H

#include <stddef.h>
#include <stdio.h>
#include "mb_model.h"

enum { MB_CLI_DYNAMIC = 0, MB_CLI_STATIC = 1, MB_CLI_KINEMATIC = 2, MB_CLI_INVERSE = 3,
       MB_CLI_MODAL = 4, MB_CLI_QUASISTATIC = 5, MB_CLI_FREQUENCY = 6, MB_CLI_LINEARIZE = 7 };

/* "dynamic", "static", "kinematic", "inverse", "modal", "quasistatic", "frequency" -> MB_CLI_*,
 * -1 for anything else. */
int mb_cli_analysis_parse(const char *s);
const char *mb_cli_analysis_name(int a);

/* The analyses' own options (--about, --input, --response, --f-min, --f-max, --f-points,
 * --mode-frames; docs/cli.md): is_option says whether name is one, option stores its value
 * (NULL, or why the value is invalid), check (after all options) says why they do not fit
 * analysis `which` (NULL: they do). */
void mb_cli_analysis_reset(void);   /* back to the defaults (before parsing a command line) */
int mb_cli_analysis_is_option(const char *name);
const char *mb_cli_analysis_option(const char *name, const char *val);
const char *mb_cli_analysis_check(int which);
/* The --help lines of --analysis and those options. */
void mb_cli_analysis_usage(FILE *f);

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

/* Redundant constraint equations at the assembled configuration (t, q), named by element on
 * stderr, one warning line per element ("<prog>_sim: warning: redundant constraint: joint "A2"
 * (A2.x, A2.y) duplicates joint "A1" (rank 2 of 4 ...)"), by mb_anl_redundant. Returns their number, 0 if none, -1 when not
 * checked (a model too large for the dense check, out of memory). dep_out: NULL or nc bytes, the
 * flags of the dependent equations when there are any (mb_params: redundant_rows). */
int mb_cli_redundant(const mb_model *m, mb_real t, const mb_real *q, const char *prog, unsigned char *dep_out);

/* Run analysis `which` (not dynamic) on m: the CSV to `out` (may be NULL) through the temporary
 * path tmp[tmpsize] (which the caller's signal handler removes), the summary line on stdout.
 * t_end, h, every: the output times of kinematic, inverse and quasistatic analysis. Returns the exit status
 * (0 done, 1 the analysis failed or the CSV could not be written). */
int mb_cli_run_analysis(int which, const mb_model *m, const char *out, char *tmp, size_t tmpsize,
                        double t_end, double h, int every, int quiet);

#endif /* MB_ANALYSIS_CLI_H */
