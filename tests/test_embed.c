/* test_embed.c - the firmware API (runtime/mb_embed.h) on the host: the compile-time workspace
 * bound covers mb_sim_workspace_size for every formulation/integrator on two generated models and
 * equals it; mb_embed_start/step reproduce direct mb_sim calls bit for bit; a workspace one
 * byte short is refused; built lean (-DMB_ONLY_ALF_TRAPEZOID -DMB_WITH_FULL_JACOBIAN=0) the
 * rest is refused. Layer: test program (tests/check.h). */
#include <string.h>

#include "andrews.h"
#include "check.h"
#include "double_pendulum.h"
#include "mb_embed.h"

/* Every valid formulation/integrator pair. */
static const int pairs[][2] = {
    {MB_BAUMGARTE, MB_RK4},       {MB_BAUMGARTE, MB_DOPRI5},    {MB_CANONICAL, MB_RK4},
    {MB_CANONICAL, MB_DOPRI5},    {MB_ALF_EXPLICIT, MB_RK4},    {MB_ALF_EXPLICIT, MB_DOPRI5},
    {MB_ALF_TRAPEZOID, MB_TRAPEZOID},
};
#define NPAIRS ((int)(sizeof pairs / sizeof pairs[0]))

/* The bound for pair k, evaluated through the macro with the generated size macros. */
static size_t bound(const char *model, int k)
{
    int f = pairs[k][0], i = pairs[k][1];
    if (!strcmp(model, "andrews")) return MB_EMBED_MODEL_WORK_BYTES(ANDREWS, f, i);
    return MB_EMBED_MODEL_WORK_BYTES(DOUBLE_PENDULUM, f, i);
}

#if !MB_ONLY_ALF_TRAPEZOID
static size_t bound_fj(const char *model)
{
    if (!strcmp(model, "andrews"))
        return MB_EMBED_WORK_BYTES_FJ(MB_ALF_TRAPEZOID, MB_TRAPEZOID, ANDREWS_NQ, ANDREWS_NC,
                                      ANDREWS_PHI_Q_NNZ, ANDREWS_DQ_DQ_NNZ, ANDREWS_DQ_DV_NNZ,
                                      ANDREWS_S_NL, ANDREWS_A_NL);
    return MB_EMBED_WORK_BYTES_FJ(MB_ALF_TRAPEZOID, MB_TRAPEZOID, DOUBLE_PENDULUM_NQ,
                                  DOUBLE_PENDULUM_NC, DOUBLE_PENDULUM_PHI_Q_NNZ,
                                  DOUBLE_PENDULUM_DQ_DQ_NNZ, DOUBLE_PENDULUM_DQ_DV_NNZ,
                                  DOUBLE_PENDULUM_S_NL, DOUBLE_PENDULUM_A_NL);
}
#endif

static void check_bounds(const mb_model *m)
{
    for (int k = 0; k < NPAIRS; k++) {
        mb_params p;
        mb_params_default(&p, pairs[k][0]);
        p.integrator = pairs[k][1];
        size_t need = mb_sim_workspace_size(m, &p), have = bound(m->name, k);
#if MB_ONLY_ALF_TRAPEZOID
        /* the lean build (test_embed_lean) refuses what it left out */
        if (pairs[k][0] != MB_ALF_TRAPEZOID) {
            const char *what = NULL;
            CHECK(need == 0 && mb_params_check(&p, &what) == MB_ERR_PARAM && what &&
                  strstr(what, "not compiled in"), "%s %s: not refused by the lean build",
                  m->name, mb_formulation_name(pairs[k][0]));
            continue;
        }
#endif
        CHECK(need > 0, "%s pair %d: workspace size 0", m->name, k);
        CHECK(have >= need, "%s %s/%s: bound %zu < needed %zu", m->name,
              mb_formulation_name(pairs[k][0]), mb_integrator_name(pairs[k][1]), have, need);
        /* the same formula: not one byte wasted */
        CHECK(have == need, "%s %s/%s: bound %zu, needed %zu", m->name,
              mb_formulation_name(pairs[k][0]), mb_integrator_name(pairs[k][1]), have, need);
        /* with full_jacobian (F4 only) the _FJ bound */
        if (pairs[k][0] == MB_ALF_TRAPEZOID) {
            p.full_jacobian = 1;
            size_t fj = mb_sim_workspace_size(m, &p);
#if MB_ONLY_ALF_TRAPEZOID
            CHECK(fj == 0, "%s: full_jacobian not refused by the lean build", m->name);
#else
            CHECK(fj > need && fj == bound_fj(m->name), "%s full_jacobian: bound %zu, needed %zu",
                  m->name, bound_fj(m->name), fj);
#endif
        }
    }
}

