/* ref_common.h - the exact references of make validate-accuracy (scripts/validate_accuracy.sh):
 * long double tools independent of the runtime. Two ways to the same trajectory, so each
 * reference checks itself:
 *  - closed forms through the arithmetic-geometric mean: K(k) and the Jacobi amplitude am(u, k)
 *    by descending Landen transformations (Abramowitz & Stegun 16.4, 17.6);
 *  - the 3-stage Gauss-Legendre Runge-Kutta method (order 6, symplectic) on a one-degree-of-
 *    freedom equation theta'' = f(theta, theta'), its stages solved by fixed-point iteration to
 *    long double round-off, run at h and h/2 to measure its own error.
 * Every program prints CSV rows t,<column>,... at t = k dt, with the simulator's column names, so
 * the harness compares rows at equal t. Header-only: each reference is one translation unit. */
#ifndef REF_COMMON_H
#define REF_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef long double ld;

#define REF_PI 3.141592653589793238462643383279502884L

/* Landen sequence of modulus k (0 <= k < 1): a_n, c_n until c_n is below round-off. */
typedef struct { int n; ld a[40], c[40]; } ref_agm;

static inline void ref_agm_init(ref_agm *g, ld k)
{
    ld a = 1.0L, b = sqrtl(1.0L - k * k), c = k;
    g->n = 0; g->a[0] = a; g->c[0] = c;
    while (fabsl(c) > 1e-21L * a && g->n < 39) {
        ld an = 0.5L * (a + b), bn = sqrtl(a * b);
        c = 0.5L * (a - b); a = an; b = bn;
        g->n++; g->a[g->n] = a; g->c[g->n] = c;
    }
}

/* K(k), the complete elliptic integral of the first kind: pi / (2 AGM(1, sqrt(1 - k^2))). */
static inline ld ref_agm_K(const ref_agm *g) { return REF_PI / (2.0L * g->a[g->n]); }

/* am(u, k): the Jacobi amplitude, continuous in u (sn = sin am, cn = cos am), A&S 16.4.3.
 * phi_N = 2^N a_N u, then phi_(n-1) = (phi_n + asin(c_n / a_n sin phi_n)) / 2. */
static inline ld ref_am(const ref_agm *g, ld u)
{
    ld phi = ldexpl(g->a[g->n] * u, g->n);
    for (int n = g->n; n >= 1; n--) phi = 0.5L * (phi + asinl(g->c[n] / g->a[n] * sinl(phi)));
    return phi;
}

/* The 1-DOF equation theta'' = f(theta, theta', par). */
typedef ld (*ref_accel)(ld th, ld om, const void *par);

/* Gauss-Legendre, 3 stages: c = 1/2 -+ sqrt(15)/10, 1/2; the Butcher matrix and weights. */
static inline void ref_gl6_tab(ld A[3][3], ld b[3])
{
    const ld r = sqrtl(15.0L);
    A[0][0] = 5.0L / 36;            A[0][1] = 2.0L / 9 - r / 15; A[0][2] = 5.0L / 36 - r / 30;
    A[1][0] = 5.0L / 36 + r / 24;   A[1][1] = 2.0L / 9;          A[1][2] = 5.0L / 36 - r / 24;
    A[2][0] = 5.0L / 36 + r / 30;   A[2][1] = 2.0L / 9 + r / 15; A[2][2] = 5.0L / 36;
    b[0] = 5.0L / 18; b[1] = 4.0L / 9; b[2] = 5.0L / 18;
}

/* One step h from (th, om); the stage slopes by fixed-point iteration until they stop changing
 * (|change| <= 1e-19 of their size, or
 * below 1e-16 of it and no longer shrinking: round-off) - exits when it does not converge in 60 iterations (h too
 * large for the iteration: a caller's error, never a silent result). */
static inline void ref_gl6_step(ref_accel f, const void *par, ld h, ld *th, ld *om)
{
    ld A[3][3], b[3], kq[3], kv[3];
    ref_gl6_tab(A, b);
    for (int i = 0; i < 3; i++) { kq[i] = *om; kv[i] = f(*th, *om, par); }
    ld dprev = HUGE_VALL;
    for (int it = 0;; it++) {
        ld nq[3], nv[3], d = 0, s = 0;
        for (int i = 0; i < 3; i++) {
            ld Q = *th, V = *om;
            for (int j = 0; j < 3; j++) { Q += h * A[i][j] * kq[j]; V += h * A[i][j] * kv[j]; }
            nq[i] = V; nv[i] = f(Q, V, par);
        }
        for (int i = 0; i < 3; i++) {
            d = fmaxl(d, fmaxl(fabsl(nq[i] - kq[i]), fabsl(nv[i] - kv[i])));
            s = fmaxl(s, fmaxl(fabsl(nq[i]), fabsl(nv[i])));
            kq[i] = nq[i]; kv[i] = nv[i];
        }
        /* converged, or stalled at round-off (no longer shrinking: a few ulp) */
        if (d <= 1e-19L * (s + 1e-30L) || (d <= 1e-16L * (s + 1e-30L) && d >= dprev)) break;
        dprev = d;
        if (it >= 60) { fprintf(stderr, "ref: Gauss-Legendre stages did not converge (h = %Lg)\n", h); exit(1); }
    }
    for (int i = 0; i < 3; i++) { *th += h * b[i] * kq[i]; *om += h * b[i] * kv[i]; }
}

/* Integrates from (th0, om0) at t = 0 with `sub` steps per output interval dt and calls
 * out(k, th, om, ctx) at t = k dt, k = 0..nout. */
typedef void (*ref_out)(long k, ld th, ld om, void *ctx);
static inline void ref_gl6_run(ref_accel f, const void *par, ld th, ld om, ld dt, long nout, long sub,
                        ref_out out, void *ctx)
{
    const ld h = dt / (ld)sub;
    out(0, th, om, ctx);
    for (long k = 1; k <= nout; k++) {
        for (long s = 0; s < sub; s++) ref_gl6_step(f, par, h, &th, &om);
        out(k, th, om, ctx);
    }
}

/* Command line of every reference: [--check] T_END DT; rows at t = k DT, k = 0..round(T_END/DT). */
static inline long ref_args(int argc, char **argv, int *check, ld *t_end, ld *dt, int nextra)
{
    int i = 1;
    *check = 0;
    if (argc > 1 && argv[1][0] == '-' && argv[1][1] == '-') {
        if (argv[1][2] == 'c') *check = 1;
        else if (argv[1][2] == 'h') { printf("usage: %s [--check] T_END DT%s\n", argv[0], nextra ? " N" : ""); exit(0); }
        else { fprintf(stderr, "usage: %s [--check] T_END DT%s\n", argv[0], nextra ? " N" : ""); exit(2); }
        i = 2;
    }
    if (argc != i + 2 + nextra) {
        fprintf(stderr, "usage: %s [--check] T_END DT%s\n", argv[0], nextra ? " N" : "");
        exit(2);
    }
    *t_end = strtold(argv[i], NULL); *dt = strtold(argv[i + 1], NULL);
    if (!(*t_end > 0) || !(*dt > 0) || *dt > *t_end) { fprintf(stderr, "%s: bad T_END or DT\n", argv[0]); exit(2); }
    return lroundl(*t_end / *dt);
}

#endif
