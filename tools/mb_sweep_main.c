/* mb_sweep_main.c - build/mb_sweep, the bookkeeping of a parameter sweep (docs/sweeps.md): the
 * table checked, the rows still to run, the blocks of rows the simulator's --batch runs, the
 * progress line, the summary. scripts/sweep.sh, sweep_task.sh and sweep_gather.sh call it, for
 * GNU parallel and Slurm alike; one process per step, not per row or block.
 *
 * A sweep directory DIR holds params.csv (the checked table), todo (the rows to run, one a
 * line), blocks/<i>.csv (block i of todo: a table with a first column "row", the input of
 * `SIM --batch`) and results/<name>.csv (what the batches printed: a header, then one summary row
 * per table row; results/b<i>.csv of block i, results/kept.csv the rows an earlier run kept).
 *
 * Usage: mb_sweep check TABLE       TABLE checked (tools/mb_sweep_table.h); its normalized
 *                                   text on stdout, or one message on stderr and exit 2
 *        mb_sweep plan DIR          DIR/params.csv against DIR/results/: the rows that ran with
 *                                   exit status 0 and the values the table gives now are kept
 *                                   (into results/kept.csv; every other result removed), the
 *                                   others written to DIR/todo; prints "ROWS TODO"
 *        mb_sweep split DIR N       DIR/todo in blocks of N rows: DIR/blocks/<i>.csv; prints
 *                                   the number of blocks
 *        mb_sweep progress DIR TODO the rows finished in DIR/results/b*.csv, counted until
 *                                   stdin ends: "sweep: DONE/TODO rows run, F failed (P%)" on
 *                                   stderr, redrawn with a bar on a terminal, else a line at
 *                                   every tenth of a sweep of 100 rows or more
 *        mb_sweep gather DIR        DIR/summary.csv from DIR/results/; a line on stderr for each
 *                                   row that did not succeed; prints "ROWS OK"
 *        mb_sweep --help            this usage on stdout
 * Exit status: 0, or 2 with a message (bad input, a file that cannot be read or written). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
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
    size_t cap = 65536, n = 0;
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

/* DIR (argv[2]) and its files: dir_file("results/kept.csv") */
static char *path;
static size_t path_dir;
static const char *dir_file(const char *name)
{
    size_t n = strlen(name);
    if (n > 290) n = 290;   /* (the names here are short) */
    path[path_dir] = '/';
    memcpy(path + path_dir + 1, name, n);
    path[path_dir + 1 + n] = 0;
    return path;
}

static int write_rename(const char *tmp, const char *final, FILE *f)
{
    if (fflush(f) != 0 || ferror(f)) { fclose(f); remove(tmp); return -1; }
    if (fclose(f) != 0) { remove(tmp); return -1; }
    return rename(tmp, final);
}

/* ------------------------------------------------------------------ the results */

/* One results file: its header's fields (between exit and message) and its rows' cells. */
typedef struct {
    char *data;        /* the file, cut into cells in place */
    int ncell;         /* cells a line: row, the columns, status, exit, the fields, message */
    int nfield;
    char **head;       /* [ncell] the header's names */
    int *map;          /* [the unified fields] this file's cell of each, or -1 */
} rfile;

typedef struct {
    rfile *file;       /* the files read */
    int nfile;
    char ***row;       /* [nrow + 1] row r's cells (NULL: no result), in file rowfile[r] */
    int *rowfile;
    char **field;      /* the unified fields: those of the file holding the lowest row with some */
    int nfield;
} results;

/* Split one CSV line (no line break) into at most max cells in place: quoted cells ("" for a
 * quote) unquoted. Returns the number of cells, or -1 for a malformed line. */
static int csv_cells(char *s, char **cell, int max)
{
    int n = 0;
    for (;;) {
        if (n == max) return -1;
        if (*s == '"') {
            char *w = s, *r = s + 1;
            cell[n++] = w;
            for (;;) {
                if (!*r) return -1;
                if (*r == '"') {
                    if (r[1] == '"') { *w++ = '"'; r += 2; continue; }
                    r++;
                    break;
                }
                *w++ = *r++;
            }
            if (*r && *r != ',') return -1;
            int more = *r == ',';
            *w = 0;
            if (!more) return n;
            s = r + 1;
        } else {
            char *c = strchr(s, ',');
            cell[n++] = s;
            if (!c) return n;
            *c = 0;
            s = c + 1;
        }
    }
}

