/* mb_anim_main.c - turn a simulator results CSV into a self-contained HTML animation.
 * Layer: host tool, one binary for every model: reads the point and centre-of-mass positions
 * from the CSV (a particle's too: its <name>.x, <name>.y) and the bodies, points, joints, springs
 * and rods from the drawing info file the simulator writes next to it (tools/mb_info.h), and
 * draws them and the trace of a point or particle. Both inputs go through the bounded line
 * reader (mb_lines.h); time and memory are linear in the inputs' sizes. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* strdup, getpid */
#endif
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mb_info.h"
#include "mb_lines.h"

#define EXIT_USAGE 2
/* The longest CSV line read (bytes): a row of 100000 points' coordinates at 17 digits takes
 * about 5 MB; a longer line is refused rather than read until memory runs out. */
#define CSV_LINE_MAX ((size_t)64 << 20)

static const char *prog = "anim";

typedef struct opts {
    const char *in, *out, *info, *trace, *title, *note;
    long every, max_frames;
    double duration;
    int quiet;
} opts;

/* All frames: rows of `stride` doubles: t, points (x, y) * npoint, CoM (x, y) * nbody, then
 * (only with slots, racks, contacts or cams: their axes and profiles turn with a body) each
 * body's angle (0: a particle). */
typedef struct frames {
    double *v;
    long n, cap;
    int stride;
} frames;

static void usage(FILE *f)
{
    fprintf(f,
        "usage: %s [options] RESULTS.csv\n"
        "Write a self-contained HTML page (inline SVG and a little JavaScript, no network)\n"
        "animating a mechanism from a CSV written by a simulator (<model>_sim --out), with\n"
        "the drawing info file it writes next to it (RESULTS.csv.info: bodies, points,\n"
        "joints, springs, rods). One binary serves every model. Both inputs are regular files\n"
        "or pipes whose every line ends with a line break (a CSV line up to 64 MiB, an info\n"
        "line up to 4096 bytes).\n"
        "\n"
        "options:\n"
        "  --out FILE.html     output file (default: RESULTS with .csv replaced by .html; '-' is\n"
        "                      refused: no stdout)\n"
        "  --info FILE         the drawing info file (default: RESULTS.csv.info)\n"
        "  --trace BODY.POINT  draw the path of this named point, or of a particle by its name\n"
        "                      (default: the moving point or particle that travels farthest);\n"
        "                      'none' draws no path\n"
        "  --every K           use every K-th row of the CSV (default 1)\n"
        "  --max-frames N      thin the rows evenly to at most N frames (default 2000, 0: all)\n"
        "  --duration S        playback time of the whole run in seconds (default: the\n"
        "                      simulated time, kept between 4 and 20 s)\n"
        "  --title TEXT        page title (default: model name and CSV file)\n"
        "  --note TEXT         a line shown under the picture (e.g. the simulator's summary)\n"
        "  --quiet             no message on success\n"
        "  --help              this text\n"
        "\n"
        "exit status: 0 written, 1 unreadable or malformed input, 2 bad command line\n",
        prog);
}

static int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    *out = strtol(s, &end, 10);
    return errno == 0 && end != s && *end == '\0';
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    /* ERANGE on underflow (a subnormal value, or one that rounds to 0) is no error */
    return (errno == 0 || (errno == ERANGE && fabs(*out) < 1.0)) && end != s && *end == '\0' &&
           isfinite(*out);
}

/* Split a CSV line in place at commas; trims blanks and CR/LF. Returns the field count
 * (at most max); fields beyond max are counted but not stored. */
static int split(char *line, char **field, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        char *start = p, *end;
        while (*p && *p != ',') p++;
        end = p;
        while (start < end && (*start == ' ' || *start == '\t')) start++;
        while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' ||
                               end[-1] == '\n'))
            end--;
        if (n < max) field[n] = start;
        n++;
        if (!*p) {
            *end = '\0';
            break;
        }
        *p++ = '\0';
        *end = '\0';
    }
    return n;
}

static int frames_push(frames *f, const double *row)
{
    if (f->n == f->cap) {
        long cap = f->cap ? 2 * f->cap : 256;
        double *v = realloc(f->v, (size_t)cap * (size_t)f->stride * sizeof *v);
        if (!v) return -1;
        f->v = v;
        f->cap = cap;
    }
    memcpy(f->v + f->n * f->stride, row, (size_t)f->stride * sizeof *row);
    f->n++;
    return 0;
}

/* The CSV header's columns by name, for lookups in constant time: an open-addressing hash
 * table of column indices (the first of equal names wins, as a scan from the left would). */
typedef struct colmap {
    char **hdr;
    int *slot;   /* [size] a column index, -1: empty */
    size_t size; /* a power of two, at least twice the columns */
} colmap;

static size_t hash_name(const char *s, const char *suffix)
{
    size_t h = 2166136261u;   /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    for (; *suffix; suffix++) h = (h ^ (unsigned char)*suffix) * 16777619u;
    return h;
}

/* 1 if hdr is name followed by suffix */
static int name_is(const char *hdr, const char *name, const char *suffix)
{
    size_t n = strlen(name);
    return strncmp(hdr, name, n) == 0 && strcmp(hdr + n, suffix) == 0;
}

static int colmap_build(colmap *c, char **hdr, int nh)
{
    size_t k;
    int i;
    c->hdr = hdr;
    for (c->size = 16; c->size < 2 * (size_t)nh; c->size *= 2) {}
    if (!(c->slot = malloc(c->size * sizeof *c->slot))) return -1;
    for (k = 0; k < c->size; k++) c->slot[k] = -1;
    for (i = 0; i < nh; i++) {
        k = hash_name(hdr[i], "") & (c->size - 1);
        while (c->slot[k] >= 0 && strcmp(hdr[c->slot[k]], hdr[i]) != 0) k = (k + 1) & (c->size - 1);
        if (c->slot[k] < 0) c->slot[k] = i;
    }
    return 0;
}

/* The column named "<name><suffix>", or -1. */
static int colmap_find(const colmap *c, const char *name, const char *suffix)
{
    size_t k = hash_name(name, suffix) & (c->size - 1);
    for (; c->slot[k] >= 0; k = (k + 1) & (c->size - 1))
        if (name_is(c->hdr[c->slot[k]], name, suffix)) return c->slot[k];
    return -1;
}

/* Read the CSV from in: the positions of the info's points and centres of mass, by column name.
 * Stops (with a warning) at the first non-finite row so a diverged run still shows what
 * happened. Every line ends with a line break: a last line without one is a file cut short,
 * refused like a line too long or a NUL byte (never half a row drawn). */
