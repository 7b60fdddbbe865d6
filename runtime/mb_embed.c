/* mb_embed.c - the firmware cycle over mb_sim: start, fixed step, state and monitors.
 * Layer: runtime API on top of mb_sim.h; no allocation, no printing, no state of its own,
 * so several solvers (one mb_sim and one workspace each) run side by side. */
#include "mb_embed.h"
#include "mb_sim_impl.h"   /* its members: mb_embed_step reads the step and the time */

int mb_embed_start_checked(mb_sim *s, const mb_model *m, const mb_params *p, void *work, size_t size,
                           mb_real t0, const mb_real *q, const mb_real *v, int assemble,
                           unsigned long config, unsigned long sizes)
{
    int st = mb_sim_init_checked(s, m, p, work, size, config, sizes);
    if (st != MB_OK) return st;
    return mb_sim_reset(s, t0, q, v, assemble);
}

int mb_embed_step(mb_sim *s)
{
    const mb_real h = s->p.h;
    if (MB_PARAMS_ADAPTIVE(&s->p)) return mb_sim_step(s, s->t + h);   /* adaptive: up to t + h */
    /* Fixed steps: t_stop well past the next grid point, so mb_sim_step takes exactly p.h and
     * sets t = t0 + k h from its step counter (t_grid0, nfixed). With t_stop = t + h every step
     * would be a "last step" of fl(t + h) - t: in float t would be 4.99982 after 5000 steps of
     * 1 ms, from t0 = 2e4 s the steps would alternate between 1.95 ms and 0, and from 4e4 s
     * fl(t + h) = t (MB_ERR_PARAM). The margin 4 eps |t| covers the rounding of t itself. */
    return mb_sim_step(s, s->t + (MB_R(3.0) * h + MB_R(4.0) * MB_EPS * MB_FABS(s->t)));
}

void mb_embed_state(const mb_sim *s, mb_real *q, mb_real *v)
{
    const mb_real *sq = mb_sim_get_q(s), *sv = mb_sim_get_v(s);
    int i;
    for (i = 0; i < s->n; i++) {
        if (q) q[i] = sq[i];
        if (v) v[i] = sv[i];
    }
}

mb_real mb_embed_energy_dev(const mb_sim *s)
{
    return mb_sim_get_monitor(s)->energy_dev;
}

mb_real mb_embed_phi_norm(const mb_sim *s)
{
    return mb_sim_get_monitor(s)->phi_norm;
}

mb_real mb_embed_phid_norm(const mb_sim *s)
{
    return mb_sim_get_monitor(s)->phid_norm;
}
