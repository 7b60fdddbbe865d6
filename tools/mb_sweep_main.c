/* mb_sweep_main.c - build/mb_sweep, the bookkeeping of a parameter sweep (docs/sweeps.md): the
 * table checked, the rows still to run, a row's options, the summary. scripts/sweep.sh,
 * sweep_task.sh and sweep_gather.sh call it, for GNU parallel and Slurm alike; one process per
 * step, not per row (a 100000-row table in about a second).
 *
 * Usage: mb_sweep check TABLE       TABLE checked (tools/mb_sweep_table.h); its normalized
 *                                   text on stdout, or one message on stderr and exit 2
 *        mb_sweep plan DIR          DIR/params.csv (a checked table) against DIR/runs/: writes
 *                                   DIR/todo, the rows to run (no result, a failed one, or other
 *                                   options than the row gives now), removes those rows' results
 *                                   and those of rows beyond the table; prints "ROWS TODO"
 *        mb_sweep options DIR ROW   the simulator options of row ROW (1-based), one a line
 *        mb_sweep gather DIR        DIR/summary.csv from DIR/runs/; a line on stderr for each
 *                                   row that did not succeed; prints "ROWS OK"
 *        mb_sweep --help            this usage on stdout
 * Exit status: 0, or 2 with a message (bad input, a file that cannot be read or written). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mb_sweep_table.h"

static int die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("sweep: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

/* a file's content (NUL-terminated, *len bytes before it), or NULL with errno */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    while (s) {
        n += fread(s + n, 1, cap - 1 - n, f);
        if (n < cap - 1) break;
        char *ns = realloc(s, 2 * cap);
        if (!ns) { free(s); s = NULL; errno = ENOMEM; break; }
        s = ns;
        cap *= 2;
    }
    if (s && ferror(f)) { free(s); s = NULL; errno = EIO; }
    fclose(f);
    if (s) { s[n] = 0; *len = n; }
    return s;
}

static int load(const char *path, mb_sweep_table *t)
{
    size_t len;
    char err[2400];
    char *data = slurp(path, &len);
    if (!data) return die("cannot read %s: %s", path, strerror(errno));
    int rc = mb_sweep_table_read(data, len, path, t, err, sizeof err);
    free(data);
    if (rc) { fprintf(stderr, "sweep: %s\n", err); return 2; }
    return 0;
}

/* DIR (argv[2]) and its files: DIR/<name>, and DIR/runs/<row>.<ext> through runs_fd (one
 * file name to resolve per file, not a path: 100000 rows are 400000 files) */
static char *path;
static size_t path_dir;
static int runs_fd = -1;
static const char *dir_file(const char *name)
{
    sprintf(path + path_dir, "/%s", name);
    return path;
}
static const char *run_name(long r, const char *ext)
{
    static char name[48];
    sprintf(name, "%ld.%s", r, ext);
    return name;
}

/* up to cap bytes of DIR/runs/<r>.<ext>: their count, or -1 (no such file) */
static long run_read(long r, const char *ext, char *buf, size_t cap)
{
    int fd = runs_fd < 0 ? -1 : openat(runs_fd, run_name(r, ext), O_RDONLY);
    if (fd < 0) return -1;
    size_t n = 0;
    while (n < cap) {
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        n += (size_t)k;
    }
    close(fd);
    return (long)n;
}

/* the whole of DIR/runs/<r>.<ext>, NUL-terminated (*len bytes before it), or NULL */
static char *run_slurp(long r, const char *ext, size_t *len)
{
    size_t cap = 4096;
    char *s = malloc(cap);
    long n;
    while (s && (n = run_read(r, ext, s, cap - 1)) == (long)cap - 1) {
        char *ns = realloc(s, 2 * cap);   /* a long file: read again, twice the size */
        if (!ns) { free(s); return NULL; }
        s = ns;
        cap *= 2;
    }
    if (!s || n < 0) { free(s); return NULL; }
    s[n] = 0;
    *len = (size_t)n;
    return s;
}