/* one more cell value as summary.csv writes it: quoted when it holds a comma or a quote */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"")) { fputs(s, f); return; }
    fputc('"', f);
    for (; *s; s++) { if (*s == '"') fputc('"', f); fputc(*s, f); }
    fputc('"', f);
}

static void results_free(results *R, long nrow)
{
    for (int i = 0; i < R->nfile; i++) {
        free(R->file[i].data);
        free(R->file[i].head);
        free(R->file[i].map);
    }
    for (long r = 0; R->row && r <= nrow; r++) free(R->row[r]);
    free(R->file);
    free(R->row);
    free(R->rowfile);
    memset(R, 0, sizeof *R);
}

/* a results file name: kept.csv (order 0) or b<i>.csv (order i + 1); -1 for any other */
static long result_order(const char *name)
{
    if (!strcmp(name, "kept.csv")) return 0;
    char *x;
    if (name[0] != 'b' || name[1] < '0' || name[1] > '9') return -1;
    long i = strtol(name + 1, &x, 10);
    return strcmp(x, ".csv") || i < 0 || i > 100000000 ? -1 : i + 1;
}
static int by_order(const void *a, const void *b)
{
    long x = result_order(*(char *const *)a), y = result_order(*(char *const *)b);
    return x < y ? -1 : x > y;
}

/* Read DIR/results/: every file whose header is row, the table's columns, status, exit, ...,
 * message; its complete lines of as many cells whose row is one of the table's (a later file,
 * b<i> after kept, wins). A file of another table, a partial last line (an interrupted batch),
 * a line of another length: not read. Returns 0, or 2 after a message. */
static int results_read(const mb_sweep_table *t, results *R)
{
    memset(R, 0, sizeof *R);
    R->row = calloc((size_t)t->nrow + 1, sizeof *R->row);
    R->rowfile = calloc((size_t)t->nrow + 1, sizeof *R->rowfile);
    if (!R->row || !R->rowfile) return die("out of memory");
    DIR *d = opendir(dir_file("results"));
    if (!d) return 0;
    char **names = NULL;
    int nn = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (result_order(e->d_name) < 0) continue;
        if (nn == cap) {
            cap = cap ? 2 * cap : 64;
            char **nv = realloc(names, (size_t)cap * sizeof *names);
            if (!nv) { closedir(d); return die("out of memory"); }
            names = nv;
        }
        if (!(names[nn++] = strdup(e->d_name))) { closedir(d); return die("out of memory"); }
    }
    closedir(d);
    qsort(names, (size_t)nn, sizeof *names, by_order);
    R->file = calloc((size_t)nn + 1, sizeof *R->file);
    if (!R->file) return die("out of memory");
    int rc = 0, lo_file = -1;
    long lo_row = t->nrow + 1;
    for (int k = 0; k < nn && !rc; k++) {
        char rel[300];
        size_t len;
        snprintf(rel, sizeof rel, "results/%s", names[k]);
        char *data = slurp(dir_file(rel), &len);
        if (!data) continue;
        char *nl = memchr(data, '\n', len);
        rfile *f = &R->file[R->nfile];
        memset(f, 0, sizeof *f);
        f->data = data;
        int nh = 1;
        for (char *p = data; nl && p < nl; p++) nh += *p == ',';
        if (!nl || nh < t->ncol + 4 || !(f->head = malloc(sizeof(char *) * (size_t)nh))) { free(data); continue; }
        *nl = 0;
        int ok = csv_cells(data, f->head, nh) == nh && !strcmp(f->head[0], "row") &&
                 !strcmp(f->head[t->ncol + 1], "status") && !strcmp(f->head[t->ncol + 2], "exit") &&
                 !strcmp(f->head[nh - 1], "message");
        for (int c = 0; ok && c < t->ncol; c++) ok = !strcmp(f->head[c + 1], t->name[c]);
        if (!ok) { free(f->head); free(data); continue; }   /* another table's */
        f->ncell = nh;
        f->nfield = nh - t->ncol - 4;
        R->nfile++;
        /* the rows: complete lines of nh cells */
        char *p = nl + 1, *end = data + len;
        while (p < end) {
            char *q = memchr(p, '\n', (size_t)(end - p));
            if (!q) break;   /* a partial last line */
            *q = 0;
            char **cell = malloc(sizeof(char *) * (size_t)nh);
            if (!cell) { rc = die("out of memory"); break; }
            char *x;
            long r = 0;
            if (csv_cells(p, cell, nh) == nh) {
                errno = 0;
                r = strtol(cell[0], &x, 10);
                if (*x || x == cell[0] || errno || r < 1 || r > t->nrow) r = 0;
            }
            if (r) {
                free(R->row[r]);
                R->row[r] = cell;
                R->rowfile[r] = R->nfile - 1;
                if (f->nfield > 0 && r < lo_row) { lo_row = r; lo_file = R->nfile - 1; }
            } else
                free(cell);
            p = q + 1;
        }
    }
    for (int k = 0; k < nn; k++) free(names[k]);
    free(names);
    if (rc) return rc;
    /* the unified fields, and each file's cell of each */
    if (lo_file >= 0) {
        rfile *f = &R->file[lo_file];
        R->field = f->head + t->ncol + 3;
        R->nfield = f->nfield;
    }
    for (int i = 0; i < R->nfile; i++) {
        rfile *f = &R->file[i];
        if (!(f->map = malloc(sizeof(int) * (size_t)(R->nfield + 1)))) return die("out of memory");
        for (int j = 0; j < R->nfield; j++) {
            f->map[j] = -1;
            for (int k = 0; k < f->nfield; k++)
                if (!strcmp(f->head[t->ncol + 3 + k], R->field[j])) f->map[j] = t->ncol + 3 + k;
        }
    }
    return 0;
}

