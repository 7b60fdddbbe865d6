/* mb_input_file.c - the simulator's --input-file (mb_input_file.h). */
#include "mb_input_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 65536

void mb_input_table_free(mb_input_table *tb)
{
    free(tb->col_in);
    free(tb->t);
    free(tb->val);
    memset(tb, 0, sizeof *tb);
}

/* The next comma-separated field of *p (cut in place), NULL at the end of the line. */
static char *field(char **p)
{
    char *s = *p;
    if (!s) return NULL;
    char *c = strchr(s, ',');
    if (c) { *c = '\0'; *p = c + 1; } else *p = NULL;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == ' ')) s[--n] = '\0';
    while (*s == ' ') s++;
    return s;
}

static int fail(mb_input_table *tb, FILE *f, char *err, size_t nerr, const char *path, long line,
                const char *why, const char *what)
{
    snprintf(err, nerr, "%s:%ld: %s%s%s%s", path, line, why, what ? " '" : "", what ? what : "",
             what ? "'" : "");
    if (f) fclose(f);
    mb_input_table_free(tb);
    return -1;
}

int mb_input_table_read(const char *path, const mb_model *m, mb_input_table *tb, char *err,
                        size_t nerr)
{
    memset(tb, 0, sizeof *tb);
    if (m->nin == 0) return fail(tb, NULL, err, nerr, path, 0, "the model has no inputs (input \"u\" { ... })", NULL);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, nerr, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    static char buf[MAX_LINE];
    long line = 0, cap = 0;
    if (!fgets(buf, sizeof buf, f)) return fail(tb, f, err, nerr, path, 1, "empty file (expected a header t,<input>,...)", NULL);
    line = 1;
    buf[strcspn(buf, "\n")] = '\0';
    char *p = buf, *s = field(&p);
    if (!s || strcmp(s, "t") != 0) return fail(tb, f, err, nerr, path, line, "the first column must be t, not", s ? s : "");
    tb->col_in = malloc(sizeof(int) * (size_t)m->nin);
    if (!tb->col_in) return fail(tb, f, err, nerr, path, line, "out of memory", NULL);
    while ((s = field(&p)) != NULL) {
        int k = -1;
        for (int i = 0; i < m->nin; i++)
            if (!strcmp(m->in_names[i], s)) k = i;
        if (k < 0) return fail(tb, f, err, nerr, path, line, "unknown input", s);
        for (int j = 0; j < tb->ncol; j++)
            if (tb->col_in[j] == k) return fail(tb, f, err, nerr, path, line, "input given twice:", s);
        tb->col_in[tb->ncol++] = k;
    }
    if (tb->ncol == 0) return fail(tb, f, err, nerr, path, line, "no input columns after t", NULL);
    while (fgets(buf, sizeof buf, f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f)) return fail(tb, f, err, nerr, path, line, "line too long", NULL);
        buf[strcspn(buf, "\n")] = '\0';
        if (buf[0] == '\0' || buf[0] == '\r') continue;
        if (tb->nrow == cap) {
            long nc = cap ? 2 * cap : 256;
            double *t2 = realloc(tb->t, sizeof(double) * (size_t)nc);
            if (t2) tb->t = t2;
            double *v2 = realloc(tb->val, sizeof(double) * (size_t)(nc * tb->ncol));
            if (v2) tb->val = v2;
            if (!t2 || !v2) return fail(tb, f, err, nerr, path, line, "out of memory", NULL);
            cap = nc;
        }
        p = buf;
        for (int j = -1; j < tb->ncol; j++) {
            s = field(&p);
            if (!s) return fail(tb, f, err, nerr, path, line, "too few columns", NULL);
            char *end;
            errno = 0;
            double x = strtod(s, &end);
            if (end == s || *end || !isfinite(x)) return fail(tb, f, err, nerr, path, line, "not a finite number:", s);
            if (j < 0) tb->t[tb->nrow] = x;
            else tb->val[tb->nrow * tb->ncol + j] = x;
        }
        if (p) return fail(tb, f, err, nerr, path, line, "too many columns", NULL);
        if (tb->nrow > 0 && !(tb->t[tb->nrow] > tb->t[tb->nrow - 1]))
            return fail(tb, f, err, nerr, path, line, "t must increase from row to row", NULL);
        tb->nrow++;
    }
    if (ferror(f)) return fail(tb, f, err, nerr, path, line, "read error", NULL);
    if (tb->nrow == 0) return fail(tb, f, err, nerr, path, line, "no data rows", NULL);
    fclose(f);
    return 0;
}

/* The margin within which a step's time counts as a row's (t_grid0 + k h rounds). */
static double margin(const mb_input_table *tb, double t)
{
    return 1e-12 * (fabs(t) + fabs(tb->t[tb->nrow - 1]) + 1e-300);
}

/* The last row at or before t (within the margin), -1 before the first. */
static long row_at(const mb_input_table *tb, double t)
{
    long lo = -1, hi = tb->nrow;   /* t[lo] <= t + margin < t[hi] */
    double tt = t + margin(tb, t);
    while (hi - lo > 1) {
        long mid = (lo + hi) / 2;
        if (tb->t[mid] <= tt) lo = mid; else hi = mid;
    }
    return lo;
}

void mb_input_table_apply(mb_input_table *tb, mb_sim *s, double t, int foh)
{
    long r = row_at(tb, t);
    if (tb->applied && r == tb->row) return;   /* the same row (zoh) or segment (foh): held */
    tb->applied = 1;
    tb->row = r;
    for (int j = 0; j < tb->ncol; j++) {
        const double *u = tb->val + j;
        int in = tb->col_in[j];
        if (r < 0 || r >= tb->nrow - 1 || !foh) {   /* constant before the first row, after the last */
            mb_sim_set_input(s, in, (mb_real)u[(r < 0 ? 0 : r) * tb->ncol]);
        } else {                                    /* the segment r .. r+1 from t on */
            double t0 = tb->t[r], t1 = tb->t[r + 1], u0 = u[r * tb->ncol], u1 = u[(r + 1) * tb->ncol];
            double slope = (u1 - u0) / (t1 - t0);
            mb_sim_set_input_slope(s, in, (mb_real)(u0 + slope * (t - t0)), (mb_real)slope);
        }
    }
}

double mb_input_table_next(const mb_input_table *tb, double t)
{
    long r = row_at(tb, t);
    return r + 1 < tb->nrow ? tb->t[r + 1] : HUGE_VAL;
}
