/* test_hht.c - the HHT-alpha integrator (runtime/mb_hht.c, --integrator hht) on F1's index-3
 * equations: parameters and refused combinations; second order against closed forms (the
 * harmonic oscillator, the pendulum at small angle); alpha = 0 keeps the energy of an undamped
 * oscillator exactly while alpha < 0 damps its high frequencies with the spectral radius of the
 * method's amplification matrix (computed here from the scalar recurrence); the position
 * constraints at Newton tolerance; Andrews' squeezer converging to the published reference; the
 * two-loop parallelogram chain through its singular positions. Timing is never checked. The float
 * build (test_hht_float) runs the parameters, the harmonic order and float-sized runs of Andrews
 * and the chain.
 * Prints "N passed, N failed". */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "mb_sim_impl.h"   /* white box: reads mb_sim's members */
#include "test_plan.h"

extern const mb_model harmonic_model;             /* tests/models/harmonic.lua: x = 0.1 cos t */
extern const mb_model pendulum_model;             /* tests/models/pendulum.lua: L = 1 m bar */
extern const mb_model andrews_model;
extern const mb_model parallelogram_chain_model;  /* models/parallelogram_chain.lua, N = 2 */

#define PI 3.14159265358979323846
/* Andrews' crank angle beta at t = 0.03 s (Hairer & Wanner's test set; issue 11) */
#define ANDREWS_BETA 15.81077119629904

typedef struct { mb_sim s; void *w; size_t ws; } simbox;
static int open_sim(simbox *b, const mb_model *m, const mb_params *p, const mb_real *q)
{
    m = planned(m);
    b->ws = mb_sim_workspace_size(m, p);
    b->w = malloc(b->ws ? b->ws : 1);
    int st = mb_sim_init(&b->s, m, p, b->w, b->ws);
    return st ? st : mb_sim_reset(&b->s, 0, q, NULL, 1);
}
static void close_sim(simbox *b) { free(b->w); b->w = NULL; }

static mb_params hht_params(double alpha, double h)
{
    mb_params p;
    mb_params_default(&p, MB_BAUMGARTE);
    p.integrator = MB_HHT;
    p.hht_alpha = (mb_real)alpha;
    p.h = (mb_real)h;
    p.max_steps = 100000000L;
    return p;
}

/* Fixed steps to t_end (the last lands on it); the largest |Phi|_2 after any step in *phimax. */
static int run(simbox *b, double t_end, double *phimax)
{
    if (phimax) *phimax = 0;
    while (mb_sim_get_t(&b->s) < (mb_real)t_end) {
        int st = mb_sim_step(&b->s, (mb_real)t_end);
        if (st < 0) return st;
        if (phimax && (double)b->s.mon.phi_norm > *phimax) *phimax = (double)b->s.mon.phi_norm;
    }
    return MB_OK;
}

static void test_params(void)
{
    mb_params p, d;
    const char *what = NULL;
    mb_params_default(&d, MB_BAUMGARTE);
    CHECK(check_close((double)d.hht_alpha, -0.05, 1e-7) && d.integrator == MB_RK4, "default hht_alpha -0.05, F1 integrator rk4");
    CHECK(mb_integrator_parse("hht") == MB_HHT && MB_HHT == 5 && !strcmp(mb_integrator_name(MB_HHT), "hht"),
          "hht is integrator 5 and named");
    CHECK(!strcmp(mb_integrator_name(4), "bdf") && !strcmp(mb_integrator_name(6), "?")
          && !strcmp(mb_integrator_name(-1), "?"), "integrator 4 is bdf (merged after hht), 6 and -1 have no name");
    p = hht_params(-0.05, 1e-3);
    CHECK(mb_params_check(&p, NULL) == MB_OK, "baumgarte + hht accepted");
    for (int f = MB_CANONICAL; f <= MB_ALF_TRAPEZOID; f++) {
        p.formulation = f;
        what = NULL;
        CHECK(mb_params_check(&p, &what) == MB_ERR_PARAM && what && strstr(what, "baumgarte only"),
              "%s + hht refused (%s)", mb_formulation_name(f), what ? what : "accepted");
    }
    static const double bad[] = {-0.34, 0.01, NAN};
    for (int k = 0; k < 3; k++) {
        p = hht_params(bad[k], 1e-3);
        what = NULL;
        CHECK(mb_params_check(&p, &what) == MB_ERR_PARAM && what && !strncmp(what, "hht_alpha", 9),
              "hht_alpha %g refused (%s)", bad[k], what ? what : "accepted");
    }
    p = hht_params(-1.0 / 3, 1e-3);
    CHECK(mb_params_check(&p, NULL) == MB_OK, "hht_alpha -1/3 accepted");
    p = hht_params(0, 1e-3);
    CHECK(mb_params_check(&p, NULL) == MB_OK, "hht_alpha 0 accepted");
    p.project_velocity = 1;
    CHECK(mb_params_check(&p, NULL) == MB_ERR_PARAM, "project_velocity refused with hht");
    /* the workspace: hht needs the Newton blocks plain baumgarte does not */
    mb_params r = hht_params(-0.05, 1e-3);
    mb_params_default(&d, MB_BAUMGARTE);
    const mb_model *m = planned(&andrews_model);
    CHECK(mb_sim_workspace_size(m, &r) > 0 && mb_sim_workspace_size(m, &d) > 0,
          "workspace sizes: hht %zu, rk4 %zu", mb_sim_workspace_size(m, &r), mb_sim_workspace_size(m, &d));
}

