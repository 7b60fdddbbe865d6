/* mb_info_read.c - read and check the drawing info file of a results CSV (format: mb_info.h).
 * Only the animation tool reads it; the simulators write it (mb_info.c). Time and memory are
 * linear in the file's size; its lines go through the bounded reader (mb_lines.h). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* strdup */
#endif
#include "mb_info.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_lines.h"

void mb_info_free(mb_info *f)
{
    for (int i = 0; f->body && i < f->nbody; i++) free(f->body[i]);
    for (int i = 0; f->point && i < f->npoint; i++) free(f->point[i]);
    free(f->model);
    free(f->body);
    free(f->particle);
    free(f->point);
    free(f->point_body);
    free(f->spring);
    free(f->joint);
    free(f->rod);
    free(f->slot);
    free(f->slot_axis);
    free(f->gear);
    free(f->gear_r);
    free(f->rack);
    free(f->rack_geom);
    free(f->contact);
    free(f->contact_geom);
    free(f->cam);
    free(f->cam_roller);
    free(f->cam_nv);
    free(f->cam_xy);
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

/* Append x to the double array *a of n entries (capacity doubles, as push_int). */
static int push_dbl(double **a, int n, double x)
{
    if ((n & (n - 1)) == 0) {
        double *b = realloc(*a, (size_t)(n ? 2 * n : 1) * sizeof *b);
        if (!b) return -1;
        *a = b;
    }
    (*a)[n] = x;
    return 0;
}

/* n space-separated finite numbers (a leading space before each); *s advances past them. */
static int dbl_fields(const char **s, int n, double *out)
{
    for (int i = 0; i < n; i++) {
        char *end;
        if (**s != ' ') return -1;
        (*s)++;
        if (**s == ' ' || **s == '\0') return -1;   /* strtod would skip the blanks */
        out[i] = strtod(*s, &end);
        if (end == *s || !isfinite(out[i])) return -1;
        *s = end;
    }
    return 0;
}

/* Normalize the axis (x, y): -1 when it is zero or its length overflows. */
static int unit(double *x, double *y)
{
    double l = hypot(*x, *y);
    if (!(l > 0.0) || !isfinite(l)) return -1;
    *x /= l;
    *y /= l;
    return 0;
}

/* A rod end of version 2 that names a body must name a particle (a rigid body's end is one of
 * its named points). */
static int rod_end_ok(const mb_info *f, int version, int e)
{
    return e >= 0 || version < 2 || f->particle[-1 - e];
}

static int read_lines(mb_lines *r, mb_info *f, char *err, size_t nerr)
{
    size_t len;
    int got, version = 0;
    int stage = 0;   /* 0 expect "mbinfo", 1 "model", 2 bodies, 3 points, 4 springs, 5 joints,
                        6 rods, 7 slots, 8 gears, 9 racks, 10 cams */
    const char *why = NULL;

    while ((got = mb_lines_next(r, &len, err, nerr)) > 0) {
        char *line = r->buf;
        const char *p, *arg;
        size_t kw;
        if (len > 0 && line[len - 1] == '\r') line[--len] = '\0';
        kw = strcspn(line, " ");
        arg = line[kw] ? line + kw + 1 : line + kw;
        p = arg;
#define IS(k) (kw == strlen(k) && strncmp(line, k, kw) == 0)
        if (stage == 0) {
            if (!IS("mbinfo") || (strcmp(arg, "1") != 0 && strcmp(arg, "2") != 0)) {
                why = "not an info file of version 1 or 2 (first line 'mbinfo 2')";
                goto bad;
            }
            version = arg[0] - '0';
            stage = 1;
        } else if (stage == 1) {
            if (!IS("model") || !mb_info_name_ok(arg)) { why = "expected 'model <name>'"; goto bad; }
            if (!(f->model = strdup(arg))) { why = "out of memory"; goto bad; }
            stage = 2;
        } else if ((IS("body") || (IS("particle") && version >= 2)) && stage == 2) {
            if (!mb_info_name_ok(arg)) { why = "bad body name (1 to 255 bytes, no control characters)"; goto bad; }
            if (f->nbody >= MB_INFO_MAX_ITEMS) { why = "too many bodies"; goto bad; }
            if (push_str(&f->body, f->nbody, arg) || push_int(&f->particle, f->nbody, IS("particle"))) {
                why = "out of memory";
                goto bad;
            }
            f->nbody++;
        } else if (IS("point") && stage <= 3) {
            int b;
            if (int_field(&p, -1, f->nbody - 1, &b) || *p != ' ' || !mb_info_name_ok(p + 1)) {
                why = "expected 'point <body index, -1 to the bodies so far> <name>'";
                goto bad;
            }
            if (b >= 0 && f->particle[b]) { why = "a named point on a particle (it has none)"; goto bad; }
            if (f->npoint >= MB_INFO_MAX_ITEMS) { why = "too many points"; goto bad; }
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
            if (*n >= MB_INFO_MAX_ITEMS) { why = "too many entries"; goto bad; }
            if (push_int(arr, 2 * *n, a) || push_int(arr, 2 * *n + 1, c)) { why = "out of memory"; goto bad; }
            (*n)++;
            stage = joint ? 5 : 4;
        } else if (IS("rod") && stage <= 6) {
            int a, c;   /* a point, or -1 - b for particle b */
            if (int_field(&p, -f->nbody, f->npoint - 1, &a) || *p++ != ' ' ||
                int_field(&p, -f->nbody, f->npoint - 1, &c) || *p) {
                why = "expected two rod ends (a point index, or -1 - b for particle b; so far)";
                goto bad;
            }
            if (!rod_end_ok(f, version, a) || !rod_end_ok(f, version, c)) {
                why = "a rod end -1 - b names a rigid body, not a particle";
                goto bad;
            }
            if (f->nrod >= MB_INFO_MAX_ITEMS) { why = "too many rods"; goto bad; }
            if (push_int(&f->rod, 2 * f->nrod, a) || push_int(&f->rod, 2 * f->nrod + 1, c)) {
                why = "out of memory";
                goto bad;
            }
            f->nrod++;
            stage = 6;
        } else if (IS("slot") && version >= 2 && stage <= 7) {
            int a, c;   /* a point; the pin: a point, or -1 - b for particle b */
            double x[2];
            if (int_field(&p, 0, f->npoint - 1, &a) || *p++ != ' ' ||
                int_field(&p, -f->nbody, f->npoint - 1, &c) || dbl_fields(&p, 2, x) || *p) {
                why = "expected 'slot <point> <pin: a point or -1 - b for particle b> <ax> <ay>' "
                      "(indices so far, finite numbers)";
                goto bad;
            }
            if (!rod_end_ok(f, version, c)) { why = "a pin -1 - b names a rigid body, not a particle"; goto bad; }
            if (unit(&x[0], &x[1])) { why = "a slot's axis is zero"; goto bad; }
            if (f->nslot >= MB_INFO_MAX_ITEMS) { why = "too many slots"; goto bad; }
            if (push_int(&f->slot, 2 * f->nslot, a) || push_int(&f->slot, 2 * f->nslot + 1, c) ||
                push_dbl(&f->slot_axis, 2 * f->nslot, x[0]) ||
                push_dbl(&f->slot_axis, 2 * f->nslot + 1, x[1])) {
                why = "out of memory";
                goto bad;
            }
            f->nslot++;
            stage = 7;
        } else if (IS("gear") && version >= 2 && stage <= 8) {
            int a, c;
            double x[2];
            if (int_field(&p, 0, f->npoint - 1, &a) || *p++ != ' ' ||
                int_field(&p, 0, f->npoint - 1, &c) || dbl_fields(&p, 2, x) || *p) {
                why = "expected 'gear <point> <point> <r1> <r2>' (indices so far, finite numbers)";
                goto bad;
            }
            if (x[0] < 0.0 || x[1] < 0.0) { why = "a gear's pitch radius is negative"; goto bad; }
            if (f->ngear >= MB_INFO_MAX_ITEMS) { why = "too many gears"; goto bad; }
            if (push_int(&f->gear, 2 * f->ngear, a) || push_int(&f->gear, 2 * f->ngear + 1, c) ||
                push_dbl(&f->gear_r, 2 * f->ngear, x[0]) ||
                push_dbl(&f->gear_r, 2 * f->ngear + 1, x[1])) {
                why = "out of memory";
                goto bad;
            }
            f->ngear++;
            stage = 8;
        } else if (IS("rack") && version >= 2 && stage <= 9) {
            int a, c;
            double x[3];
            if (int_field(&p, 0, f->npoint - 1, &a) || *p++ != ' ' ||
                int_field(&p, 0, f->npoint - 1, &c) || dbl_fields(&p, 3, x) || *p) {
                why = "expected 'rack <point> <point> <r> <ux> <uy>' (indices so far, finite numbers)";
                goto bad;
            }
            if (x[0] == 0.0) { why = "a rack's pitch radius is 0"; goto bad; }
            if (unit(&x[1], &x[2])) { why = "a rack's axis is zero"; goto bad; }
            if (f->nrack >= MB_INFO_MAX_ITEMS) { why = "too many racks"; goto bad; }
            if (push_int(&f->rack, 2 * f->nrack, a) || push_int(&f->rack, 2 * f->nrack + 1, c)) {
                why = "out of memory";
                goto bad;
            }
            for (int i = 0; i < 3; i++)
                if (push_dbl(&f->rack_geom, 3 * f->nrack + i, x[i])) { why = "out of memory"; goto bad; }
            f->nrack++;
            stage = 9;
        } else if (IS("contact") && version >= 2 && stage <= 10) {
            int a, c, kind;
            double r, x[2];
            if (int_field(&p, -f->nbody, f->npoint - 1, &a) || *p++ != ' ' ||
                int_field(&p, -f->nbody, f->npoint - 1, &c) || dbl_fields(&p, 1, &r) ||
                *p++ != ' ' || int_field(&p, 0, 4, &kind) || dbl_fields(&p, 2, x) || *p) {
                why = "expected 'contact <point or -1 - b> <point or -1 - b> <r> <0|1|2|3|4> <x> <y>' "
                      "(indices so far, finite numbers)";
                goto bad;
            }
            if (!rod_end_ok(f, version, a) || !rod_end_ok(f, version, c)) {
                why = "a contact end -1 - b names a rigid body, not a particle";
                goto bad;
            }
            if (r < 0.0) { why = "a contact's radius is negative"; goto bad; }
            if (kind == 0 ? unit(&x[0], &x[1]) : kind == 3 ? !(x[0] != 0.0 || x[1] != 0.0)
                : kind == 4 ? !(x[0] >= 0.0 && x[0] == floor(x[0])) : !(x[0] > 0.0)) {
                why = kind == 0 ? "a contact's line direction is zero" : kind == 3 ? "a contact's segment is of zero length"
                    : kind == 4 ? "a contact profile's cam entry is not a whole number >= 0"
                                : "a contact's circle radius is not > 0";
                goto bad;
            }
            if (f->ncontact >= MB_INFO_MAX_ITEMS) { why = "too many contacts"; goto bad; }
            if (push_int(&f->contact, 2 * f->ncontact, a) || push_int(&f->contact, 2 * f->ncontact + 1, c) ||
                push_dbl(&f->contact_geom, 4 * f->ncontact, r) ||
                push_dbl(&f->contact_geom, 4 * f->ncontact + 1, kind) ||
                push_dbl(&f->contact_geom, 4 * f->ncontact + 2, x[0]) ||
                push_dbl(&f->contact_geom, 4 * f->ncontact + 3, kind == 0 || kind == 3 ? x[1] : 0.0)) {
                why = "out of memory";
                goto bad;
            }
            f->ncontact++;
            stage = 10;
        } else if (IS("cam") && version >= 2 && stage <= 11) {
            int a, c, nv;   /* the centre: a point; the follower: a point or -1 - b */
            double rr, xy[2 * MB_INFO_CAM_VERTICES];
            if (int_field(&p, 0, f->npoint - 1, &a) || *p++ != ' ' ||
                int_field(&p, -f->nbody, f->npoint - 1, &c) || dbl_fields(&p, 1, &rr) ||
                *p++ != ' ' || int_field(&p, 3, MB_INFO_CAM_VERTICES, &nv) ||
                dbl_fields(&p, 2 * nv, xy) || *p) {
                why = "expected 'cam <point> <follower: a point or -1 - b for particle b> <roller> "
                      "<n, 3 to 64> <x1> <y1> .. <xn> <yn>' (indices so far, finite numbers)";
                goto bad;
            }
            if (!rod_end_ok(f, version, c)) { why = "a follower -1 - b names a rigid body, not a particle"; goto bad; }
            if (rr < 0.0) { why = "a cam's roller radius is negative"; goto bad; }
            if (f->ncam >= MB_INFO_MAX_ITEMS) { why = "too many cams"; goto bad; }
            if (push_int(&f->cam, 2 * f->ncam, a) || push_int(&f->cam, 2 * f->ncam + 1, c) ||
                push_dbl(&f->cam_roller, f->ncam, rr) || push_int(&f->cam_nv, f->ncam, nv)) {
                why = "out of memory";
                goto bad;
            }
            for (int i = 0; i < 2 * MB_INFO_CAM_VERTICES; i++)
                if (push_dbl(&f->cam_xy, 2 * MB_INFO_CAM_VERTICES * f->ncam + i, i < 2 * nv ? xy[i] : 0.0)) {
                    why = "out of memory";
                    goto bad;
                }
            f->ncam++;
            stage = 11;
        } else {
            why = version >= 2 ? "unknown keyword or out of order (mbinfo, model, body or particle, "
                                 "point, spring, joint, rod, slot, gear, rack, contact, cam)"
                               : "unknown keyword or out of order (mbinfo 1: model, body, point, "
                                 "spring, joint, rod)";
            goto bad;
        }
#undef IS
    }
    if (got < 0) return -1;   /* the reader's message: too long, NUL, cut short, read error */
    if (stage < 2) {
        snprintf(err, nerr, "%s: incomplete: no 'model' line%s", r->path,
                 r->lineno == 0 ? " (an empty file)" : "");
        return -1;
    }
    return 0;
bad:
    snprintf(err, nerr, "%s:%ld: %s", r->path, r->lineno, why);
    return -1;
}

int mb_info_read_stream(FILE *in, const char *path, mb_info *f, char *err, size_t nerr)
{
    mb_lines r;
    int rc;
    memset(f, 0, sizeof *f);
    mb_lines_init(&r, in, path, MB_INFO_LINE_MAX);
    rc = read_lines(&r, f, err, nerr);
    mb_lines_close(&r);
    return rc;
}

int mb_info_read(const char *path, mb_info *f, char *err, size_t nerr)
{
    mb_lines r;
    int rc;
    memset(f, 0, sizeof *f);
    rc = mb_lines_open(&r, path, MB_INFO_LINE_MAX, err, nerr);
    if (rc == -1) {   /* a missing file: say where it comes from */
        size_t n = strlen(err);
        if (n < nerr) snprintf(err + n, nerr - n, " (the simulator writes it next to the CSV)");
        return -1;
    }
    if (rc != 0) return -1;
    rc = read_lines(&r, f, err, nerr);
    mb_lines_close(&r);
    return rc;
}