static int read_csv(mb_lines *in, const mb_info *m, const opts *o, frames *fr, char *summary,
                    size_t nsum)
{
    char *line, **fld = NULL, *hdrline = NULL, **hdr = NULL, err[4400];
    size_t len;
    long row = 0;
    int nh = 0, maxf = 0, i, tcol, rc = 1, got, *col = NULL;
    double *rowv = NULL;
    colmap cols = {NULL, NULL, 0};

    summary[0] = '\0';
    got = mb_lines_next(in, &len, err, sizeof err);
    if (got <= 0) {
        if (got == 0) fprintf(stderr, "%s: %s: empty file\n", prog, o->in);
        else fprintf(stderr, "%s: %s\n", prog, err);
        return 1;
    }
    line = in->buf;
    for (i = 0, maxf = 1; line[i]; i++) maxf += line[i] == ',';
    fld = malloc((size_t)maxf * sizeof *fld);
    col = malloc((size_t)fr->stride * sizeof *col);   /* the column of each frame value */
    rowv = malloc((size_t)fr->stride * sizeof *rowv);
    hdrline = strdup(line);
    hdr = malloc((size_t)maxf * sizeof *hdr);
    if (!fld || !col || !rowv || !hdrline || !hdr) {
        fprintf(stderr, "%s: %s:1: out of memory (the header)\n", prog, o->in);
        goto out;
    }
    nh = split(hdrline, hdr, maxf);
    if (colmap_build(&cols, hdr, nh) != 0) {
        fprintf(stderr, "%s: %s:1: out of memory (the header)\n", prog, o->in);
        goto out;
    }
    tcol = colmap_find(&cols, "t", "");
    if (tcol < 0) tcol = colmap_find(&cols, "time", "");
    if (tcol < 0) {
        fprintf(stderr, "%s: %s: the header has no column 't'\n", prog, o->in);
        goto out;
    }
    col[0] = tcol;
    for (i = 0; i < m->npoint + m->nbody; i++) {   /* points, then centres of mass */
        const char *name = i < m->npoint ? m->point[i] : m->body[i - m->npoint];
        int k;
        for (k = 0; k < 2; k++) {
            col[1 + 2 * i + k] = colmap_find(&cols, name, k ? ".y" : ".x");
            if (col[1 + 2 * i + k] < 0) {
                fprintf(stderr, "%s: %s: the header has no column '%s%s' (is %s the info file of "
                        "this CSV?)\n", prog, o->in, name, k ? ".y" : ".x", o->info);
                goto out;
            }
        }
    }
    for (i = 1 + 2 * (m->npoint + m->nbody); i < fr->stride; i++) {   /* the bodies' angles */
        int b = i - 1 - 2 * (m->npoint + m->nbody);
        col[i] = m->particle[b] ? -1 : colmap_find(&cols, m->body[b], ".phi");
        if (!m->particle[b] && col[i] < 0) {
            fprintf(stderr, "%s: %s: the header has no column '%s.phi' (is %s the info file of "
                    "this CSV?)\n", prog, o->in, m->body[b], o->info);
            goto out;
        }
    }
    while ((got = mb_lines_next(in, &len, err, sizeof err)) > 0) {
        int n, ok = 1;
        line = in->buf;
        if (line[0] == '#' || line[strspn(line, " \t\r")] == '\0') continue;
        if (strchr(line, '=')) { /* the simulator's closing key=value summary */
            line[strcspn(line, "\r")] = '\0';
            snprintf(summary, nsum, "%s", line);
            continue;
        }
        n = split(line, fld, maxf);
        if (n != nh) {
            fprintf(stderr, "%s: %s:%ld: %d fields, the header has %d\n", prog, o->in, in->lineno,
                    n, nh);
            goto out;
        }
        if (row++ % o->every) continue;
        for (i = 0; ok && i < fr->stride; i++)
            ok = col[i] < 0 ? (rowv[i] = 0.0, 1) : parse_double(fld[col[i]], &rowv[i]);
        if (!ok) {
            /* a number that does not parse or is not finite: the run diverged here */
            fprintf(stderr, "%s: %s:%ld: not a finite number; animation stops at this row\n",
                    prog, o->in, in->lineno);
            break;
        }
        if (frames_push(fr, rowv)) {
            fprintf(stderr, "%s: %s:%ld: out of memory (%ld frames so far)\n", prog, o->in,
                    in->lineno, fr->n);
            goto out;
        }
    }
    if (got < 0) {   /* too long, a NUL byte, cut short, a read error */
        fprintf(stderr, "%s: %s\n", prog, err);
        goto out;
    }
    if (fr->n == 0) {
        fprintf(stderr, "%s: %s: no data rows\n", prog, o->in);
        goto out;
    }
    rc = 0;
out:
    free(cols.slot);
    free(fld);
    free(hdrline);
    free(hdr);
    free(col);
    free(rowv);
    return rc;
}

/* ---------------------------------------------------------------- geometry */

static double px(const frames *f, long k, int pt) { return f->v[k * f->stride + 1 + 2 * pt]; }
static double py(const frames *f, long k, int pt) { return f->v[k * f->stride + 2 + 2 * pt]; }

/* Frame k's end e: a point, or -1 - b for body b's centre of mass (the rods' convention). */
static double ex(const frames *f, const mb_info *m, long k, int e) { return e < 0 ? px(f, k, m->npoint - 1 - e) : px(f, k, e); }
static double ey(const frames *f, const mb_info *m, long k, int e) { return e < 0 ? py(f, k, m->npoint - 1 - e) : py(f, k, e); }

/* The frame column of point p's body's angle, or -1 for a ground point (angle 0). */
static int angle_col(const mb_info *m, int p)
{
    return m->point_body[p] < 0 ? -1 : 1 + 2 * (m->npoint + m->nbody) + m->point_body[p];
}

/* The axis (ax, ay), fixed in point p's body, in world axes at frame k. */
static void axis_at(const frames *f, const mb_info *m, long k, int p, double ax, double ay,
                    double *ux, double *uy)
{
    int c = angle_col(m, p);
    double a = c < 0 ? 0.0 : f->v[k * f->stride + c];
    *ux = cos(a) * ax - sin(a) * ay;
    *uy = sin(a) * ax + cos(a) * ay;
}

/* Where a slot's or a rack's line is drawn, along its axis from its reference (the slot's point
 * P; the rack point's projection on the pitch line): the range its pin or contact point covers
 * over the run, widened by margin (so the line stays put in the body that carries it). */