/* Order from errors at h, h/2, h/4: log2 of the ratios. */
static void order_check(const char *what, const double *err, double lo, double hi)
{
    for (int k = 0; k + 1 < 3; k++) {
        double ord = log(err[k] / err[k + 1]) / log(2.0);
        printf("%s: error %.3e -> %.3e, order %.3f\n", what, err[k], err[k + 1], ord);
        CHECK(ord > lo && ord < hi, "%s: order %.3f between h/%d and h/%d (errors %.3e, %.3e)", what, ord,
              1 << k, 2 << k, err[k], err[k + 1]);
    }
}

/* The harmonic oscillator, x(t) = 0.1 cos t: second order for every alpha, and the error
 * constant grows with |alpha| (HHT's period error) */
static void test_harmonic_order(void)
{
    static const double alphas[3] = {0, -0.05, -1.0 / 3};
    double e_at_h[3];
    for (int a = 0; a < 3; a++) {
        double err[3];
        for (int k = 0; k < 3; k++) {
            mb_params p = hht_params(alphas[a], 0.1 / (1 << k));
            simbox b;
            int st = open_sim(&b, &harmonic_model, &p, NULL);
            if (st == MB_OK) st = run(&b, 5.0, NULL);
            err[k] = st == MB_OK ? fabs((double)mb_sim_get_q(&b.s)[0] - 0.1 * cos(5.0)) : 1;
            CHECK(st == MB_OK, "harmonic alpha %g h %g: %s", alphas[a], (double)p.h, mb_status_str(st));
            close_sim(&b);
        }
        char name[64];
        snprintf(name, sizeof name, "harmonic alpha %g", alphas[a]);
        order_check(name, err, 1.9, 2.1);
        e_at_h[a] = err[0];
    }
    CHECK(e_at_h[0] < e_at_h[1] && e_at_h[1] < e_at_h[2], "harmonic: error grows with |alpha| (%.3e, %.3e, %.3e)",
          e_at_h[0], e_at_h[1], e_at_h[2]);
}

#if !MB_FLOAT   /* the checks below resolve errors under float's 1.2e-7 */
/* The pendulum at small angle theta0 = 1e-3 rad from hanging: theta = theta0 cos(w t),
 * w^2 = 3 g / (2 L) (the nonlinear period shift theta0^2 / 16 is 6e-8, far below the errors
 * measured); the constraints hold to Newton tolerance after every step. */
static void test_pendulum_order(void)
{
    const double th0 = 1e-3, w = sqrt(3 * 9.81 / 2), tend = 1.0;
    mb_real q[3] = {(mb_real)(0.5 * sin(th0)), (mb_real)(-0.5 * cos(th0)), (mb_real)(th0 - PI / 2)};
    double err[3];
    for (int k = 0; k < 3; k++) {
        mb_params p = hht_params(-0.05, 0.02 / (1 << k));
        simbox b;
        double phimax = 1;
        int st = open_sim(&b, &pendulum_model, &p, q);
        if (st == MB_OK) st = run(&b, tend, &phimax);
        double th = (double)mb_sim_get_q(&b.s)[2] + PI / 2;
        err[k] = st == MB_OK ? fabs(th - th0 * cos(w * tend)) : 1;
        CHECK(st == MB_OK && phimax <= (double)p.tol,
              "pendulum h %g: %s, max |Phi| %.3g after any step (tol %g)", (double)p.h, mb_status_str(st), phimax,
              (double)p.tol);
        close_sim(&b);
    }
    order_check("pendulum alpha -0.05", err, 1.9, 2.1);
}

