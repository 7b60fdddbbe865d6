/* test_react_api.c - the C API of sensors that read reactions (model interface 13; docs/
 * model-interface.md, "Reactions in sensors") on tests/models/react_pendulum.lua, a hanging bar
 * pushed at its tip by an input u:
 *  - mb_sim_get_output solves the multipliers at the sim's state in its own block: its sensors
 *    equal mb_anl_outputs' (the simulator's out. columns) bit for bit at every step, with
 *    alf-trapezoid/trapezoid, baumgarte/rk4 and baumgarte/hht, on this bar and on
 *    tests/models/react_sensors.lua (a reaction of every joint kind, a driver, formulas of
 *    reactions), and a run that calls it every step is bit-identical to one that does not
 *    (state, monitors);
 *  - mb_anl_outputs along a run (alf-trapezoid, u = 3 N from t = 0): the multipliers equal
 *    mb_anl_reactions' bit for bit, the sensors fx, fy equal them, and they match the bar's
 *    equations at the state: fx = m acc_x - u, fy = m acc_y + m g from the exact accelerations
 *    (to 1e-12 N); dy_dlam equals doutputs_dlam on a copy reading those multipliers, dy_dq and
 *    dy_dv the outputs' own Jacobians there;
 *  - misuse: lambda NULL where the sensors need it (MB_ERR_PARAM, y untouched).
 * Built in double and float (test_react_api_float). Ends with "N passed, N failed". With
 * --rows FILE it writes the sensors of react_sensors' default run instead (write_rows). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "mb_analysis.h"
#include "mb_sim.h"

/* the generated model (build/gen_test/react_pendulum.c; its header is not included: a test's
 * header name would become a reserved model name, generator/model.lua RESERVED_HEADERS) */
extern const mb_model react_pendulum_model, react_sensors_model;

/* mb_sim_get_output against mb_anl_outputs along `steps` steps of formulation f, integrator ig;
 * beside it a twin run that never reads its sensors: the same trajectory and monitors */
static void sim_against_anl(const mb_model *m, int f, int ig, int steps, const char *label)
{
    mb_params p;
    mb_params_default(&p, f);
    p.integrator = ig;
    p.h = (mb_real)1e-3;
    if (sizeof(mb_real) < sizeof(double) && f == MB_ALF_TRAPEZOID) {   /* docs/embedding.md: */
        p.alpha = (mb_real)1e4;                                         /* float's alpha, tol */
        p.tol = (mb_real)1e-4;
    }
    mb_sim_storage s_mem, s2_mem;
    mb_sim *s = mb_sim_of(&s_mem), *s2 = mb_sim_of(&s2_mem);
    size_t ws = mb_sim_workspace_size(m, &p), as = mb_anl_workspace_size(m, MB_ANL_SPARSE);
    void *w = malloc(ws), *w2 = malloc(ws), *aw = malloc(as);
    mb_anl a;
    if (!ws || !w || !w2 || !aw || mb_sim_init(s, m, &p, w, ws) != MB_OK ||
        mb_sim_init(s2, m, &p, w2, ws) != MB_OK) {
        CHECK(0, "%s: init", label);
        free(w); free(w2); free(aw);
        return;
    }
    int iu = mb_sim_input_index(s, "u");
    if (iu >= 0) { mb_sim_set_input(s, iu, 3); mb_sim_set_input(s2, iu, 3); }
    CHECK(mb_sim_reset(s, 0, NULL, NULL, 1) == MB_OK && mb_sim_reset(s2, 0, NULL, NULL, 1) == MB_OK,
          "%s: reset", label);
    CHECK(mb_anl_init(&a, mb_sim_model(s), NULL, MB_ANL_SPARSE, aw, as) == MB_OK, "%s: mb_anl_init", label);
    int n = m->nq, no = m->nout, same = 1, k = 0, twin = 1;
    mb_real y[32], y2[32], lam[32], Jq[32 * 32], Jv[32 * 32], Jq2[32 * 32], Jv2[32 * 32], Jl[32 * 32];
    for (; k < steps; k++) {
        mb_real t = mb_sim_get_t(s);
        const mb_real *q = mb_sim_get_q(s), *v = mb_sim_get_v(s);
        int st = mb_sim_get_output(s, y, Jq, Jv);
        int st2 = mb_anl_outputs(&a, t, q, v, lam, y2, Jq2, Jv2, Jl);
        if (st != MB_OK || st2 != MB_OK) {
            CHECK(0, "%s: t=%g: %s / %s", label, (double)t, mb_status_str(st), mb_status_str(st2));
            break;
        }
        if (memcmp(y, y2, sizeof(mb_real) * (size_t)no) || memcmp(Jq, Jq2, sizeof(mb_real) * (size_t)(no * n)) ||
            memcmp(Jv, Jv2, sizeof(mb_real) * (size_t)(no * n)))
            same = 0;
        if (mb_sim_step(s, 1) < 0 || mb_sim_step(s2, 1) < 0) { CHECK(0, "%s: step at t=%g", label, (double)t); break; }
        if (memcmp(mb_sim_get_q(s), mb_sim_get_q(s2), sizeof(mb_real) * (size_t)n) ||
            memcmp(mb_sim_get_v(s), mb_sim_get_v(s2), sizeof(mb_real) * (size_t)n) ||
            mb_sim_get_monitor(s)->factorizations != mb_sim_get_monitor(s2)->factorizations ||
            mb_sim_get_monitor(s)->energy_dev != mb_sim_get_monitor(s2)->energy_dev)
            twin = 0;
    }
    CHECK(k == steps && same, "%s: mb_sim_get_output (y, dy/dq, dy/dv) equals mb_anl_outputs bit for bit (%d states)", label, k);
    CHECK(k == steps && twin, "%s: reading the sensors leaves the trajectory and the monitors bit for bit", label);
    printf("%s: %d states, mb_sim_get_output identical to mb_anl_outputs, trajectory untouched\n", label, k);
    free(w);
    free(w2);
    free(aw);
}

