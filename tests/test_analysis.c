/* test_analysis.c - the analyses of runtime/mb_analysis.h against closed forms: reactions of a
 * swinging bar pendulum, static equilibria of hanging mechanisms (reactions by hand, stability,
 * reduced stiffness against the small-oscillation frequencies), kinematics of a driven
 * slider-crank, inverse dynamics against the power balance, and the failures (degrees of
 * freedom left, no equilibrium); the frequency response of a damped oscillator and a pendulum
 * against their transfer functions, a quasistatic sequence against hand equilibrium, and the
 * projection of a displaced configuration; inverse-dynamics consistency: forward dynamics of the
 * undriven slider-crank, loaded by the driven one's inverse-dynamics effort, follows the
 * prescribed motion (and does not with the effort scaled by 0.9). Models: the shipped ones (MB_HAVE_<m>) and tests/models/anl_*.
 * Ends with "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "mb_analysis.h"
#include "mb_sim_impl.h"   /* white box: reads mb_sim's members */
/* the analysis test models (tests/models/anl_*.lua, generated into build/gen_anl) */
extern const mb_model anl_pendulum_model, anl_slider_driven_model, anl_falling_model,
    anl_damped_model, anl_torqued_model, anl_inverted_model, anl_slider_free_model;
#ifdef MB_HAVE_double_pendulum
#include "double_pendulum.h"
#endif
#ifdef MB_HAVE_slider_crank
#include "slider_crank.h"
#endif
#ifdef MB_HAVE_oscillator_1dof
#include "oscillator_1dof.h"
#endif
#ifdef MB_HAVE_andrews
#include "andrews.h"
#endif
#ifdef MB_HAVE_chain
#include "chain.h"
#endif
#ifdef MB_HAVE_fourbar_singular
#include "fourbar_singular.h"
#endif
#ifdef MB_HAVE_parallelogram_chain
#include "parallelogram_chain.h"
#endif

#if MB_FLOAT
#define TOL 1e-3
#else
#define TOL 1e-9
#endif
static const double g = 9.81, PI = 3.14159265358979323846;

/* An analysis object on malloc'd memory (the test may allocate; the runtime never does). */
static mb_anl *open_anl(const mb_model *m, int level)
{
    static mb_anl a;
    static void *work;
    free(work);
    size_t ws = mb_anl_workspace_size(m, level);
    work = malloc(ws ? ws : 1);
    int st = mb_anl_init(&a, m, NULL, level, work, ws);
    CHECK(ws > 0 && st == MB_OK, "%s: init %d (workspace %zu)", m->name, st, ws);
    return &a;
}

static int row_of(const mb_model *m, const char *name)
{
    for (int r = 0; r < m->nc; r++)
        if (!strcmp(m->info->constraint_names[r], name)) return r;
    fprintf(stderr, "%s: no constraint %s\n", m->name, name);
    exit(1);
}

/* The bar pendulum at (theta, w): the pin's force on the bar from lambda against the closed
 * form: along the bar towards O, m g cos + m d w^2; across it (direction of increasing theta),
 * m d alpha + m g sin with alpha = -m g d sin / (J + m d^2). */
static void test_pendulum_reactions(void)
{
    const mb_model *m = &anl_pendulum_model;
    mb_anl *a = open_anl(m, MB_ANL_SPARSE);
    double M = 2.0, L = 0.8, d = L / 2, J = M * L * L / 12;
    const double th[4] = {0.0, 1.0, -2.5, 3.0}, w[4] = {0.0, 2.0, -3.0, 7.5};
    for (int k = 0; k < 4; k++) {
        double s = sin(th[k]), c = cos(th[k]);
        mb_real q[3] = {(mb_real)(d * s), (mb_real)(-d * c), (mb_real)(th[k] - PI / 2)};
        /* v of the CoM: d w (cos, sin) */
        mb_real v[3] = {(mb_real)(d * w[k] * c), (mb_real)(d * w[k] * s), (mb_real)w[k]};
        mb_real lam[2], acc[3];
        int st = mb_anl_reactions(a, 0, q, v, acc, lam);
        CHECK(st == MB_OK, "pendulum reactions: %d", st);
        /* joint "pin" {ground.O, bar.O}: its force on the bar (second-named) is lambda */
        double fx = lam[row_of(m, "pin.x")], fy = lam[row_of(m, "pin.y")];
        double alpha = -M * g * d * s / (J + M * d * d);
        /* towards O: -(s, -c); across: (c, s) */
        double along = fx * -s + fy * c, across = fx * c + fy * s;
        CHECK(check_close(along, M * g * c + M * d * w[k] * w[k], TOL),
              "pendulum th=%g w=%g: along %.12g, closed form %.12g", th[k], w[k], along,
              M * g * c + M * d * w[k] * w[k]);
        CHECK(check_close(across, M * d * alpha + M * g * s, TOL),
              "pendulum th=%g w=%g: across %.12g, closed form %.12g", th[k], w[k], across,
              M * d * alpha + M * g * s);
        CHECK(check_close((double)acc[2], alpha, TOL), "pendulum alpha %.12g vs %.12g",
              (double)acc[2], alpha);
    }
}

/* Static equilibrium of the bar pendulum from its guess (1 rad out): hanging, the pin carries
 * m g, stable with Kr's eigenvalue 3 g / (2 L). */
static void test_pendulum_static(void)
{
    const mb_model *m = &anl_pendulum_model;
    mb_anl *a = open_anl(m, MB_ANL_DENSE);
    mb_real q[3], lam[2];
    mb_anl_static_info info;
    memcpy(q, m->q0, sizeof q);
    int st = mb_anl_static(a, 0, q, lam, &info);
    CHECK(st == MB_OK, "pendulum static: %d (why %d)", st, info.why);
    CHECK(info.stability == 1 && info.dof == 1, "pendulum static: stability %d dof %d",
          info.stability, info.dof);
    double ang = fmod((double)q[2] + PI / 2 + 4 * PI, 2 * PI);
    if (ang > PI) ang -= 2 * PI;
    CHECK(fabs(ang) < TOL, "pendulum static: angle from the downward vertical %.3g", ang);
    CHECK(check_close((double)lam[row_of(m, "pin.x")], 0, TOL) &&
          check_close((double)lam[row_of(m, "pin.y")], 2.0 * g, TOL),
          "pendulum static: pin force (%.12g, %.12g), expected (0, %.12g)",
          (double)lam[0], (double)lam[1], 2.0 * g);
    CHECK(check_close((double)info.eig_min, 3 * g / (2 * 0.8), TOL),
          "pendulum static: eig %.12g, 3g/(2L) = %.12g", (double)info.eig_min, 3 * g / 1.6);
    printf("anl_pendulum static: %d iterations, %d rejected, residual %.2e, eig %.12g (3g/2L %.12g)\n",
           info.iters, info.rejected, (double)info.residual, (double)info.eig_min, 3 * g / 1.6);
}

