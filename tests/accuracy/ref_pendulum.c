/* ref_pendulum.c - exact reference of tests/models/acc_pendulum.lua (IFToMM A01 type: a point
 * mass on a massless rod of L = 1 m, g = 9.81 m/s^2, released at rest with the rod horizontal).
 * theta'' = -(g / L) sin theta; with k = sin(theta0 / 2) and w0 = sqrt(g / L),
 *   sin(theta / 2) = k sn(K(k) - w0 t, k),   period T = 4 K(k) / w0,
 * sn by the Jacobi amplitude through the AGM (ref_common.h). --check also integrates the
 * equation by 6th-order Gauss-Legendre at two steps and prints how far each is from the closed
 * form (exit 1 when they disagree by more than 1e-12 rad). Prints t,P.x,P.y every DT. */
#include "ref_common.h"

static const ld L = 1.0L, G = 9.81L, TH0 = REF_PI / 2;

static ld accel(ld th, ld om, const void *par) { (void)om; (void)par; return -(G / L) * sinl(th); }

typedef struct { ref_agm g; ld k, w0, K, dt, maxd; } ctx;

static ld closed_theta(const ctx *c, ld t)
{
    ld sn = sinl(ref_am(&c->g, c->K - c->w0 * t));
    return 2.0L * asinl(c->k * sn);
}

static void out_row(long k, ld th, ld om, void *p)
{
    const ctx *c = p; (void)om; (void)th;
    ld t = (ld)k * c->dt, s = c->k * sinl(ref_am(&c->g, c->K - c->w0 * t));
    ld ch = sqrtl(1.0L - s * s);   /* cos(theta / 2) > 0: |theta| < pi */
    printf("%.12Lg,%.19Le,%.19Le\n", t, L * 2.0L * s * ch, -L * (1.0L - 2.0L * s * s));
}

static void out_cmp(long k, ld th, ld om, void *p)
{
    ctx *c = p; (void)om;
    ld d = fabsl(th - closed_theta(c, (ld)k * c->dt));
    if (d > c->maxd) c->maxd = d;
}

int main(int argc, char **argv)
{
    int check; ld t_end, dt;
    long n = ref_args(argc, argv, &check, &t_end, &dt, 0);
    ctx c;
    c.k = sinl(TH0 / 2); c.w0 = sqrtl(G / L); c.dt = dt;
    ref_agm_init(&c.g, c.k); c.K = ref_agm_K(&c.g);
    if (check) {
        /* K(1/sqrt 2) = Gamma(1/4)^2 / (4 sqrt(pi)) = 1.854074677301371918433850347195260...  */
        ld dK = fabsl(c.K - 1.854074677301371918433850347195260L);
        printf("ref_pendulum: period 4 K / w0 = %.18Lf s (K(1/sqrt 2) off its Gamma(1/4) value by %.1Le); %ld rows to t = %Lg s\n",
               4 * c.K / c.w0, dK, n, t_end);
        long sub = lroundl(dt / 1e-3L); if (sub < 1) sub = 1;
        ld worst = 0;
        for (int r = 0; r < 2; r++, sub *= 2) {
            c.maxd = 0;
            ref_gl6_run(accel, NULL, TH0, 0.0L, dt, n, sub, out_cmp, &c);
            printf("ref_pendulum: Gauss-Legendre 6, h = %.3Le: max |theta - closed form| = %.2Le rad\n", dt / sub, c.maxd);
            worst = c.maxd;
        }
        if (worst > 1e-12L || dK > 1e-18L) { printf("ref_pendulum: check FAILED\n"); return 1; }
        printf("ref_pendulum: check ok\n");
        return 0;
    }
    printf("t,P.x,P.y\n");
    for (long k = 0; k <= n; k++) out_row(k, 0, 0, &c);
    return 0;
}