/* the header of summary.csv and kept.csv */
static void write_header(FILE *f, const mb_sweep_table *t, const results *R)
{
    fputs("row", f);
    for (int c = 0; c < t->ncol; c++) fprintf(f, ",%s", t->name[c]);
    fputs(",status,exit", f);
    for (int i = 0; i < R->nfield; i++) fprintf(f, ",%s", R->field[i]);
    fputs(",message\n", f);
}

/* row r's line, from its result (its cells: row, the columns, status, exit, fields, message) */
static void write_row(FILE *f, const mb_sweep_table *t, const results *R, long r)
{
    char **cell = R->row[r];
    const rfile *rf = &R->file[R->rowfile[r]];
    fprintf(f, "%ld", r);
    for (int c = 0; c < t->ncol; c++) fprintf(f, ",%s", t->cell[(r - 1) * t->ncol + c]);
    fprintf(f, ",%s,%s", cell[t->ncol + 1], cell[t->ncol + 2]);
    for (int i = 0; i < R->nfield; i++) {
        fputc(',', f);
        if (rf->map[i] >= 0) csv_field(f, cell[rf->map[i]]);
    }
    fputs(",\"", f);
    for (const char *p = cell[rf->ncell - 1]; *p; p++) { if (*p == '"') fputc('"', f); fputc(*p, f); }
    fputs("\"\n", f);
}

/* row r ran with exit status 0 and the values the table gives now */
static int kept(const mb_sweep_table *t, const results *R, long r)
{
    char **cell = R->row[r];
    if (!cell || strcmp(cell[t->ncol + 2], "0")) return 0;
    for (int c = 0; c < t->ncol; c++)
        if (strcmp(cell[c + 1], t->cell[(r - 1) * t->ncol + c])) return 0;
    return 1;
}

/* remove every file in DIR/sub but keep (a name, or NULL) */
static void clear_dir(const char *sub, const char *keep)
{
    int fd = open(dir_file(sub), O_RDONLY | O_DIRECTORY);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.' || (e->d_name[1] && strcmp(e->d_name, "..")))
            if (!keep || strcmp(e->d_name, keep)) unlinkat(fd, e->d_name, 0);
    if (d) closedir(d);
    else if (fd >= 0) close(fd);
}