static void line_span(const frames *f, const mb_info *m, int kind, int i, double R, double *s0,
                      double *s1)
{
    double lo = HUGE_VAL, hi = -HUGE_VAL, marg;
    for (long k = 0; k < f->n; k++) {
        double ux, uy, s;
        if (kind == 0) {   /* slot: u . (Q - P) */
            int p = m->slot[2 * i], q = m->slot[2 * i + 1];
            axis_at(f, m, k, p, m->slot_axis[2 * i], m->slot_axis[2 * i + 1], &ux, &uy);
            s = ux * (ex(f, m, k, q) - px(f, k, p)) + uy * (ey(f, m, k, q) - py(f, k, p));
        } else {           /* rack: u . (T - A), T = C - r n the contact point, A the rack point */
            int c = m->rack[2 * i], a = m->rack[2 * i + 1];
            double r = m->rack_geom[3 * i];
            axis_at(f, m, k, c, m->rack_geom[3 * i + 1], m->rack_geom[3 * i + 2], &ux, &uy);
            s = ux * (px(f, k, c) + r * uy - px(f, k, a)) + uy * (py(f, k, c) - r * ux - py(f, k, a));
        }
        if (s < lo) lo = s;
        if (s > hi) hi = s;
    }
    marg = fmax(0.15 * (hi - lo), kind == 0 ? 4.0 * R : fmax(fabs(m->rack_geom[3 * i]), 4.0 * R));
    *s0 = lo - marg;
    *s1 = hi + marg;
}

/* The frame column of the angle of end e's body (a point, or -1 - b for particle b: -1, as for
 * a ground point: no rotation). */
static int end_angle_col(const mb_info *m, int e) { return e < 0 ? -1 : angle_col(m, e); }

/* Where a contact's line is drawn, along its direction from its point P: the range the circle's
 * centre covers over the run, widened by the circle's radius and a margin. */
static void contact_span(const frames *f, const mb_info *m, int i, double R, double *s0, double *s1)
{
    double lo = HUGE_VAL, hi = -HUGE_VAL, marg;
    int c = m->contact[2 * i], p = m->contact[2 * i + 1];
    for (long k = 0; k < f->n; k++) {
        double ux, uy, a, s;
        int col = end_angle_col(m, p);
        a = col < 0 ? 0.0 : f->v[k * f->stride + col];
        ux = cos(a) * m->contact_geom[4 * i + 2] - sin(a) * m->contact_geom[4 * i + 3];
        uy = sin(a) * m->contact_geom[4 * i + 2] + cos(a) * m->contact_geom[4 * i + 3];
        s = ux * (ex(f, m, k, c) - ex(f, m, k, p)) + uy * (ey(f, m, k, c) - ey(f, m, k, p));
        if (s < lo) lo = s;
        if (s > hi) hi = s;
    }
    marg = fmax(0.15 * (hi - lo), fmax(2.0 * m->contact_geom[4 * i], 4.0 * R));
    *s0 = lo - marg;
    *s1 = hi + marg;
}

/* Union-find root, for grouping coincident points into joints. */
static int root(int *parent, int i)
{
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

/* The revolute joints of the info file join their points; one circle per group of joined
 * points (three bodies pinned at one place by two joints: one circle). */
static void find_joints(const mb_info *m, int *parent)
{
    int a, j;
    for (a = 0; a < m->npoint; a++) parent[a] = a;
    for (j = 0; j < m->njoint; j++) {
        int ra = root(parent, m->joint[2 * j]), rb = root(parent, m->joint[2 * j + 1]);
        if (ra != rb) parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;   /* the lowest index leads */
    }
}

/* What can be traced: a named point p < npoint, or particle b as npoint + b (the frame holds the
 * centres of mass right after the points: P(k, npoint + b) in the page is particle b). */
static const char *trace_name(const mb_info *m, int tr)
{
    return tr < m->npoint ? m->point[tr] : m->body[tr - m->npoint];
}

/* The moving point or particle with the longest path: a good default for the trace. */
static int farthest_point(const mb_info *m, const frames *f)
{
    int best = -1, p;
    double best_len = -1.0;
    for (p = 0; p < m->npoint + m->nbody; p++) {
        double len = 0.0;
        long k;
        if (p < m->npoint ? m->point_body[p] < 0 : !m->particle[p - m->npoint]) continue;
        for (k = 1; k < f->n; k++)
            len += hypot(px(f, k, p) - px(f, k - 1, p), py(f, k, p) - py(f, k - 1, p));
        if (len > best_len * (1.0 + 1e-9)) { /* first of (nearly) equal paths wins */
            best_len = len;
            best = p;
        }
    }
    return best;
}

/* ---------------------------------------------------------------- HTML */

/* Escape text for HTML/XML content and attribute values. */
static void put_text(FILE *o, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", o); break;
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '"': fputs("&quot;", o); break;
        default: fputc(*s, o);
        }
    }
}

/* Escape a string for a JavaScript string literal inside CDATA. */
static void put_js_string(FILE *o, const char *s)
{
    fputc('"', o);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', o);
        if (*s == ']' || *s == '<' || *s == '>' || (unsigned char)*s < 0x20)
            fprintf(o, "\\u%04x", (unsigned char)*s); /* never "]]>" or "</" in CDATA */
        else
            fputc(*s, o);
    }
    fputc('"', o);
}

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                      "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};

