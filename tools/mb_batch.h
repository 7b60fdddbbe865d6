/* mb_batch.h - the simulator's --batch ROWS.csv (docs/sweeps.md, "One process, many rows"):
 * every row of a sweep table run in one process, one after the other, each exactly as a
 * command line of its own would run it (the base options, then the row's: --set NAME=VALUE,
 * --h, --t-end, --formulation, --integrator), and one summary.csv row printed per table row.
 * Layer: host tool (tools/); allocates, redirects the process's stdout and stderr per row.
 *
 * The rows file is a sweep table (tools/mb_sweep_table.h); a first column named "row" gives
 * the rows' numbers (what build/mb_sweep split writes), else they are numbered from 1. Each
 * row's stdout and stderr are captured (file descriptors 1 and 2 point at temporary files
 * while it runs); its summary row is what the per-row sweep gathered from them: row, the
 * columns, status (ok | error | failed), exit, the fields of the summary line, message (the
 * first line on stderr of a row that did not succeed). The header comes first, once the first
 * row with a summary line named the fields; each row is one write(2), so an interrupted batch
 * leaves whole rows (and maybe a partial last line, without its line break). Each row's stderr
 * goes on to the batch's stderr, every line prefixed "row N: ". */
#ifndef MB_BATCH_H
#define MB_BATCH_H

/* one run of the simulator, as main would run it (argv[0] included) */
typedef int (*mb_batch_run_fn)(int argc, char **argv);

/* --batch in argv (--batch FILE or --batch=FILE, options' values skipped: is_value(a) says
 * whether option a takes one): 0 and *file NULL when not there; 0 with *file and *at (its
 * index) when there; 2 after a message when its value is missing or it is given twice. */
int mb_batch_find(int argc, char **argv, int (*is_value)(const char *a), const char *prog,
                  const char **file, int *at);

/* Run every row of FILE with the options argv minus --batch. Returns 0 (every row ok), 1 (a
 * row did not succeed) or 2 (the file is no table, or it cannot be read: a message naming
 * file:line, nothing printed on stdout; --out given: a CSV per row is not what a batch does). */
int mb_batch_main(const char *prog, const char *file, int argc, char **argv, int at,
                  mb_batch_run_fn run);

#endif