static int plan(void)
{
    mb_sweep_table t;
    results R;
    if (load(dir_file("params.csv"), &t)) return 2;
    if (results_read(&t, &R)) { mb_sweep_table_free(&t); return 2; }
    mkdir(dir_file("results"), 0777);
    mkdir(dir_file("blocks"), 0777);
    /* the rows kept, into results/kept.csv (one file for the next run's results to join) */
    char *tmp = strdup(dir_file("results/.kept.tmp")), *kfile = strdup(dir_file("results/kept.csv"));
    char *ttmp = strdup(dir_file(".todo.tmp")), *todo = strdup(dir_file("todo"));
    FILE *k = tmp && kfile ? fopen(tmp, "w") : NULL, *f = ttmp && todo ? fopen(ttmp, "w") : NULL;
    int rc = 0;
    if (!k || !f) {
        rc = die("cannot write %s: %s", k ? todo : kfile, strerror(errno));
    } else {
        long ntodo = 0;
        write_header(k, &t, &R);
        for (long r = 1; r <= t.nrow; r++) {
            if (kept(&t, &R, r)) write_row(k, &t, &R, r);
            else { fprintf(f, "%ld\n", r); ntodo++; }
        }
        if (ntodo == t.nrow) { fclose(k); remove(tmp); unlink(kfile); }
        else if (write_rename(tmp, kfile, k) != 0) rc = die("cannot write %s: %s", kfile, strerror(errno));
        k = NULL;
        if (!rc) clear_dir("results", ntodo == t.nrow ? NULL : "kept.csv");   /* the earlier blocks' */
        clear_dir("blocks", NULL);
        if (!rc && write_rename(ttmp, todo, f) != 0) rc = die("cannot write %s: %s", todo, strerror(errno));
        f = NULL;
        if (!rc) printf("%ld %ld\n", t.nrow, ntodo);
    }
    if (k) fclose(k);
    if (f) fclose(f);
    free(tmp); free(kfile); free(ttmp); free(todo);
    results_free(&R, t.nrow);
    mb_sweep_table_free(&t);
    return rc;
}

/* the rows of DIR/todo (NULL after a message) */
static long *todo_rows(long nrow, long *n)
{
    size_t len;
    char *s = slurp(dir_file("todo"), &len);
    if (!s) { die("cannot read %s: %s", dir_file("todo"), strerror(errno)); return NULL; }
    long cap = 1024, k = 0;
    long *v = malloc(sizeof(long) * (size_t)cap);
    for (char *p = s, *x; v && *p; p = x + (*x == '\n')) {
        long r = strtol(p, &x, 10);
        if (x == p || (*x && *x != '\n') || r < 1 || r > nrow) {
            die("%s: not a row of the table: '%.20s'", dir_file("todo"), p);
            free(v); free(s);
            return NULL;
        }
        if (k == cap) {
            long *nv = realloc(v, sizeof(long) * (size_t)(cap *= 2));
            if (!nv) { free(v); v = NULL; break; }
            v = nv;
        }
        v[k++] = r;
    }
    free(s);
    if (!v) die("out of memory");
    *n = k;
    return v;
}

static int split(const char *arg)
{
    char *x;
    long per = strtol(arg, &x, 10);
    if (*x || x == arg || per < 1) return die("split: '%s' is not a number of rows (an integer >= 1)", arg);
    mb_sweep_table t;
    if (load(dir_file("params.csv"), &t)) return 2;
    long n = 0, nb = 0;
    long *rows = todo_rows(t.nrow, &n);
    int rc = rows ? 0 : 2;
    mkdir(dir_file("blocks"), 0777);
    for (long i = 0; !rc && i * per < n; i++) {
        char rel[64], tmpn[64];
        snprintf(rel, sizeof rel, "blocks/%ld.csv", i);
        snprintf(tmpn, sizeof tmpn, "blocks/.%ld.tmp", i);
        char *tmp = strdup(dir_file(tmpn));
        FILE *f = tmp ? fopen(tmp, "w") : NULL;
        if (!f) { rc = die("cannot write %s: %s", dir_file(rel), strerror(errno)); free(tmp); break; }
        fputs("row", f);
        for (int c = 0; c < t.ncol; c++) fprintf(f, ",%s", t.name[c]);
        fputc('\n', f);
        for (long j = i * per; j < n && j < (i + 1) * per; j++) {
            fprintf(f, "%ld", rows[j]);
            for (int c = 0; c < t.ncol; c++) fprintf(f, ",%s", t.cell[(rows[j] - 1) * t.ncol + c]);
            fputc('\n', f);
        }
        if (write_rename(tmp, dir_file(rel), f) != 0) rc = die("cannot write %s: %s", dir_file(rel), strerror(errno));
        free(tmp);
        nb++;
    }
    if (!rc) printf("%ld\n", nb);
    free(rows);
    mb_sweep_table_free(&t);
    return rc;
}