/* A start exactly at the unstable (inverted) equilibrium: the analysis must leave it. */
static void test_pendulum_inverted(void)
{
    const mb_model *m = &anl_pendulum_model;
    mb_anl *a = open_anl(m, MB_ANL_DENSE);
    mb_real q[3] = {0, MB_R(0.4), (mb_real)(PI / 2)}, lam[2];
    mb_anl_static_info info;
    int st = mb_anl_static(a, 0, q, lam, &info);
    CHECK(st == MB_OK && info.stability == 1 && info.escapes >= 1,
          "inverted pendulum: st %d stability %d escapes %d", st, info.stability, info.escapes);
    CHECK(q[1] < 0 && check_close((double)lam[1], 2.0 * g, TOL),
          "inverted pendulum: ends at y %.6g with pin force %.9g", (double)q[1], (double)lam[1]);
    printf("anl_pendulum static from the inverted position: %d escape(s), %d iterations, %d rejected\n",
           info.escapes, info.iters, info.rejected);
}

#ifdef MB_HAVE_double_pendulum
/* The double pendulum from its shipped guesses (pi/4, pi/2): hanging; the pins carry the weight
 * below them; the eigenvalues of Kr are the squared frequencies of the 2 x 2 closed form
 * (M theta'' + K theta = 0 about the hanging position, angles from the vertical). */
static void test_double_pendulum_static(void)
{
    const mb_model *m = &double_pendulum_model;
    mb_anl *a = open_anl(m, MB_ANL_DENSE);
    mb_real q[6], lam[4];
    mb_anl_static_info info;
    memcpy(q, m->q0, sizeof q);
    int st = mb_anl_static(a, 0, q, lam, &info);
    CHECK(st == MB_OK && info.stability == 1 && info.dof == 2,
          "double pendulum static: st %d stability %d dof %d", st, info.stability, info.dof);
    CHECK(check_close((double)q[2], -PI / 2, TOL) && check_close((double)q[5], -PI / 2, TOL),
          "double pendulum static: angles %.12g %.12g", (double)q[2], (double)q[5]);
    CHECK(check_close((double)lam[row_of(m, "A.y")], 16 * g, TOL) &&
          check_close((double)lam[row_of(m, "B.y")], 10 * g, TOL) &&
          fabs((double)lam[row_of(m, "A.x")]) <= TOL * 16 * g &&
          fabs((double)lam[row_of(m, "B.x")]) <= TOL * 16 * g,
          "double pendulum static: A.y %.12g (16 g), B.y %.12g (10 g)",
          (double)lam[row_of(m, "A.y")], (double)lam[row_of(m, "B.y")]);
    double m1 = 6, J1 = 1.0, L1 = 1.0, m2 = 10, J2 = 1.6, L2 = 1.5;
    double M11 = J1 + m1 * L1 * L1 / 4 + m2 * L1 * L1, M12 = m2 * L1 * L2 / 2, M22 = J2 + m2 * L2 * L2 / 4;
    double K11 = (m1 * L1 / 2 + m2 * L1) * g, K22 = m2 * g * L2 / 2;
    /* det(K - w2 M) = 0: (M11 M22 - M12^2) w2^2 - (K11 M22 + K22 M11) w2 + K11 K22 = 0 */
    double A = M11 * M22 - M12 * M12, B = -(K11 * M22 + K22 * M11), C = K11 * K22;
    double disc = sqrt(B * B - 4 * A * C);
    double w1 = (-B - disc) / (2 * A), w2 = (-B + disc) / (2 * A);
    CHECK(check_close((double)a->ev[0], w1, TOL) && check_close((double)a->ev[1], w2, TOL),
          "double pendulum: eig %.12g %.12g, closed form %.12g %.12g", (double)a->ev[0],
          (double)a->ev[1], w1, w2);
    printf("double_pendulum static: %d iterations (%d rejected), eig %.12g %.12g, closed form "
           "%.12g %.12g\n", info.iters, info.rejected, (double)a->ev[0], (double)a->ev[1], w1, w2);
}
#endif

#ifdef MB_HAVE_slider_crank
/* The slider-crank under gravity from its guess (crank at 30 deg): the crank hangs down; the
 * rod's weight splits evenly between A and B (the piston takes no horizontal force); the pins
 * carry (by hand) O: (m_c + m_r / 2) g on the crank, A: m_r g / 2 on the rod, B: -m_r g / 2 on
 * the piston; the slide's normal force (m_p + m_r / 2) g and no moment. */
static void test_slider_crank_static(void)
{
    const mb_model *m = &slider_crank_model;
    mb_anl *a = open_anl(m, MB_ANL_DENSE);
    mb_real q[9], lam[8];
    mb_anl_static_info info;
    memcpy(q, m->q0, sizeof q);
    int st = mb_anl_static(a, 0, q, lam, &info);
    CHECK(st == MB_OK && info.stability == 1 && info.dof == 1,
          "slider-crank static: st %d stability %d dof %d why %d", st, info.stability, info.dof, info.why);
    double mc = 0.5, mr = 1.0, mp = 2.0;
    CHECK(check_close((double)q[2], -PI / 2, TOL), "slider-crank static: crank %.12g", (double)q[2]);
    struct { const char *row; double want; } w[] = {
        {"O.x", 0}, {"O.y", (mc + mr / 2) * g}, {"A.x", 0}, {"A.y", mr * g / 2},
        {"B.x", 0}, {"B.y", -mr * g / 2},
        {"slide.perp", -(mp + mr / 2) * g},   /* normal force on the piston = -lambda_perp */
        {"slide.angle", 0}};
    for (int i = 0; i < 8; i++) {
        double got = lam[row_of(m, w[i].row)];
        CHECK(fabs(got - w[i].want) <= TOL * (mp + mr + mc) * g,
              "slider-crank static: lambda %s %.12g, by hand %.12g",
              w[i].row, got, w[i].want);
    }
}
#endif

