/* andrews7.c - an independent check of the reference at t = 0.03 for make bench-wp: Andrews'
 * squeezer in Hairer & Wanner's 7 relative angles (Solving ODEs II, VII.7: mass matrix M(y),
 * forces f(y, y'), 6 closure constraints g(y)), written from the equations, not from our model
 * file or generated code, integrated in long double by classical RK4 on the index-1 form
 *   [M G^T; G 0] [y''; lam] = [f; -g''(y', y')],   G = dg/dy,
 * from the test set's initial values (30 digits). Only the bench uses it. */
#include <math.h>
#include "andrews7.h"

typedef long double ld;

/* Hairer & Wanner's data (the test set's description) */
static const ld m1 = .04325L, m2 = .00365L, m3 = .02373L, m4 = .00706L, m5 = .07050L,
                m6 = .00706L, m7 = .05498L;
static const ld xb = -.03635L, yb = .03273L, xc = .014L, yc = .072L, c0 = 4530;
static const ld i1 = 2.194e-6L, i2 = 4.410e-7L, i3 = 5.255e-6L, i4 = 5.667e-7L,
                i5 = 1.169e-5L, i6 = 5.667e-7L, i7 = 1.912e-5L;
static const ld da = 115e-4L, e = 2e-2L, ea = 1421e-5L, rr = 7e-3L, ra = 92e-5L,
                l0 = 7785e-5L, sa = 1874e-5L, sb = 1043e-5L, sc = 18e-3L,
                sd = 2e-2L, ta = 2308e-5L, tb = 916e-5L, u = 4e-2L, ua = 1228e-5L,
                ub = 449e-5L, zf = 2e-2L, zt = 4e-2L, fa = 1421e-5L, mom = 33e-3L;

/* The constraints as sums of terms c trig(y[i] (+ y[j])): trig 0 cos, 1 sin; j < 0: none.
 * Lengths rr = 7e-3, d = 28e-3, ss = 35e-3, e = zf = 2e-2, zt = u = 4e-2 (the ground points'
 * constant parts have no derivatives and are left out). */
typedef struct { int row; ld c; int sn, i, j; } term;
static const term G_TERMS[] = {
    {0, 7e-3L, 0, 0, -1}, {0, -28e-3L, 0, 0, 1}, {0, -35e-3L, 1, 2, -1},
    {1, 7e-3L, 1, 0, -1}, {1, -28e-3L, 1, 0, 1}, {1, 35e-3L, 0, 2, -1},
    {2, 7e-3L, 0, 0, -1}, {2, -28e-3L, 0, 0, 1}, {2, -2e-2L, 1, 3, 4}, {2, -4e-2L, 0, 4, -1},
    {3, 7e-3L, 1, 0, -1}, {3, -28e-3L, 1, 0, 1}, {3, 2e-2L, 0, 3, 4}, {3, -4e-2L, 1, 4, -1},
    {4, 7e-3L, 0, 0, -1}, {4, -28e-3L, 0, 0, 1}, {4, -2e-2L, 0, 5, 6}, {4, -4e-2L, 1, 6, -1},
    {5, 7e-3L, 1, 0, -1}, {5, -28e-3L, 1, 0, 1}, {5, -2e-2L, 1, 5, 6}, {5, 4e-2L, 0, 6, -1},
};
#define NTERM ((int)(sizeof G_TERMS / sizeof G_TERMS[0]))

