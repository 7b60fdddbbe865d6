/* cartpole_run.c - the closed loop on the host (cartpole_run.h). */
#include "cartpole_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cartpole.h"
#include "cartpole_control.h"

int cartpole_run(const mb_real *K, double t_end, FILE *table, cartpole_run_result *r)
{
    const mb_model *m = &cartpole_model;
    memset(r, 0, sizeof *r);
    /* the simulator's parameters for this model (tools/mb_sim_main.c, build_params): alf-trapezoid
     * with the model file's step and settings, so that its replay of the table is this run */
    mb_params p;
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    const mb_preset *pr = m->preset;
    if (pr && pr->h > 0) p.h = (mb_real)pr->h;
    mb_params_preset(&p, pr, MB_ALF_TRAPEZOID);
    p.max_steps = (long)(t_end / (double)p.h) + 2;
    size_t ws = mb_sim_workspace_size(m, &p);
    void *work = malloc(ws);
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    int st = work ? mb_sim_init(s, m, &p, work, ws) : MB_ERR_WORKSPACE;
    if (st == MB_OK) st = mb_sim_reset(s, 0, NULL, NULL, 1);
    if (st != MB_OK) {
        fprintf(stderr, "cartpole_run: cannot start the solver: %s\n", mb_status_str(st));
        free(work);
        return -1;
    }
    if (table) fprintf(table, "t,F\n");
    mb_real y[CARTPOLE_NOUT];
    mb_sim_get_output(s, y, NULL, NULL);
    for (int i = 0; i < CARTPOLE_NOUT && i < 8; i++) r->y0[i] = (double)y[i];
    double period = (double)p.h * CARTPOLE_CONTROL_EVERY;
    long n = (long)floor(t_end / period + 0.5);
    for (long k = 0; k < n; k++) {
        double t = (double)mb_sim_get_t(s);
        mb_sim_get_output(s, y, NULL, NULL);
        double th = fabs((double)y[CARTPOLE_OUT_THETA]);
        if (th > 1e-3) r->settle_t = t;
        if (t >= t_end - 1 - 1e-9) r->max_theta_late = fmax(r->max_theta_late, th);
        mb_real F;
        st = control_period(s, K, &F);
        r->max_F = fmax(r->max_F, fabs((double)F));
        if (table) fprintf(table, "%.17g,%.17g\n", t, (double)F);
        if (st < 0) break;
    }
    r->status = st;
    r->t = (double)mb_sim_get_t(s);
    mb_sim_get_output(s, y, NULL, NULL);
    for (int i = 0; i < CARTPOLE_NOUT && i < 8; i++) r->y[i] = (double)y[i];
    r->max_theta_late = fmax(r->max_theta_late, fabs(r->y[CARTPOLE_OUT_THETA]));
    free(work);
    return 0;
}