/* DIR/runs/<r>.<ext> holds exactly want[0..n) */
static int holds(long r, const char *ext, const char *want, size_t n)
{
    char small[4096], *buf = n < sizeof small ? small : malloc(n + 1);
    long got = buf ? run_read(r, ext, buf, n + 1) : -1;
    int same = got == (long)n && !memcmp(buf, want, n);
    if (buf != small) free(buf);
    return same;
}

static int write_rename(const char *tmp, const char *final, FILE *f)
{
    if (fflush(f) != 0 || ferror(f)) { fclose(f); remove(tmp); return -1; }
    if (fclose(f) != 0) { remove(tmp); return -1; }
    return rename(tmp, final);
}

static const char *const run_ext[] = { "rc", "args", "out", "err" };

static int plan(void)
{
    mb_sweep_table t;
    if (load(dir_file("params.csv"), &t)) return 2;
    /* which results there are: one pass over DIR/runs (a fresh sweep of 100000 rows then
     * costs no call per row); the results of rows beyond a shorter table are removed */
    unsigned char *has = calloc((size_t)t.nrow + 1, 1);   /* bit i: run_ext[i] is there */
    if (!has) { mb_sweep_table_free(&t); return die("out of memory"); }
    DIR *d = runs_fd < 0 ? NULL : fdopendir(dup(runs_fd));
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char *x;
        long r = strtol(e->d_name, &x, 10);
        int i = 0;
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || *x != '.') continue;
        while (i < 4 && strcmp(x + 1, run_ext[i])) i++;
        if (i == 4) continue;
        if (r > t.nrow || r < 1) unlinkat(runs_fd, e->d_name, 0);
        else has[r] |= (unsigned char)(1u << i);
    }
    if (d) closedir(d);
    char *tmp = strdup(dir_file(".todo.tmp")), *todo = strdup(dir_file("todo"));
    FILE *f = tmp && todo ? fopen(tmp, "w") : NULL;
    if (!f) { mb_sweep_table_free(&t); return die("cannot write %s: %s", dir_file("todo"), strerror(errno)); }
    long ntodo = 0;
    for (long r = 1; r <= t.nrow; r++) {
        if ((has[r] & 3) == 3) {   /* an exit status 0 and the same options: kept */
            size_t n;
            char *opts = mb_sweep_row_options(&t, r - 1, &n);
            if (!opts) { fclose(f); remove(tmp); return die("out of memory"); }
            char rc[4];
            long nrc = run_read(r, "rc", rc, sizeof rc);
            int keep = ((nrc == 2 && !memcmp(rc, "0\n", 2)) || (nrc == 1 && rc[0] == '0')) &&
                       holds(r, "args", opts, n);
            free(opts);
            if (keep) continue;
        }
        for (int i = 0; i < 4; i++)
            if (has[r] & (1u << i)) unlinkat(runs_fd, run_name(r, run_ext[i]), 0);
        fprintf(f, "%ld\n", r);
        ntodo++;
    }
    if (write_rename(tmp, todo, f) != 0)
        return die("cannot write %s: %s", todo, strerror(errno));
    printf("%ld %ld\n", t.nrow, ntodo);
    free(has);
    free(tmp);
    free(todo);
    mb_sweep_table_free(&t);
    return 0;
}

static int options(const char *row)
{
    mb_sweep_table t;
    char *x;
    long r = strtol(row, &x, 10);
    if (load(dir_file("params.csv"), &t)) return 2;
    if (*x || x == row || r < 1 || r > t.nrow) {
        long n = t.nrow;
        mb_sweep_table_free(&t);
        return die("options: row '%s' is not a row of the table (1..%ld)", row, n);
    }
    size_t n;
    char *opts = mb_sweep_row_options(&t, r - 1, &n);
    mb_sweep_table_free(&t);
    if (!opts) return die("out of memory");
    fwrite(opts, 1, n, stdout);
    free(opts);
    return fflush(stdout) ? 2 : 0;
}

