/* test_react_api.c - the C API of sensors that read reactions (model interface 13; docs/
 * model-interface.md, "Reactions in sensors") on tests/models/react_pendulum.lua, a hanging bar
 * pushed at its tip by an input u:
 *  - mb_sim_get_output refuses the model (MB_ERR_MODEL): the formulations keep no multipliers
 *    valid at every state;
 *  - mb_anl_outputs along a run (alf-trapezoid, u = 3 N from t = 0): the multipliers equal
 *    mb_anl_reactions' bit for bit, the sensors fx, fy equal them, and they match the bar's
 *    equations at the state: fx = m acc_x - u, fy = m acc_y + m g from the exact accelerations
 *    (to 1e-12 N); dy_dlam equals doutputs_dlam on a copy reading those multipliers, dy_dq and
 *    dy_dv the outputs' own Jacobians there;
 *  - misuse: lambda NULL where the sensors need it (MB_ERR_PARAM, y untouched).
 * Ends with "N passed, N failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "mb_analysis.h"
#include "mb_sim.h"

/* the generated model (build/gen_test/react_pendulum.c; its header is not included: a test's
 * header name would become a reserved model name, generator/model.lua RESERVED_HEADERS) */
extern const mb_model react_pendulum_model;

int main(void)
{
    const mb_model *m = &react_pendulum_model;
    int n = m->nq, nc = m->nc, no = m->nout;
    CHECK(m->lam && m->doutputs_dlam, "the model's sensors read reactions: lam and doutputs_dlam set");
    mb_params p;
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    p.h = (mb_real)1e-3;
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
    CHECK(mb_sim_get_output(s, y, NULL, NULL) == MB_ERR_MODEL, "mb_sim_get_output refuses reactions");
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
        if (steps == 0) CHECK(check_close((double)y[1], ey, 1e-12), "fy at the start");
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
    CHECK(worst < 1e-12, "pin force against m acc - m g - u: %.3e N", worst);
    printf("%d states: pin force within %.3e N of m acc - m g - u\n", steps, worst);
    free(w);
    free(aw);
    return check_report();
}
