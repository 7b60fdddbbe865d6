/* mb_linsys_klu.h - a linear-system back end on SuiteSparse KLU, for the generic path
 * (--eval generic): a well-kept general sparse LU, with its own AMD ordering at the first
 * factorization and klu_refactor on the same pivot order afterwards (full klu_factor again when
 * the pivots degrade). Layer: host tool (allocates); plugs into mb_params.linsys_ops.
 * Double precision only. See docs/linear-systems.md. */
#ifndef MB_LINSYS_KLU_H
#define MB_LINSYS_KLU_H

#include "mb_sim.h"

/* A back end with its own state; NULL when out of memory. Close with mb_klu_close. */
mb_linsys_ops *mb_klu_open(void);
void mb_klu_close(mb_linsys_ops *ops);

#endif /* MB_LINSYS_KLU_H */