/* The same 50 steps through mb_embed and through mb_sim directly, compared bit for bit. */
static void check_cycle(void)
{
    enum { BYTES = MB_EMBED_MODEL_WORK_BYTES(DOUBLE_PENDULUM, MB_ALF_TRAPEZOID, MB_TRAPEZOID) };
    MB_EMBED_WORKSPACE(w1, BYTES);
    MB_EMBED_WORKSPACE(w2, BYTES);
    mb_sim_storage a_mem, b_mem;
    mb_sim *a = mb_sim_of(&a_mem), *b = mb_sim_of(&b_mem);
    mb_params p;
    mb_real q[DOUBLE_PENDULUM_NQ], v[DOUBLE_PENDULUM_NQ];
    const mb_model *m = &double_pendulum_model;
    mb_params_default(&p, MB_ALF_TRAPEZOID);
#if MB_FLOAT
    p.alpha = MB_R(1e5);                 /* what single precision resolves (docs/embedding.md) */
    p.tol = MB_R(1e-4);
#endif
    CHECK(mb_embed_start(a, m, &p, w1, sizeof w1, 0, NULL, NULL, 1) == MB_OK, "embed start");
    CHECK(mb_sim_init(b, m, &p, w2, sizeof w2) == MB_OK, "sim init");
    CHECK(mb_sim_reset(b, 0, NULL, NULL, 1) == MB_OK, "sim reset");
    for (int k = 0; k < 50; k++) {
        /* the reference: one step of exactly h towards a distant t_stop (not a shortened last step) */
        int sa = mb_embed_step(a), sb = mb_sim_step(b, MB_R(1e6));
        if (sa != sb || sa < 0) {
            CHECK(0, "step %d: status %d vs %d", k, sa, sb);
            break;
        }
    }
    mb_embed_state(a, q, v);
    CHECK(!memcmp(q, mb_sim_get_q(b), sizeof q), "q differs from direct mb_sim calls");
    CHECK(!memcmp(v, mb_sim_get_v(b), sizeof v), "v differs from direct mb_sim calls");
    CHECK(mb_sim_get_t(a) == mb_sim_get_t(b), "time differs");
    CHECK(check_close(mb_sim_get_t(a), 50 * p.h, 1e-5), "t = %g after 50 steps of %g",
          (double)mb_sim_get_t(a), (double)p.h);
    CHECK(mb_embed_energy_dev(a) == mb_sim_get_monitor(b)->energy_dev, "energy_dev differs");
    CHECK(mb_embed_phi_norm(a) == mb_sim_get_monitor(b)->phi_norm, "phi_norm differs");
    CHECK(mb_embed_phid_norm(a) == mb_sim_get_monitor(b)->phid_norm, "phid_norm differs");
    CHECK(MB_FABS(mb_embed_energy_dev(a)) < MB_R(0.1), "energy deviation %g J after 50 steps",
          (double)mb_embed_energy_dev(a));
    /* exactly the needed size works, one byte less is refused */
    size_t need = mb_sim_workspace_size(m, &p);
    CHECK(mb_embed_start(a, m, &p, w1, need, 0, NULL, NULL, 1) == MB_OK, "exact size refused");
    CHECK(mb_embed_start(a, m, &p, w1, need - 1, 0, NULL, NULL, 1) == MB_ERR_WORKSPACE,
          "short workspace accepted");
}

