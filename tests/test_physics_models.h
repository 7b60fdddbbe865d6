/* test_physics_models.h - the models the runtime tests run on: the hand-written fixture, a
 * driven variant of it (a rheonomic constraint, to test the driver-work monitor), and every
 * generated model present in the tree (MB_HAVE_<name> is set by the Makefile). */
#ifndef TEST_PHYSICS_MODELS_H
#define TEST_PHYSICS_MODELS_H

#include "mb_model.h"

extern const mb_model fixture_pendulum_model;
#define FX (&fixture_pendulum_model)

/* Driven pendulum: the fixture plus Phi_4 = phi_1 - pi/4 - A sin(w t) (bar AB driven). */
#define DRV_A MB_R(0.5)
#define DRV_W MB_R(2.0)
static void drv_phi(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{
    (void)m;
    FX->phi(FX, t, q, out);
    out[4] = q[2] - MB_R(0.78539816339744831) - DRV_A * MB_SIN(DRV_W * t);
}
static const int drv_row[13] = {0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4};
static const int drv_col[13] = {0, 2, 1, 2, 0, 2, 3, 5, 1, 2, 4, 5, 2};
static void drv_phi_q(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{
    (void)m;
    FX->phi_q(FX, t, q, out);
    out[12] = 1;
}
static void drv_phi_t(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{
    (void)m;
    FX->phi_t(FX, t, q, out);
    out[4] = -DRV_A * DRV_W * MB_COS(DRV_W * t);
}
static void drv_phi_q_dot(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *out)
{
    (void)m;
    FX->phi_q_dot(FX, t, q, v, out);
    out[12] = 0;
}
static void drv_gamma(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *out)
{
    (void)m;
    FX->gamma(FX, t, q, v, out);
    out[4] = -DRV_A * DRV_W * DRV_W * MB_SIN(DRV_W * t);   /* -Phi_tt */
}
static const char *const drv_cnames[5] = {"A.x", "A.y", "B.x", "B.y", "drive"};
static const unsigned char drv_locked[6] = {0, 0, 1, 0, 0, 1};
static const unsigned char drv_vgiven[6] = {0, 0, 0, 0, 0, 1};
static const mb_model fixture_driven_model = {
    "fixture_driven", 6, 5, 2, 5,
    0, 0,
    0, 0, 0, drv_locked, drv_vgiven,
    0, 0, 0, 0, 0, 0, 0,
    {13, drv_row, drv_col}, {0, 0, 0}, {0, 0, 0},
    drv_phi, drv_phi_q, drv_phi_t, drv_phi_q_dot, drv_gamma,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0,   /* no inputs, no sensors */
    0, 0,               /* no input derivatives */
    0, 0,               /* no reactions in sensors */
    0, 0,               /* no switches */
    0,                  /* no fused gamma and force */
    0,                  /* no power alone */
    0,                  /* no fused Q and Phidot_q */
    0,                  /* a driver: Phi_t nonzero */
};

#ifdef MB_HAVE_double_pendulum
extern const mb_model double_pendulum_model;
#endif
#ifdef MB_HAVE_andrews
extern const mb_model andrews_model;
#endif
#ifdef MB_HAVE_slider_crank
extern const mb_model slider_crank_model;
#endif
#ifdef MB_HAVE_fourbar_singular
extern const mb_model fourbar_singular_model;
#endif
#ifdef MB_HAVE_oscillator_1dof
extern const mb_model oscillator_1dof_model;
#endif
#ifdef MB_HAVE_chain
extern const mb_model chain_model;
#endif
#ifdef MB_HAVE_parallelogram_chain
extern const mb_model parallelogram_chain_model;
#endif

/* Fill in the fixture's data for the driven variant (C99 has no designated copies). */
static mb_model driven_model(void)
{
    mb_model d = fixture_driven_model;
    static mb_model_info info;   /* the fixture's names, the driver's constraint names */
    info = *FX->info;
    info.constraint_names = drv_cnames;
    d.info = &info; d.point_body = FX->point_body;
    d.mass = FX->mass; d.q0 = FX->q0; d.v0 = FX->v0;
    d.force = FX->force; d.dforce_dq = FX->dforce_dq; d.dforce_dv = FX->dforce_dv;
    d.energy = FX->energy; d.points = FX->points;
    return d;
}

/* Every model under test: fixture, driven fixture, generated ones. Returns the count. */
static int all_models(const mb_model **out, mb_model *driven_storage)
{
    int k = 0;
    *driven_storage = driven_model();
    out[k++] = FX;
    out[k++] = driven_storage;
#ifdef MB_HAVE_double_pendulum
    out[k++] = &double_pendulum_model;
#endif
#ifdef MB_HAVE_andrews
    out[k++] = &andrews_model;
#endif
#ifdef MB_HAVE_slider_crank
    out[k++] = &slider_crank_model;
#endif
#ifdef MB_HAVE_fourbar_singular
    out[k++] = &fourbar_singular_model;
#endif
#ifdef MB_HAVE_oscillator_1dof
    out[k++] = &oscillator_1dof_model;
#endif
#ifdef MB_HAVE_chain
    out[k++] = &chain_model;
#endif
#ifdef MB_HAVE_parallelogram_chain
    out[k++] = &parallelogram_chain_model;
#endif
    return k;
}

#endif /* TEST_PHYSICS_MODELS_H */
