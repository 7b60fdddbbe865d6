/* mb_batch.c - the simulator's --batch ROWS.csv: one process, one row after the other, one
 * summary.csv row each (mb_batch.h). The per-row sweep started a process per row and gathered
 * its stdout and stderr from files; here each row's stdout and stderr are captured the same
 * way (descriptors 1 and 2 on two temporary files, emptied before each row), so a row's
 * summary row holds what the per-row sweep gathered, and the run itself is main's, unchanged. */
#define _POSIX_C_SOURCE 200809L
#include "mb_batch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mb_sweep_table.h"

#define CAPTURE_MAX 65536   /* bytes read back of a row's stderr (its start) */
#define OUT_MAX (8L << 20)   /* bytes read back of a row's stdout (its end: the summary line) */
#define MAX_FIELDS 32768   /* fields of a summary line: a sensor each (20000 elements at most) */
#define MSG_MAX 1024

int mb_batch_find(int argc, char **argv, int (*is_value)(const char *a), const char *prog,
                  const char **file, int *at)
{
    *file = NULL;
    *at = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *f = NULL;
        if (!strcmp(a, "--batch")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s: option --batch needs a value (a table of rows: docs/sweeps.md)\n", prog);
                return 2;
            }
            f = argv[i + 1];
        } else if (!strncmp(a, "--batch=", 8)) {
            f = a + 8;
        } else {
            if (!strchr(a, '=') && is_value(a)) i++;   /* the option's value: not an option */
            continue;
        }
        if (*file) {
            fprintf(stderr, "%s: --batch given twice\n", prog);
            return 2;
        }
        if (!*f) {
            fprintf(stderr, "%s: invalid value '' for --batch: empty file name\n", prog);
            return 2;
        }
        *file = f;
        *at = i;
        if (f == argv[i + 1 < argc ? i + 1 : i]) i++;
    }
    return 0;
}

/* a growing string */
typedef struct { char *s; size_t n, cap; int nomem; } sbuf;
static void put_n(sbuf *b, const char *s, size_t n)
{
    if (b->nomem) return;
    if (b->n + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 512;
        while (b->n + n + 1 > c) c *= 2;
        char *ns = realloc(b->s, c);
        if (!ns) { b->nomem = 1; return; }
        b->s = ns;
        b->cap = c;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}
static void put(sbuf *b, const char *s) { put_n(b, s, strlen(s)); }
static void csv_field(sbuf *b, const char *s)   /* quoted when it holds a comma or a quote */
{
    if (!strpbrk(s, ",\"")) { put(b, s); return; }
    put(b, "\"");
    for (; *s; s++) put_n(b, *s == '"' ? "\"\"" : s, *s == '"' ? 2 : 1);
    put(b, "\"");
}

static int write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t k = write(fd, s, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        s += k;
        n -= (size_t)k;
    }
    return 0;
}

/* descriptor fd's content from offset off, at most cap bytes, NUL-terminated */
static size_t read_back(int fd, long off, char *buf, size_t cap)
{
    size_t n = 0;
    while (n < cap) {
        ssize_t k = pread(fd, buf + n, cap - n, (off_t)off + (off_t)n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        n += (size_t)k;
    }
    buf[n] = 0;
    return n;
}

/* the last line of s (the simulator's summary line), in place */
static char *last_line(char *s, size_t len)
{
    while (len && (s[len - 1] == '\n' || s[len - 1] == '\r')) s[--len] = 0;
    while (len && s[len - 1] != '\n') len--;
    return s + len;
}

/* split "k=v k=v" into pairs in place (at most max) */
static int pairs(char *line, char **key, char **val, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " ", &save); tok && n < max; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) continue;
        *eq = 0;
        key[n] = tok;
        val[n++] = eq + 1;
    }
    return n;
}

