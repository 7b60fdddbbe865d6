/* mb_status.h - status codes of the runtime and their one static message table.
 * Layer: runtime API; no dependencies. 0 is success, failures are negative,
 * non-error events (the step was taken, something noteworthy happened) are positive. */
#ifndef MB_STATUS_H
#define MB_STATUS_H

enum {
    MB_OK = 0,
    /* events: the step or call succeeded */
    MB_EVENT_SIGMA_RESET = 1,    /* sigma exceeded the reset threshold and was zeroed */
    MB_EVENT_NEWTON_MAXITER = 2, /* Newton hit max_iter before |dy| < tol; step kept */
    MB_EVENT_ALF_MAXITER = 3,    /* augmented-Lagrangian iteration hit max_iter; kept */
    MB_EVENT_DONE = 4,           /* requested end time reached */
    /* failures: the state is the last good one */
    MB_ERR_PARAM = -1,           /* invalid parameter value or combination */
    MB_ERR_WORKSPACE = -2,       /* workspace missing, too small or misaligned */
    MB_ERR_SINGULAR = -3,        /* matrix lost rank (e.g. Phi_q at a singular position) */
    MB_ERR_NOT_SPD = -4,         /* Cholesky met a non-positive pivot */
    MB_ERR_NONFINITE = -5,       /* NaN or Inf in the state or a matrix */
    MB_ERR_ASSEMBLY_POS = -6,    /* position assembly did not converge */
    MB_ERR_ASSEMBLY_VEL = -7,    /* velocities cannot satisfy the velocity constraints */
    MB_ERR_NEWTON = -8,          /* Newton iteration diverged */
    MB_ERR_STEP_UNDERFLOW = -9,  /* adaptive step size fell below its minimum */
    MB_ERR_MODEL = -10,          /* model descriptor inconsistent (sizes, patterns) */
    MB_ERR_STATE = -11,          /* call out of order (e.g. step before reset) */
    MB_ERR_MAX_STEPS = -12,      /* max_steps steps taken since reset; state is the last one */
    MB_ERR_SUSPECT = -13,        /* p.strict: the step raised a warning (mon.warn names it); the
                                    state is that step's, not the one before */
    MB_ERR_BUILD = -14           /* the caller was compiled with another MB_FLOAT or other
                                    MB_ONLY_* / MB_WITH_* switches than the runtime (mb_sim.h:
                                    MB_BUILD_CONFIG); nothing was read or written */
};

/* Message for a status code; never NULL, static storage. */
const char *mb_status_str(int status);

#endif /* MB_STATUS_H */