/* The driven slider-crank: kinematics against the closed form of the piston, and the driver's
 * effort (-lambda of its row) against the power balance effort w = d(T + V)/dt, the derivative
 * by central differences of the energy along the kinematic solution. */
static void test_slider_kinematic_inverse(void)
{
    const mb_model *m = &anl_slider_driven_model;
    mb_anl *a = open_anl(m, MB_ANL_SPARSE);
    double r = 0.1, l = 0.3, w = 20;
    mb_real q[9], v[9], acc[9], lam[9];
    int dof, why;
    memcpy(q, m->q0, sizeof q);
    for (int k = 0; k <= 20; k++) {
        double t = 0.015 * k, th = PI / 6 + w * t, s = sin(th), c = cos(th);
        int st = mb_anl_kinematic(a, (mb_real)t, q, v, acc, &dof, &why);
        CHECK(st == MB_OK && dof == 0, "kinematic t=%g: %d why %d", t, st, why);
        double rt = sqrt(l * l - r * r * s * s);
        double x = r * c + rt;
        double xd = -r * s * w - r * r * s * c * w / rt;
        /* d/dt of -r^2 s c w / rt */
        double num = r * r * s * c, den = rt;
        double dnum = r * r * (c * c - s * s) * w, dden = -r * r * s * c * w / rt;
        double xdd = -r * c * w * w - w * (dnum * den - num * dden) / (den * den);
        CHECK(check_close((double)q[6], x, TOL) && check_close((double)v[6], xd, TOL) &&
              check_close((double)acc[6], xdd, 100 * TOL),
              "kinematic t=%g: piston x %.12g v %.12g a %.12g, closed form %.12g %.12g %.12g", t,
              (double)q[6], (double)v[6], (double)acc[6], x, xd, xdd);
        st = mb_anl_inverse(a, (mb_real)t, q, v, acc, lam);
        CHECK(st == MB_OK, "inverse t=%g: %d", t, st);
        double effort = -(double)lam[row_of(m, "drive")];
        /* the energy at t +- h along the solution */
        double h = 1e-5, E[2];
        for (int j = 0; j < 2; j++) {
            mb_real qq[9], vv[9], aa[9], e[3];
            memcpy(qq, q, sizeof qq);
            mb_anl_kinematic(a, (mb_real)(t + (j ? h : -h)), qq, vv, aa, &dof, &why);
            m->energy(m, (mb_real)(t + (j ? h : -h)), qq, vv, e);
            E[j] = (double)e[0] + (double)e[1];
        }
        double dEdt = (E[1] - E[0]) / (2 * h);
#if !MB_FLOAT   /* (in float, the central difference of E is all rounding) */
        CHECK(check_close(effort * w, dEdt, 1e-6), "inverse t=%g: effort*w %.9g, dE/dt %.9g", t,
              effort * w, dEdt);
#else
        (void)effort; (void)dEdt;
#endif
        /* the next guess: one step ahead */
        for (int i = 0; i < 9; i++) q[i] += (mb_real)0.015 * v[i];
    }
}

#if !MB_FLOAT
/* Inverse-dynamics consistency. The free slider-crank (tests/models/anl_slider_free.lua, the
 * driven one without its driver) is wrapped through the model seam: a copy of its mb_model whose
 * force adds, on crank.phi, the torque the driver of anl_slider_driven applies at time t,
 * computed on the fly by mb_anl_kinematic + mb_anl_inverse (effort = -lambda of the driver's row,
 * as D.effort in the CSV). The torque depends on t only, so dQ/dq and dQ/dv stay the free
 * model's; energy adds its power to P_nc so that the energy monitor balances it. The wrapper
 * embeds the mb_model first, so the seam's const mb_model * casts back to it. */
typedef struct inv_state {   /* the last kinematic solution: the next Newton guess */
    mb_real t, q[9], v[9], acc[9];
    long evals;
} inv_state;
typedef struct inv_drive {
    mb_model m;              /* first: what the runtime sees */
    const mb_model *free;    /* the model wrapped */
    mb_anl *a;               /* analysis of the driven model (its own workspace) */
    inv_state *st;
    int coord, row;          /* crank.phi in q; the driver's constraint row */
    double scale;            /* 1: the effort; 0.9: the negative control */
} inv_drive;

static double inv_effort(const inv_drive *w, mb_real t)
{
    inv_state *s = w->st;
    mb_real q[9], v[9], acc[9], lam[9];
    mb_real dt = t - s->t;
    for (int i = 0; i < 9; i++) q[i] = s->q[i] + dt * (s->v[i] + dt / 2 * s->acc[i]);
    int dof, why;
    int st = mb_anl_kinematic(w->a, t, q, v, acc, &dof, &why);
    if (st == MB_OK) st = mb_anl_inverse(w->a, t, q, v, acc, lam);
    if (st != MB_OK) {
        fprintf(stderr, "inverse forward: analysis at t=%g failed: %d (why %d)\n", (double)t, st, why);
        exit(1);
    }
    s->t = t;
    memcpy(s->q, q, sizeof q); memcpy(s->v, v, sizeof v); memcpy(s->acc, acc, sizeof acc);
    s->evals++;
    return w->scale * -(double)lam[w->row];
}
static void inv_force(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *out)
{
    const inv_drive *w = (const inv_drive *)m;
    w->free->force(w->free, t, q, v, out);
    out[w->coord] += (mb_real)inv_effort(w, t);
}
static void inv_energy(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *out)
{
    const inv_drive *w = (const inv_drive *)m;
    w->free->energy(w->free, t, q, v, out);
    out[2] += (mb_real)inv_effort(w, t) * v[w->coord];
}

static int coord_of(const mb_model *m, const char *name)
{
    for (int i = 0; i < m->nq; i++)
        if (!strcmp(m->info->coord_names[i], name)) return i;
    fprintf(stderr, "%s: no coordinate %s\n", m->name, name);
    exit(1);
}

/* One forward run from the prescribed state at t = 0 to t_end: the largest |theta - (pi/6 +
 * 20 t)| of the crank over the accepted steps (and at t_end), and the run's energy monitor. */
