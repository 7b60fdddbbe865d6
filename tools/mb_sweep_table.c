/* mb_sweep_table.c - the parameter table of a sweep: reader, checker, normalized text, the
 * options of a row, and the file reader the sweep's tools share (mb_sweep_table.h). */
#include "mb_sweep_table.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 32768   /* columns of a table: row, 1000 tunables, inputs (20000 elements at
                            most), the 4 option columns */

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* s[0..n) as a message shows it: printable ASCII as it is (" and \ escaped), any other byte
 * escaped (a byte-order mark, a CR, a NUL are seen), at most 40 bytes of it. */
static const char *shown(const char *s, size_t n, char out[200])
{
    size_t o = 0;
    for (size_t i = 0; i < n && i < 40; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') o += (size_t)sprintf(out + o, "\\%c", c);
        else if (c == '\t') o += (size_t)sprintf(out + o, "\\t");
        else if (c == '\r') o += (size_t)sprintf(out + o, "\\r");
        else if (c < 0x20 || c >= 0x7f) o += (size_t)sprintf(out + o, "\\x%02x", c);
        else out[o++] = (char)c;
    }
    if (n > 40) o += (size_t)sprintf(out + o, "...");
    out[o] = 0;
    return out;
}

/* the file's name in a message: control bytes escaped (a message is one line), at most 400
 * bytes; other bytes (UTF-8 names) as they are */
static const char *shown_file(const char *f, char out[1700])
{
    size_t o = 0, i;
    for (i = 0; f[i] && i < 400; i++) {
        unsigned char c = (unsigned char)f[i];
        if (c < 0x20 || c == 0x7f) o += (size_t)sprintf(out + o, "\\x%02x", c);
        else out[o++] = (char)c;
    }
    if (f[i]) o += (size_t)sprintf(out + o, "...");
    out[o] = 0;
    return out;
}

static int is_name(const char *s, size_t n)
{
    if (n == 0 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return 0;
    for (size_t i = 1; i < n; i++) {
        char c = s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return 0;
    }
    return 1;
}

/* a value: a number or a name, never anything a shell, the simulator's option parser (no
 * '=' or ',') or the summary CSV could take for more */
static int is_value(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '+' || c == '-'))
            return 0;
    }
    return 1;
}

static int blank(char c) { return c == ' ' || c == '\t'; }

void mb_sweep_table_free(mb_sweep_table *t)
{
    free(t->name);
    free(t->cell);
    free(t->store);
    memset(t, 0, sizeof *t);
}

