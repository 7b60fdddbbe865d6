/* cartpole_control.h - the cart-pole's LQR controller over a running generated solver: every
 * CARTPOLE_CONTROL_EVERY steps it reads the sensors (mb_sim_get_output), computes the force
 * F = -K (y - yref) and holds it on the input (mb_sim_set_input) for the next period.
 * Layer: application, freestanding (no malloc, no stdio: host and firmware alike); the gain
 * comes from cartpole_gain.h, which lqr_design writes (docs/control.md). */
#ifndef CARTPOLE_CONTROL_H
#define CARTPOLE_CONTROL_H

#include "cartpole.h"
#include "mb_embed.h"

/* The control period in solver steps: 10 steps of the model's h = 1 ms, 100 Hz. */
#define CARTPOLE_CONTROL_EVERY 10

/* The gain of cartpole_gain.h on the sensors, [CARTPOLE_NOUT] (what the controller uses unless a
 * caller passes another: the tests' negative control passes zeros). */
extern const mb_real control_gain[CARTPOLE_NOUT];

/* F = -sum_i K[i] (y[i] - yref[i]), yref the sensors at the upright pose (cartpole_gain.h). */
mb_real control_law(const mb_real *K, const mb_real *y);

/* One control period: sensors, F (into *F when F is not NULL), then CARTPOLE_CONTROL_EVERY
 * steps of s. Returns the first negative step status, else the last step's (MB_OK or an event). */
int control_period(mb_sim *s, const mb_real *K, mb_real *F);

#endif /* CARTPOLE_CONTROL_H */
