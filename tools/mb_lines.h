/* mb_lines.h - a bounded reader of text lines for the tools' input files (the animation tool's
 * CSV and drawing info file). Unlike getline it never grows without bound (a line longer than
 * the caller's limit is an error, so /dev/zero or a file without line breaks cannot eat the
 * memory), tells end of file from a read error and from running out of memory, refuses NUL
 * bytes (not text) and a last line without a line break (a file cut short, whose last line may
 * read as another valid one), and names "file:line" in every message.
 * Layer: host tool helper (tools/); allocates and does file I/O. */
#ifndef MB_LINES_H
#define MB_LINES_H

#include <stddef.h>
#include <stdio.h>

typedef struct mb_lines {
    FILE *f;
    const char *path;   /* for messages (not copied) */
    char *buf;          /* the current line, NUL-terminated, without its '\n' */
    size_t cap, max;    /* buf's size; the longest line accepted (bytes, without the '\n') */
    long lineno;        /* the current line's number (1: the first) */
    int owned;          /* 1: mb_lines_close closes f */
} mb_lines;

/* Open path for reading: a regular file or a pipe (FIFO, process substitution) only; a
 * directory, a device or a socket is refused before it is opened. Returns 0, or -1 (cannot
 * open: "cannot read PATH: why") or -2 (not a file or pipe: "PATH: not a regular file or a pipe
 * (a directory)") with the message in err[nerr]; r is then closed. */
int mb_lines_open(mb_lines *r, const char *path, size_t max, char *err, size_t nerr);

/* Read from an open stream f (not closed by mb_lines_close), named path in messages. */
void mb_lines_init(mb_lines *r, FILE *f, const char *path, size_t max);

/* The next line into r->buf (its length in *len; a '\r' before the '\n' is kept). Returns 1: a
 * line; 0: end of file; -1: error, "PATH:LINE: why" in err[nerr] (longer than max bytes, a NUL
 * byte, no line break at the end, a read error, out of memory). */
int mb_lines_next(mb_lines *r, size_t *len, char *err, size_t nerr);

void mb_lines_close(mb_lines *r);

#endif /* MB_LINES_H */
