/* mb_progress.c - a one-line progress bar on stderr for the command-line drivers.
 * Layer: host tools only; uses POSIX isatty and clock_gettime.
 * The bar is redrawn in place with '\r' and erased at the end, so logs stay clean. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L /* clock_gettime, isatty, fileno */
#endif
#include "mb_progress.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#define BAR_WIDTH 30
#define LINE_MAX_ 96

int mb_progress_wanted(int quiet)
{
    return !quiet && isatty(fileno(stderr));
}

double mb_progress_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void mb_progress_init(mb_progress *p, FILE *out, double t0, double t_end)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->t0 = t0;
    p->t_end = t_end;
    p->delay = 1.0;
    p->stride = 1;
    p->wall0 = mb_progress_now();
    p->last_draw = p->wall0;
    p->last_read = p->wall0;
}

int mb_progress_format(char *buf, int n, double frac, double t, double elapsed)
{
    char bar[BAR_WIDTH + 1];
    int i, full, len;
    if (!(frac >= 0.0)) frac = 0.0; /* also catches NaN */
    if (frac > 1.0) frac = 1.0;
    full = (int)(frac * BAR_WIDTH + 0.5);
    for (i = 0; i < BAR_WIDTH; i++) bar[i] = i < full ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    if (frac > 0.0 && frac < 1.0)
        len = snprintf(buf, (size_t)n, "[%s] %3d%%  t=%-10.6g %6.1f s, ~%.1f s left", bar,
                       (int)(100.0 * frac), t, elapsed, elapsed * (1.0 - frac) / frac);
    else
        len = snprintf(buf, (size_t)n, "[%s] %3d%%  t=%-10.6g %6.1f s", bar,
                       (int)(100.0 * frac), t, elapsed);
    return len;
}

void mb_progress_update_at(mb_progress *p, double t, double wall)
{
    char line[LINE_MAX_];
    double span = p->t_end - p->t0, frac;
    if (!p->out) return;
    if (wall - p->wall0 < p->delay) return;       /* short runs never show a bar */
    if (p->shown && wall - p->last_draw < 0.1) return;
    frac = span > 0.0 ? (t - p->t0) / span : 1.0;
    mb_progress_format(line, (int)sizeof line, frac, t, wall - p->wall0);
    fprintf(p->out, "\r%s\033[K", line);          /* ESC[K clears a longer old line */
    fflush(p->out);
    p->shown = 1;
    p->last_draw = wall;
}

void mb_progress_update(mb_progress *p, double t)
{
    double wall;
    if (!p->out) return;
    /* Read the clock about every millisecond of work: the stride grows while the
     * calls are fast, so the cost per step stays negligible. */
    if (++p->calls < p->stride) return;
    p->calls = 0;
    wall = mb_progress_now();
    if (wall - p->last_read < 1e-3 && p->stride < (1L << 20)) p->stride *= 2;
    p->last_read = wall;
    mb_progress_update_at(p, t, wall);
}

void mb_progress_done(mb_progress *p)
{
    if (p->out && p->shown) {
        fputs("\r\033[K", p->out);
        fflush(p->out);
    }
    p->shown = 0;
}
