/* solver.h - a fixed-step mechanism solver for firmware: one generated model, static memory.
 * Layer: application (copy examples/firmware/ into your project, see docs/embedding.md); uses
 * only runtime/mb_embed.h. Call solver_init once, then solver_step from a periodic task. */
#ifndef SOLVER_H
#define SOLVER_H

#include "mb_embed.h"

/* Start the solver at t = 0 from the model file's initial guesses, made consistent by the
 * runtime's assembly. Returns MB_OK or a negative status (mb_status.h). */
int solver_init(void);

/* Advance one step of h seconds (FW_H). Returns MB_OK, a positive event (step taken) or a
 * negative failure (state kept at the last good step). */
int solver_step(void);

/* The running solver, for mb_embed_state, mb_embed_energy_dev, ... and mb_sim_get_*. */
const mb_sim *solver_sim(void);

/* The same for a controller between steps: mb_sim_set_input (a model with inputs) and
 * mb_sim_get_output (sensors); examples/cartpole/fw_main.c. */
mb_sim *solver_sim_rw(void);

/* Bytes of workspace reserved statically (the compile-time bound) and actually needed. */
unsigned long solver_work_reserved(void);
unsigned long solver_work_needed(void);

#endif /* SOLVER_H */
