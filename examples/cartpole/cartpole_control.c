/* cartpole_control.c - the cart-pole's LQR controller (cartpole_control.h). */
#include "cartpole_control.h"

#include "cartpole_gain.h"

#if CARTPOLE_GAIN_NY != CARTPOLE_NOUT
#error "cartpole_gain.h was written for another number of sensors: run lqr_design again"
#endif

const mb_real control_gain[CARTPOLE_NOUT] = CARTPOLE_GAIN_K;
static const mb_real yref[CARTPOLE_NOUT] = CARTPOLE_GAIN_YREF;

mb_real control_law(const mb_real *K, const mb_real *y)
{
    mb_real F = 0;
    int i;
    for (i = 0; i < CARTPOLE_NOUT; i++) F -= K[i] * (y[i] - yref[i]);
    return F;
}

int control_period(mb_sim *s, const mb_real *K, mb_real *F)
{
    mb_real y[CARTPOLE_NOUT], u;
    int k, st;
    st = mb_sim_get_output(s, y, NULL, NULL);
    if (st < 0) return st;
    u = control_law(K, y);
    st = mb_sim_set_input(s, CARTPOLE_IN_F, u);
    if (st < 0) return st;
    if (F) *F = u;
    for (k = 0; k < CARTPOLE_CONTROL_EVERY; k++) {
        st = mb_embed_step(s);
        if (st < 0) return st;
    }
    return st;
}