/* --rows FILE: the default run of react_sensors as the simulator makes it (alf-trapezoid, the
 * model file's step and settings, to its end time), a CSV of t and the sensors read with
 * mb_sim_get_output after every step, for tests/test_react_sensors.sh to compare with the
 * simulator's out.* columns digit for digit. */
static int write_rows(const char *path)
{
    const mb_model *m = &react_sensors_model;
    mb_params p;
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    mb_params_preset(&p, m->preset, MB_ALF_TRAPEZOID);
    if (m->preset && m->preset->h > 0) p.h = (mb_real)m->preset->h;
    double t_end = m->preset && m->preset->t_end > 0 ? m->preset->t_end : 5;
    size_t ws = mb_sim_workspace_size(m, &p);
    void *w = ws ? malloc(ws) : NULL;
    mb_real y[64];
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    FILE *f = fopen(path, "w");
    int st = !w || !f || m->nout > 64 ? MB_ERR_WORKSPACE : mb_sim_init(s, m, &p, w, ws);
    if (st == MB_OK) st = mb_sim_reset(s, 0, NULL, NULL, 1);
    if (st == MB_OK) {
        fprintf(f, "t");
        for (int i = 0; i < m->nout; i++) fprintf(f, ",out.%s", m->out_names[i]);
        fputc('\n', f);
    }
    while (st >= 0) {
        st = mb_sim_get_output(s, y, NULL, NULL);
        if (st) break;
        fprintf(f, "%.15g", (double)mb_sim_get_t(s));
        for (int i = 0; i < m->nout; i++) fprintf(f, ",%.15g", (double)y[i]);
        fputc('\n', f);
        if (mb_sim_get_t(s) >= (mb_real)t_end) break;
        st = mb_sim_step(s, (mb_real)t_end);
    }
    if (f) fclose(f);
    free(w);
    if (st < 0) fprintf(stderr, "test_react_api --rows: %s\n", mb_status_str(st));
    return st < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--rows")) return write_rows(argv[2]);
    if (argc != 1) {
        fprintf(stderr, "usage: test_react_api [--rows FILE.csv]\n");
        return 2;
    }
    const mb_model *m = &react_pendulum_model;
    /* the bar's closed form: to round-off of the 20 N force (a float build: 1e-3 N) */
    double tol = sizeof(mb_real) < sizeof(double) ? 1e-3 : 1e-12;
    int n = m->nq, nc = m->nc, no = m->nout;
    CHECK(m->lam && m->doutputs_dlam, "the model's sensors read reactions: lam and doutputs_dlam set");
    mb_params p;
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    p.h = (mb_real)1e-3;
    if (sizeof(mb_real) < sizeof(double)) {
        p.alpha = (mb_real)1e4;
        p.tol = (mb_real)1e-4;
    }
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    size_t ws = mb_sim_workspace_size(m, &p), as = mb_anl_workspace_size(m, MB_ANL_SPARSE);
    void *w = malloc(ws), *aw = malloc(as);
    if (!w || !aw || mb_sim_init(s, m, &p, w, ws) != MB_OK) {
        fprintf(stderr, "init failed\n");
        return 1;
    }
    CHECK(mb_sim_set_input(s, mb_sim_input_index(s, "u"), 3) == MB_OK, "set the input u");
    CHECK(mb_sim_reset(s, 0, NULL, NULL, 1) == MB_OK, "reset");
    mb_real y[8], y2[8], lam[8], lam2[8], acc[8], Jq[64], Jv[64], Jl[64], Jq2[64], Jv2[64], Jl2[64];
    mb_anl a;
    CHECK(mb_anl_init(&a, mb_sim_model(s), NULL, MB_ANL_SPARSE, aw, as) == MB_OK, "mb_anl_init");
    y[0] = -7;
    CHECK(mb_anl_outputs(&a, 0, mb_sim_get_q(s), mb_sim_get_v(s), NULL, y, NULL, NULL, NULL) ==
          MB_ERR_PARAM && y[0] == -7, "lambda NULL: MB_ERR_PARAM, y untouched");
    double worst = 0;
    int same = 1, jac = 1, steps = 0;
    for (; steps < 300; steps++) {
        mb_real t = mb_sim_get_t(s);
        const mb_real *q = mb_sim_get_q(s), *v = mb_sim_get_v(s);
        int st = mb_anl_outputs(&a, t, q, v, lam, y, Jq, Jv, Jl);
        int st2 = mb_anl_reactions(&a, t, q, v, acc, lam2);
        if (st != MB_OK || st2 != MB_OK) { CHECK(0, "t=%g: %s", (double)t, mb_status_str(st ? st : st2)); break; }
        if (memcmp(lam, lam2, sizeof(mb_real) * (size_t)nc) != 0 || y[0] != lam[0] || y[1] != lam[1]) same = 0;
        /* the bar (mass m, q = [x, y, phi]): pin force = m acc - gravity - the push u */
        double mass = (double)m->mass[0];
        double ex = mass * (double)acc[0] - 3, ey = mass * (double)acc[1] + mass * 9.81;
        worst = fmax(worst, fabs((double)y[0] - ex));
        worst = fmax(worst, fabs((double)y[1] - ey));
        if (steps == 0) CHECK(check_close((double)y[1], ey, tol), "fy at the start");
        mb_model ml = *mb_sim_model(s);
        ml.lam = lam;
        ml.outputs(&ml, t, q, v, y2, Jq2, Jv2);
        ml.doutputs_dlam(&ml, t, q, v, Jl2);
        if (memcmp(y, y2, sizeof(mb_real) * (size_t)no) || memcmp(Jq, Jq2, sizeof(mb_real) * (size_t)(no * n)) ||
            memcmp(Jv, Jv2, sizeof(mb_real) * (size_t)(no * n)) || memcmp(Jl, Jl2, sizeof(mb_real) * (size_t)(no * nc)))
            jac = 0;
        if (mb_sim_step(s, 1) < 0) { CHECK(0, "step at t=%g", (double)t); break; }
    }
    CHECK(same, "mb_anl_outputs' multipliers and reaction sensors equal mb_anl_reactions' bit for bit");
    CHECK(jac, "y, dy_dq, dy_dv, dy_dlam equal the model's functions on a copy reading lambda");
    CHECK(worst < tol, "pin force against m acc - m g - u: %.3e N", worst);
    printf("%d states: pin force within %.3e N of m acc - m g - u\n", steps, worst);
    free(w);
    free(aw);
    sim_against_anl(m, MB_ALF_TRAPEZOID, MB_TRAPEZOID, 300, "react_pendulum alf-trapezoid");
    sim_against_anl(m, MB_BAUMGARTE, MB_RK4, 300, "react_pendulum baumgarte/rk4");
    sim_against_anl(m, MB_BAUMGARTE, MB_HHT, 300, "react_pendulum baumgarte/hht");
    const mb_model *rs = &react_sensors_model;
    CHECK(rs->nout <= 32 && rs->nq <= 32 && rs->nc <= 32, "react_sensors fits the test's arrays");
    if (rs->nout <= 32 && rs->nq <= 32 && rs->nc <= 32) {
        sim_against_anl(rs, MB_ALF_TRAPEZOID, MB_TRAPEZOID, 500, "react_sensors alf-trapezoid");
        sim_against_anl(rs, MB_BAUMGARTE, MB_RK4, 500, "react_sensors baumgarte/rk4");
    }
    return check_report();
}
