/* mb_info.c - write and read the drawing info file of a results CSV (format: mb_info.h). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* getline */
#endif
#include "mb_info.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME_MAX_LEN 255
#define MAX_ITEMS 1000000   /* bodies, points, springs, joints or rods: far beyond any model */

char *mb_info_path(const char *csv)
{
    size_t n = strlen(csv);
    char *p = malloc(n + 6);
    if (p) {
        memcpy(p, csv, n);
        memcpy(p + n, ".info", 6);
    }
    return p;
}

/* A name the format can carry: 1..255 bytes, no control characters (a newline would end it). */
static int name_ok(const char *s)
{
    size_t n = 0;
    if (!s) return 0;
    for (; s[n]; n++)
        if ((unsigned char)s[n] < 0x20 || s[n] == 0x7f) return 0;
    return n >= 1 && n <= NAME_MAX_LEN;
}

static int write_body(FILE *f, const mb_model *m, char *err, size_t nerr)
{
    const mb_model_info *in = m->info;
    fprintf(f, "mbinfo 1\nmodel %s\n", m->name);
    for (int b = 0; b < m->nbody; b++) {
        if (!name_ok(in->body_names[b])) {
            snprintf(err, nerr, "body %d: name unfit for the info file", b);
            return -1;
        }
        fprintf(f, "body %s\n", in->body_names[b]);
    }
    for (int p = 0; p < m->npoint; p++) {
        if (!name_ok(in->point_names[p])) {
            snprintf(err, nerr, "point %d: name unfit for the info file", p);
            return -1;
        }
        fprintf(f, "point %d %s\n", m->point_body[p], in->point_names[p]);
    }
    for (int s = 0; s < in->nspring; s++)
        fprintf(f, "spring %d %d\n", in->spring_points[2 * s], in->spring_points[2 * s + 1]);
    for (int j = 0; j < in->njoint; j++)
        fprintf(f, "joint %d %d\n", in->joint_points[2 * j], in->joint_points[2 * j + 1]);
    for (int r = 0; r < in->nrod; r++)
        fprintf(f, "rod %d %d\n", in->rod_ends[2 * r], in->rod_ends[2 * r + 1]);
    return 0;
}

