/* mb_plan_build.h - the symbolic work behind the generated linear algebra: fill-reducing
 * ordering (SuiteSparse AMD), elimination tree, pattern of L, update lists and assembly maps of
 * every matrix the formulations factor (runtime/mb_model.h: mb_plan).
 * Layer: host side (mallocs); linked by mbgen, which emits the plan as const arrays, and by the
 * generic evaluator, which builds it at initialization. */
#ifndef MB_PLAN_BUILD_H
#define MB_PLAN_BUILD_H

#include "mb_model.h"

enum { MBP_ORDER_AMD = 0, MBP_ORDER_NATURAL = 1 };

/* Build the plan for a model with nq coordinates, nc constraints and the given patterns.
 * Returns a plan whose arrays are all malloc'ed (free with mbp_free), or NULL when out of memory
 * or when AMD fails. */
mb_plan *mbp_build(int nq, int nc, const mb_pattern *phi_q, const mb_pattern *dq_dq,
                   const mb_pattern *dq_dv, int ordering);
void mbp_free(mb_plan *p);

#endif /* MB_PLAN_BUILD_H */
