/* test_cam_newton.c - a cam roller's contact angle that the Newton iteration does not find:
 * tests/models/cam_newton_cap.lua puts a roller's centre (a particle) where the iteration from
 * its polar angle has not converged after its 50 steps (generator/cam.lua: contact_c). The
 * helper returns NaN there instead of its last iterate, so the constraint and its derivatives
 * are NaN in the generated code and in the generic evaluator alike, and the runtime reports a
 * non-finite evaluation (MB_ERR_NONFINITE) instead of stepping on a wrong contact angle. Near
 * the profile the same model evaluates to finite values, equal in both evaluators. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_sim.h"
#include "test_plan.h"
#include "check.h"

extern const mb_model cam_newton_cap_model, cam_newton_cap_generic_model;

static int all_nan(const mb_real *x, int n)
{
    for (int i = 0; i < n; i++)
        if (!isnan(x[i])) return 0;
    return n > 0;
}

/* A run from q (v = 0) without assembly: reset, then one rk4 step; the first failure. */
static int one_step(const mb_model *m, const mb_real *q, int assemble)
{
    mb_params p;
    mb_sim_storage mem;
    mb_sim *s = mb_sim_of(&mem);
    mb_real v[2] = {0, 0};
    mb_params_default(&p, MB_BAUMGARTE);
    m = planned(m);
    size_t size = mb_sim_workspace_size(m, &p);
    void *work = malloc(size ? size : 1);
    int st = mb_sim_init(s, m, &p, work, size);
    if (st == MB_OK) st = mb_sim_reset(s, 0, q, v, assemble);
    if (st >= 0) st = mb_sim_step(s, MB_R(1.0));
    free(work);
    return st;
}

int main(void)
{
    const mb_model *ms[2] = {&cam_newton_cap_model, &cam_newton_cap_generic_model};
    const char *name[2] = {"generated", "generic"};
    /* the model's initial guess: the state where the iteration stops at its cap */
    const mb_real *qcap = cam_newton_cap_model.q0;
    /* a state near the profile: the roller's centre 1 mm outside the nose (psi = 0, where the
     * normal is radial), at r(0) + rr + 1e-3 */
    const mb_real qnear[2] = {MB_R(0.025 + 0.005 + 0.006 + 0.002 + 0.001), MB_R(0.0)};
    mb_real phi[2][1], pq[2][2], gam[2][1];
    const mb_real v[2] = {MB_R(0.3), MB_R(-0.2)};
    CHECK(cam_newton_cap_model.nq == 2 && cam_newton_cap_model.nc == 1, "model sizes %d %d",
          cam_newton_cap_model.nq, cam_newton_cap_model.nc);
    for (int k = 0; k < 2; k++) {
        const mb_model *m = ms[k];
        m->phi(m, 0, qcap, phi[k]);
        m->phi_q(m, 0, qcap, pq[k]);
        m->gamma(m, 0, qcap, v, gam[k]);
        CHECK(all_nan(phi[k], 1) && all_nan(pq[k], m->phi_q_pat.nnz) && all_nan(gam[k], 1),
              "%s: not converged at (%g, %g), yet Phi = %g, Phi_q = %g %g, gamma = %g", name[k],
              (double)qcap[0], (double)qcap[1], (double)phi[k][0], (double)pq[k][0],
              (double)pq[k][1], (double)gam[k][0]);
        int st = one_step(m, qcap, 0);
        CHECK(st == MB_ERR_NONFINITE, "%s: a step from there: status %d (%s), expected %d", name[k],
              st, mb_status_str(st), MB_ERR_NONFINITE);
        st = one_step(m, qcap, 1);
        CHECK(st < 0, "%s: assembly from there succeeded (status %d)", name[k], st);
        printf("%s: at (%g, %g) Phi %g; a step: %s; with assembly: %s\n", name[k], (double)qcap[0],
               (double)qcap[1], (double)phi[k][0], mb_status_str(one_step(m, qcap, 0)),
               mb_status_str(st));
        /* near the profile: converged, finite */
        m->phi(m, 0, qnear, phi[k]);
        m->phi_q(m, 0, qnear, pq[k]);
        m->gamma(m, 0, qnear, v, gam[k]);
        CHECK(isfinite(phi[k][0]) && isfinite(pq[k][0]) && isfinite(pq[k][1]) && isfinite(gam[k][0]),
              "%s: near the profile Phi = %g", name[k], (double)phi[k][0]);
        CHECK(fabs((double)phi[k][0] - 0.001) < 1e-9, "%s: the roller 1 mm outside the nose: Phi = %.17g",
              name[k], (double)phi[k][0]);
    }
    CHECK(check_close((double)phi[0][0], (double)phi[1][0], 1e-12) &&
          check_close((double)pq[0][0], (double)pq[1][0], 1e-12) &&
          check_close((double)pq[0][1], (double)pq[1][1], 1e-12) &&
          check_close((double)gam[0][0], (double)gam[1][0], 1e-12),
          "generated and generic differ near the profile");
    return check_report();
}