/* the last line of a row's .out (the simulator's summary line), in place */
static char *last_line(char *s, size_t len)
{
    while (len && (s[len - 1] == '\n' || s[len - 1] == '\r')) s[--len] = 0;
    while (len && s[len - 1] != '\n') len--;
    return s + len;
}

/* split "k=v k=v" into n pairs in place (at most max) */
static int pairs(char *line, char **key, char **val, int max)
{
    int n = 0;
    for (char *tok = strtok(line, " "); tok && n < max; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        if (!eq) continue;
        *eq = 0;
        key[n] = tok;
        val[n++] = eq + 1;
    }
    return n;
}

#define MAX_FIELDS 256
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"")) { fputs(s, f); return; }
    fputc('"', f);
    for (; *s; s++) { if (*s == '"') fputc('"', f); fputc(*s, f); }
    fputc('"', f);
}

static int gather(void)
{
    mb_sweep_table t;
    if (load(dir_file("params.csv"), &t)) return 2;
    /* the summary fields, in the simulator's order: from the first row with a summary line */
    char *fline = NULL, *fkey[MAX_FIELDS], *fval[MAX_FIELDS];
    int nf = 0;
    for (long r = 1; r <= t.nrow && nf == 0; r++) {
        size_t len;
        free(fline);
        fline = run_slurp(r, "out", &len);
        if (!fline) continue;
        int n = pairs(last_line(fline, len), fkey, fval, MAX_FIELDS);
        for (int i = 0; i < n; i++)
            if (strcmp(fkey[i], "status")) fkey[nf++] = fkey[i];
    }
    char *tmp = strdup(dir_file(".summary.tmp")), *final = strdup(dir_file("summary.csv"));
    FILE *f = tmp && final ? fopen(tmp, "w") : NULL;
    if (!f) return die("cannot write %s: %s", dir_file("summary.csv"), strerror(errno));
    fputs("row", f);
    for (int c = 0; c < t.ncol; c++) fprintf(f, ",%s", t.name[c]);
    fputs(",status,exit", f);
    for (int i = 0; i < nf; i++) fprintf(f, ",%s", fkey[i]);
    fputs(",message\n", f);
    long nok = 0;
    for (long r = 1; r <= t.nrow; r++) {
        size_t len;
        const char *st = "missing";
        char rc[32] = "", msg[1024] = "";
        char *out = NULL, *line = NULL, *key[MAX_FIELDS], *val[MAX_FIELDS];
        int n = 0;
        long nrc = run_read(r, "rc", rc, sizeof rc - 1);
        if (nrc > 0) {
            /* an exit status, as sweep_task.sh writes it: digits and a line break */
            rc[nrc] = 0;
            size_t k = strspn(rc, "0123456789");
            if (k == 0 || strspn(rc + k, "\n") != (size_t)nrc - k) k = 0;
            rc[k] = 0;
        } else
            rc[0] = 0;
        if (rc[0]) {
            out = run_slurp(r, "out", &len);
            line = out ? last_line(out, len) : NULL;
            /* the summary line's first word says */
            if (line && !strncmp(line, "status=ok", 9) && (!line[9] || line[9] == ' ')) st = "ok";
            else if (line && !strncmp(line, "status=error", 12) && (!line[12] || line[12] == ' '))
                st = "error";
            else st = "failed";
            if (strcmp(st, "failed")) n = pairs(line, key, val, MAX_FIELDS);
            if (strcmp(rc, "0") && strcmp(st, "failed")) st = "error";
        }
        if (strcmp(st, "ok")) {
            /* the first line the run wrote on stderr (in its first 64 KiB), one line of text */
            char *e = rc[0] ? malloc(65536) : NULL;
            long ne = e ? run_read(r, "err", e, 65536) : -1;
            len = ne > 0 ? (size_t)ne : 0;
            for (char *p = e, *q; p && p < e + len; p = q + 1) {
                q = memchr(p, '\n', (size_t)(e + len - p));
                if (!q) q = e + len;
                if (q == p) continue;
                size_t m = (size_t)(q - p) < sizeof msg - 1 ? (size_t)(q - p) : sizeof msg - 1;
                while (m && p[m - 1] == '\r') m--;
                for (size_t i = 0; i < m; i++) msg[i] = (unsigned char)p[i] < 0x20 && p[i] != '\t' ? '?' : p[i];
                msg[m] = 0;
                break;
            }
            free(e);
            if (!strcmp(st, "missing")) strcpy(msg, "not run (or interrupted): a re-run does it");
        } else
            nok++;
        fprintf(f, "%ld", r);
        for (int c = 0; c < t.ncol; c++) fprintf(f, ",%s", t.cell[(r - 1) * t.ncol + c]);
        fprintf(f, ",%s,%s", st, rc);
        for (int i = 0; i < nf; i++) {
            const char *v = "";
            for (int j = 0; j < n; j++)
                if (!strcmp(key[j], fkey[i])) v = val[j];   /* the last one given */
            fputc(',', f);
            csv_field(f, v);
        }
        fputs(",\"", f);
        for (const char *p = msg; *p; p++) { if (*p == '"') fputc('"', f); fputc(*p, f); }
        fputs("\"\n", f);
        if (strcmp(st, "ok")) {
            fprintf(stderr, "sweep: row %ld (", r);
            for (int c = 0; c < t.ncol; c++)
                fprintf(stderr, "%s%s=%s", c ? " " : "", t.name[c], t.cell[(r - 1) * t.ncol + c]);
            fprintf(stderr, ") %s", st);
            if (rc[0]) fprintf(stderr, " (exit %s)", rc);
            if (msg[0]) fprintf(stderr, ": %s", msg);
            fputc('\n', stderr);
        }
        free(out);
    }
    if (write_rename(tmp, final, f) != 0) return die("cannot write %s: %s", final, strerror(errno));
    printf("%ld %ld\n", t.nrow, nok);
    free(fline);
    free(tmp);
    free(final);
    mb_sweep_table_free(&t);
    return 0;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    if (argc == 3 && !strcmp(cmd, "check")) {
        mb_sweep_table t;
        if (load(argv[2], &t)) return 2;
        size_t n;
        char *s = mb_sweep_table_text(&t, &n);
        mb_sweep_table_free(&t);
        if (!s) return die("out of memory");
        fwrite(s, 1, n, stdout);
        free(s);
        return fflush(stdout) ? die("cannot write the table: %s", strerror(errno)) : 0;
    }
    if ((argc == 3 && (!strcmp(cmd, "plan") || !strcmp(cmd, "gather"))) ||
        (argc == 4 && !strcmp(cmd, "options"))) {
        path_dir = strlen(argv[2]);
        path = malloc(path_dir + 300);
        if (!path) return die("out of memory");
        memcpy(path, argv[2], path_dir + 1);
        runs_fd = open(dir_file("runs"), O_RDONLY | O_DIRECTORY);
        int rc = !strcmp(cmd, "plan") ? plan() : !strcmp(cmd, "gather") ? gather()
                                                                                : options(argv[3]);
        free(path);
        return rc;
    }
    int help = argc == 2 && (!strcmp(cmd, "--help") || !strcmp(cmd, "-h"));
    fputs("usage: mb_sweep check TABLE     the table checked; its normalized text on stdout\n"
          "       mb_sweep plan DIR        DIR/todo: the rows of DIR/params.csv still to run\n"
          "       mb_sweep options DIR ROW the simulator options of a row, one a line\n"
          "       mb_sweep gather DIR      DIR/summary.csv from DIR/runs/\n"
          "The bookkeeping of scripts/sweep.sh (docs/sweeps.md). Exit status: 0, or 2 with a message.\n",
          help ? stdout : stderr);
    return help ? 0 : 2;
}