/* the first line of text a row wrote on stderr, one line of printable text */
static void first_line(const char *e, size_t len, char msg[MSG_MAX])
{
    msg[0] = 0;
    for (const char *p = e, *q; p < e + len; p = q + 1) {
        q = memchr(p, '\n', (size_t)(e + len - p));
        if (!q) q = e + len;
        if (q == p) continue;
        size_t m = (size_t)(q - p) < MSG_MAX - 1 ? (size_t)(q - p) : MSG_MAX - 1;
        while (m && p[m - 1] == '\r') m--;
        for (size_t i = 0; i < m; i++) msg[i] = (unsigned char)p[i] < 0x20 && p[i] != '\t' ? '?' : p[i];
        msg[m] = 0;
        return;
    }
}

/* name is one of the table's columns (the row number's aside) */
static int is_column(const mb_sweep_table *t, int c0, const char *name)
{
    for (int c = c0; c < t->ncol; c++)
        if (!strcmp(t->name[c], name)) return 1;
    return 0;
}

/* the header (row, the columns, status, exit, the nf fields, message), then the rows held
 * back in held: each \x01 in them stands for the empty fields a row without a summary line has */
static int header(int fd, const mb_sweep_table *t, int c0, char *const *fkey, int nf, sbuf *held)
{
    sbuf h = { 0 };
    put(&h, "row");
    for (int c = c0; c < t->ncol; c++) { put(&h, ","); put(&h, t->name[c]); }
    put(&h, ",status,exit");
    for (int i = 0; i < nf; i++) { put(&h, ","); put(&h, fkey[i]); }
    put(&h, ",message\n");
    for (size_t i = 0; held->s && i < held->n; i++) {
        if (held->s[i] != '\x01') { put_n(&h, held->s + i, 1); continue; }
        for (int k = 0; k <= nf; k++) put(&h, ",");
    }
    int rc = h.nomem || write_all(fd, h.s, h.n) != 0 ? -1 : 0;
    free(h.s);
    return rc;
}