/* y'' from y, y' (index-1 solve, Gaussian elimination with partial pivoting) */
static void accel(const ld *y, const ld *v, ld *w)
{
    ld A[13][14] = {{0}};
    ld sph = sinl(y[3]), som = sinl(y[5]), cth = cosl(y[1]);
    /* mass matrix (symmetric) */
    ld M[7][7] = {{0}};
    M[0][0] = m1 * ra * ra + m2 * (rr * rr - 2 * da * rr * cth + da * da) + i1 + i2;
    M[1][0] = M[0][1] = m2 * (da * da - da * rr * cth) + i2;
    M[1][1] = m2 * da * da + i2;
    M[2][2] = m3 * (sa * sa + sb * sb) + i3;
    M[3][3] = m4 * (e - ea) * (e - ea) + i4;
    M[4][3] = M[3][4] = m4 * ((e - ea) * (e - ea) + zt * (e - ea) * sph) + i4;
    M[4][4] = m4 * (zt * zt + 2 * zt * (e - ea) * sph + (e - ea) * (e - ea)) + m5 * (ta * ta + tb * tb) + i4 + i5;
    M[5][5] = m6 * (zf - fa) * (zf - fa) + i6;
    M[6][5] = M[5][6] = m6 * ((zf - fa) * (zf - fa) - u * (zf - fa) * som) + i6;
    M[6][6] = m6 * ((zf - fa) * (zf - fa) - 2 * u * (zf - fa) * som + u * u) + m7 * (ua * ua + ub * ub) + i6 + i7;
    /* forces: the torque, the spring D-C on the triangle, the velocity terms */
    ld xd = sd * cosl(y[2]) + sc * sinl(y[2]) + xb, yd = sd * sinl(y[2]) - sc * cosl(y[2]) + yb;
    ld len = sqrtl((xd - xc) * (xd - xc) + (yd - yc) * (yd - yc));
    ld fs = -c0 * (len - l0) / len, fx = fs * (xd - xc), fy = fs * (yd - yc);
    ld f[7];
    f[0] = mom - m2 * da * rr * v[1] * (v[1] + 2 * v[0]) * sinl(y[1]);
    f[1] = m2 * da * rr * v[0] * v[0] * sinl(y[1]);
    f[2] = fx * (sc * cosl(y[2]) - sd * sinl(y[2])) + fy * (sd * cosl(y[2]) + sc * sinl(y[2]));
    f[3] = m4 * zt * (e - ea) * v[4] * v[4] * cosl(y[3]);
    f[4] = -m4 * zt * (e - ea) * v[3] * (v[3] + 2 * v[4]) * cosl(y[3]);
    f[5] = -m6 * u * (zf - fa) * v[6] * v[6] * cosl(y[5]);
    f[6] = m6 * u * (zf - fa) * v[5] * (v[5] + 2 * v[6]) * cosl(y[5]);
    for (int i = 0; i < 7; i++) {
        for (int j = 0; j < 7; j++) A[i][j] = M[i][j];
        A[i][13] = f[i];
    }
    /* G and -g''(v, v) from the terms: d/dy c cos(a.y) = -c sin(a.y) a, second derivative
       along v: -c trig(a.y) (a.v)^2 */
    for (int k = 0; k < NTERM; k++) {
        const term *t = &G_TERMS[k];
        ld th = y[t->i] + (t->j >= 0 ? y[t->j] : 0), av = v[t->i] + (t->j >= 0 ? v[t->j] : 0);
        ld tr = t->sn ? sinl(th) : cosl(th), dtr = t->sn ? cosl(th) : -sinl(th);
        int r = 7 + t->row;
        A[r][t->i] += t->c * dtr;
        A[t->i][r] += t->c * dtr;
        if (t->j >= 0) { A[r][t->j] += t->c * dtr; A[t->j][r] += t->c * dtr; }
        A[r][13] += t->c * tr * av * av;   /* -g'' = + c trig (a.v)^2 */
    }
    for (int c = 0; c < 13; c++) {
        int p = c;
        for (int r = c + 1; r < 13; r++) if (fabsl(A[r][c]) > fabsl(A[p][c])) p = r;
        for (int k = 0; k < 14; k++) { ld s = A[c][k]; A[c][k] = A[p][k]; A[p][k] = s; }
        for (int r = c + 1; r < 13; r++) {
            ld fct = A[r][c] / A[c][c];
            for (int k = c; k < 14; k++) A[r][k] -= fct * A[c][k];
        }
    }
    ld x[13];
    for (int r = 12; r >= 0; r--) {
        ld s = A[r][13];
        for (int k = r + 1; k < 13; k++) s -= A[r][k] * x[k];
        x[r] = s / A[r][r];
    }
    for (int i = 0; i < 7; i++) w[i] = x[i];
}

void andrews7_solve(long nsteps, double t_end, double out[7])
{
    /* the test set's initial values: at rest, consistent */
    ld z[14] = {-0.0617138900142764496358948458001L, 0, 0.455279819163070380255912382449L,
                0.222668390165885884674473185609L, 0.487364979543842550225598953530L,
                -0.222668390165885884674473185609L, 1.23054744454982119249735015568L};
    ld h = (ld)t_end / (ld)nsteps;
    ld k[4][14], zt_[14];
    for (long s = 0; s < nsteps; s++) {
        for (int st = 0; st < 4; st++) {
            const ld cf[4] = {0, 0.5L, 0.5L, 1};
            for (int i = 0; i < 14; i++) zt_[i] = z[i] + (st ? cf[st] * h * k[st - 1][i] : 0);
            for (int i = 0; i < 7; i++) k[st][i] = zt_[7 + i];
            accel(zt_, zt_ + 7, k[st] + 7);
        }
        for (int i = 0; i < 14; i++) z[i] += h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
    }
    for (int i = 0; i < 7; i++) out[i] = (double)z[i];
}