#if MB_FLOAT
/* Float, the thesis' 5 s of the double pendulum (alpha 1e5, tol 1e-4): Newton iterations that
 * stall at float's rounding floor are slow, not diverging - the run must not stop with
 * MB_ERR_NEWTON (it did at t = 2.45 s with a 1e-6 divergence threshold, 8 float epsilons). */
static void check_float_long(void)
{
    enum { BYTES = MB_EMBED_MODEL_WORK_BYTES(DOUBLE_PENDULUM, MB_ALF_TRAPEZOID, MB_TRAPEZOID) };
    MB_EMBED_WORKSPACE(w, BYTES);
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    mb_params p;
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    p.alpha = MB_R(1e5);
    p.tol = MB_R(1e-4);
    int st = mb_embed_start(s, &double_pendulum_model, &p, w, sizeof w, 0, NULL, NULL, 1), k;
    for (k = 0; k < 5000 && st >= 0; k++) st = mb_embed_step(s);
    const mb_monitor *mo = mb_sim_get_monitor(s);
    CHECK(st >= 0 && k == 5000, "float run stopped at step %d, t = %g: %s", k,
          (double)mb_sim_get_t(s), mb_status_str(st));
    /* max |dU| is float rounding on a chaotic motion: 0.13 to 0.53 J (2e-4 to 7e-4 of the 727 J
     * energy scale) when h moves by 1e-5 of itself, the same spread with divided and with
     * multiplied (reciprocal) pivots; a bound of 0.2 J held at the nominal h while 8 of 12 such
     * neighbours exceeded it. 1 J stays 7x below the energy warning (1e-2 of the scale). */
    CHECK(mo->max_energy_dev < MB_R(1.0) && mo->max_phi < MB_R(1e-5),
          "float run: max |dU| %g J, max |Phi| %g m", (double)mo->max_energy_dev, (double)mo->max_phi);
}
#endif

/* Every mb_embed_step is exactly h with time t0 + k h: the double pendulum has no time
 * dependence, so 200 steps started at t0 = 2e4, 4e4 or 1e6 s (float resolves 2 ms, 4 ms and
 * 62 ms there) must give bit for bit the state of 200 steps started at 0, and t must be the grid
 * time. With t_stop = t + h the steps were fl(t + h) - t: 1.95 ms and 0 at 2e4 s, an invalid
 * parameter at 4e4 s, and t = 4.99982 after 5000 steps of 1 ms from 0. */
static void check_time_grid(void)
{
    enum { BYTES = MB_EMBED_MODEL_WORK_BYTES(DOUBLE_PENDULUM, MB_ALF_TRAPEZOID, MB_TRAPEZOID) };
    MB_EMBED_WORKSPACE(w0, BYTES);
    MB_EMBED_WORKSPACE(w1, BYTES);
    static const double t0s[] = { 2e4, 4e4, 1e6 };
    mb_sim_storage a_mem, b_mem;
    mb_sim *a = mb_sim_of(&a_mem), *b = mb_sim_of(&b_mem);
    mb_params p;
    int k, st = MB_OK;
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    p.alpha = MB_R(1e5);
    p.tol = MB_R(1e-4);
    p.h = MB_R(1e-3);
    CHECK(mb_embed_start(a, &double_pendulum_model, &p, w0, sizeof w0, 0, NULL, NULL, 1) == MB_OK,
          "start at 0");
    for (k = 0; k < 5000 && st >= 0; k++) st = mb_embed_step(a);
    CHECK(st >= 0 && mb_sim_get_t(a) == (mb_real)5000 * p.h, "t after 5000 steps of 1 ms: %.9g",
          (double)mb_sim_get_t(a));
    for (int i = 0; i < 3; i++) {
        mb_real t0 = (mb_real)t0s[i];
        int sa = MB_OK, sb = MB_OK;
        CHECK(mb_embed_start(a, &double_pendulum_model, &p, w0, sizeof w0, 0, NULL, NULL, 1) == MB_OK &&
              mb_embed_start(b, &double_pendulum_model, &p, w1, sizeof w1, t0, NULL, NULL, 1) == MB_OK,
              "start at 0 and %g", (double)t0);
        for (k = 0; k < 200 && sa >= 0 && sb >= 0; k++) {
            sa = mb_embed_step(a);
            sb = mb_embed_step(b);
        }
        CHECK(sa >= 0 && sb >= 0 && k == 200, "t0 = %g: step %d failed: %s / %s", (double)t0, k,
              mb_status_str(sa), mb_status_str(sb));
        CHECK(!memcmp(mb_sim_get_q(a), mb_sim_get_q(b), sizeof(mb_real) * (size_t)mb_sim_model(a)->nq) &&
              !memcmp(mb_sim_get_v(a), mb_sim_get_v(b), sizeof(mb_real) * (size_t)mb_sim_model(a)->nq),
              "t0 = %g: the state after 200 steps differs from the run started at 0 (steps not h)",
              (double)t0);
        CHECK(mb_sim_get_t(b) == t0 + (mb_real)200 * p.h, "t0 = %g: t = %.9g after 200 steps",
              (double)t0, (double)mb_sim_get_t(b));
    }
}