static double inv_forward(double scale, int form, int integ, double h, double rtol, double t_end,
                          double *edev, long *steps)
{
    const mb_model *md = &anl_slider_driven_model, *mf = &anl_slider_free_model;
    static mb_anl a;
    static void *awork;
    free(awork);
    size_t aws = mb_anl_workspace_size(md, MB_ANL_SPARSE);
    awork = malloc(aws);
    CHECK(mb_anl_init(&a, md, NULL, MB_ANL_SPARSE, awork, aws) == MB_OK, "inverse forward: anl init");
    inv_state st = {0};
    inv_drive w;
    w.m = *mf;
    w.m.force = inv_force;
    w.m.energy = inv_energy;
    w.m.eval_kin_dyn = NULL;   /* the fused evaluations would bypass force */
    w.m.eval_gamma_force = NULL;
    w.m.eval_force_phi_q_dot = NULL;
    w.m.power = NULL;          /* the stages' power from inv_energy */
    w.free = mf; w.a = &a; w.st = &st; w.scale = scale;
    w.coord = coord_of(mf, "crank.phi");
    w.row = row_of(md, "drive");
    /* the prescribed state at t = 0 (also the first Newton guess) */
    int dof, why;
    memcpy(st.q, md->q0, sizeof st.q);
    CHECK(mb_anl_kinematic(&a, 0, st.q, st.v, st.acc, &dof, &why) == MB_OK, "inverse forward: t0");
    mb_params p;
    mb_params_default(&p, form);
    p.integrator = integ;
    p.h = (mb_real)h;
    if (rtol > 0) { p.rtol = (mb_real)rtol; p.atol = (mb_real)(rtol * 1e-2); }
    mb_sim sim;
    size_t ws = mb_sim_workspace_size(&w.m, &p);
    void *work = malloc(ws ? ws : 1);
    int rc = mb_sim_init(&sim, &w.m, &p, work, ws);
    if (rc == MB_OK) rc = mb_sim_reset(&sim, 0, st.q, st.v, 0);
    CHECK(rc == MB_OK, "inverse forward %s/%s: init/reset %d", mb_formulation_name(form),
          mb_integrator_name(integ), rc);
    double dev = 0;
    while (rc >= MB_OK && (double)mb_sim_get_t(&sim) < t_end * (1 - 1e-12)) {
        rc = mb_sim_step(&sim, (mb_real)t_end);
        double t = (double)mb_sim_get_t(&sim);
        double e = fabs((double)mb_sim_get_q(&sim)[w.coord] - (PI / 6 + 20 * t));
        if (e > dev) dev = e;
    }
    CHECK(rc >= MB_OK, "inverse forward %s/%s h=%g: step %d at t=%g", mb_formulation_name(form),
          mb_integrator_name(integ), h, rc, (double)mb_sim_get_t(&sim));
    const mb_monitor *mo = mb_sim_get_monitor(&sim);
    *edev = (double)mo->max_energy_dev;
    *steps = mo->steps;
    free(work);
    return rc >= MB_OK ? dev : 1e30;
}

/* Three crank revolutions (t_end = 0.95 s, 3.02 turns): F1 + rk4 at h and h/2 (4th order), F1 +
 * dopri5 at rtol 1e-8 and 1e-10, F4 alf-trapezoid at h and h/2 (2nd order). Each follows the
 * prescribed angle within its integrator's error, which converges with h (rtol); the same runs
 * with 0.9 x the effort leave it by far more (> 1e-2 rad and > 100 x the deviation). */
static void test_inverse_forward(void)
{
    const mb_model *md = &anl_slider_driven_model, *mf = &anl_slider_free_model;
    CHECK(md->nq == 9 && mf->nq == 9 && mf->nc == md->nc - 1, "inverse forward: model sizes");
    for (int i = 0; i < 9; i++)
        CHECK(!strcmp(md->info->coord_names[i], mf->info->coord_names[i]), "inverse forward: coordinate %d", i);
    /* the driver's equation is crank.phi - f(t): effort = -lambda is the torque on crank.phi */
    {
        mb_real pq[64];
        md->phi_q(md, 0, md->q0, pq);
        int row = row_of(md, "drive"), c = coord_of(md, "crank.phi"), ok = 0;
        for (int k = 0; k < md->phi_q_pat.nnz; k++)
            if (md->phi_q_pat.row[k] == row)
                ok += md->phi_q_pat.col[k] == c && pq[k] == 1 ? 1 : 100;
        CHECK(ok == 1, "inverse forward: the driver's row of Phi_q is not +1 on crank.phi");
    }
    const double T = 0.95;
    struct { const char *name; int form, integ; double h[2], rtol[2], tol, ratio; } runs[3] = {
        {"baumgarte/rk4", MB_BAUMGARTE, MB_RK4, {2e-3, 1e-3}, {0, 0}, 2e-7, 8},
        {"baumgarte/dopri5", MB_BAUMGARTE, MB_DOPRI5, {1e-3, 1e-3}, {1e-8, 1e-10}, 1e-9, 10},
        {"alf-trapezoid", MB_ALF_TRAPEZOID, MB_TRAPEZOID, {1e-3, 5e-4}, {0, 0}, 5e-4, 3},
    };
    for (int r = 0; r < 3; r++) {
        double dev[2], ed[2];
        long steps[2];
        for (int j = 0; j < 2; j++)
            dev[j] = inv_forward(1.0, runs[r].form, runs[r].integ, runs[r].h[j], runs[r].rtol[j], T,
                                 &ed[j], &steps[j]);
        double ed9, neg = inv_forward(0.9, runs[r].form, runs[r].integ, runs[r].h[1],
                                      runs[r].rtol[1], T, &ed9, &steps[0]);
        printf("inverse forward %s: max |theta - theta_prescribed| %.3e, %.3e (ratio %.1f); "
               "max |energy_dev| %.2e, %.2e J; 0.9 x effort: %.3e rad\n", runs[r].name, dev[0],
               dev[1], dev[0] / dev[1], ed[0], ed[1], neg);
        CHECK(dev[1] < runs[r].tol, "inverse forward %s: deviation %.3e rad (tolerance %.0e)",
              runs[r].name, dev[1], runs[r].tol);
        CHECK(dev[0] / dev[1] > runs[r].ratio, "inverse forward %s: no convergence: %.3e -> %.3e",
              runs[r].name, dev[0], dev[1]);
        CHECK(neg > 1e-2 && neg > 100 * dev[1], "inverse forward %s: 0.9 x effort deviates only %.3e rad",
              runs[r].name, neg);
    }
}
#endif

