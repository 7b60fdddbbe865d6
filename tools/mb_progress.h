/* mb_progress.h - a one-line progress bar on stderr for the command-line drivers.
 * Layer: host tools only (simulator, animation); never linked into an embedded build.
 * Shown only when the output is a terminal, only after the run has lasted about a second. */
#ifndef MB_PROGRESS_H
#define MB_PROGRESS_H

#include <stdio.h>

typedef struct mb_progress {
    FILE *out;          /* where the bar goes (stderr); NULL: disabled */
    double t0, t_end;   /* simulated time span the bar covers, s */
    double wall0;       /* wall clock at start, s */
    double last_draw;   /* wall clock of the last redraw, s */
    double last_read;   /* wall clock when it was last read, s */
    double delay;       /* seconds of silence before the bar first appears */
    long calls;         /* update calls since the clock was last read */
    long stride;        /* read the clock only every `stride` calls (kept cheap) */
    int shown;          /* a bar is on the terminal and must be cleared */
} mb_progress;

/* 1 when a bar should be drawn: not quiet and stderr is a terminal. */
int mb_progress_wanted(int quiet);

/* Start a bar for simulated time t0..t_end on `out` (NULL disables it; pass
 * mb_progress_wanted(quiet) ? stderr : NULL). Reads the wall clock. No allocation. */
void mb_progress_init(mb_progress *p, FILE *out, double t0, double t_end);

/* Report that simulated time t has been reached. Cheap: reads the clock only every few
 * calls, draws nothing during the first second and redraws at most 10 times a second. */
void mb_progress_update(mb_progress *p, double t);

/* Same, with the wall-clock time `wall` (s, same origin as mb_progress_now) given; for tests. */
void mb_progress_update_at(mb_progress *p, double t, double wall);

/* Clear the bar (if one was drawn) so the next output starts on a clean line. */
void mb_progress_done(mb_progress *p);

/* Monotonic wall clock in seconds. */
double mb_progress_now(void);

/* Write the bar for fraction `frac` (0..1) after `elapsed` s into buf (at most n bytes,
 * NUL-terminated): "[#####.....]  45%  t=0.0225  2.1 s, ~2.6 s left". Returns its length. */
int mb_progress_format(char *buf, int n, double frac, double t, double elapsed);

#endif /* MB_PROGRESS_H */