/* ------------------------------------------------------------------ the progress line */

typedef struct { long order; off_t at; int ok; } watched;   /* a results file read up to at */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the rows finished since the last look: complete lines after the header of DIR/results/b*.csv
 * (each file read on from where it was left), and how many of them did not succeed */
static void count_rows(int status_cell, watched **w, int *nw, long *done, long *failed)
{
    DIR *d = opendir(dir_file("results"));
    struct dirent *e;
    static char buf[65536];
    while (d && (e = readdir(d))) {
        long o = result_order(e->d_name);
        if (o < 1) continue;   /* kept.csv: rows not run now */
        int i = 0;
        while (i < *nw && (*w)[i].order != o) i++;
        if (i == *nw) {
            watched *nv = realloc(*w, sizeof **w * (size_t)(*nw + 1));
            if (!nv) continue;
            *w = nv;
            nv[i].order = o;
            nv[i].at = 0;
            nv[i].ok = 0;
            (*nw)++;
        }
        char rel[300];
        snprintf(rel, sizeof rel, "results/%s", e->d_name);
        int fd = open(dir_file(rel), O_RDONLY);
        if (fd < 0) continue;
        for (;;) {
            ssize_t k = pread(fd, buf, sizeof buf, (*w)[i].at);
            if (k <= 0) break;
            /* whole lines only; the header (the first line) is no row */
            char *p = buf, *end = buf + k, *q;
            while ((q = memchr(p, '\n', (size_t)(end - p)))) {
                if ((*w)[i].ok) {
                    (*done)++;
                    /* the status cell: row and the columns hold no quote or comma */
                    const char *c = p;
                    for (int n = 0; n < status_cell && c < q; c++) n += *c == ',';
                    if (!(q - c >= 3 && !strncmp(c, "ok,", 3))) (*failed)++;
                }
                (*w)[i].ok = 1;
                p = q + 1;
            }
            (*w)[i].at += p - buf;
            if (p == buf) break;   /* a line longer than the buffer: counted when whole */
        }
        close(fd);
    }
    if (d) closedir(d);
}

static void bar_line(char *s, size_t n, long done, long todo, long failed, double el)
{
    char bar[31];
    int full = todo > 0 ? (int)(30 * done / todo) : 30;
    for (int i = 0; i < 30; i++) bar[i] = i < full ? '#' : '.';
    bar[30] = 0;
    int p = todo > 0 ? (int)(100 * done / todo) : 100;
    if (done > 0 && done < todo)
        snprintf(s, n, "sweep: [%s] %ld/%ld rows run, %ld failed (%d%%), ~%.0f s left", bar, done,
                 todo, failed, p, el * (double)(todo - done) / (double)done);
    else
        snprintf(s, n, "sweep: [%s] %ld/%ld rows run, %ld failed (%d%%)", bar, done, todo, failed, p);
}

static int progress(const char *arg)
{
    char *x;
    long todo = strtol(arg, &x, 10);
    if (*x || x == arg || todo < 0) return die("progress: '%s' is not a number of rows", arg);
    mb_sweep_table t;
    if (load(dir_file("params.csv"), &t)) return 2;
    int status_cell = t.ncol + 1, tty = isatty(2), last = -1, open_in = 1;
    mb_sweep_table_free(&t);
    watched *w = NULL;
    int nw = 0;
    long done = 0, failed = 0;
    double t0 = now();
    while (open_in) {
        struct pollfd pf = { 0, POLLIN, 0 };
        if (poll(&pf, 1, 200) > 0) {   /* the engine's output, passed on; its end: the sweep's */
            char b[4096];
            ssize_t k = read(0, b, sizeof b);
            if (k <= 0) open_in = 0;
        }
        count_rows(status_cell, &w, &nw, &done, &failed);
        int p = todo > 0 ? (int)(100 * done / todo) : 100;
        if (tty && (p != last || !open_in)) {
            char line[160];
            bar_line(line, sizeof line, done, todo, failed, now() - t0);
            fprintf(stderr, "\r%s\033[K", line);
            last = p;
        } else if (!tty && todo >= 100 && p / 10 != last / 10 && (p / 10 > 0 || done == todo)) {
            fprintf(stderr, "sweep: %ld/%ld rows run, %ld failed (%d%%)\n", done, todo, failed, p);
            last = p;
        }
        fflush(stderr);
    }
    if (tty && last >= 0) fputc('\n', stderr);
    free(w);
    return 0;
}