static void test_failures(void)
{
    /* kinematic analysis with a free degree of freedom: a clear refusal */
    const mb_model *m = &anl_pendulum_model;
    mb_anl *a = open_anl(m, MB_ANL_SPARSE);
    mb_real q[3], v[3], acc[3];
    int dof, why;
    memcpy(q, m->q0, sizeof q);
    int st = mb_anl_kinematic(a, 0, q, v, acc, &dof, &why);
    CHECK(st == MB_ERR_PARAM && why == MB_ANL_WHY_DOF && dof == 1,
          "kinematic on a free pendulum: st %d why %d dof %d", st, why, dof);
    /* static analysis with no equilibrium: a block falling along a vertical slide */
    m = &anl_falling_model;
    a = open_anl(m, MB_ANL_DENSE);
    mb_real lam[2];
    mb_anl_static_info info;
    memcpy(q, m->q0, sizeof q);
    st = mb_anl_static(a, 0, q, lam, &info);
    CHECK(st == MB_ERR_NEWTON && info.why == MB_ANL_WHY_MAXITER,
          "falling block: st %d why %d (iterations %d)", st, info.why, info.iters);
    /* a sparse-level object refuses the dense analyses */
    a = open_anl(m, MB_ANL_SPARSE);
    CHECK(mb_anl_static(a, 0, q, lam, &info) == MB_ERR_WORKSPACE, "static on a sparse workspace");
    CHECK(mb_anl_workspace_size(NULL, 0) == 0, "workspace size of no model");
}


#if defined(MB_HAVE_double_pendulum) && !MB_FLOAT
/* Each formulation's own multiplier estimate against the exact index-1 multipliers at the same
 * state (mb_anl_reactions), along 2 s of the double pendulum: F1 the lambda of its Baumgarte-
 * stabilized KKT solve; F2-F4 lambda = dS/dt (S = sigma, or sigma~ updated), by the central
 * difference (S(t + h) - S(t - h)) / 2h. The figures of docs/analyses.md. */
static void test_native_estimates(void)
{
    const mb_model *m = &double_pendulum_model;
    mb_anl *a = open_anl(m, MB_ANL_SPARSE);
    /* the largest relative error each may have (measured: 1.4e-6, 8.0e-4, 8.0e-4, 6.0e-4 at
     * h = 1e-3; at 1e-4: 1.2e-10, 8.0e-6, 8.0e-6 and 5.6e-3, F4's noise floor) */
    const double lim[2][4] = {{1e-5, 2e-3, 2e-3, 2e-3}, {1e-9, 2e-5, 2e-5, 2e-2}};
    for (int hk = 0; hk < 2; hk++)
        for (int f = 0; f < 4; f++) {
            double h = hk ? 1e-4 : 1e-3, emax = 0, lmax = 0, Sm[4] = {0}, S0[4] = {0}, fl[4];
            mb_params p;
            mb_params_default(&p, f);
            p.h = (mb_real)h;
            size_t ws = mb_sim_workspace_size(m, &p);
            void *w = malloc(ws);
            mb_sim s;
            int st = mb_sim_init(&s, m, &p, w, ws);
            if (st == MB_OK) st = mb_sim_reset(&s, 0, NULL, NULL, 1);
            long N = (long)(2.0 / h + 0.5);
            for (long k = 0; st >= 0 && k < N; k++) {
                mb_real lk[4], qk[6], vk[6];
                memcpy(qk, mb_sim_get_q(&s), sizeof qk);
                memcpy(vk, mb_sim_get_v(&s), sizeof vk);
                if (mb_anl_reactions(a, mb_sim_get_t(&s), qk, vk, NULL, lk) != MB_OK) { st = -100; break; }
                for (int r = 0; r < 4; r++) {
                    Sm[r] = S0[r];
                    S0[r] = f ? (double)mb_sim_get_sigma(&s)[r] : 0;
                    fl[r] = f ? 0 : (double)s.lam[r];   /* F1: white box, no accessor */
                }
                if ((st = mb_sim_step(&s, 100)) < 0) break;
                for (int r = 0; r < 4 && (f == 0 || k > 0); r++) {
                    double est = f ? ((double)mb_sim_get_sigma(&s)[r] - Sm[r]) / (2 * h) : fl[r];
                    if (fabs(est - (double)lk[r]) > emax) emax = fabs(est - (double)lk[r]);
                    if (fabs((double)lk[r]) > lmax) lmax = fabs((double)lk[r]);
                }
            }
            CHECK(st >= 0, "native estimates %s h=%g: run failed %d", mb_formulation_name(f), h, st);
            printf("native multiplier estimate %-13s h=%g: max |estimate - exact| / max |lambda| = %.2e\n",
                   mb_formulation_name(f), h, emax / lmax);
            CHECK(emax / lmax < lim[hk][f], "native estimate %s h=%g: %.3g above %.3g",
                  mb_formulation_name(f), h, emax / lmax, lim[hk][f]);
            free(w);
        }
}
#endif

/* Every shipped model: the static analysis from the model file's guesses ends in a stable (or,
 * without loads, neutral) equilibrium, and there the exact equations of motion at rest agree:
 * M a = Q - Phi_q^T lambda gives a = 0 (|M^1/2 a| against |M^-1/2 Q|) and the same multipliers
 * (KKT by the sparse Schur complement, against the static analysis' QR least squares). */