/* The page's script: draws frame k from the arrays the C code writes before it. */
static const char *const script =
    "var svgNS='http://www.w3.org/2000/svg';\n"
    "function P(k,i){var r=D[k];return [r[1+2*i],r[2+2*i]];}\n"
    "function C(k,b){var r=D[k];return [r[1+2*NP+2*b],r[2+2*NP+2*b]];}\n"
    "function pts(a){return a.map(function(p){return p[0].toPrecision(7)+','+p[1].toPrecision(7);}).join(' ');}\n"
    "function zigzag(a,b){var dx=b[0]-a[0],dy=b[1]-a[1],l=Math.hypot(dx,dy);"
    "if(!(l>0))return [a,b];var ux=dx/l,uy=dy/l,nx=-uy,ny=ux,out=[a],n=10,e=0.15;"
    "for(var i=0;i<=n;i++){var s=(e+(1-2*e)*i/n)*l,w=(i===0||i===n)?0:(i%2?SW:-SW);"
    "out.push([a[0]+ux*s+nx*w,a[1]+uy*s+ny*w]);}out.push(b);return out;}\n"
    "function E(k,i){return i<0?C(k,-1-i):P(k,i);}\n"
    "var bodies=[],springs=[],rods=[],joints=[],coms=[],trace=null,traceNow=null,traceDot=null;\n"
    "function el(name,attrs,parent){var e=document.createElementNS(svgNS,name);"
    "for(var k in attrs)e.setAttribute(k,attrs[k]);parent.appendChild(e);return e;}\n"
    "var W=document.getElementById('world');\n"
    "if(TR>=0){trace=el('polyline',{'class':'tracefull'},W);"
    "var all=[];for(var k=0;k<D.length;k++)all.push(P(k,TR));trace.setAttribute('points',pts(all));"
    "traceNow=el('polyline',{'class':'trace'},W);}\n"
    "SPRINGS.forEach(function(s){springs.push(el('polyline',{'class':'spring'},W));});\n"
    "RODS.forEach(function(s){rods.push(el('polyline',{'class':'rod'},W));});\n"
    "BODIES.forEach(function(b,i){bodies.push(el(b.closed?'polygon':'polyline',"
    "{'class':'body','stroke':b.color,'fill':b.closed?b.color:'none'},W));"
    "el('title',{},bodies[i]).textContent=b.name;"
    "coms.push(el('circle',{'class':'com','r':R*0.55,'fill':b.color},W));});\n"
    "JOINTS.forEach(function(j){joints.push(el('circle',{'class':'joint','r':R},W));});\n"
    "if(TR>=0)traceDot=el('circle',{'class':'tracedot','r':R*0.7},W);\n"
    "var slider=document.getElementById('slider'),label=document.getElementById('time'),"
    "btn=document.getElementById('play');\n"
    "function draw(k){\n"
    " BODIES.forEach(function(b,i){var a=b.pts.map(function(p){return p<0?C(k,-1-p):P(k,p);});"
    "bodies[i].setAttribute('points',pts(a));var c=C(k,i);coms[i].setAttribute('cx',c[0]);"
    "coms[i].setAttribute('cy',c[1]);});\n"
    " SPRINGS.forEach(function(s,i){springs[i].setAttribute('points',pts(zigzag(P(k,s[0]),P(k,s[1]))));});\n"
    " RODS.forEach(function(s,i){rods[i].setAttribute('points',pts([E(k,s[0]),E(k,s[1])]));});\n"
    " JOINTS.forEach(function(j,i){var p=P(k,j);joints[i].setAttribute('cx',p[0]);"
    "joints[i].setAttribute('cy',p[1]);});\n"
    " if(TR>=0){var a=[];for(var i=0;i<=k;i++)a.push(P(i,TR));traceNow.setAttribute('points',pts(a));"
    "var p=P(k,TR);traceDot.setAttribute('cx',p[0]);traceDot.setAttribute('cy',p[1]);}\n"
    " slider.value=k;label.textContent='t = '+D[k][0].toFixed(TDIG)+' s';}\n"
    "var k=0,playing=true,t0=null,simT0=D[0][0],simT1=D[D.length-1][0];\n"
    "function frameAt(t){var lo=0,hi=D.length-1;while(lo<hi){var mid=(lo+hi+1)>>1;"
    "if(D[mid][0]<=t)lo=mid;else hi=mid-1;}return lo;}\n"
    /* a timer rather than requestAnimationFrame: it also runs in headless browsers */
    "function tick(){if(!playing)return;var now=performance.now();"
    "if(t0===null)t0=now-(D[k][0]-simT0)/(simT1-simT0||1)*DUR*1000;"
    "var s=(now-t0)/(DUR*1000);if(s>1){s=0;t0=now;}"
    "var nk=frameAt(simT0+s*(simT1-simT0));if(nk!==k){k=nk;draw(k);}}\n"
    "btn.addEventListener('click',function(){playing=!playing;t0=null;"
    "btn.textContent=playing?'Pause':'Play';});\n"
    "slider.addEventListener('input',function(){playing=false;btn.textContent='Play';"
    "k=+slider.value;draw(k);});\n"
    /* keys: space plays or pauses, arrows step one frame */
    "document.addEventListener('keydown',function(e){if(e.target.tagName==='INPUT')return;"
    "if(e.key===' '){e.preventDefault();btn.click();}"
    "else if(e.key==='ArrowRight'||e.key==='ArrowLeft'){playing=false;btn.textContent='Play';"
    "k=Math.max(0,Math.min(D.length-1,k+(e.key==='ArrowRight'?1:-1)));draw(k);}});\n"
    "draw(0);setInterval(tick,25);\n";

/* The slots', gears' and racks' script (only in pages with them): wraps draw() of the main
 * script, which follows it, and makes its elements on the first call (the main script's el()
 * and W exist by then). SLOTS: [P, pin, ax, ay, angle column, s0, s1]; GEARS: [centre 1,
 * centre 2, r1, r2]; RACKS: [centre, rack point, r, ux, uy, angle column, s0, s1]. */
static const char *const mesh_script =
    "function AX(k,c,ax,ay){var a=c<0?0:D[k][c],co=Math.cos(a),si=Math.sin(a);"
    "return [co*ax-si*ay,si*ax+co*ay];}\n"
    "var meshEls=null,drawMain=draw;\n"
    "function meshInit(){meshEls={s:[],g:[],r:[]};var line={'fill':'none','stroke':'#333',"
    "'stroke-width':2,'vector-effect':'non-scaling-stroke'};\n"
    " SLOTS.forEach(function(s){meshEls.s.push([el('polyline',Object.assign({'class':'slot'},line),W),"
    "el('circle',{'class':'joint pin','r':R},W)]);});\n"
    " GEARS.forEach(function(g){var e=[el('polyline',{'class':'gearlink','fill':'none','stroke':'#888',"
    "'stroke-dasharray':'4 3','stroke-width':1,'vector-effect':'non-scaling-stroke'},W)];"
    "[g[2],g[3]].forEach(function(r){if(r>0)e.push(el('circle',{'class':'pitch','r':r,'fill':'none',"
    "'stroke':'#555','stroke-dasharray':'6 3','stroke-width':1.2,'vector-effect':'non-scaling-stroke'},W));"
    "else e.push(null);});meshEls.g.push(e);});\n"
    " RACKS.forEach(function(r){meshEls.r.push([el('polyline',Object.assign({'class':'rackline'},line),W),"
    "el('circle',{'class':'pitch','r':Math.abs(r[2]),'fill':'none','stroke':'#555',"
    "'stroke-dasharray':'6 3','stroke-width':1.2,'vector-effect':'non-scaling-stroke'},W)]);});}\n"
    "function at(c,e,p){e.setAttribute('cx',p[0]);e.setAttribute('cy',p[1]);}\n"
    "draw=function(k){drawMain(k);if(!meshEls)meshInit();\n"
    " SLOTS.forEach(function(s,i){var p=P(k,s[0]),u=AX(k,s[4],s[2],s[3]),e=meshEls.s[i];"
    "e[0].setAttribute('points',pts([[p[0]+u[0]*s[5],p[1]+u[1]*s[5]],[p[0]+u[0]*s[6],p[1]+u[1]*s[6]]]));"
    "at(0,e[1],E(k,s[1]));});\n"
    " GEARS.forEach(function(g,i){var a=P(k,g[0]),b=P(k,g[1]),e=meshEls.g[i];"
    "e[0].setAttribute('points',pts([a,b]));if(e[1])at(0,e[1],a);if(e[2])at(0,e[2],b);});\n"
    " RACKS.forEach(function(r,i){var c=P(k,r[0]),a=P(k,r[1]),u=AX(k,r[5],r[3],r[4]),e=meshEls.r[i],"
    "t=[c[0]+r[2]*u[1],c[1]-r[2]*u[0]],t0=u[0]*(a[0]-t[0])+u[1]*(a[1]-t[1]);"
    "e[0].setAttribute('points',pts([[t[0]+u[0]*(t0+r[6]),t[1]+u[1]*(t0+r[6])],"
    "[t[0]+u[0]*(t0+r[7]),t[1]+u[1]*(t0+r[7])]]));at(0,e[1],c);});};\n";