/* The amplification matrix A of HHT on x'' = -w^2 x, state (x, v, a), step h = 1: its spectral
 * radius from the roots of det(l I - A) = l^3 - c2 l^2 + c1 l - c0 (one real root by bisection,
 * the other two from the deflated quadratic). */
static double hht_spectral_radius(double alpha, double wh)
{
    double be = (1 - alpha) * (1 - alpha) / 4, ga = 0.5 - alpha, w2 = wh * wh;
    double A[3][3];
    for (int j = 0; j < 3; j++) {   /* column j: the step of unit vector j */
        double x = j == 0, v = j == 1, a = j == 2;
        /* a1 = -((1 + alpha) w^2 x1 - alpha w^2 x) with x1 = x + v + (1/2 - be) a + be a1 */
        double xk = x + v + (0.5 - be) * a;
        double a1 = -((1 + alpha) * w2 * xk - alpha * w2 * x) / (1 + (1 + alpha) * w2 * be);
        A[0][j] = xk + be * a1;
        A[1][j] = v + (1 - ga) * a + ga * a1;
        A[2][j] = a1;
    }
    double c2 = A[0][0] + A[1][1] + A[2][2];
    double c1 = A[0][0] * A[1][1] - A[0][1] * A[1][0] + A[0][0] * A[2][2] - A[0][2] * A[2][0] +
                A[1][1] * A[2][2] - A[1][2] * A[2][1];
    double c0 = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    double lo = -1 - fabs(c2) - fabs(c1) - fabs(c0), hi = -lo;   /* p(lo) < 0 < p(hi) */
    for (int k = 0; k < 200; k++) {
        double mid = (lo + hi) / 2, pm = ((mid - c2) * mid + c1) * mid - c0;
        if (pm < 0) lo = mid; else hi = mid;
    }
    double r = (lo + hi) / 2, b = r - c2, c = c1 + r * b;   /* l^2 + b l + c */
    double disc = b * b - 4 * c, rad = fabs(r);
    if (disc < 0) rad = fmax(rad, sqrt(c));
    else rad = fmax(rad, fmax(fabs((-b + sqrt(disc)) / 2), fabs((-b - sqrt(disc)) / 2)));
    return rad;
}

/* The harmonic oscillator (w = 1, x0 small: the spring from G at x = -1 is linear for x > -1 only,
 * and Newton starts from a = a_0, i.e. x = x0 (1 - (w h)^2 / 2), which must stay on that side).
 * - Every step equals the scalar HHT recurrence (the amplification matrix above) to round-off:
 *   the runtime is the method whose spectral radius is computed here.
 * - That spectral radius tends to (1 + alpha) / (1 - alpha) as w h grows, and is 1 for alpha = 0.
 * - Measured decay (alpha < 0, w h <= 30): the per-step factor of the state's norm (its largest
 *   value over 20 steps, a full period, after 15 steps of start-up against the last 20) matches
 *   the spectral radius. Not at w h = 1000, where the two principal roots
 *   nearly coincide (a near-Jordan block: k rho^k), nor for alpha = 0, whose roots have modulus 1:
 *   a finite window's norm ratio there measures the eigenvectors' conditioning, not the
 *   radius; the step-by-step match with the recurrence covers those. alpha = 0 keeps the
 *   energy of the linear undamped oscillator (Newmark's average acceleration: an exact
 *   invariant) to round-off at any step size, alpha < 0 dissipates it. */