static void test_static_all(void)
{
    const mb_model *ms[] = {
#ifdef MB_HAVE_double_pendulum
        &double_pendulum_model,
#endif
#ifdef MB_HAVE_andrews
        &andrews_model,
#endif
#ifdef MB_HAVE_slider_crank
        &slider_crank_model,
#endif
#ifdef MB_HAVE_fourbar_singular
        &fourbar_singular_model,
#endif
#ifdef MB_HAVE_oscillator_1dof
        &oscillator_1dof_model,
#endif
#ifdef MB_HAVE_chain
        &chain_model,
#endif
#ifdef MB_HAVE_parallelogram_chain
        &parallelogram_chain_model,
#endif
        &anl_pendulum_model, &anl_slider_driven_model};
    for (size_t k = 0; k < sizeof ms / sizeof ms[0]; k++) {
        const mb_model *m = ms[k];
        int n = m->nq, nc = m->nc;
        mb_anl *a = open_anl(m, MB_ANL_DENSE);
        mb_real *q = calloc((size_t)n, sizeof *q), *v = calloc((size_t)n, sizeof *v),
                *acc = calloc((size_t)n, sizeof *acc), *l1 = calloc((size_t)nc + 1, sizeof *l1),
                *l2 = calloc((size_t)nc + 1, sizeof *l2);
        mb_anl_static_info info;
        memcpy(q, m->q0, sizeof *q * (size_t)n);
        int st = mb_anl_static(a, 0, q, l1, &info);
        CHECK(st == MB_OK && info.stability >= 0, "%s static: st %d why %d stability %d", m->name,
              st, info.why, info.stability);
        st = mb_anl_reactions(a, 0, q, v, acc, l2);
        CHECK(st == MB_OK, "%s: reactions at the equilibrium: %d", m->name, st);
        double an = 0, gn = 0, ld = 0, lm = 0;
        for (int i = 0; i < n; i++) {
            an += (double)m->mass[i] * (double)acc[i] * (double)acc[i];
            gn += (double)a->Q[i] * (double)a->Q[i] / (double)m->mass[i];
        }
        for (int r = 0; r < nc; r++) {
            if (fabs((double)(l1[r] - l2[r])) > ld) ld = fabs((double)(l1[r] - l2[r]));
            if (fabs((double)l1[r]) > lm) lm = fabs((double)l1[r]);
        }
        an = sqrt(an);
        gn = sqrt(gn);
#if MB_FLOAT
        double tol = 1e-3;
#else
        double tol = 1e-9;
#endif
        CHECK(an <= tol * gn, "%s: at the equilibrium |M^1/2 a| = %.3g, |M^-1/2 Q| = %.3g", m->name, an, gn);
        CHECK(ld <= tol * (lm > 0 ? lm : 1), "%s: multipliers KKT vs static differ by %.3g (max %.3g)",
              m->name, ld, lm);
        printf("%s static: %d iterations, %s, |M^1/2 a| / |M^-1/2 Q| = %.2e at rest\n", m->name,
               info.iters, info.stability > 0 ? "stable" : info.stability ? "unstable" : "neutral",
               gn > 0 ? an / gn : 0);
        free(q); free(v); free(acc); free(l1); free(l2);
    }
}

#ifdef MB_HAVE_chain30
extern const mb_model chain30_model;   /* models/chain.lua -D N=30 (build/gen/chain30.c) */
/* The 30-link chain from its guess, stretched horizontally (where the reduced stiffness is
 * zero): the global phase has to turn every link by pi/2. It ends hanging, stable, and its
 * lowest squared frequency approaches the continuous hanging chain's, w1 = (j01 / 2)
 * sqrt(g / l), j01 = 2.404826 the first zero of J0, l = 3 m (Bernoulli, Euler): 30 links are not
 * a continuum, so only to 1e-3 (measured 4e-5 in f1). */
static void test_chain30_static(void)
{
    const mb_model *m = &chain30_model;
    mb_anl *a = open_anl(m, MB_ANL_DENSE);
    mb_real *q = calloc((size_t)m->nq, sizeof *q), *l = calloc((size_t)m->nc, sizeof *l);
    mb_anl_static_info info;
    memcpy(q, m->q0, sizeof *q * (size_t)m->nq);
    int st = mb_anl_static(a, 0, q, l, &info);
    CHECK(st == MB_OK && info.stability == 1 && info.dof == 30,
          "chain30 static: st %d why %d stability %d (%d iterations, residual %.3g)", st, info.why,
          info.stability, info.iters, (double)info.residual);
    double w1 = 2.404826 / 2 * sqrt(g / 3.0), got = sqrt((double)info.eig_min);
    CHECK(fabs(got - w1) < 1e-3 * w1, "chain30: w1 %.9g, continuous chain %.9g", got, w1);
    CHECK(check_close((double)q[3 * 29 + 1], -2.95, TOL), "chain30: last link's CoM at y %.9g", (double)q[3 * 29 + 1]);
    printf("chain30 static from horizontal: %d iterations, %d rejected; w1 %.9g rad/s, continuous chain %.9g\n",
           info.iters, info.rejected, got, w1);
    free(q);
    free(l);
}
#endif

#ifdef MB_HAVE_parallelogram_chain
/* The parallelogram chain (N = 2) is shipped with its cranks upright: an unstable equilibrium
 * (up to its initial velocity, which statics ignores). The analysis must step off it and end
 * hanging, where the closed form of models/parallelogram_chain.lua (T = ((N + 1) / 6 + N / 2)
 * thetadot^2, V = g ((N + 1) / 2 + N) sin theta) gives w^2 = V'' / (2 T/thetadot^2) =
 * g (3 / 2 + 2) / (2 (1 / 2 + 1)) = 11.445 1/s^2. */
static void test_parallelogram_static(void)
{
    const mb_model *m = &parallelogram_chain_model;
    mb_anl *a = open_anl(m, MB_ANL_DENSE);
    mb_real q[15], l[14];
    mb_anl_static_info info;
    memcpy(q, m->q0, sizeof q);
    int st = mb_anl_static(a, 0, q, l, &info);
    CHECK(st == MB_OK && info.stability == 1 && info.escapes >= 1 && info.dof == 1,
          "parallelogram chain: st %d stability %d escapes %d dof %d", st, info.stability,
          info.escapes, info.dof);
    CHECK(check_close((double)info.eig_min, g * 3.5 / 3, TOL), "parallelogram chain: w^2 %.12g, closed form %.12g",
          (double)info.eig_min, g * 3.5 / 3);
    double ang = fmod((double)q[2] + PI / 2 + 4 * PI, 2 * PI);   /* from the hanging angle */
    if (ang > PI) ang -= 2 * PI;
    CHECK(fabs(ang) < TOL, "parallelogram chain: crank 0 at %.9g rad, not hanging", (double)q[2]);
    printf("parallelogram_chain static from the upright cranks: %d escape(s), %d iterations; w^2 %.12g (closed form %.12g)\n",
           info.escapes, info.iters, (double)info.eig_min, g * 3.5 / 3);
}
#endif