int mb_sweep_table_read(const char *data, size_t len, const char *file, mb_sweep_table *t,
                        char *err, size_t errlen)
{
    char f[1700], v[200];
    const char *p = data, *end = data + len;
    size_t cap = 0;
    char *s;
    memset(t, 0, sizeof *t);
    if (errlen) err[0] = 0;
    shown_file(file, f);
    /* a UTF-8 byte-order mark (what spreadsheet programs write) is no part of the header */
    if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3)) p += 3;
    if (p == end) {
        fail(err, errlen, "%s: empty (a header of column names, then one row per run)", f);
        return 2;
    }
    /* every name and value is a piece of the input (trimmed, NUL-terminated): len + 1 bytes */
    t->store = malloc(len + 1);
    if (!t->store) return 1;
    s = t->store;
    long line = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        const char *next = nl ? nl + 1 : end;
        line++;
        if (e > p && e[-1] == '\r') e--;   /* CRLF */
        if (line == 1) {
            /* the header: one name per column */
            long n = 1;
            for (const char *q = p; q < e; q++) n += *q == ',';
            if (e == p) {
                fail(err, errlen, "%s:1: the header is empty (column names, then one row per run)", f);
                goto bad;
            }
            if (n > MAX_COLS) {
                fail(err, errlen, "%s:1: %ld columns (at most %d)", f, n, MAX_COLS);
                goto bad;
            }
            t->ncol = (int)n;
            t->name = malloc((size_t)n * sizeof *t->name);
            if (!t->name) goto nomem;
            const char *q = p;
            for (int c = 0; c < t->ncol; c++) {
                const char *ce = memchr(q, ',', (size_t)(e - q));
                if (!ce) ce = e;
                size_t cn = (size_t)(ce - q);
                if (cn > MB_SWEEP_MAX_CELL) {
                    fail(err, errlen, "%s:1: column %d: a name of %lu characters (at most %d)", f,
                         c + 1, (unsigned long)cn, MB_SWEEP_MAX_CELL);
                    goto bad;
                }
                if (!is_name(q, cn)) {
                    fail(err, errlen, "%s:1: column %d: \"%s\" is not a name (a tunable, an input or h, "
                         "t_end, formulation, integrator)", f, c + 1, shown(q, cn, v));
                    goto bad;
                }
                memcpy(s, q, cn);
                s[cn] = 0;
                for (int d = 0; d < c; d++)
                    if (!strcmp(t->name[d], s)) {
                        fail(err, errlen, "%s:1: column \"%s\" given twice (columns %d and %d)",
                             f, s, d + 1, c + 1);
                        goto bad;
                    }
                t->name[c] = s;
                s += cn + 1;
                q = ce + 1;
            }
        } else {
            /* a row: one value per column */
            const char *q = p;
            while (q < e && blank(*q)) q++;
            if (q == e) {
                fail(err, errlen, "%s:%ld: a blank line (after the header, every line is a row: "
                     "one run)", f, line);
                goto bad;
            }
            long n = 1;
            for (q = p; q < e; q++) n += *q == ',';
            if (n != t->ncol) {
                fail(err, errlen, "%s:%ld: %ld fields, the header has %d", f, line, n, t->ncol);
                goto bad;
            }
            if ((size_t)t->nrow >= cap) {
                size_t nc = cap ? 2 * cap : 64;
                char **nv = realloc(t->cell, nc * (size_t)t->ncol * sizeof *t->cell);
                if (!nv) goto nomem;
                t->cell = nv;
                cap = nc;
            }
            q = p;
            for (int c = 0; c < t->ncol; c++) {
                const char *ce = memchr(q, ',', (size_t)(e - q));
                if (!ce) ce = e;
                const char *a = q, *b = ce;
                while (a < b && blank(*a)) a++;
                while (b > a && blank(b[-1])) b--;
                size_t cn = (size_t)(b - a);
                if (cn == 0) {
                    fail(err, errlen, "%s:%ld: column %d is empty", f, line, c + 1);
                    goto bad;
                }
                if (cn > MB_SWEEP_MAX_CELL) {
                    fail(err, errlen, "%s:%ld: column %d: a value of %lu characters (at most %d)",
                         f, line, c + 1, (unsigned long)cn, MB_SWEEP_MAX_CELL);
                    goto bad;
                }
                if (!is_value(a, cn)) {
                    fail(err, errlen, "%s:%ld: column %d: \"%s\" is not a number or a name (a "
                         "value is made of 0-9 A-Z a-z _ . + -)", f, line, c + 1, shown(a, cn, v));
                    goto bad;
                }
                memcpy(s, a, cn);
                s[cn] = 0;
                t->cell[t->nrow * t->ncol + c] = s;
                s += cn + 1;
                q = ce + 1;
            }
            t->nrow++;
        }
        p = next;
    }
    if (t->nrow == 0) {
        fail(err, errlen, "%s: no rows (a header, then one row per run)", f);
        goto bad;
    }
    return 0;
nomem:
    mb_sweep_table_free(t);
    fail(err, errlen, "%s: out of memory", f);
    return 1;
bad:
    mb_sweep_table_free(t);
    return 2;
}

const char *mb_sweep_option(const char *name)
{
    static const char *const map[][2] = {
        { "h", "--h" }, { "t_end", "--t-end" }, { "formulation", "--formulation" },
        { "integrator", "--integrator" },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(name, map[i][0])) return map[i][1];
    return NULL;
}

/* a growing string */
typedef struct { char *s; size_t n, cap; int nomem; } buf;
static void put(buf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->nomem) return;
    if (b->n + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 256;
        while (b->n + n + 1 > c) c *= 2;
        char *ns = realloc(b->s, c);
        if (!ns) { b->nomem = 1; return; }
        b->s = ns;
        b->cap = c;
    }
    memcpy(b->s + b->n, s, n + 1);
    b->n += n;
}
static char *done(buf *b, size_t *len)
{
    if (!b->nomem && !b->s) put(b, "");
    if (b->nomem) { free(b->s); return NULL; }
    if (len) *len = b->n;
    return b->s;
}

char *mb_sweep_table_text(const mb_sweep_table *t, size_t *len)
{
    buf b = { 0 };
    for (int c = 0; c < t->ncol; c++) { put(&b, c ? "," : ""); put(&b, t->name[c]); }
    put(&b, "\n");
    for (long r = 0; r < t->nrow; r++) {
        for (int c = 0; c < t->ncol; c++) { put(&b, c ? "," : ""); put(&b, t->cell[r * t->ncol + c]); }
        put(&b, "\n");
    }
    return done(&b, len);
}

char *mb_sweep_row_options(const mb_sweep_table *t, long r, size_t *len)
{
    buf b = { 0 };
    for (int c = 0; c < t->ncol; c++) {
        const char *opt = mb_sweep_option(t->name[c]);
        put(&b, opt ? opt : "--set");
        put(&b, "\n");
        if (!opt) { put(&b, t->name[c]); put(&b, "="); }
        put(&b, t->cell[r * t->ncol + c]);
        put(&b, "\n");
    }
    return done(&b, len);
}

char *mb_sweep_slurp(const char *path, size_t *len)
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
