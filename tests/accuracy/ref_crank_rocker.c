/* ref_crank_rocker.c - exact reference of tests/models/acc_crank_rocker.lua: a Grashof crank-
 * rocker (ground d = 0.4 m, crank a = 0.1 m / 0.3 kg, coupler b = 0.35 m / 0.8 kg, rocker
 * c = 0.3 m / 0.5 kg, uniform bars J = m L^2 / 12; a + d < b + c, the crank turns fully, no
 * singular position) released at rest under gravity (9.81 m/s^2 along -y) at crank angle TH0.
 * Closed-form position kinematics: crank pin A = a (cos th, sin th), rocker pin B the
 * intersection of the circles |B - A| = b, |B - O2| = c above the line A-O2. B' and B'' from
 * the derivatives of the two circle equations (2 x 2 solves), the angles' derivatives from
 * u x u' / |u|^2. One-DOF Lagrange equation, M(th) the generalized mass of the kinematics:
 *   M th'' + M'(th) th'^2 / 2 + V'(th) = 0,
 * integrated by 6th-order Gauss-Legendre in long double. --check: M' and V' against central
 * differences, the energy drift, and the run at h against h/2 (exit 1 when they differ by more
 * than 1e-12 rad). Prints t,crank.A.x,.y,rocker.B.x,.y,coupler.P.x,.y (P on the coupler at
 * (PX, PY) from its centre, the coupler's x axis along A->B). */
#include "ref_common.h"

static const ld G = 9.81L, A_ = 0.1L, B_ = 0.35L, C_ = 0.3L, D_ = 0.4L;
static const ld MA = 0.3L, MB = 0.8L, MC = 0.5L, PX = 0.0L, PY = 0.15L;
#ifndef TH0
#define TH0 (REF_PI / 6)
#endif

typedef struct { ld A[2], B[2], P[2], M, dM, dV; } kin;

static ld cross(const ld *u, const ld *v) { return u[0] * v[1] - u[1] * v[0]; }
static ld dot(const ld *u, const ld *v) { return u[0] * v[0] + u[1] * v[1]; }
/* [u; w] x = [r; s] */
static void solve2(const ld *u, const ld *w, ld r, ld s, ld *x)
{
    ld det = u[0] * w[1] - u[1] * w[0];
    x[0] = (r * w[1] - s * u[1]) / det;
    x[1] = (u[0] * s - w[0] * r) / det;
}

static void kinematics(ld th, kin *k)
{
    ld A[2] = {A_ * cosl(th), A_ * sinl(th)}, dA[2] = {-A[1], A[0]}, ddA[2] = {-A[0], -A[1]};
    ld e[2] = {D_ - A[0], -A[1]}, L = sqrtl(dot(e, e));
    ld f = (B_ * B_ - C_ * C_ + L * L) / (2 * L), h = sqrtl(B_ * B_ - f * f);
    ld B[2] = {A[0] + (f * e[0] - h * e[1]) / L, A[1] + (f * e[1] + h * e[0]) / L};
    ld u[2] = {B[0] - A[0], B[1] - A[1]}, w[2] = {B[0] - D_, B[1]}, dB[2], ddB[2];
    solve2(u, w, dot(u, dA), 0, dB);
    ld du[2] = {dB[0] - dA[0], dB[1] - dA[1]};
    solve2(u, w, dot(u, ddA) - dot(du, du), -dot(dB, dB), ddB);
    ld ddu[2] = {ddB[0] - ddA[0], ddB[1] - ddA[1]};
    /* angle rates per unit crank rate and their derivatives */
    ld pb = cross(u, du) / (B_ * B_), dpb = cross(u, ddu) / (B_ * B_);
    ld pc = cross(w, dB) / (C_ * C_), dpc = cross(w, ddB) / (C_ * C_);
    ld ja = MA * A_ * A_ / 12, jb = MB * B_ * B_ / 12, jc = MC * C_ * C_ / 12;
    /* centres of mass' derivatives: A/2, (A + B)/2, (O2 + B)/2 */
    ld ga[2] = {dA[0] / 2, dA[1] / 2}, gga[2] = {ddA[0] / 2, ddA[1] / 2};
    ld gb[2] = {(dA[0] + dB[0]) / 2, (dA[1] + dB[1]) / 2}, ggb[2] = {(ddA[0] + ddB[0]) / 2, (ddA[1] + ddB[1]) / 2};
    ld gc[2] = {dB[0] / 2, dB[1] / 2}, ggc[2] = {ddB[0] / 2, ddB[1] / 2};
    k->M = MA * dot(ga, ga) + ja + MB * dot(gb, gb) + jb * pb * pb + MC * dot(gc, gc) + jc * pc * pc;
    k->dM = 2 * (MA * dot(ga, gga) + MB * dot(gb, ggb) + jb * pb * dpb + MC * dot(gc, ggc) + jc * pc * dpc);
    k->dV = G * (MA * ga[1] + MB * gb[1] + MC * gc[1]);
    k->A[0] = A[0]; k->A[1] = A[1]; k->B[0] = B[0]; k->B[1] = B[1];
    k->P[0] = (A[0] + B[0]) / 2 + (PX * u[0] - PY * u[1]) / B_;
    k->P[1] = (A[1] + B[1]) / 2 + (PX * u[1] + PY * u[0]) / B_;
}