/* ------------------------------------------------------------------ the summary */

static int gather(void)
{
    mb_sweep_table t;
    results R;
    if (load(dir_file("params.csv"), &t)) return 2;
    if (results_read(&t, &R)) { mb_sweep_table_free(&t); return 2; }
    char *tmp = strdup(dir_file(".summary.tmp")), *final = strdup(dir_file("summary.csv"));
    FILE *f = tmp && final ? fopen(tmp, "w") : NULL;
    if (!f) {
        results_free(&R, t.nrow);
        mb_sweep_table_free(&t);
        return die("cannot write %s: %s", dir_file("summary.csv"), strerror(errno));
    }
    /* (stderr buffered: a report of 100000 failed rows is a few writes) */
    static char ebuf[1 << 16];
    setvbuf(stderr, ebuf, _IOFBF, sizeof ebuf);
    write_header(f, &t, &R);
    long nok = 0;
    for (long r = 1; r <= t.nrow; r++) {
        const char *st = "missing", *rc = "", *msg = "not run (or interrupted): a re-run does it";
        if (R.row[r]) {
            write_row(f, &t, &R, r);
            st = R.row[r][t.ncol + 1];
            rc = R.row[r][t.ncol + 2];
            msg = R.row[r][R.file[R.rowfile[r]].ncell - 1];
        } else {
            fprintf(f, "%ld", r);
            for (int c = 0; c < t.ncol; c++) fprintf(f, ",%s", t.cell[(r - 1) * t.ncol + c]);
            fputs(",missing,", f);
            for (int i = 0; i < R.nfield; i++) fputc(',', f);
            fprintf(f, ",\"%s\"\n", msg);
        }
        if (!strcmp(st, "ok")) { nok++; continue; }
        fprintf(stderr, "sweep: row %ld (", r);
        for (int c = 0; c < t.ncol; c++)
            fprintf(stderr, "%s%s=%s", c ? " " : "", t.name[c], t.cell[(r - 1) * t.ncol + c]);
        fprintf(stderr, ") %s", st);
        if (rc[0]) fprintf(stderr, " (exit %s)", rc);
        if (msg[0]) fprintf(stderr, ": %s", msg);
        fputc('\n', stderr);
    }
    fflush(stderr);
    setvbuf(stderr, NULL, _IONBF, 0);
    int rc = 0;
    if (write_rename(tmp, final, f) != 0) rc = die("cannot write %s: %s", final, strerror(errno));
    else printf("%ld %ld\n", t.nrow, nok);
    free(tmp);
    free(final);
    results_free(&R, t.nrow);
    mb_sweep_table_free(&t);
    return rc;
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
        (argc == 4 && (!strcmp(cmd, "split") || !strcmp(cmd, "progress")))) {
        path_dir = strlen(argv[2]);
        path = malloc(path_dir + 300);
        if (!path) return die("out of memory");
        memcpy(path, argv[2], path_dir + 1);
        int rc = !strcmp(cmd, "plan") ? plan() : !strcmp(cmd, "gather") ? gather()
               : !strcmp(cmd, "split") ? split(argv[3]) : progress(argv[3]);
        free(path);
        return rc;
    }
    int help = argc == 2 && (!strcmp(cmd, "--help") || !strcmp(cmd, "-h"));
    fputs("usage: mb_sweep check TABLE       the table checked; its normalized text on stdout\n"
          "       mb_sweep plan DIR          DIR/todo: the rows of DIR/params.csv still to run\n"
          "       mb_sweep split DIR N       DIR/blocks/<i>.csv: DIR/todo in blocks of N rows\n"
          "       mb_sweep progress DIR TODO the rows finished in DIR/results/, until stdin ends\n"
          "       mb_sweep gather DIR        DIR/summary.csv from DIR/results/\n"
          "The bookkeeping of scripts/sweep.sh (docs/sweeps.md). Exit status: 0, or 2 with a message.\n",
          help ? stdout : stderr);
    return help ? 0 : 2;
}
