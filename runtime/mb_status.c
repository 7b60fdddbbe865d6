/* mb_status.c - the message table of mb_status.h.
 * Layer: runtime core; no allocation, no printing. */
#include "mb_status.h"

static const char *const events[] = {
    "ok",
    "sigma reset (norm above threshold)",
    "Newton iteration reached max_iter",
    "augmented Lagrangian iteration reached max_iter",
    "end time reached",
};

static const char *const errors[] = {
    "ok",
    "invalid parameter",
    "workspace missing, too small or misaligned",
    "singular matrix (rank loss)",
    "matrix not positive definite",
    "non-finite value (NaN or Inf)",
    "position assembly did not converge",
    "velocity assembly failed (the given velocities violate the velocity constraints)",
    "Newton iteration diverged",
    "step size underflow",
    "inconsistent model descriptor",
    "call out of order",
    "step limit reached (max_steps)",
    "suspect result (strict)",
    "caller and runtime built differently (MB_FLOAT or MB_ONLY_* / MB_WITH_* switches differ)",
};

const char *mb_status_str(int status)
{
    if (status >= 0 && status < (int)(sizeof events / sizeof events[0])) return events[status];
    if (status < 0 && -status < (int)(sizeof errors / sizeof errors[0])) return errors[-status];
    return "unknown status";
}