/* The contacts' script (only in pages with them), like the slots' one: wraps draw(). CONTACTS:
 * [C, P, r, kind, x, y, C's angle column, P's angle column, s0, s1]: a circle of radius r around
 * C with a radius marking its body's turn, and the line through P along (x, y) in P's body's
 * axes over s0 .. s1 (kind 0), the circle of radius x around P (1, 2) or the segment from P to
 * P + (x, y) in P's body's axes (3); a profile (4) is drawn with the cams. */
static const char *const contact_script =
    "function CAX(k,c,ax,ay){var a=c<0?0:D[k][c],co=Math.cos(a),si=Math.sin(a);"
    "return [co*ax-si*ay,si*ax+co*ay];}\n"
    "var contactEls=null,drawBeforeContacts=draw;\n"
    "function contactInit(){contactEls=[];var st={'fill':'none','stroke':'#444','stroke-width':1.5,"
    "'vector-effect':'non-scaling-stroke'};\n"
    " CONTACTS.forEach(function(c){var e=[null,null,null];"
    "if(c[2]>0){e[0]=el('circle',Object.assign({'class':'contactc','r':c[2]},st),W);"
    "e[1]=el('polyline',Object.assign({'class':'contactr'},st),W);}"
    "e[2]=c[3]===0||c[3]===3?el('polyline',Object.assign({'class':'contactline'},st,{'stroke-width':2.5}),W):"
    "c[3]===4?null:el('circle',Object.assign({'class':'contactc','r':c[4]},st),W);contactEls.push(e);});}\n"
    "draw=function(k){drawBeforeContacts(k);if(!contactEls)contactInit();\n"
    " CONTACTS.forEach(function(c,i){var e=contactEls[i],a=E(k,c[0]),p=E(k,c[1]);"
    "if(e[0]){e[0].setAttribute('cx',a[0]);e[0].setAttribute('cy',a[1]);"
    "var u=CAX(k,c[6],c[2],0);e[1].setAttribute('points',pts([a,[a[0]+u[0],a[1]+u[1]]]));}"
    "if(c[3]===0){var v=CAX(k,c[7],c[4],c[5]);"
    "e[2].setAttribute('points',pts([[p[0]+v[0]*c[8],p[1]+v[1]*c[8]],[p[0]+v[0]*c[9],p[1]+v[1]*c[9]]]));}"
    "else if(c[3]===3){var w=CAX(k,c[7],c[4],c[5]);e[2].setAttribute('points',pts([p,[p[0]+w[0],p[1]+w[1]]]));}"
    "else if(e[2]){e[2].setAttribute('cx',p[0]);e[2].setAttribute('cy',p[1]);}});};\n";
/* The cams' script (only in pages with cams), wrapping draw() as mesh_script does. CAMS:
 * [centre, follower, roller radius, angle column, [x1, y1, .., xn, yn]] (the profile about its
 * centre in its body's axes). */
static const char *const cam_script =
    "var camEls=null,drawCamMain=draw;\n"
    "function camInit(){camEls=[];CAMS.forEach(function(c){camEls.push([el('polygon',{'class':'camprofile',"
    "'fill':'#ddd','fill-opacity':0.5,'stroke':'#333','stroke-width':2,'vector-effect':'non-scaling-stroke'},W),"
    "c[2]>0?el('circle',{'class':'roller','r':c[2],'fill':'none','stroke':'#333','stroke-width':1.5,"
    "'vector-effect':'non-scaling-stroke'},W):null]);});}\n"
    "draw=function(k){drawCamMain(k);if(!camEls)camInit();\n"
    " CAMS.forEach(function(c,i){var o=P(k,c[0]),a=c[3]<0?0:D[k][c[3]],co=Math.cos(a),si=Math.sin(a),"
    "v=c[4],q=[],e=camEls[i];for(var j=0;j<v.length;j+=2)q.push([o[0]+co*v[j]-si*v[j+1],"
    "o[1]+si*v[j]+co*v[j+1]]);e[0].setAttribute('points',pts(q));"
    "if(e[1]){var f=E(k,c[1]);e[1].setAttribute('cx',f[0]);e[1].setAttribute('cy',f[1]);}});};\n";