/* A model with a tunable: the lean build (-DMB_WITH_TUNABLES=0: mb_sim keeps no descriptor copy
 * for them) refuses it with MB_ERR_MODEL, the full build runs it; the same descriptor without
 * the tunable starts in both. */
static int no_rule(const mb_real *par) { (void)par; return -1; }
static void check_tunables(void)
{
    static const char *const names[1] = {"k"};
    static const mb_real val[1] = {MB_R(1.0)};
    MB_EMBED_WORKSPACE(work, MB_EMBED_WORK_BYTES_P(MB_ALF_TRAPEZOID, MB_TRAPEZOID,
        DOUBLE_PENDULUM_NQ, DOUBLE_PENDULUM_NC, DOUBLE_PENDULUM_PHI_Q_NNZ,
        DOUBLE_PENDULUM_DQ_DQ_NNZ, DOUBLE_PENDULUM_DQ_DV_NNZ, DOUBLE_PENDULUM_S_NL,
        DOUBLE_PENDULUM_A_NL, 1, 0));
    mb_model m = double_pendulum_model;
    mb_params p;
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    CHECK(mb_sim_init(s, &m, &p, work, sizeof work) == MB_OK, "no tunables: init refused");
    m.npar = 1;
    m.par_names = names;
    m.par = val;
    m.par_check = no_rule;
    int st = mb_sim_init(s, &m, &p, work, sizeof work);
#if MB_WITH_TUNABLES
    CHECK(st == MB_OK && mb_sim_get_param(s, 0) == MB_R(1.0), "a tunable: init %d", st);
#else
    CHECK(st == MB_ERR_MODEL, "a tunable with MB_WITH_TUNABLES=0: init %d, not MB_ERR_MODEL", st);
    CHECK(mb_sim_workspace_size(&m, &p) == 0, "a tunable with MB_WITH_TUNABLES=0: a workspace size");
#endif
}

/* A model with an input: its holds live in the descriptor copy too, so the lean build refuses it
 * (MB_ERR_MODEL) and the full build runs it within MB_EMBED_WORK_BYTES_PI's bytes and sets it. */
