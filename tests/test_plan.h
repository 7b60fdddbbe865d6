/* test_plan.h - a symbolic plan for models written by hand in the tests (the fixture and its
 * variants carry none): built from the model's patterns by the generator's planner, as the
 * simulator does for the generic evaluator. planned(m) returns m when it has a plan, else a
 * copy with one (kept for the program's life; at most PLANNED_MAX distinct models). */
#ifndef TEST_PLAN_H
#define TEST_PLAN_H

#include <stdlib.h>
#include <string.h>
#include "mb_plan_build.h"

#define PLANNED_MAX 64
static const mb_model *planned(const mb_model *m)
{
    static mb_model copies[PLANNED_MAX];
    static int used;
    if (!m || m->plan) return m;
    for (int i = 0; i < used; i++) {   /* the same model again: reuse its copy */
        mb_model c = copies[i];
        c.plan = NULL;
        if (memcmp(&c, m, sizeof c) == 0) return &copies[i];
    }
    if (used == PLANNED_MAX || m->nq <= 0 || m->nc < 0) return m;
    mb_plan *P = mbp_build(m->nq, m->nc, &m->phi_q_pat, &m->dq_dq_pat, &m->dq_dv_pat, MBP_ORDER_AMD);
    if (!P) return m;
    copies[used] = *m;
    copies[used].plan = P;
    return &copies[used++];
}

#endif /* TEST_PLAN_H */