int mb_batch_main(const char *prog, const char *file, int argc, char **argv, int at,
                  mb_batch_run_fn run)
{
    size_t len;
    char err[2400];
    mb_sweep_table t;
    char *data = mb_sweep_slurp(file, &len);
    if (!data) {
        fprintf(stderr, "%s: --batch %s: cannot read: %s\n", prog, file, strerror(errno));
        return 2;
    }
    int trc = mb_sweep_table_read(data, len, file, &t, err, sizeof err);
    free(data);
    if (trc) { fprintf(stderr, "%s: --batch %s\n", prog, err); return 2; }
    /* the row numbers: a first column "row" (build/mb_sweep split writes it), else 1, 2, ... */
    int c0 = t.ncol > 0 && !strcmp(t.name[0], "row");
    long *rownum = malloc(sizeof(long) * (size_t)t.nrow);
    if (!rownum) { mb_sweep_table_free(&t); fprintf(stderr, "%s: out of memory\n", prog); return 2; }
    for (long r = 0; r < t.nrow; r++) {
        rownum[r] = r + 1;
        if (!c0) continue;
        const char *s = t.cell[r * t.ncol];
        char *x;
        errno = 0;
        long v = strtol(s, &x, 10);
        if (*x || x == s || errno || v < 1 || s[0] == '+' || s[0] == '-') {
            fprintf(stderr, "%s: --batch %s:%ld: row '%s' is not a row number (an integer >= 1)\n",
                    prog, file, r + 2, s);
            free(rownum);
            mb_sweep_table_free(&t);
            return 2;
        }
        rownum[r] = v;
    }
    /* the base options: argv without --batch FILE; a CSV per row (--out) is refused */
    int nbase = 0, skip = !strcmp(argv[at], "--batch") ? 2 : 1;
    int npar = t.ncol - c0;
    char **av = malloc(sizeof(char *) * (size_t)(argc + 2 * npar + 1));
    if (!av) { free(rownum); mb_sweep_table_free(&t); fprintf(stderr, "%s: out of memory\n", prog); return 2; }
    for (int i = 0; i < argc; i++) {
        if (i >= at && i < at + skip) continue;
        if (i > 0 && (!strcmp(argv[i], "--out") || !strncmp(argv[i], "--out=", 6))) {
            fprintf(stderr, "%s: option --out has no effect with --batch: a batch prints one summary "
                    "row per table row, no CSV of the motion (run the row alone for that)\n", prog);
            free(av); free(rownum); mb_sweep_table_free(&t);
            return 2;
        }
        av[nbase++] = argv[i];
    }
    /* the rows' output: the real stdout and stderr, kept aside; 1 and 2 point at the captures */
    fflush(stdout);
    fflush(stderr);
    FILE *co = tmpfile(), *ce = tmpfile();
    int res = dup(1), efd = dup(2);
    FILE *errs = efd >= 0 ? fdopen(efd, "w") : NULL;
    if (!co || !ce || res < 0 || !errs || dup2(fileno(co), 1) < 0 || dup2(fileno(ce), 2) < 0) {
        fprintf(stderr, "%s: --batch: cannot capture the rows' output: %s\n", prog, strerror(errno));
        if (res >= 0) { dup2(res, 1); close(res); }
        if (errs) { dup2(efd, 2); fclose(errs); }
        if (co) fclose(co);
        if (ce) fclose(ce);
        free(av); free(rownum); mb_sweep_table_free(&t);
        return 2;
    }
    char *out = malloc(OUT_MAX + 1), *ebuf = malloc(CAPTURE_MAX + 1);
    char *fline = NULL;   /* the fields: the first row with a summary line's */
    char **fkey = malloc(3 * sizeof(char *) * MAX_FIELDS), **key = fkey + MAX_FIELDS, **val = key + MAX_FIELDS;
    int nf = -1, bad = 0, werr = 0, oom = 0;
    sbuf pending = { 0 }, line = { 0 };      /* rows before the fields are known; one row */
    int header_done = 0;
    for (long r = 0; r < t.nrow && out && ebuf && fkey && !werr; r++) {
        /* the row's command line: the base options, then the row's (a later option wins) */
        int n = nbase;
        char **sets = calloc((size_t)npar + 1, sizeof(char *));
        if (!sets) { oom = 1; break; }
        for (int c = 0; c < npar && !oom; c++) {
            const char *name = t.name[c0 + c], *val = t.cell[r * t.ncol + c0 + c];
            const char *opt = mb_sweep_option(name);
            sets[c] = NULL;
            if (opt) { av[n++] = (char *)opt; av[n++] = (char *)val; continue; }
            sets[c] = malloc(strlen(name) + strlen(val) + 2);
            if (!sets[c]) { oom = 1; break; }
            sprintf(sets[c], "%s=%s", name, val);
            av[n++] = "--set";
            av[n++] = sets[c];
        }
        av[n] = NULL;
        if (oom) {   /* (the row not run: the batch stops, out of memory) */
            for (int c = 0; c < npar; c++) free(sets[c]);
            free(sets);
            break;
        }
        (void)!ftruncate(1, 0);
        (void)!ftruncate(2, 0);
        lseek(1, 0, SEEK_SET);
        lseek(2, 0, SEEK_SET);
        int rc = run(n, av);
        fflush(stdout);
        fflush(stderr);
        for (int c = 0; c < npar; c++) free(sets[c]);
        free(sets);
        long osz = (long)lseek(1, 0, SEEK_END), esz = (long)lseek(2, 0, SEEK_END);
        size_t on = read_back(1, osz > OUT_MAX ? osz - OUT_MAX : 0, out, OUT_MAX);
        size_t en = read_back(2, 0, ebuf, esz > CAPTURE_MAX ? CAPTURE_MAX : (size_t)(esz > 0 ? esz : 0));
        /* status, as the per-row sweep's gather read it: the summary line's first word, then
         * the exit status (a fault that exits non-zero is an error) */
        char *sl = last_line(out, on);
        const char *st;
        if (!strncmp(sl, "status=ok", 9) && (!sl[9] || sl[9] == ' ')) st = "ok";
        else if (!strncmp(sl, "status=error", 12) && (!sl[12] || sl[12] == ' ')) st = "error";
        else st = "failed";
        if (nf < 0 && *sl) {   /* the field names: this row's summary line, when it has fields */
            char *cp = strdup(sl);
            int k = cp ? pairs(cp, key, val, MAX_FIELDS) : 0, m = 0;
            for (int i = 0; i < k; i++)   /* (a field the table has as a column is its column) */
                if (strcmp(key[i], "status") && !is_column(&t, c0, key[i])) fkey[m++] = key[i];
            if (m > 0) { nf = m; fline = cp; }
            else free(cp);
        }
        int np = strcmp(st, "failed") ? pairs(sl, key, val, MAX_FIELDS) : 0;
        if (rc != 0 && strcmp(st, "failed")) st = "error";
        char msg[MSG_MAX] = "";
        if (strcmp(st, "ok")) { first_line(ebuf, en, msg); bad = 1; }
        /* the summary row: row, the columns, status, exit, the fields, message */
        char num[48];
        line.n = 0;
        snprintf(num, sizeof num, "%ld", rownum[r]);
        put(&line, num);
        for (int c = 0; c < npar; c++) { put(&line, ","); put(&line, t.cell[r * t.ncol + c0 + c]); }
        snprintf(num, sizeof num, ",%s,%d", st, rc);
        put(&line, num);
        for (int i = 0, j0 = 0; i < (nf > 0 ? nf : 0); i++) {
            const char *v = "";   /* (a line's keys are distinct and in the same order as the
                                     first row's: the search starts after the last match) */
            for (int k = 0; k < np; k++) {
                int j = (j0 + k) % np;
                if (!strcmp(key[j], fkey[i])) { v = val[j]; j0 = j + 1; break; }
            }
            put(&line, ",");
            csv_field(&line, v);
        }
        /* (a row before the fields are known has none: its stdout had no summary line) */
        put(&line, nf > 0 ? ",\"" : "\x01\"");
        for (const char *p = msg; *p; p++) put_n(&line, *p == '"' ? "\"\"" : p, *p == '"' ? 2 : 1);
        put(&line, "\"\n");
        if (line.nomem) break;
        if (nf < 0) {
            put_n(&pending, line.s, line.n);   /* held until the header can be written */
        } else {
            if (!header_done) {   /* the header, then the rows held back, with empty fields */
                werr |= header(res, &t, c0, fkey, nf, &pending) != 0;
                header_done = 1;
            }
            werr |= write_all(res, line.s, line.n) != 0;
        }
        /* the row's stderr, on to the batch's, a line at a time with its row */
        for (const char *p = ebuf, *q; p < ebuf + en; p = q + 1) {
            q = memchr(p, '\n', (size_t)(ebuf + en - p));
            if (!q) q = ebuf + en;
            fprintf(errs, "row %ld: %.*s\n", rownum[r], (int)(q - p), p);
        }
        fflush(errs);
    }
    int incomplete = oom || !out || !ebuf || !fkey || line.nomem || pending.nomem;
    if (!header_done && !werr && !incomplete)   /* no row had a summary line: no fields */
        werr |= header(res, &t, c0, fkey, 0, &pending) != 0;
    free(pending.s);
    free(line.s);
    free(fline);
    free(fkey);
    free(out);
    free(ebuf);
    /* the real stdout and stderr back */
    fflush(stdout);
    fflush(stderr);
    dup2(res, 1);
    close(res);
    dup2(efd, 2);
    fclose(errs);
    fclose(co);
    fclose(ce);
    free(av);
    free(rownum);
    mb_sweep_table_free(&t);
    if (incomplete) { fprintf(stderr, "%s: --batch: out of memory\n", prog); return 2; }
    if (werr) { fprintf(stderr, "%s: --batch: cannot write the summary rows: %s\n", prog, strerror(errno)); return 2; }
    return bad ? 1 : 0;
}