static void test_dissipation(void)
{
    static const double alphas[3] = {0, -0.05, -0.3}, whs[3] = {0.5, 30, 1000};
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < 3; k++) {
            double al = alphas[a], wh = whs[k], theory = hht_spectral_radius(al, wh);
            double x0 = wh > 100 ? 1e-7 : 1e-4;
            /* long enough for the amplitude to fall 1e6 (or 400 steps at low damping) */
            int nsteps = theory < 1 - 1e-9 ? (int)fmin(4000, 35 + log(1e-8) / log(theory)) : 400;
            mb_params p = hht_params(al, wh);
            p.warn_energy = 0;   /* the dissipation is the point */
            p.tol = MB_R(1e-18); /* linear: Newton's second correction is round-off */
            const mb_real q0[3] = {(mb_real)x0, 0, 0};
            simbox b;
            int st = open_sim(&b, &harmonic_model, &p, q0);
            double e0 = (double)b.s.mon.T + (double)b.s.mon.V, emax = 0, dev = 0, ns = 0, ne = 0;
            double x = x0, v = 0, acc = -x0, be = (1 - al) * (1 - al) / 4, ga = 0.5 - al;
            for (int i = 1; st == MB_OK && i <= nsteps; i++) {
                st = mb_sim_step(&b.s, mb_sim_get_t(&b.s) + (mb_real)wh);
                if (st >= 0) st = MB_OK;
                double xp = x + wh * v + wh * wh * (0.5 - be) * acc;   /* the recurrence, h = wh */
                double a1 = -((1 + al) * xp - al * x) / (1 + (1 + al) * wh * wh * be);
                x = xp + wh * wh * be * a1;
                v += wh * ((1 - ga) * acc + ga * a1);
                acc = a1;
                double xr = (double)mb_sim_get_q(&b.s)[0];
                dev = fmax(dev, fabs(xr - x) / x0);
                emax = fmax(emax, fabs((double)b.s.mon.energy_dev));
                /* the state's norm in (x, h v, h^2 a): the amplification matrix's entries are O(1) */
                double vr = (double)mb_sim_get_v(&b.s)[0], ar = (double)b.s.fz[b.s.n];
                double nrm = sqrt(xr * xr + wh * wh * vr * vr + wh * wh * wh * wh * ar * ar);
                if (i > 15 && i <= 35) ns = fmax(ns, nrm);   /* windows over a full period */
                if (i > nsteps - 20) ne = fmax(ne, nrm);
            }
            double rate = pow(ne / ns, 1.0 / (nsteps - 35));
            printf("harmonic alpha %g w h %g: %d steps, |x - recurrence| <= %.2g x0, spectral radius %.6f, "
                   "measured %.6f, max |energy dev| %.3g of E0\n", al, wh, nsteps, dev, theory, rate, emax / e0);
            CHECK(st == MB_OK && dev < 1e-7, "alpha %g, w h %g: %s, %d steps, max |x - x_recurrence| %.3g of x0",
                  al, wh, mb_status_str(st), nsteps, dev);
            if (al < 0 && wh < 100)
                CHECK(fabs(rate - theory) < 0.05 * (1 - theory),
                      "alpha %g, w h %g: measured amplitude factor per step %.6f, spectral radius %.6f", al, wh,
                      rate, theory);
            if (al == 0)
                CHECK(emax <= 1e-6 * e0 && fabs(theory - 1) < 1e-12,
                      "alpha 0, w h %g: energy kept, max |dev| %.3g of %.3g J over %d steps (spectral radius %.15f)",
                      wh, emax, e0, nsteps, theory);
            else
                CHECK(theory < 1 - 1e-5 && (wh < 100 || check_close(theory, (1 + al) / (1 - al), 1e-3)),
                      "alpha %g, w h %g: spectral radius %.6f below 1 (limit (1+a)/(1-a) = %.6f)", al, wh, theory,
                      (1 + al) / (1 - al));
            close_sim(&b);
        }
}

/* Andrews to t = 0.03: beta converging to the reference at second order, constraints at Newton
 * tolerance. */
static void test_andrews(void)
{
    double err[3];
    for (int k = 0; k < 3; k++) {
        mb_params p = hht_params(-0.05, 4e-5 / (1 << k));
        simbox b;
        double phimax = 1;
        int st = open_sim(&b, &andrews_model, &p, NULL);
        if (st == MB_OK) st = run(&b, 0.03, &phimax);
        double beta = (double)mb_sim_get_q(&b.s)[2];
        err[k] = st == MB_OK ? fabs(beta - ANDREWS_BETA) : 1;
        printf("andrews h %g: beta %.12f, |beta - ref| %.3e, max |Phi| %.3g, %ld Newton iterations / %ld steps\n",
               (double)p.h, beta, err[k], phimax, b.s.mon.newton_iters, b.s.mon.steps);
        CHECK(st == MB_OK && phimax <= (double)p.tol,
              "andrews h %g: %s, beta %.12f (ref %.12f), max |Phi| %.3g", (double)p.h, mb_status_str(st), beta,
              ANDREWS_BETA, phimax);
        CHECK(b.s.mon.maxiter_events == 0 && b.s.mon.newton_iters <= 3 * b.s.mon.steps,
              "andrews h %g: %ld Newton iterations for %ld steps, %ld at max_iter", (double)p.h,
              b.s.mon.newton_iters, b.s.mon.steps, b.s.mon.maxiter_events);
        close_sim(&b);
    }
    order_check("andrews beta", err, 1.8, 2.2);
    CHECK(err[2] < 2e-4, "andrews h 1e-5: |beta - ref| %.3e", err[2]);
}

