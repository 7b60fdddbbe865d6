/* mb_plan_build.h - the symbolic work behind the generated linear algebra: fill-reducing
 * ordering (SuiteSparse AMD; METIS optionally), elimination tree, pattern of L, update lists and assembly maps of
 * every matrix the formulations factor (runtime/mb_model.h: mb_plan).
 * Layer: host side (mallocs); linked by mbgen, which emits the plan as const arrays, and by the
 * generic evaluator, which builds it at initialization. */
#ifndef MB_PLAN_BUILD_H
#define MB_PLAN_BUILD_H

#include "mb_model.h"

/* Orderings: SuiteSparse AMD (what mbgen uses; the planner's multiple minimum degree replaces
 * AMD's order where it has no more fill or updates and a shorter elimination tree), none, and
 * METIS nested dissection
 * (METIS_NodeND; only in a planner compiled with -DMBP_WITH_METIS and linked with -lmetis, which
 * mbgen is not: make bench-ordering and tests/test_ordering.c, docs/linear-systems.md). */
enum { MBP_ORDER_AMD = 0, MBP_ORDER_NATURAL = 1, MBP_ORDER_METIS = 2 };

/* 1 if this build of the planner has the ordering (METIS: compiled with MBP_WITH_METIS). */
int mbp_ordering_available(int ordering);
/* "amd", "natural", "metis" ("unknown" for anything else). */
const char *mbp_ordering_name(int ordering);

/* Build the plan for a model with nq coordinates, nc constraints and the given patterns.
 * Returns a plan whose arrays are all malloc'ed (free with mbp_free), or NULL when out of memory,
 * when AMD or METIS fails, or when the ordering is not available (mbp_ordering_available). */
mb_plan *mbp_build(int nq, int nc, const mb_pattern *phi_q, const mb_pattern *dq_dq,
                   const mb_pattern *dq_dv, int ordering);
void mbp_free(mb_plan *p);

#endif /* MB_PLAN_BUILD_H */