static ld potential(ld th)
{
    kin k; kinematics(th, &k);
    return G * (MA * k.A[1] / 2 + MB * (k.A[1] + k.B[1]) / 2 + MC * k.B[1] / 2);
}

static ld accel(ld th, ld om, const void *par)
{
    kin k; (void)par;
    kinematics(th, &k);
    return -(k.dM * om * om / 2 + k.dV) / k.M;
}

typedef struct { ld dt, *th, E0, maxdE; int store; } ctx;

static void out_store(long k, ld th, ld om, void *p)
{
    ctx *c = p; kin q;
    kinematics(th, &q);
    ld dE = fabsl(q.M * om * om / 2 + potential(th) - c->E0);
    if (dE > c->maxdE) c->maxdE = dE;
    c->th[k] = th;
}

int main(int argc, char **argv)
{
    int check; ld t_end, dt;
    long n = ref_args(argc, argv, &check, &t_end, &dt, 0);
    ld *th = malloc(sizeof *th * (size_t)(n + 1)), *th2 = malloc(sizeof *th2 * (size_t)(n + 1));
    if (!th || !th2) { fprintf(stderr, "ref_crank_rocker: out of memory\n"); return 1; }
    long sub = lroundl(dt / 2.5e-4L); if (sub < 1) sub = 1;
    ctx c = {dt, th, potential(TH0), 0, 1};
    ref_gl6_run(accel, NULL, TH0, 0.0L, dt, n, sub, out_store, &c);
    if (check) {
        ld e = 1e-5L, worst = 0;
        for (int i = 0; i < 64; i++) {
            ld t = 2 * REF_PI * i / 64;
            kin kp, km, k0;
            kinematics(t + e, &kp); kinematics(t - e, &km); kinematics(t, &k0);
            ld fdM = (kp.M - km.M) / (2 * e), fdV = (potential(t + e) - potential(t - e)) / (2 * e);
            worst = fmaxl(worst, fmaxl(fabsl(fdM - k0.dM) / fabsl(k0.M), fabsl(fdV - k0.dV) / (G * (MA + MB + MC) * A_)));
        }
        printf("ref_crank_rocker: M' and V' against central differences (e = 1e-5): max relative difference %.1Le\n", worst);
        printf("ref_crank_rocker: Gauss-Legendre 6, h = %.3Le: max |E - E0| = %.2Le J (E0 = %.6Lf J)\n", dt / sub, c.maxdE, c.E0);
        ctx c2 = {dt, th2, c.E0, 0, 1};
        ref_gl6_run(accel, NULL, TH0, 0.0L, dt, n, 2 * sub, out_store, &c2);
        ld d = 0, lo = th[0], hi = th[0];
        for (long k = 0; k <= n; k++) { d = fmaxl(d, fabsl(th[k] - th2[k])); lo = fminl(lo, th[k]); hi = fmaxl(hi, th[k]); }
        printf("ref_crank_rocker: crank angle swings %.6Lf .. %.6Lf rad; h against h/2: max |d theta| = %.2Le rad over %ld rows to t = %Lg s\n",
               lo, hi, d, n, t_end);
        if (d > 1e-12L || worst > 1e-8L) { printf("ref_crank_rocker: check FAILED\n"); return 1; }
        printf("ref_crank_rocker: check ok\n");
        return 0;
    }
    printf("t,crank.A.x,crank.A.y,rocker.B.x,rocker.B.y,coupler.P.x,coupler.P.y\n");
    for (long k = 0; k <= n; k++) {
        kin q; kinematics(th[k], &q);
        printf("%.12Lg,%.19Le,%.19Le,%.19Le,%.19Le,%.19Le,%.19Le\n", (ld)k * dt, q.A[0], q.A[1], q.B[0], q.B[1], q.P[0], q.P[1]);
    }
    free(th); free(th2);
    return 0;
}
