/* test_physics.c - the shared physics suite: energy balance, constraint drift, convergence and
 * agreement between formulations, run for every formulation on every model under test.
 * A new formulation or model inherits all of it. Reference: canonical + dopri5 at tight tolerance. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "mb_sim_impl.h"   /* white box: reads mb_sim's members */
#include "test_plan.h"
#include "test_physics_models.h"

#define MAXQ 256

/* Per-model run settings: time span, base step, stabilization of each formulation. */
typedef struct {
    const char *name;
    double t_end, h;
    double xi[4], w[4], alpha[4];
} cfg;
static const cfg cfgs[] = {
    {"andrews", 0.003, 1e-5, {1, 1, 1e4, 1e4}, {100, 100, 1, 1}, {0, 0, 1e8, 1e8}},
    {"oscillator_1dof", 0.1, 1e-4, {10, 10, 1, 1e4}, {10, 1, 10, 1}, {0, 0, 1e7, 1e8}},
    /* singular positions every 0.5 s from t = 0.375: a step that lands on one exactly makes
     * F1/F2 stop (rank loss) and F4's Newton fail; this h and h/2 pass two of them */
    {"fourbar_singular", 1.0, 1.3e-3, {10, 10, 1, 1e4}, {10, 1, 10, 1}, {0, 0, 1e7, 1e8}},
    /* the first singular position is at t = 0.714 s: the suite stops before it (the singular
     * passages have their own test) */
    {"parallelogram_chain", 0.5, 1e-3, {10, 10, 1, 1e4}, {10, 1, 10, 1}, {0, 0, 1e7, 1e8}},
    {NULL, 1.0, 1e-3, {10, 10, 1, 1e4}, {10, 1, 10, 1}, {0, 0, 1e7, 1e8}},  /* thesis DP values */
};

typedef struct {
    int status;
    mb_monitor mon;
    mb_real q[MAXQ];
    double tmax, emax;   /* max kinetic energy, max |V - V0| over the run */
    double lscale;       /* max |position coordinate| */
} result;

static const cfg *find_cfg(const mb_model *m)
{
    const cfg *c = cfgs;
    while (c->name && strcmp(c->name, m->name) != 0) c++;
    return c;
}

static result run(const mb_model *m, int form, int integ, double h, double t_end, double rtol)
{
    const cfg *c = find_cfg(m);
    result r;
    memset(&r, 0, sizeof r);
    mb_params p;
    mb_params_default(&p, form);
    p.integrator = integ;
    p.h = (mb_real)h;
    p.xi = (mb_real)c->xi[form];
    p.omega = (mb_real)c->w[form];
    if (form >= MB_ALF_EXPLICIT) p.alpha = (mb_real)c->alpha[form];
#if MB_FLOAT
    /* single precision: M + alpha Phi_q^T Phi_q must stay far below 1/eps_float ~ 8e6 in
     * condition, so the thesis' alpha = 1e7..1e8 cannot work; 1e3 with xi <= 10 does */
    if (form >= MB_ALF_EXPLICIT) { p.alpha = MB_R(1e3); if (p.xi > 10) p.xi = 10; }
    p.tol = MB_R(1e-5);   /* |dv|, |dy| below 1e-10 are not reachable in float */
#endif
    p.rtol = (mb_real)rtol;
    p.atol = (mb_real)(rtol * 1e-2);
    m = planned(m);
    size_t ws = mb_sim_workspace_size(m, &p);
    void *w = malloc(ws);
    mb_sim s;
    r.status = mb_sim_init(&s, m, &p, w, ws);
    if (!r.status) r.status = mb_sim_reset(&s, 0, NULL, NULL, 1);
    double V0 = (double)s.mon.V;
    while (r.status >= 0 && mb_sim_get_t(&s) < (mb_real)t_end) {
        int st = mb_sim_step(&s, (mb_real)t_end);
        if (st < 0) { r.status = st; break; }
        const mb_monitor *mo = mb_sim_get_monitor(&s);
        if ((double)mo->T > r.tmax) r.tmax = (double)mo->T;
        if (fabs((double)mo->V - V0) > r.emax) r.emax = fabs((double)mo->V - V0);
        for (int i = 0; i < m->nq; i++)
            if (i % 3 != 2 && fabs((double)mb_sim_get_q(&s)[i]) > r.lscale) r.lscale = fabs((double)mb_sim_get_q(&s)[i]);
    }
    r.mon = s.mon;
    if (m->nq <= MAXQ) memcpy(r.q, mb_sim_get_q(&s), sizeof(mb_real) * (size_t)m->nq);
    free(w);
    return r;
}

static double qdiff(const mb_model *m, const result *a, const result *b)
{
    double d = 0;
    for (int i = 0; i < m->nq; i++) {
        double e = fabs((double)a->q[i] - (double)b->q[i]);
        if (e > d) d = e;
    }
    return d;
}