#if defined(MB_HAVE_parallelogram_chain) || defined(MB_HAVE_fourbar_singular)
/* The rank check's two routes near a singular position (docs/analyses.md): mb_anl_redundant's
 * sparse proof of independence (level SPARSE: 0, or MB_ERR_WORKSPACE when it cannot prove it)
 * against the dense pivoted QR alone (rank_qr_only), on a parallelogram mechanism at crank
 * angle th -> 0, where all links lie on one line and Phi_q loses rank. The proof must never
 * accept what the QR rejects; it must accept far from the singular position and decline at it.
 * q(th): cranks of length a at ground points i L, couplers of length L between their tips;
 * bodies[b] says which body b is ('k' the next crank, 'c' the next coupler); Phi(q(th)) = 0 is
 * checked too (the configuration is right). */
static void rank_routes(const mb_model *m, const char *bodies, double a, double L)
{
    int n = m->nq, nc = m->nc, proved_far = 0, declined_at = 0, contradictions = 0;
    double th_proof = 0, th_qr = 0;   /* the largest th the proof declines / the QR rejects */
    mb_real *q = calloc((size_t)n, sizeof *q), *phi = calloc((size_t)nc, sizeof *phi);
    unsigned char *dep = calloc((size_t)nc, 1);
    size_t wss = mb_anl_workspace_size(m, MB_ANL_SPARSE), wsd = mb_anl_workspace_size(m, MB_ANL_DENSE);
    void *ws = malloc(wss), *wd = malloc(wsd);
    mb_anl as, ad;
    mb_anl_params pd;
    mb_anl_params_default(&pd);
    pd.rank_qr_only = 1;
    CHECK((int)strlen(bodies) == m->nbody, "%s: rank routes: %d bodies", m->name, m->nbody);
    CHECK(q && phi && dep && ws && wd && mb_anl_init(&as, m, NULL, MB_ANL_SPARSE, ws, wss) == MB_OK &&
          mb_anl_init(&ad, m, &pd, MB_ANL_DENSE, wd, wsd) == MB_OK, "%s: rank routes: init", m->name);
    if (!(q && phi && dep && ws && wd)) return;
    for (int e = 0; e <= 17; e++) {
        double th = e == 17 ? 0 : pow(10, -(double)e / 2);   /* 1, 0.32, 0.1, ... 1e-8, then 0 */
        double c = cos(th), sn = sin(th), res = 0;
        for (int b = 0, ik = 0, ic = 0; b < m->nbody; b++) {
            int k = mb_body_q(m, b);
            if (bodies[b] == 'k')
                q[k] = (mb_real)(ik++ * L + a / 2 * c), q[k + 1] = (mb_real)(a / 2 * sn), q[k + 2] = (mb_real)th;
            else
                q[k] = (mb_real)((ic++ + 0.5) * L + a * c), q[k + 1] = (mb_real)(a * sn), q[k + 2] = 0;
        }
        m->phi(m, 0, q, phi);
        for (int r = 0; r < nc; r++) res = fmax(res, fabs((double)phi[r]));
        CHECK(res < 100 * TOL, "%s: q(th = %g) not assembled: |Phi| %g", m->name, th, res);
        int sp = mb_anl_redundant(&as, 0, q, dep), qr = mb_anl_redundant(&ad, 0, q, dep);
        CHECK((sp == 0 || sp == MB_ERR_WORKSPACE) && qr >= 0, "%s: th = %g: sparse %d, QR %d", m->name, th, sp, qr);
        if (sp == 0 && qr != 0) contradictions++;
        if (sp != 0 && th > th_proof) th_proof = th;
        if (qr > 0 && th > th_qr) th_qr = th;
        if (th == 1 && sp == 0) proved_far = 1;
        if (th == 0 && sp == MB_ERR_WORKSPACE && qr > 0) declined_at = 1;
    }
    CHECK(contradictions == 0, "%s: the sparse proof accepted %d configurations the QR rejects", m->name, contradictions);
    CHECK(proved_far, "%s: the sparse proof declined at th = 1 rad", m->name);
    CHECK(declined_at, "%s: at the singular position the proof did not decline or the QR found no dependency", m->name);
    printf("%s rank routes: the QR rejects th <= %g rad, the sparse proof declines th <= %g rad "
           "(the rest falls to the QR)\n", m->name, th_qr, th_proof);
    free(q), free(phi), free(dep), free(ws), free(wd);
}
#endif

#ifdef MB_HAVE_andrews
static void test_andrews_static(void)
{
    const mb_model *m = &andrews_model;
    mb_anl *a = open_anl(m, MB_ANL_DENSE);
    mb_real q[21], lam[20];
    mb_anl_static_info info;
    memcpy(q, m->q0, sizeof q);
    int st = mb_anl_static(a, 0, q, lam, &info);
    printf("andrews: workspace %zu bytes (sparse), %zu (dense)\n",
           mb_anl_workspace_size(m, MB_ANL_SPARSE), mb_anl_workspace_size(m, MB_ANL_DENSE));
    printf("andrews static: st %d why %d iters %d rejected %d escapes %d stability %d residual %.3g eig %.6g\n",
           st, info.why, info.iters, info.rejected, info.escapes, info.stability, (double)info.residual,
           (double)info.eig_min);
}
#endif


/* mb_anl_frf: the damped oscillator (m 2, k 800, c 8) against H = 1 / (k - m w^2 + i c w), the
 * bar pendulum's tip (a horizontal force at the tip, its horizontal displacement) against
 * L^2 / (J_O (w0^2 - w^2)); before mb_anl_linearize it is refused. */