/* The two-loop parallelogram chain (1 m/s, a singular position about once a second) for 8 s
 * at h = 1e-3: with the default damping every passage goes through, the constraints stay at
 * Newton tolerance and the energy within 1e-4 of its scale. Negative control: alpha = 0 (no
 * damping) on the index-3 equations is only marginally stable: its energy error grows at the
 * passages until Newton diverges (t = 6.5 s measured). */
static void test_chain(void)
{
    static const double alphas[2] = {-0.05, 0};
    for (int a = 0; a < 2; a++) {
        mb_params p = hht_params(alphas[a], 1e-3);
        p.warn_energy = 0;
        simbox b;
        double phimax = 1;
        int st = open_sim(&b, &parallelogram_chain_model, &p, NULL);
        if (st == MB_OK) st = run(&b, 8.0, &phimax);
        double edev = (double)b.s.mon.max_energy_dev / (double)b.s.mon.escale;
        printf("chain alpha %g: %s at t = %.3f, max |Phi| %.3g, max |energy dev| %.3g of the scale, %ld Newton "
               "iterations / %ld steps, %ld at max_iter\n", alphas[a], mb_status_str(st), (double)mb_sim_get_t(&b.s),
               phimax, edev, b.s.mon.newton_iters, b.s.mon.steps, b.s.mon.maxiter_events);
        if (a == 0)
            CHECK(st == MB_OK && phimax <= 1e-9 && edev < 1e-4,
                  "chain alpha %g: %s at t = %.3f, max |Phi| %.3g, max |energy dev| %.3g of the scale", alphas[a],
                  mb_status_str(st), (double)mb_sim_get_t(&b.s), phimax, edev);
        else
            CHECK(st < 0 || edev > 1e-2, "chain alpha 0 (control): %s at t = %.3f, max |energy dev| %.3g of the scale",
                  mb_status_str(st), (double)mb_sim_get_t(&b.s), edev);
        close_sim(&b);
    }
}

#endif /* !MB_FLOAT */

#if MB_FLOAT
/* float (1.2e-7 resolution, below the errors the double checks resolve): Andrews and the chain
 * run through with float-sized constraint errors (the default penalty is 1e4 in float) */
static void test_float_runs(void)
{
    mb_params p = hht_params(-0.05, 1e-5);
    simbox b;
    double phimax = 1;
    int st = open_sim(&b, &andrews_model, &p, NULL);
    if (st == MB_OK) st = run(&b, 0.03, &phimax);
    double beta = (double)mb_sim_get_q(&b.s)[2];
    printf("float andrews h 1e-5: %s, beta %.7f, max |Phi| %.3g\n", mb_status_str(st), beta, phimax);
    CHECK(st >= 0 && fabs(beta - ANDREWS_BETA) < 0.05 && phimax < 1e-6, "float andrews: %s, beta %.7f, max |Phi| %.3g",
          mb_status_str(st), beta, phimax);
    close_sim(&b);
    p = hht_params(-0.05, 1e-3);
    p.warn_energy = 0;
    st = open_sim(&b, &parallelogram_chain_model, &p, NULL);
    if (st == MB_OK) st = run(&b, 8.0, &phimax);
    double edev = (double)b.s.mon.max_energy_dev / (double)b.s.mon.escale;
    printf("float chain: %s at t = %.3f, max |Phi| %.3g, max |energy dev| %.3g of the scale\n", mb_status_str(st),
           (double)mb_sim_get_t(&b.s), phimax, edev);
    CHECK(st >= 0 && phimax < 1e-5 && edev < 0.05, "float chain: %s at t = %.3f, max |Phi| %.3g, energy %.3g",
          mb_status_str(st), (double)mb_sim_get_t(&b.s), phimax, edev);
    close_sim(&b);
}
#endif

int main(void)
{
    test_params();
    test_harmonic_order();
#if MB_FLOAT
    test_float_runs();
#else
    test_pendulum_order();
    test_dissipation();
    test_andrews();
    test_chain();
#endif
    return check_report();
}