int main(int argc, char **argv)
{
    int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    (void)check_close;
    const mb_model *models[16];
    mb_model drv;
    int nm = all_models(models, &drv);
#if MB_FLOAT
    const double prec = 1e-5;      /* float: eps 1.2e-7 accumulated over ~1e3-1e4 steps */
    /* the fixture only: on the driven variant float F4 measures 12% energy deviation, its
     * v = 2/h (q - q_k) - v_k cancels ~4 digits of float's 7 (known limit, see validation.md) */
    nm = 1;
#else
    const double prec = 1e-14;
#endif
    for (int k = 0; k < nm; k++) {
        const mb_model *m = models[k];
        const cfg *c = find_cfg(m);
        int singular = strstr(m->name, "singular") != NULL;
        if (m->nq > MAXQ) continue;
        result ref = run(m, MB_CANONICAL, MB_DOPRI5, c->h, c->t_end, 1e-11);
#if MB_FLOAT
        ref = run(m, MB_CANONICAL, MB_RK4, c->h / 4, c->t_end, 1e-5);
#endif
        if (ref.status < 0 && singular) ref = run(m, MB_ALF_TRAPEZOID, MB_TRAPEZOID, c->h / 16, c->t_end, 1e-9);
        CHECK(ref.status >= 0, "%s: reference run failed: %s", m->name, mb_status_str(ref.status));
        if (ref.status < 0) continue;
        double escale = ref.tmax + ref.emax + 1e-300, lscale = ref.lscale > 1e-3 ? ref.lscale : 1e-3;
        for (int f = 0; f < 4; f++) {
            int integ = f == MB_ALF_TRAPEZOID ? MB_TRAPEZOID : MB_RK4;
            result a = run(m, f, integ, c->h, c->t_end, 1e-6);
            result b = run(m, f, integ, c->h / 2, c->t_end, 1e-6);
            if (singular && f <= MB_CANONICAL && (a.status == MB_ERR_SINGULAR || b.status == MB_ERR_SINGULAR))
                continue;   /* the classic formulations may stop, naming the rank loss */
            CHECK(a.status >= 0 && b.status >= 0, "%s/%s: run failed: %s / %s", m->name,
                  mb_formulation_name(f), mb_status_str(a.status), mb_status_str(b.status));
            if (a.status < 0 || b.status < 0) continue;
            double ea = (double)a.mon.max_energy_dev / escale, eb = (double)b.mon.max_energy_dev / escale;
            double da = qdiff(m, &a, &ref) / lscale, db = qdiff(m, &b, &ref) / lscale;
            double pa = (double)a.mon.max_phi / lscale, pb = (double)b.mon.max_phi / lscale;
            if (verbose)
                printf("%-18s %-14s E/Es %.2e -> %.2e (x%.1f)  dq/L %.2e -> %.2e (x%.1f)  phi/L %.2e -> %.2e  phid %.2e\n",
                       m->name, mb_formulation_name(f), ea, eb, ea / eb, da, db, da / db, pa, pb,
                       (double)a.mon.max_phid);
            /* Energy balance: small at the base step and falling at least 3x when h halves (the
             * work integral is a trapezoid sum, 2nd order, F4 is 2nd order) unless below a floor
             * of 1e-5 of the energy scale: the multiplier-based driver work and F3/F4's velocities
             * carry noise of alpha x the iteration residual that does not shrink with h. */
            CHECK(ea < 2e-3, "%s/%s: energy deviation %.3g of the energy scale", m->name, mb_formulation_name(f), ea);
            CHECK(eb < ea / 3 || ea < 1e-5 || ea < 1e3 * prec, "%s/%s: energy deviation does not converge: %.3g -> %.3g",
                  m->name, mb_formulation_name(f), ea, eb);
            /* Agreement with the reference within 1% of the size at the base step, converging at
             * the integrator's order (x4 ideal for F4, x16 for RK4; required x3 / x8) above a floor
             * of 1e-7 (reference tolerance 1e-11). F3 too: it solves with M + alpha Phi_q^T
             * Phi_q, condition ~1e14 on Andrews at alpha = 1e8, and its right-hand side ends with
             * a pass in residual form (mb_f3_alf.c, alf_refine) that keeps that round-off out of
             * v and sigma~: Andrews 7.4e-10 -> 5.1e-11 with LAPACKE and the builtin back end
             * alike (without it 9e-9 and 4.0e-7 -> 3.8e-7, a floor of 1e-6 here). */
            double need = f == MB_ALF_TRAPEZOID ? 3 : 8;
            double floor_q = 1e-7;
            CHECK(da < 1e-2, "%s/%s: |q - q_ref| = %.3g of the size", m->name, mb_formulation_name(f), da);
            CHECK(db < da / need || da < floor_q || da < 1e3 * prec, "%s/%s: no convergence to the reference: %.3g -> %.3g",
                  m->name, mb_formulation_name(f), da, db);
            /* The adaptive integrator on the same formulation: rtol 1e-9 must agree with the
             * reference (rtol 1e-11) to 1e-6 of the size (global error ~ 100 x rtol). */
            if (f != MB_ALF_TRAPEZOID) {
                result d = run(m, f, MB_DOPRI5, c->h, c->t_end, 1e-9);
                double dd = d.status >= 0 ? qdiff(m, &d, &ref) / lscale : 1;
                if (verbose) printf("%-18s %-14s dopri5 1e-9: dq/L %.2e, %ld steps\n", m->name, mb_formulation_name(f), dd, d.mon.steps);
#if !MB_FLOAT
                /* near a singular position the classic formulations may also stop with a step
                 * underflow (accelerations grow before the rank test trips) */
                if (!(singular && f <= MB_CANONICAL && (d.status == MB_ERR_SINGULAR || d.status == MB_ERR_STEP_UNDERFLOW)))
                    CHECK(d.status >= 0 && dd < 1e-6, "%s/%s dopri5: %s, |q - q_ref| = %.3g of the size", m->name,
                          mb_formulation_name(f), mb_status_str(d.status), dd);
#endif
                /* DOP853 (order 8) on the same formulation: rtol 1e-9 agrees with the reference
                 * to 1e-6 of the size too, with fewer right-hand sides than dopri5 at 1e-9. On
                 * alf-explicit since its right-hand side keeps the iteration's round-off (alpha
                 * eps) out (mb_f3_alf.c, alf_refine), which the order-8 error estimate had taken
                 * for error (Andrews: 7101 right-hand sides against dopri5's 397; now 437 against
                 * 559). */
                {
                    result e = run(m, f, MB_DOP853, c->h, c->t_end, 1e-9);
                    double de = e.status >= 0 ? qdiff(m, &e, &ref) / lscale : 1;
                    if (verbose) printf("%-18s %-14s dop853 1e-9: dq/L %.2e, %ld steps, %ld evals (dopri5 %ld)\n",
                                        m->name, mb_formulation_name(f), de, e.mon.steps, e.mon.evals, d.mon.evals);
#if !MB_FLOAT
                    if (!(singular && f <= MB_CANONICAL && (e.status == MB_ERR_SINGULAR || e.status == MB_ERR_STEP_UNDERFLOW))) {
                        CHECK(e.status >= 0 && de < 1e-6, "%s/%s dop853: %s, |q - q_ref| = %.3g of the size", m->name,
                              mb_formulation_name(f), mb_status_str(e.status), de);
                        CHECK(d.status < 0 || e.mon.evals < d.mon.evals * 1.2, "%s/%s dop853: %ld right-hand sides, dopri5 %ld",
                              m->name, mb_formulation_name(f), e.mon.evals, d.mon.evals);
                    }
#endif
                }
            }
            /* Constraint drift bounded and not growing when h halves. */
            CHECK(pa < 1e-6 || pa < 10 * prec, "%s/%s: |Phi| = %.3g of the size", m->name, mb_formulation_name(f), pa);
            CHECK(pb <= pa * 1.5 + 1e3 * prec, "%s/%s: |Phi| grows when h halves: %.3g -> %.3g",
                  m->name, mb_formulation_name(f), pa, pb);
        }
        /* HHT-alpha (baumgarte's index-3 equations, alpha -0.05): second order towards the
         * reference (x3 required, 4 ideal) above the floor, the energy balance converging (its
         * numerical damping is second order too; the driven fixture's did not, 9.6e-6 -> 8.2e-5,
         * before mb_hht.c's last multiplier update took Phi linearized), positions on the
         * constraints to the Newton tolerance at every h, also through the singular four-bar's
         * positions. */
        {
            result a = run(m, MB_BAUMGARTE, MB_HHT, c->h, c->t_end, 1e-6);
            result b = run(m, MB_BAUMGARTE, MB_HHT, c->h / 2, c->t_end, 1e-6);
            CHECK(a.status >= 0 && b.status >= 0, "%s/hht: run failed: %s / %s", m->name, mb_status_str(a.status),
                  mb_status_str(b.status));
            if (a.status >= 0 && b.status >= 0) {
                double ea = (double)a.mon.max_energy_dev / escale, eb = (double)b.mon.max_energy_dev / escale;
                double da = qdiff(m, &a, &ref) / lscale, db = qdiff(m, &b, &ref) / lscale;
                double pa = (double)a.mon.max_phi / lscale, pb = (double)b.mon.max_phi / lscale;
                if (verbose)
                    printf("%-18s %-14s E/Es %.2e -> %.2e (x%.1f)  dq/L %.2e -> %.2e (x%.1f)  phi/L %.2e -> %.2e\n",
                           m->name, "hht", ea, eb, ea / eb, da, db, da / db, pa, pb);
                CHECK(ea < 1e-2, "%s/hht: energy deviation %.3g of the energy scale", m->name, ea);
                CHECK(eb < ea / 3 || ea < 1e3 * prec, "%s/hht: energy deviation does not converge: %.3g -> %.3g",
                      m->name, ea, eb);
                CHECK(da < 5e-2, "%s/hht: |q - q_ref| = %.3g of the size", m->name, da);
                CHECK(db < da / 3 || da < 1e-7 || da < 1e3 * prec, "%s/hht: no convergence to the reference: %.3g -> %.3g",
                      m->name, da, db);
                CHECK(pa < 1e-9 || pa < 10 * prec, "%s/hht: |Phi| = %.3g of the size", m->name, pa);
            }
        }
    }
    return check_report();
}
