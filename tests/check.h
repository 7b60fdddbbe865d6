/* check.h - the tiny assertion layer every C test program uses.
 * Each program counts its checks and ends with the line "N passed, N failed";
 * tests/run.sh sums those lines. Include in exactly one translation unit. */
#ifndef CHECK_H
#define CHECK_H

#include <math.h>
#include <stdio.h>

static int check_passed, check_failed;

/* Record one check; print the failure with its place and a printf-style reason. */
#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (cond) {                                                             \
            check_passed++;                                                     \
        } else {                                                                \
            check_failed++;                                                     \
            fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);               \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

/* |a - b| <= tol * max(1, |a|, |b|), i.e. relative on a sensible scale. */
static int check_close(double a, double b, double tol)
{
    double s = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    if (s < 1.0) s = 1.0;
    return fabs(a - b) <= tol * s;
}

/* Print the closing line and return the process exit status. */
static int check_report(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif /* CHECK_H */
