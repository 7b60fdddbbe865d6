/* ref_chain.c - exact reference of models/parallelogram_chain.lua (IFToMM A02 type, N loops):
 * 2N + 1 uniform bars of L = 1 m, m = 1 kg, J = m L^2 / 12, cranks i on ground pivots (i, 0),
 * couplers joining their tips; released with the cranks vertical (theta = pi/2) turning at
 * theta' = -1 rad/s. On the parallelogram branch (every crank at theta, every coupler level and
 * translating) T = I theta'^2 / 2 and V = g G sin theta with I = (N + 1) / 3 + N (cranks about
 * their pivots, couplers at speed L theta') and G = (N + 1) / 2 + N, so
 *   theta'' = -(g G / I) cos theta = -a cos theta.
 * With psi = theta + pi/2 this is a pendulum psi'' = -a sin psi turning over: with
 * kappa^2 = 4 a / (1 + 4 a) and c = sqrt(1/4 + a) (energy from theta' = -1 at the top),
 *   theta = 2 am(K(kappa) - c t, kappa) - pi/2,   one turn every 2 K(kappa) / c.
 * --check integrates the equation by 6th-order Gauss-Legendre at two steps and compares (exit 1
 * beyond 1e-12 rad). Prints t and every crank tip crank<i>.B.x,.y = (i + cos theta, sin theta). */
#include "ref_common.h"

static const ld G = 9.81L;

typedef struct { ref_agm g; ld a, c, K, dt, maxd; int N; } ctx;

static ld accel(ld th, ld om, const void *par) { (void)om; return -((const ctx *)par)->a * cosl(th); }

static ld closed_theta(const ctx *c, ld t) { return 2.0L * ref_am(&c->g, c->K - c->c * t) - REF_PI / 2; }

static void out_cmp(long k, ld th, ld om, void *p)
{
    ctx *c = p; (void)om;
    ld d = fabsl(th - closed_theta(c, (ld)k * c->dt));
    if (d > c->maxd) c->maxd = d;
}

int main(int argc, char **argv)
{
    int check; ld t_end, dt;
    long n = ref_args(argc, argv, &check, &t_end, &dt, 1);
    ctx c;
    c.N = atoi(argv[argc - 1]);
    if (c.N < 1 || c.N > 500) { fprintf(stderr, "ref_chain: N in 1..500\n"); return 2; }
    ld N = (ld)c.N;
    c.a = G * ((N + 1) / 2 + N) / ((N + 1) / 3 + N);
    c.c = sqrtl(0.25L + c.a); c.dt = dt;
    ref_agm_init(&c.g, sqrtl(4 * c.a / (1 + 4 * c.a)));
    c.K = ref_agm_K(&c.g);
    if (check) {
        printf("ref_chain: N = %d, a = g G / I = %.18Lf 1/s^2, one turn every 2 K / c = %.18Lf s; %ld rows to t = %Lg s\n",
               c.N, c.a, 2 * c.K / c.c, n, t_end);
        long sub = lroundl(dt / 1e-3L); if (sub < 1) sub = 1;
        ld worst = 0;
        for (int r = 0; r < 2; r++, sub *= 2) {
            c.maxd = 0;
            ref_gl6_run(accel, &c, REF_PI / 2, -1.0L, dt, n, sub, out_cmp, &c);
            printf("ref_chain: Gauss-Legendre 6, h = %.3Le: max |theta - closed form| = %.2Le rad\n", dt / sub, c.maxd);
            worst = c.maxd;
        }
        if (worst > 1e-12L) { printf("ref_chain: check FAILED\n"); return 1; }
        printf("ref_chain: check ok\n");
        return 0;
    }
    printf("t");
    for (int i = 0; i <= c.N; i++) printf(",crank%d.B.x,crank%d.B.y", i, i);
    printf("\n");
    for (long k = 0; k <= n; k++) {
        ld t = (ld)k * dt, th = closed_theta(&c, t), x = cosl(th), y = sinl(th);
        printf("%.12Lg", t);
        for (int i = 0; i <= c.N; i++) printf(",%.19Le,%.19Le", (ld)i + x, y);
        printf("\n");
    }
    return 0;
}