int mb_info_write(const char *path, const mb_model *m, char *err, size_t nerr)
{
    char tmp[4096];
    FILE *f;
    if (!m->info || !m->info->body_names || (m->npoint > 0 && (!m->info->point_names || !m->point_body)) ||
        !name_ok(m->name)) {
        snprintf(err, nerr, "the model has no names to write to %s", path);
        return -1;
    }
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        snprintf(err, nerr, "%s: path too long", path);
        return -1;
    }
    if (!(f = fopen(tmp, "w"))) {
        snprintf(err, nerr, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    if (write_body(f, m, err, nerr) != 0) {
        fclose(f);
        remove(tmp);
        return -1;
    }
    if ((ferror(f) | (fclose(f) != 0)) || rename(tmp, path) != 0) {
        snprintf(err, nerr, "cannot write %s: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

int mb_info_write_csv(const char *csv, const mb_model *m)
{
    char err[4400];
    char *path = mb_info_path(csv);
    int rc = path ? mb_info_write(path, m, err, sizeof err) : -1;
    if (!path) snprintf(err, sizeof err, "out of memory");
    if (rc != 0) fprintf(stderr, "%s_sim: drawing info file: %s\n", m->name, err);
    free(path);
    return rc;
}

void mb_info_free(mb_info *f)
{
    for (int i = 0; f->body && i < f->nbody; i++) free(f->body[i]);
    for (int i = 0; f->point && i < f->npoint; i++) free(f->point[i]);
    free(f->model);
    free(f->body);
    free(f->point);
    free(f->point_body);
    free(f->spring);
    free(f->joint);
    free(f->rod);
    memset(f, 0, sizeof *f);
}

/* Append x to the int array *a of *n entries (capacity doubles). */
static int push_int(int **a, int n, int x)
{
    if ((n & (n - 1)) == 0) {   /* n is 0 or a power of two: grow */
        int *b = realloc(*a, (size_t)(n ? 2 * n : 1) * sizeof *b);
        if (!b) return -1;
        *a = b;
    }
    (*a)[n] = x;
    return 0;
}

static int push_str(char ***a, int n, const char *s)
{
    if ((n & (n - 1)) == 0) {
        char **b = realloc(*a, (size_t)(n ? 2 * n : 1) * sizeof *b);
        if (!b) return -1;
        *a = b;
    }
    if (!((*a)[n] = strdup(s))) return -1;
    return 0;
}

/* An integer field: digits with an optional '-', in [lo, hi]; *s advances past it. */
static int int_field(const char **s, int lo, int hi, int *out)
{
    char *end;
    long v;
    if (**s != '-' && (**s < '0' || **s > '9')) return -1;
    errno = 0;
    v = strtol(*s, &end, 10);
    if (errno || end == *s || v < lo || v > hi) return -1;
    *s = end;
    *out = (int)v;
    return 0;
}

int mb_info_read(const char *path, mb_info *f, char *err, size_t nerr)
{
    FILE *in;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int stage = 0, rc = -1;   /* 0 expect "mbinfo", 1 "model", 2 bodies, 3 points, 4 springs, 5 joints,
                                 6 rods */
    const char *why = NULL;

    memset(f, 0, sizeof *f);
    if (!(in = fopen(path, "r"))) {
        snprintf(err, nerr, "cannot open %s: %s (the simulator writes it next to the CSV)", path,
                 strerror(errno));
        return -1;
    }
    while ((len = getline(&line, &cap, in)) >= 0) {
        const char *p, *arg;
        size_t kw;
        lineno++;
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        if (len > 0 && line[len - 1] == '\r') line[--len] = '\0';
        if ((size_t)len != strlen(line)) { why = "a NUL byte in the line"; goto bad; }
        kw = strcspn(line, " ");
        arg = line[kw] ? line + kw + 1 : line + kw;
        p = arg;
#define IS(k) (kw == strlen(k) && strncmp(line, k, kw) == 0)
        if (stage == 0) {
            if (!IS("mbinfo") || strcmp(arg, "1") != 0) { why = "not an info file of version 1 (first line 'mbinfo 1')"; goto bad; }
            stage = 1;
        } else if (stage == 1) {
            if (!IS("model") || !name_ok(arg)) { why = "expected 'model <name>'"; goto bad; }
            if (!(f->model = strdup(arg))) { why = "out of memory"; goto bad; }
            stage = 2;
        } else if (IS("body") && stage == 2) {
            if (!name_ok(arg)) { why = "bad body name (1 to 255 bytes, no control characters)"; goto bad; }
            if (f->nbody >= MAX_ITEMS) { why = "too many bodies"; goto bad; }
            if (push_str(&f->body, f->nbody, arg)) { why = "out of memory"; goto bad; }
            f->nbody++;
        } else if (IS("point") && stage <= 3) {
            int b;
            if (int_field(&p, -1, f->nbody - 1, &b) || *p != ' ' || !name_ok(p + 1)) {
                why = "expected 'point <body index, -1 to the bodies so far> <name>'";
                goto bad;
            }
            if (f->npoint >= MAX_ITEMS) { why = "too many points"; goto bad; }
            if (push_str(&f->point, f->npoint, p + 1) || push_int(&f->point_body, f->npoint, b)) {
                why = "out of memory";
                goto bad;
            }
            f->npoint++;
            stage = 3;
        } else if ((IS("spring") && stage <= 4) || (IS("joint") && stage <= 5)) {
            int joint = IS("joint"), a, c;
            int *n = joint ? &f->njoint : &f->nspring;
            int **arr = joint ? &f->joint : &f->spring;
            if (int_field(&p, 0, f->npoint - 1, &a) || *p++ != ' ' ||
                int_field(&p, 0, f->npoint - 1, &c) || *p) {
                why = "expected two point indices (0 to the points so far - 1)";
                goto bad;
            }
            if (*n >= MAX_ITEMS) { why = "too many entries"; goto bad; }
            if (push_int(arr, 2 * *n, a) || push_int(arr, 2 * *n + 1, c)) { why = "out of memory"; goto bad; }
            (*n)++;
            stage = joint ? 5 : 4;
        } else if (IS("rod") && stage <= 6) {
            int a, c;   /* a point, or -1 - b for body b's centre of mass */
            if (int_field(&p, -f->nbody, f->npoint - 1, &a) || *p++ != ' ' ||
                int_field(&p, -f->nbody, f->npoint - 1, &c) || *p) {
                why = "expected two rod ends (a point index, or -1 - b for body b; so far)";
                goto bad;
            }
            if (f->nrod >= MAX_ITEMS) { why = "too many rods"; goto bad; }
            if (push_int(&f->rod, 2 * f->nrod, a) || push_int(&f->rod, 2 * f->nrod + 1, c)) {
                why = "out of memory";
                goto bad;
            }
            f->nrod++;
            stage = 6;
        } else {
            why = "unknown keyword or out of order (mbinfo, model, body, point, spring, joint, rod)";
            goto bad;
        }
#undef IS
    }
    if (ferror(in)) {
        snprintf(err, nerr, "%s: read error: %s", path, strerror(errno));
        goto out;
    }
    if (stage < 2) {
        snprintf(err, nerr, "%s: incomplete: no 'model' line", path);
        goto out;
    }
    rc = 0;
    goto out;
bad:
    snprintf(err, nerr, "%s:%ld: %s", path, lineno, why);
out:
    free(line);
    fclose(in);
    return rc;
}