static void test_frf(void)
{
    mb_anl *a = open_anl(&anl_damped_model, MB_ANL_DENSE);
    mb_real q[3], lam[2], f[3] = {1, 0, 0}, xr[3], xi[3];
    mb_anl_static_info info;
    CHECK(mb_anl_frf(a, 10, f, xr, xi) == MB_ERR_STATE, "frf before linearize is refused");
    memcpy(q, anl_damped_model.q0, sizeof q);
    int st = mb_anl_static(a, 0, q, lam, &info), d = 0;
    CHECK(st == MB_OK, "damped static %d", st);
    CHECK(mb_anl_linearize(a, 0, q, lam, &d) == MB_OK && d == 1, "damped linearize dof %d", d);
    double emax = 0;
    for (int k = 0; k < 40; k++) {
        double w = 0.5 * pow(400.0, k / 39.0), km = 800 - 2 * w * w, cw = 8 * w, den = km * km + cw * cw;
        double hr = km / den, hi = -cw / den, hm = sqrt(den) > 0 ? 1 / sqrt(den) : 0;
        st = mb_anl_frf(a, (mb_real)w, f, xr, xi);
        double e = hypot((double)xr[0] - hr, (double)xi[0] - hi) / hm;
        if (st != MB_OK || !(e <= emax)) emax = st != MB_OK ? 1e30 : e;
    }
    CHECK(emax < 10 * TOL, "damped oscillator FRF against 1 / (k - m w^2 + i c w): %.3g", emax);
    printf("anl_damped FRF (40 frequencies, 0.5 to 200 rad/s): max |H - H_exact| / |H_exact| = %.2e\n", emax);
    /* the pendulum hanging: tip force along x, tip displacement along x */
    a = open_anl(&anl_pendulum_model, MB_ANL_DENSE);
    memcpy(q, anl_pendulum_model.q0, sizeof q);
    st = mb_anl_static(a, 0, q, lam, &info);
    CHECK(st == MB_OK && mb_anl_linearize(a, 0, q, lam, &d) == MB_OK, "pendulum linearize");
    double M = 2, L = 0.8, JO = M * L * L / 3, w02 = 3 * g / (2 * L);
    /* the tip T at (q + R(phi) (L/2, 0)) hanging: lever arm (0, -L/2) from the CoM */
    mb_real ft[3] = {1, 0, (mb_real)(L / 2)};
    emax = 0;
    for (int k = 0; k < 20; k++) {
        double w = 0.3 * pow(100.0, k / 19.0), hc = L * L / (JO * (w02 - w * w));
        st = mb_anl_frf(a, (mb_real)w, ft, xr, xi);
        double x = (double)xr[0] + (L / 2) * (double)xr[2];   /* dx_T = dx + (L/2) dphi */
        double e = (fabs(x - hc) + fabs((double)xi[0])) / fabs(hc);
        if (st != MB_OK || !(e <= emax)) emax = st != MB_OK ? 1e30 : e;
    }
    CHECK(emax < 10 * TOL, "pendulum tip FRF against L^2 / (J_O (w0^2 - w^2)): %.3g", emax);
    printf("anl_pendulum tip FRF (20 frequencies): max relative error %.2e\n", emax);
}

/* mb_anl_quasistatic: the torqued pendulum, tau = 0.9 m g d min(t, 1): m g d sin(theta) = tau
 * and the pin force (0, m g) at every step; a sequence with no equilibrium fails cleanly. */
static void test_quasistatic(void)
{
    mb_anl *a = open_anl(&anl_torqued_model, MB_ANL_DENSE);
    mb_real q[3], lam[2];
    mb_anl_static_info info;
    double M = 2, d = 0.4, emax = 0;
    int iters = 0;
    memcpy(q, anl_torqued_model.q0, sizeof q);
    mb_anl_quasistatic_start(a);
    for (int k = 0; k <= 12; k++) {
        double t = 0.1 * k, tau = 0.9 * M * g * d * (t < 1 ? t : 1);
        int st = mb_anl_quasistatic(a, (mb_real)t, q, lam, &info);
        CHECK(st == MB_OK && info.stability == 1, "torqued quasistatic t=%g: %d", t, st);
        double th = (double)q[2] + PI / 2;
        double e = fabs(M * g * d * sin(th) - tau) / (M * g * d);
        double ef = (fabs((double)lam[0]) + fabs((double)lam[1] - M * g)) / (M * g);
        if (e > emax) emax = e;
        if (ef > emax) emax = ef;
        iters += info.iters;
    }
#if MB_FLOAT
    const double qtol = 1e-2;   /* the float static tolerance is 1e4 eps = 1.2e-3 of the load */
#else
    const double qtol = TOL;
#endif
    CHECK(emax < qtol, "torqued pendulum: hand equilibrium at 13 load levels: %.3g", emax);
    printf("anl_torqued quasistatic, 13 load levels: max error %.2e of m g d (or m g), %d iterations\n",
           emax, iters);
    a = open_anl(&anl_falling_model, MB_ANL_DENSE);
    mb_real qf[3];
    memcpy(qf, anl_falling_model.q0, sizeof qf);
    mb_anl_quasistatic_start(a);
    int st = mb_anl_quasistatic(a, 0, qf, lam, &info);
    CHECK(st == MB_ERR_NEWTON && info.why == MB_ANL_WHY_MAXITER, "falling quasistatic: %d", st);
    CHECK(memcmp(qf, anl_falling_model.q0, sizeof qf) == 0, "falling quasistatic: q given back");
}

/* mb_anl_displace: a large rotation of the inverted bob put back onto the pin's circle. */
static void test_displace(void)
{
    mb_anl *a = open_anl(&anl_inverted_model, MB_ANL_SPARSE);
    mb_real dq[3] = {(mb_real)0.1, 0, (mb_real)0.3}, q[3], phi[2];
    int st = mb_anl_displace(a, 0, anl_inverted_model.q0, dq, q);
    anl_inverted_model.phi(&anl_inverted_model, 0, q, phi);
    CHECK(st == MB_OK && fabs((double)phi[0]) + fabs((double)phi[1]) < 1e3 * TOL,
          "displace: back on the constraints (%d, |Phi| %.3g)", st, fabs((double)phi[0]) + fabs((double)phi[1]));
}

int main(void)
{
    test_pendulum_reactions();
    test_pendulum_static();
    test_pendulum_inverted();
#ifdef MB_HAVE_double_pendulum
    test_double_pendulum_static();
#endif
#ifdef MB_HAVE_slider_crank
    test_slider_crank_static();
#endif
    test_slider_kinematic_inverse();
#if !MB_FLOAT
    test_inverse_forward();
#endif
    test_failures();
    test_static_all();
#ifdef MB_HAVE_chain30
    test_chain30_static();
#endif
#ifdef MB_HAVE_parallelogram_chain
    test_parallelogram_static();
#endif
#if defined(MB_HAVE_double_pendulum) && !MB_FLOAT
    test_native_estimates();
#endif
#ifdef MB_HAVE_andrews
    test_andrews_static();
#endif
#ifdef MB_HAVE_parallelogram_chain
    rank_routes(&parallelogram_chain_model, "kkkcc", 1, 1);   /* N = 2: cranks 0..2, couplers 1, 2 */
#endif
#ifdef MB_HAVE_fourbar_singular
    rank_routes(&fourbar_singular_model, "kck", 0.1, 0.3);   /* crank, coupler, rocker */
#endif
    test_frf();
    test_quasistatic();
    test_displace();
    return check_report();
}
