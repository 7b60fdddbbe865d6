/* SPDX-License-Identifier: MIT */
/* cam_roller_ref.c - the closed form of a roller follower on a Fourier cam, in long double, for
 * tests/test_cam.sh. The cam r(psi) = a0 + sum_k a_k cos(k psi) + b_k sin(k psi) turns at
 * theta = theta0 + w t about O; a roller of radius rr centred on the line through O along the
 * global y axis (a radial translating follower) rides on it. Its centre follows the offset curve
 * Q(s) = P(s) + rr N(s) (P = r u, u = (cos s, sin s), N the outward unit normal): in polar form
 * rho(alpha) about O, the centre's height is y = rho(pi/2 - theta), its velocity -w rho' and
 * acceleration w^2 rho''. With T = P' = r' u + r u_perp, kappa the profile's signed curvature
 * and f = 1 + rr kappa: Q' = f T, Q'' = f P'' + rr kappa' T; A = Q x Q', B = Q . Q';
 * rho' = B rho / A, rho'' = [(B' rho + B B / rho) / A - B rho A' / A^2] rho^2 / A with
 * A' = Q x Q'', B' = |Q'|^2 + Q . Q''. The contact parameter s of alpha by Newton on
 * atan2(Q_y, Q_x) = alpha (dalpha/ds = A / rho^2). Also cos(phi) = the normal's global y
 * component (phi the pressure angle) and s.
 * Usage: cam_roller_ref RR W THETA0 N H A0 K A1..AK B1..BK: rows t y vy ay cosphi s, t = i H,
 * i = 0..N; or cam_roller_ref RR W THETA0 N H spline N PHI1 R1 .. PHIN RN for the periodic cubic
 * spline through the points (C2, closed over 2 pi: its own fit here, a dense solve of the
 * cyclic system for the second derivatives). RR = 0: a point follower (Q = P). Exit 2 on bad
 * usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KMAX 64
static long double a0, a[KMAX + 1], b[KMAX + 1], rr;
static int K;

#define NMAX 256
static int spline_n;                          /* > 0: a spline profile */
static long double sx[NMAX + 1], sc[NMAX][4];  /* knots, piece coefficients in t = s - x_i */

static void spline_fit(const long double *x, const long double *y, int n)
{
    static long double A[NMAX][NMAX], b[NMAX], M[NMAX + 1], h[NMAX], sl[NMAX];
    const long double TP = 6.283185307179586476925286766559L;
    int i, j, k;
    for (i = 0; i < n; i++) {
        long double xn = i + 1 < n ? x[i + 1] : x[0] + TP, yn = i + 1 < n ? y[i + 1] : y[0];
        h[i] = xn - x[i];
        sl[i] = (yn - y[i]) / h[i];
    }
    for (i = 0; i < n; i++) {
        int im = (i + n - 1) % n, ip = (i + 1) % n;
        for (j = 0; j < n; j++) A[i][j] = 0;
        A[i][im] += h[im];
        A[i][i] += 2 * (h[im] + h[i]);
        A[i][ip] += h[i];
        b[i] = 6 * (sl[i] - sl[im]);
    }
    for (k = 0; k < n; k++)
        for (i = k + 1; i < n; i++) {
            long double f = A[i][k] / A[k][k];
            for (j = k; j < n; j++) A[i][j] -= f * A[k][j];
            b[i] -= f * b[k];
        }
    for (i = n - 1; i >= 0; i--) {
        long double acc = b[i];
        for (j = i + 1; j < n; j++) acc -= A[i][j] * M[j];
        M[i] = acc / A[i][i];
    }
    M[n] = M[0];
    for (i = 0; i < n; i++) {
        sx[i] = x[i];
        sc[i][0] = y[i];
        sc[i][1] = sl[i] - h[i] * (2 * M[i] + M[i + 1]) / 6;
        sc[i][2] = M[i] / 2;
        sc[i][3] = (M[i + 1] - M[i]) / (6 * h[i]);
    }
    sx[n] = x[0] + TP;
    spline_n = n;
}

/* r and its first three derivatives at s */
static void prof(long double s, long double r[4])
{
    int k;
    if (spline_n > 0) {
        const long double TP = 6.283185307179586476925286766559L;
        long double u = s - TP * floorl((s - sx[0]) / TP), t;
        int lo = 0, hi = spline_n;
        if (u < sx[0]) u = sx[0];
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (u < sx[mid]) hi = mid; else lo = mid;
        }
        t = u - sx[lo];
        r[0] = sc[lo][0] + t * (sc[lo][1] + t * (sc[lo][2] + t * sc[lo][3]));
        r[1] = sc[lo][1] + t * (2 * sc[lo][2] + 3 * t * sc[lo][3]);
        r[2] = 2 * sc[lo][2] + 6 * t * sc[lo][3];
        r[3] = 6 * sc[lo][3];
        return;
    }
    r[0] = a0; r[1] = r[2] = r[3] = 0;
    for (k = 1; k <= K; k++) {
        long double c = cosl(k * s), sn = sinl(k * s), kk = k;
        r[0] += a[k] * c + b[k] * sn;
        r[1] += kk * (b[k] * c - a[k] * sn);
        r[2] -= kk * kk * (a[k] * c + b[k] * sn);
        r[3] -= kk * kk * kk * (b[k] * c - a[k] * sn);
    }
}

