/* mb_lines.c - a bounded reader of text lines (mb_lines.h). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* getc_unlocked, fileno */
#endif
#include "mb_lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What a file that is neither a regular file nor a pipe is, for the message. */
static const char *kind(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a plain file";
}

void mb_lines_init(mb_lines *r, FILE *f, const char *path, size_t max)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->path = path;
    r->max = max;
}

int mb_lines_open(mb_lines *r, const char *path, size_t max, char *err, size_t nerr)
{
    struct stat sb;
    FILE *f;
    mb_lines_init(r, NULL, path, max);
    /* stat first: a device is never opened (opening one can block or act) */
    if (stat(path, &sb) != 0) {
        snprintf(err, nerr, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(sb.st_mode) && !S_ISFIFO(sb.st_mode)) {
        snprintf(err, nerr, "%s: not a regular file or a pipe (%s)", path, kind(sb.st_mode));
        return -2;
    }
    if (!(f = fopen(path, "r"))) {
        snprintf(err, nerr, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    /* and what was opened (the path may have changed in between) */
    if (fstat(fileno(f), &sb) != 0) {
        snprintf(err, nerr, "cannot read %s: %s", path, strerror(errno));
        fclose(f);
        return -1;
    }
    if (!S_ISREG(sb.st_mode) && !S_ISFIFO(sb.st_mode)) {
        snprintf(err, nerr, "%s: not a regular file or a pipe (%s)", path, kind(sb.st_mode));
        fclose(f);
        return -2;
    }
    r->f = f;
    r->owned = 1;
    return 0;
}

int mb_lines_next(mb_lines *r, size_t *len, char *err, size_t nerr)
{
    size_t n = 0;
    int c;
    r->lineno++;
    for (;;) {
        c = getc_unlocked(r->f);
        if (c == EOF || c == '\n') break;
        if (c == '\0') {
            snprintf(err, nerr, "%s:%ld: a NUL byte (not a text file)", r->path, r->lineno);
            return -1;
        }
        if (n == r->max) {
            snprintf(err, nerr, "%s:%ld: line longer than %zu bytes", r->path, r->lineno, r->max);
            return -1;
        }
        if (n + 1 >= r->cap) {   /* room for c and the terminating NUL */
            size_t cap = r->cap ? 2 * r->cap : 256;
            char *b;
            if (cap > r->max + 1) cap = r->max + 1;
            if (cap < n + 2) cap = n + 2;
            if (!(b = realloc(r->buf, cap))) {
                snprintf(err, nerr, "%s:%ld: out of memory (a line of %zu bytes)", r->path,
                         r->lineno, n + 1);
                return -1;
            }
            r->buf = b;
            r->cap = cap;
        }
        r->buf[n++] = (char)c;
    }
    if (c == EOF) {
        if (ferror(r->f)) {
            snprintf(err, nerr, "%s:%ld: read error: %s", r->path, r->lineno, strerror(errno));
            return -1;
        }
        if (n > 0) {
            snprintf(err, nerr, "%s:%ld: the last line has no line break (a file cut short?)",
                     r->path, r->lineno);
            return -1;
        }
        r->lineno--;   /* no line */
        return 0;
    }
    if (!r->buf) {   /* an empty first line: buf must still hold "" */
        if (!(r->buf = malloc(256))) {
            snprintf(err, nerr, "%s:%ld: out of memory", r->path, r->lineno);
            return -1;
        }
        r->cap = 256;
    }
    r->buf[n] = '\0';
    *len = n;
    return 1;
}

void mb_lines_close(mb_lines *r)
{
    if (r->owned && r->f) fclose(r->f);
    free(r->buf);
    memset(r, 0, sizeof *r);
}