static int write_html(const mb_info *m, const opts *o, const frames *f, const char *summary)
{
    FILE *out;
    double xmin = HUGE_VAL, xmax = -HUGE_VAL, ymin = HUGE_VAL, ymax = -HUGE_VAL;
    double L, R, marg, dur;
    long k;
    int i, b, p, tr = -1, nrow = 2 * m->npoint + 2 * m->nbody, first;
    int *parent, *members, *next_pt, *first_pt;   /* [npoint] x 3, [nbody]: one block */
    char title[512];

    /* Bounding box of every point and centre of mass over the whole run. */
    for (k = 0; k < f->n; k++)
        for (i = 0; i < nrow; i += 2) {
            double x = f->v[k * f->stride + 1 + i], y = f->v[k * f->stride + 2 + i];
            if (x < xmin) xmin = x;
            if (x > xmax) xmax = x;
            if (y < ymin) ymin = y;
            if (y > ymax) ymax = y;
        }
    /* and of every cam's profile: a circle about its centre through its farthest vertex */
    for (i = 0; i < m->ncam; i++) {
        double rmax = 0.0;
        for (int j = 0; j < m->cam_nv[i]; j++)
            rmax = fmax(rmax, hypot(m->cam_xy[2 * MB_INFO_CAM_VERTICES * i + 2 * j],
                                    m->cam_xy[2 * MB_INFO_CAM_VERTICES * i + 2 * j + 1]));
        for (k = 0; k < f->n; k++) {
            double x = px(f, k, m->cam[2 * i]), y = py(f, k, m->cam[2 * i]);
            xmin = fmin(xmin, x - rmax);
            xmax = fmax(xmax, x + rmax);
            ymin = fmin(ymin, y - rmax);
            ymax = fmax(ymax, y + rmax);
        }
    }
    const double bx0 = xmin, bx1 = xmax, by0 = ymin, by1 = ymax;   /* for the message below */
    L = fmax(xmax - xmin, ymax - ymin);
    if (!(L > 0.0)) L = 1.0; /* a model that never moves anything */
    R = 0.012 * L;           /* joint radius, world units */
    marg = 0.08 * L;
    xmin -= marg;
    xmax += marg;
    ymin -= marg + 3.0 * R; /* room for the ground symbols */
    ymax += marg;
    /* finite positions whose span overflows (+-1e308) cannot be drawn: the page would get
     * viewBox="-inf -inf inf inf" and a joint radius of inf */
    if (!isfinite(xmin) || !isfinite(xmax) || !isfinite(ymin) || !isfinite(ymax) ||
        !isfinite(xmax - xmin) || !isfinite(ymax - ymin) || !isfinite(R)) {
        fprintf(stderr, "%s: %s: the positions span more than a double can hold (x from %g to "
                "%g, y from %g to %g): nothing to draw\n", prog, o->in, bx0, bx1, by0, by1);
        return 1;
    }

    if (o->trace && strcmp(o->trace, "none") != 0) {
        for (p = 0; p < m->npoint; p++)
            if (strcmp(m->point[p], o->trace) == 0) tr = p;
        for (b = 0; tr < 0 && b < m->nbody; b++)   /* a particle by its name */
            if (m->particle[b] && strcmp(m->body[b], o->trace) == 0) tr = m->npoint + b;
        if (tr < 0) {
            int np = 0;
            fprintf(stderr, "%s: --trace %s: no such point; the points are:", prog, o->trace);
            for (p = 0; p < m->npoint; p++) fprintf(stderr, " %s", m->point[p]);
            for (b = 0; b < m->nbody; b++)
                if (m->particle[b])
                    fprintf(stderr, "%s %s", np++ ? "" : "; the particles:", m->body[b]);
            fputc('\n', stderr);
            return EXIT_USAGE;
        }
    } else if (!o->trace) {
        tr = farthest_point(m, f);
    }
    dur = o->duration > 0.0 ? o->duration
                            : fmin(20.0, fmax(4.0, f->v[(f->n - 1) * f->stride] - f->v[0]));
    if (o->title)
        snprintf(title, sizeof title, "%s", o->title);
    else
        snprintf(title, sizeof title, "%s - %s", m->model, o->in);

    parent = malloc(((size_t)3 * (size_t)m->npoint + (size_t)m->nbody + 1) * sizeof *parent);
    if (!parent) {
        fprintf(stderr, "%s: out of memory (%d points)\n", prog, m->npoint);
        return 1;
    }
    members = parent + m->npoint;   /* of each group of joined points, at its root */
    next_pt = members + m->npoint;  /* each body's points, a list in index order */
    first_pt = next_pt + m->npoint;
    find_joints(m, parent);
    for (b = 0; b < m->nbody; b++) first_pt[b] = -1;
    for (p = m->npoint - 1; p >= 0; p--) {
        if (m->point_body[p] < 0) continue;
        next_pt[p] = first_pt[m->point_body[p]];
        first_pt[m->point_body[p]] = p;
    }

    /* Written to a temporary next to the target and renamed at the end: never a partial page
     * under the requested name; the target may only be a regular file (rename replaces it). */
    struct stat sb;
    char tmpname[4096];
    if (stat(o->out, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        fprintf(stderr, "%s: cannot write %s: not a regular file\n", prog, o->out);
        free(parent);
        return 1;
    }
    if (snprintf(tmpname, sizeof tmpname, "%s.tmp.%ld", o->out, (long)getpid()) >= (int)sizeof tmpname ||
        !(out = fopen(tmpname, "w"))) {
        fprintf(stderr, "%s: cannot write %s: %s\n", prog, o->out,
                errno ? strerror(errno) : "path too long");
        free(parent);
        return 1;
    }
    /* Polyglot markup: parses as HTML5 and as XML, so xmllint can check it. */
    fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
          "<meta charset=\"utf-8\"/>\n<title>", out);
    put_text(out, title);
    fputs("</title>\n<style>\n"
          "body{font-family:sans-serif;margin:1em;color:#222}\n"
          "svg{display:block;width:100%;max-width:900px;height:74vh;border:1px solid #ccc;background:#fff}\n"
          ".body{stroke-width:4;stroke-linejoin:round;stroke-linecap:round;fill-opacity:0.15;"
          "vector-effect:non-scaling-stroke}\n"
          ".joint{fill:#fff;stroke:#222;stroke-width:1.5;vector-effect:non-scaling-stroke}\n"
          ".com{stroke:none}\n"
          ".spring{fill:none;stroke:#555;stroke-width:1.5;vector-effect:non-scaling-stroke}\n"
          ".rod{fill:none;stroke:#333;stroke-width:2.5;vector-effect:non-scaling-stroke}\n"
          ".ground{fill:#ddd;stroke:#444;stroke-width:1;vector-effect:non-scaling-stroke}\n"
          ".hatch{stroke:#444;stroke-width:1;vector-effect:non-scaling-stroke}\n"
          ".tracefull{fill:none;stroke:#f4a;stroke-opacity:0.25;stroke-width:1;"
          "vector-effect:non-scaling-stroke}\n"
          ".trace{fill:none;stroke:#e0457b;stroke-width:1.5;vector-effect:non-scaling-stroke}\n"
          ".tracedot{fill:#e0457b}\n"
          ".ctl{margin:0.5em 0;display:flex;gap:1em;align-items:center;max-width:900px}\n"
          ".ctl input{flex:1}\n#time{font-family:monospace;min-width:12em}\n"
          ".note{color:#555;font-size:90%;max-width:900px}\n"
          "</style>\n</head>\n<body>\n<h3>", out);
    put_text(out, title);
    fputs("</h3>\n<div class=\"ctl\"><button id=\"play\" type=\"button\">Pause</button>"
          "<input id=\"slider\" type=\"range\" min=\"0\" step=\"1\" value=\"0\" max=\"", out);
    fprintf(out, "%ld\"/><span id=\"time\">t = 0 s</span></div>\n", f->n - 1);
    fprintf(out,
            "<svg id=\"view\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"%.9g %.9g %.9g %.9g\""
            " data-frames=\"%ld\" role=\"img\">\n",
            xmin, -ymax, xmax - xmin, ymax - ymin, f->n);
    fputs("<g id=\"world\" transform=\"scale(1,-1)\">\n", out);
    /* Ground symbols never move: drawn here, a hatched wedge under each ground point. */
    for (p = 0; p < m->npoint; p++) {
        double x, y;
        if (m->point_body[p] >= 0) continue;
        x = px(f, 0, p);
        y = py(f, 0, p);
        fprintf(out, "<g class=\"groundsym\"><title>");
        put_text(out, m->point[p]);
        fprintf(out, "</title><polygon class=\"ground\" points=\"%.9g,%.9g %.9g,%.9g %.9g,%.9g\"/>"
                     "<line class=\"hatch\" x1=\"%.9g\" y1=\"%.9g\" x2=\"%.9g\" y2=\"%.9g\"/></g>\n",
                x, y, x - 1.6 * R, y - 2.4 * R, x + 1.6 * R, y - 2.4 * R, x - 2.2 * R,
                y - 2.4 * R, x + 2.2 * R, y - 2.4 * R);
    }
    fputs("</g>\n</svg>\n<p class=\"note\">", out);
    fprintf(out, "%ld frames. Bodies as lines through their points (dot: centre of mass), "
                 "joints as circles, ground points as wedges, springs as zigzags, rods as lines",
            f->n);
    if (m->nslot + m->ngear + m->nrack > 0)
        fputs("; slots as lines with their pins as circles, gears as pitch circles (dashed) "
              "with their centres linked, racks as pitch lines", out);
    if (m->ncontact > 0)
        fputs("; contacts as their circles (with a radius that turns with the body) and the "
              "lines or circles they touch", out);
    if (m->ncam > 0) fputs("; cams as their profiles, rollers as circles", out);
    if (tr >= 0) {
        fputs(tr < m->npoint ? "; path of point " : "; path of particle ", out);
        put_text(out, trace_name(m, tr));
    }
    fputs(". Hover a body for its name; space plays or pauses, the arrow keys step.", out);
    if (o->note) {
        fputs("<br/>", out);
        put_text(out, o->note);
    }
    if (summary[0]) {
        fputs("<br/>Run: <code>", out);
        put_text(out, summary);
        fputs("</code>", out);
    }
    fputs("</p>\n<script>//<![CDATA[\n", out);
    /* Model layout: body outlines (point indices; -1-b is body b's CoM), springs, joints. */
    fprintf(out, "var NP=%d,TR=%d,R=%.9g,SW=%.9g,DUR=%.9g,TDIG=%d;\n", m->npoint, tr, R, 0.6 * R,
            dur, f->v[(f->n - 1) * f->stride] < 1.0 ? 5 : 3);
    fputs("var BODIES=[\n", out);
    for (b = 0; b < m->nbody; b++) {
        int idx[64], n = 0, closed;
        for (p = first_pt[b]; p >= 0 && n < 63; p = next_pt[p]) idx[n++] = p;   /* index order */
        closed = n >= 3;
        if (closed) { /* order the outline by angle about the points' centroid (frame 0) */
            double cx = 0, cy = 0;
            int a, c;
            for (a = 0; a < n; a++) {
                cx += px(f, 0, idx[a]) / n;
                cy += py(f, 0, idx[a]) / n;
            }
            for (a = 1; a < n; a++)
                for (c = a; c > 0 && atan2(py(f, 0, idx[c]) - cy, px(f, 0, idx[c]) - cx) <
                                          atan2(py(f, 0, idx[c - 1]) - cy, px(f, 0, idx[c - 1]) - cx);
                     c--) {
                    int tmp = idx[c];
                    idx[c] = idx[c - 1];
                    idx[c - 1] = tmp;
                }
        } else if (n == 2) { /* a bar: first point, centre of mass, second point */
            idx[2] = idx[1];
            idx[1] = -1 - b;
            n = 3;
        } else { /* one point or none: a line to the centre of mass */
            idx[n++] = -1 - b;
        }
        fputs(" {name:", out);
        put_js_string(out, m->body[b]);
        fprintf(out, ",color:\"%s\",closed:%s,pts:[", palette[b % 8], closed ? "true" : "false");
        for (i = 0; i < n; i++) fprintf(out, "%s%d", i ? "," : "", idx[i]);
        fputs("]},\n", out);
    }
    fputs("];\nvar SPRINGS=[", out);
    for (i = 0; i < m->nspring; i++)
        fprintf(out, "%s[%d,%d]", i ? "," : "", m->spring[2 * i], m->spring[2 * i + 1]);
    fputs("];\nvar RODS=[", out);   /* an end is a point, or -1-b: body (particle) b's centre */
    for (i = 0; i < m->nrod; i++)
        fprintf(out, "%s[%d,%d]", i ? "," : "", m->rod[2 * i], m->rod[2 * i + 1]);
    fputs("];\nvar JOINTS=[", out); /* one point per group of coincident points */
    first = 1;
    for (p = 0; p < m->npoint; p++) members[p] = 0;
    for (p = 0; p < m->npoint; p++) members[root(parent, p)]++;
    for (p = 0; p < m->npoint; p++) {
        if (root(parent, p) != p || members[p] < 2) continue;
        fprintf(out, "%s%d", first ? "" : ",", p);
        first = 0;
    }
    fputs("];\n/* one frame per line: t, then x,y of every point, then of every centre of mass */\n"
          "var D=[\n", out);
    for (k = 0; k < f->n; k++) {
        fputc('[', out);
        for (i = 0; i < f->stride; i++) fprintf(out, "%s%.7g", i ? "," : "", f->v[k * f->stride + i]);
        fputs("],\n", out);
    }
    fputs("];\n", out);
    if (m->nslot + m->ngear + m->nrack > 0) {
        double s0, s1;
        fputs("var SLOTS=[", out);
        for (i = 0; i < m->nslot; i++) {
            line_span(f, m, 0, i, R, &s0, &s1);
            fprintf(out, "%s[%d,%d,%.9g,%.9g,%d,%.9g,%.9g]", i ? "," : "", m->slot[2 * i],
                    m->slot[2 * i + 1], m->slot_axis[2 * i], m->slot_axis[2 * i + 1],
                    angle_col(m, m->slot[2 * i]), s0, s1);
        }
        fputs("];\nvar GEARS=[", out);
        for (i = 0; i < m->ngear; i++)
            fprintf(out, "%s[%d,%d,%.9g,%.9g]", i ? "," : "", m->gear[2 * i], m->gear[2 * i + 1],
                    m->gear_r[2 * i], m->gear_r[2 * i + 1]);
        fputs("];\nvar RACKS=[", out);
        for (i = 0; i < m->nrack; i++) {
            line_span(f, m, 1, i, R, &s0, &s1);
            fprintf(out, "%s[%d,%d,%.9g,%.9g,%.9g,%d,%.9g,%.9g]", i ? "," : "", m->rack[2 * i],
                    m->rack[2 * i + 1], m->rack_geom[3 * i], m->rack_geom[3 * i + 1],
                    m->rack_geom[3 * i + 2], angle_col(m, m->rack[2 * i]), s0, s1);
        }
        fputs("];\n", out);
        fputs(mesh_script, out);
    }
    if (m->ncontact > 0) {
        double s0 = 0.0, s1 = 0.0;
        fputs("var CONTACTS=[", out);
        for (i = 0; i < m->ncontact; i++) {
            const double *g = m->contact_geom + 4 * i;
            if (g[1] == 0.0) contact_span(f, m, i, R, &s0, &s1);
            fprintf(out, "%s[%d,%d,%.9g,%d,%.9g,%.9g,%d,%d,%.9g,%.9g]", i ? "," : "",
                    m->contact[2 * i], m->contact[2 * i + 1], g[0], (int)g[1], g[2], g[3],
                    end_angle_col(m, m->contact[2 * i]), end_angle_col(m, m->contact[2 * i + 1]),
                    s0, s1);
        }
        fputs("];\n", out);
        fputs(contact_script, out);
    }
    if (m->ncam > 0) {
        fputs("var CAMS=[", out);
        for (i = 0; i < m->ncam; i++) {
            const double *v = m->cam_xy + 2 * MB_INFO_CAM_VERTICES * i;
            fprintf(out, "%s[%d,%d,%.9g,%d,[", i ? "," : "", m->cam[2 * i], m->cam[2 * i + 1],
                    m->cam_roller[i], angle_col(m, m->cam[2 * i]));
            for (int j = 0; j < 2 * m->cam_nv[i]; j++) fprintf(out, "%s%.9g", j ? "," : "", v[j]);
            fputs("]]", out);
        }
        fputs("];\n", out);
        fputs(cam_script, out);
    }
    fputs(script, out);
    fputs("//]]></script>\n</body>\n</html>\n", out);
    free(parent);
    if ((ferror(out) | (fclose(out) != 0)) || rename(tmpname, o->out) != 0) {
        fprintf(stderr, "%s: error writing %s: %s\n", prog, o->out, strerror(errno));
        remove(tmpname);
        return 1;
    }
    if (!o->quiet)
        fprintf(stderr, "%s: wrote %s (%ld frames%s%s)\n", prog, o->out, f->n,
                tr >= 0 ? ", trace " : "", tr >= 0 ? trace_name(m, tr) : "");
    return 0;
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    mb_info info, *m = &info;
    mb_lines csv;
    opts o;
    frames fr;
    char summary[1024], err[4400], *outname = NULL, *infoname = NULL;
    int i, rc;

    memset(&o, 0, sizeof o);
    o.every = 1;
    o.max_frames = 2000;
    if (argc > 0 && argv[0][0]) {
        prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    }
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--quiet") == 0) {
            o.quiet = 1;
        } else if (strcmp(a, "--out") == 0 && has) {
            o.out = argv[++i];
        } else if (strcmp(a, "--info") == 0 && has) {
            o.info = argv[++i];
        } else if (strcmp(a, "--trace") == 0 && has) {
            o.trace = argv[++i];
        } else if (strcmp(a, "--title") == 0 && has) {
            o.title = argv[++i];
        } else if (strcmp(a, "--note") == 0 && has) {
            o.note = argv[++i];
        } else if (strcmp(a, "--every") == 0 && has) {
            if (!parse_long(argv[++i], &o.every) || o.every < 1) goto bad_value;
        } else if (strcmp(a, "--max-frames") == 0 && has) {
            if (!parse_long(argv[++i], &o.max_frames) || o.max_frames < 0) goto bad_value;
        } else if (strcmp(a, "--duration") == 0 && has) {
            if (!parse_double(argv[++i], &o.duration) || o.duration <= 0.0) goto bad_value;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "%s: unknown option or missing value: %s (try --help)\n", prog, a);
            return EXIT_USAGE;
        } else if (!o.in) {
            o.in = a;
        } else {
            fprintf(stderr, "%s: more than one input file: %s (try --help)\n", prog, a);
            return EXIT_USAGE;
        }
        continue;
    bad_value:
        fprintf(stderr, "%s: bad value for %s: %s\n", prog, a, argv[i]);
        return EXIT_USAGE;
    }
    if (!o.in) {
        fprintf(stderr, "%s: no input file (try --help)\n", prog);
        return EXIT_USAGE;
    }
    if (o.out && strcmp(o.out, "-") == 0) { /* no stdout: a file named "-" would be a surprise */
        fprintf(stderr, "%s: bad value for --out: -: the page goes to a file, not to stdout; give a file name\n", prog);
        return EXIT_USAGE;
    }
    /* the CSV first: a missing CSV is named as such, not as its missing info file; opened once
     * (a pipe can be read only once) */
    if (mb_lines_open(&csv, o.in, CSV_LINE_MAX, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return 1;
    }
    memset(m, 0, sizeof *m);
    memset(&fr, 0, sizeof fr);
    rc = 1;
    if (!o.info) { /* results/x.csv -> results/x.csv.info */
        if (!(infoname = mb_info_path(o.in))) {
            fprintf(stderr, "%s: out of memory\n", prog);
            goto done;
        }
        o.info = infoname;
    }
    if (mb_info_read(o.info, m, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", prog, err);
        goto done;
    }
    if (!o.out) { /* results/x.csv -> results/x.html */
        size_t n = strlen(o.in);
        if (!(outname = malloc(n + 6))) {
            fprintf(stderr, "%s: out of memory\n", prog);
            goto done;
        }
        memcpy(outname, o.in, n + 1);
        if (n > 4 && strcmp(outname + n - 4, ".csv") == 0) outname[n - 4] = '\0';
        strcat(outname, ".html");
        o.out = outname;
    }

    fr.stride = 1 + 2 * m->npoint + 2 * m->nbody +
                (m->nslot + m->nrack + m->ncontact + m->ncam > 0 ? m->nbody : 0);
    rc = read_csv(&csv, m, &o, &fr, summary, sizeof summary);
    mb_lines_close(&csv);
    if (rc == 0 && o.max_frames > 0 && fr.n > o.max_frames) {
        /* keep max_frames rows evenly spread over the run, the first and the last included */
        long k, n = o.max_frames;
        for (k = 1; k < n; k++) {
            long src = n > 1 ? (long)((double)k * (double)(fr.n - 1) / (double)(n - 1) + 0.5) : 0;
            memmove(fr.v + k * fr.stride, fr.v + src * fr.stride, (size_t)fr.stride * sizeof *fr.v);
        }
        fr.n = n;
    }
    if (rc == 0) rc = write_html(m, &o, &fr, summary);
done:
    mb_lines_close(&csv);
    free(fr.v);
    free(outname);
    free(infoname);
    mb_info_free(m);
    return rc;
}