typedef struct { long double q[2], q1[2], q2[2], n[2]; } offs;

static offs offset(long double s)
{
    long double r[4], c = cosl(s), sn = sinl(s);
    prof(s, r);
    long double T[2] = { r[1] * c - r[0] * sn, r[1] * sn + r[0] * c };
    long double P2[2] = { (r[2] - r[0]) * c - 2 * r[1] * sn, (r[2] - r[0]) * sn + 2 * r[1] * c };
    long double L2 = r[0] * r[0] + r[1] * r[1], L = sqrtl(L2);
    long double num = r[0] * r[0] + 2 * r[1] * r[1] - r[0] * r[2];
    long double num1 = 2 * r[0] * r[1] + 3 * r[1] * r[2] - r[0] * r[3];
    long double L1 = (r[0] * r[1] + r[1] * r[2]) / L;
    long double kap = num / (L2 * L), kap1 = num1 / (L2 * L) - 3 * num * L1 / (L2 * L2);
    long double f = 1 + rr * kap;
    offs o;
    o.n[0] = T[1] / L; o.n[1] = -T[0] / L;
    o.q[0] = r[0] * c + rr * o.n[0]; o.q[1] = r[0] * sn + rr * o.n[1];
    o.q1[0] = f * T[0]; o.q1[1] = f * T[1];
    o.q2[0] = f * P2[0] + rr * kap1 * T[0]; o.q2[1] = f * P2[1] + rr * kap1 * T[1];
    return o;
}

int main(int argc, char **argv)
{
    if (argc < 8) { fprintf(stderr, "usage: cam_roller_ref RR W THETA0 N H A0 K A1..AK B1..BK\n"); return 2; }
    rr = strtold(argv[1], 0);
    long double w = strtold(argv[2], 0), th0 = strtold(argv[3], 0);
    long n = atol(argv[4]);
    long double h = strtold(argv[5], 0);
    if (strcmp(argv[6], "spline") == 0) {
        static long double x[NMAX], y[NMAX];
        int n = atoi(argv[7]);
        if (n < 3 || n > NMAX || argc != 8 + 2 * n) { fprintf(stderr, "cam_roller_ref: expected %d numbers after spline N\n", 2 * n); return 2; }
        for (int i = 0; i < n; i++) { x[i] = strtold(argv[8 + 2 * i], 0); y[i] = strtold(argv[9 + 2 * i], 0); }
        spline_fit(x, y, n);
    } else {
        a0 = strtold(argv[6], 0);
        K = atoi(argv[7]);
        if (K < 0 || K > KMAX || argc != 8 + 2 * K) { fprintf(stderr, "cam_roller_ref: expected %d coefficients\n", 2 * K); return 2; }
        for (int k = 1; k <= K; k++) { a[k] = strtold(argv[7 + k], 0); b[k] = strtold(argv[7 + K + k], 0); }
    }
    const long double PI = 3.141592653589793238462643383279503L;
    long double s = PI / 2 - th0;
    for (long i = 0; i <= n; i++) {
        long double t = i * h, th = th0 + w * t, alpha = PI / 2 - th;
        offs o;
        long double rho2, A;
        /* Newton on the centre's polar angle, from the last row's s */
        for (int it = 0; it < 100; it++) {
            o = offset(s);
            rho2 = o.q[0] * o.q[0] + o.q[1] * o.q[1];
            A = o.q[0] * o.q1[1] - o.q[1] * o.q1[0];
            long double d = atan2l(o.q[1], o.q[0]) - alpha;
            d = remainderl(d, 2 * PI);
            long double step = d / (A / rho2);
            s -= step;
            if (fabsl(step) < 1e-30L) break;
        }
        o = offset(s);
        long double rho = sqrtl(o.q[0] * o.q[0] + o.q[1] * o.q[1]);
        rho2 = rho * rho;
        A = o.q[0] * o.q1[1] - o.q[1] * o.q1[0];
        long double B = o.q[0] * o.q1[0] + o.q[1] * o.q1[1];
        long double A1 = o.q[0] * o.q2[1] - o.q[1] * o.q2[0];
        long double B1 = o.q1[0] * o.q1[0] + o.q1[1] * o.q1[1] + o.q[0] * o.q2[0] + o.q[1] * o.q2[1];
        long double rp = B * rho / A;
        long double rpp = ((B1 * rho + B * B / rho) / A - B * rho * A1 / (A * A)) * rho2 / A;
        /* the normal in global axes: rotated by theta; its y component */
        long double ny = sinl(th) * o.n[0] + cosl(th) * o.n[1];
        printf("%.21Lg %.21Lg %.21Lg %.21Lg %.21Lg %.21Lg\n", t, rho, -w * rp, w * w * rpp, ny, s);
    }
    return 0;
}
