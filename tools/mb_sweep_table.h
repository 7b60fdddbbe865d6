/* mb_sweep_table.h - the parameter table of a sweep (docs/sweeps.md, "The table"): its reader
 * and checker, its normalized text, and the simulator options of a row. One reader for every
 * engine: tools/mb_sweep_main.c (build/mb_sweep, run by scripts/sweep*.sh for GNU parallel and
 * Slurm alike) and the libFuzzer target tests/fuzz/fuzz_sweep_table.c.
 * Layer: host tool helper (tools/); allocates, the caller does the file I/O.
 *
 * The table: a header of column names (identifiers), then one row per run, each with a value
 * per column (made of [-+.0-9A-Za-z_], surrounding blanks and tabs dropped). Accepted: a UTF-8
 * byte-order mark before the header, CRLF line ends, a last line without a line break. Refused
 * (one message naming file:line): an empty table or header, a name that is no identifier or is
 * given twice, a blank line, a row of another length than the header, an empty cell, any other
 * character (quotes, ';', '$', control bytes: shown escaped), a cell over MB_SWEEP_MAX_CELL
 * characters, no rows. */
#ifndef MB_SWEEP_TABLE_H
#define MB_SWEEP_TABLE_H

#include <stddef.h>

#define MB_SWEEP_MAX_CELL 255   /* characters of a name or a value (numbers need far fewer) */

typedef struct mb_sweep_table {
    int ncol;
    long nrow;
    char **name;    /* [ncol] the column names */
    char **cell;    /* [nrow * ncol] row r's value of column c: cell[r * ncol + c] */
    char *store;    /* the strings above, each NUL-terminated */
} mb_sweep_table;

/* Read len bytes (a file's content; NUL bytes are content, refused as characters); file names
 * it in messages. Returns 0 with *t filled (free it with mb_sweep_table_free), or 2 with err
 * holding one line "file:line: what" (printable ASCII: no line break; other bytes escaped as
 * \xNN) and *t empty; 1 when memory ran out. */
int mb_sweep_table_read(const char *data, size_t len, const char *file, mb_sweep_table *t,
                        char *err, size_t errlen);
void mb_sweep_table_free(mb_sweep_table *t);

/* The simulator option a column names (h: "--h", t_end: "--t-end", formulation,
 * integrator), or NULL: a tunable (--set NAME=VALUE). */
const char *mb_sweep_option(const char *name);

/* The normalized table (header and rows joined by ',', values trimmed, '\n' after every line;
 * reading it gives the same table): a malloc'd string, its length in *len; NULL: no memory. */
char *mb_sweep_table_text(const mb_sweep_table *t, size_t *len);

/* The options of row r (0-based), one argument a line ("--set\nk=12000\n--t-end\n0.3\n"):
 * a malloc'd string, its length in *len; NULL: no memory. */
char *mb_sweep_row_options(const mb_sweep_table *t, long r, size_t *len);

/* A file's content, NUL-terminated (*len bytes before it; malloc'd), or NULL with errno (the
 * sweep's tables, blocks and results, and --batch's rows). */
char *mb_sweep_slurp(const char *path, size_t *len);

#endif