static void check_inputs(void)
{
    static const char *const names[1] = {"u"};
    static const mb_real hold[3] = {MB_R(2.0), 0, 0};
    enum { BYTES = MB_EMBED_WORK_BYTES_PI(MB_ALF_TRAPEZOID, MB_TRAPEZOID,
        DOUBLE_PENDULUM_NQ, DOUBLE_PENDULUM_NC, DOUBLE_PENDULUM_PHI_Q_NNZ,
        DOUBLE_PENDULUM_DQ_DQ_NNZ, DOUBLE_PENDULUM_DQ_DV_NNZ, DOUBLE_PENDULUM_S_NL,
        DOUBLE_PENDULUM_A_NL, 0, 0, 1) };
    MB_EMBED_WORKSPACE(work, BYTES);
    mb_model m = double_pendulum_model;
    mb_params p;
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    if (sizeof(mb_real) < 8) {   /* float: as check_float_long */
        p.alpha = MB_R(1e5);
        p.tol = MB_R(1e-4);
    }
    m.nin = 1;
    m.in_names = names;
    m.in = hold;
    int st = mb_sim_init(s, &m, &p, work, sizeof work);
#if MB_WITH_TUNABLES
    CHECK(st == MB_OK && mb_sim_get_input(s, 0) == MB_R(2.0), "an input: init %d", st);
    CHECK(mb_sim_workspace_size(&m, &p) == (size_t)BYTES, "an input: workspace size %lu, the macro %lu",
          (unsigned long)mb_sim_workspace_size(&m, &p), (unsigned long)BYTES);
    st = mb_sim_reset(s, 0, NULL, NULL, 1);
    CHECK(st == MB_OK, "an input: reset: %s", mb_status_str(st));
    CHECK(mb_sim_set_input(s, 0, MB_R(3.0)) == MB_OK && mb_sim_get_input(s, 0) == MB_R(3.0) &&
          m.in[0] == MB_R(2.0), "an input: set (the descriptor keeps its default)");
    st = mb_sim_step(s, 1);
    CHECK(st >= 0, "an input: a step after setting it: %s", mb_status_str(st));
#else
    CHECK(st == MB_ERR_MODEL, "an input with MB_WITH_TUNABLES=0: init %d, not MB_ERR_MODEL", st);
    CHECK(mb_sim_workspace_size(&m, &p) == 0, "an input with MB_WITH_TUNABLES=0: a workspace size");
    CHECK(mb_sim_set_input(s, 0, MB_R(3.0)) == MB_ERR_PARAM, "an input with MB_WITH_TUNABLES=0: set");
#endif
}

#if defined MB_MATH_H && !MB_FLOAT
/* Our sin/cos (runtime/mb_math.h, the lean build) beyond their domain: the run stops with an
 * error, it does not go on with a wrong angle. The same configuration turned by 2 pi k: within
 * the domain it starts and steps; beyond it (k = 2^19, |phi| > 1.647e6 rad) it is refused. */
static void check_math_domain(void)
{
    enum { BYTES = MB_EMBED_MODEL_WORK_BYTES(DOUBLE_PENDULUM, MB_ALF_TRAPEZOID, MB_TRAPEZOID) };
    MB_EMBED_WORKSPACE(w, BYTES);
    static const double turns[] = { 1000, 262144 };
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    mb_params p;
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    for (int i = 0; i < 2; i++) {
        mb_real q[DOUBLE_PENDULUM_NQ];
        int st, k;
        memcpy(q, double_pendulum_model.q0, sizeof q);
        q[DOUBLE_PENDULUM_Q_AB_PHI] += 2 * 3.141592653589793 * turns[i];
        q[DOUBLE_PENDULUM_Q_BC_PHI] += 2 * 3.141592653589793 * turns[i];
        st = mb_embed_start(s, &double_pendulum_model, &p, w, sizeof w, 0, q, NULL, 1);
        for (k = 0; k < 10 && st >= 0; k++) st = mb_embed_step(s);
        if (i == 0)
            CHECK(st >= 0, "angles 1000 turns on: %s", mb_status_str(st));
        else
            CHECK(st == MB_ERR_NONFINITE,
                  "angles beyond mb_math's domain: %s, not a non-finite error", mb_status_str(st));
    }
}
#endif

int main(void)
{
#if defined MB_MATH_H && !MB_FLOAT
    check_math_domain();
#endif
    check_tunables();
    check_inputs();
    check_time_grid();
    check_bounds(&andrews_model);
    check_bounds(&double_pendulum_model);
    check_cycle();
#if MB_FLOAT
    check_float_long();
#endif
    return check_report();
}
