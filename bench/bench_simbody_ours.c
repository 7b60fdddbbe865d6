/* bench_simbody_ours.c - our side of bench/bench_simbody.cpp (bench_simbody_ours.h): the model
 * named by -DOURS_MODEL, simulated with baumgarte; its right-hand side called directly (the
 * formulation table's rhs, as rk4 calls it), its exact accelerations by mb_anl_reactions. */
#include <stdio.h>
#include <stdlib.h>
#include "mb_sim_impl.h"
#include "mb_analysis.h"
#include "bench_simbody_ours.h"

#ifndef OURS_MODEL
#error "compile with -DOURS_MODEL=<name>_model (the generated model to link)"
#endif
extern const mb_model OURS_MODEL;
/* the interface passes double arrays straight through */
typedef char ours_needs_double_mb_real[sizeof(mb_real) == sizeof(double) ? 1 : -1];

struct ours {
    const mb_model *m;
    mb_sim s;
    void *sim_work;
    mb_anl a;
    void *anl_work;
    double *q0, *v0;
};

ours *ours_open(void)
{
    ours *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->m = &OURS_MODEL;
    if (o->m->body_q || o->m->nq != 3 * o->m->nbody || !o->m->info || !o->m->info->body_names) {   /* rigid bodies only */
        fprintf(stderr, "bench_simbody: %s: not a model of rigid bodies with 3 coordinates each\n", o->m->name);
        free(o);
        return NULL;
    }
    mb_params p;
    mb_params_default(&p, MB_BAUMGARTE);
    size_t ws = mb_sim_workspace_size(o->m, &p), wa = mb_anl_workspace_size(o->m, MB_ANL_SPARSE);
    o->sim_work = malloc(ws ? ws : 1);
    o->anl_work = malloc(wa ? wa : 1);
    o->q0 = malloc(2 * (size_t)o->m->nq * sizeof *o->q0);
    int st = !o->sim_work || !o->anl_work || !o->q0 || !ws || !wa ? MB_ERR_WORKSPACE : MB_OK;
    if (st == MB_OK) st = mb_sim_init(&o->s, o->m, &p, o->sim_work, ws);
    if (st == MB_OK) st = mb_sim_reset(&o->s, 0, NULL, NULL, 1);
    if (st == MB_OK) st = mb_anl_init(&o->a, o->m, NULL, MB_ANL_SPARSE, o->anl_work, wa);
    if (st != MB_OK) {
        fprintf(stderr, "bench_simbody: %s: cannot start: %s\n", o->m->name, mb_status_str(st));
        ours_close(o);
        return NULL;
    }
    o->v0 = o->q0 + o->m->nq;
    for (int i = 0; i < o->m->nq; i++) {
        o->q0[i] = mb_sim_get_q(&o->s)[i];
        o->v0[i] = mb_sim_get_v(&o->s)[i];
    }
    return o;
}

void ours_close(ours *o)
{
    if (!o) return;
    free(o->sim_work);
    free(o->anl_work);
    free(o->q0);
    free(o);
}

const char *ours_name(const ours *o) { return o->m->name; }
int ours_nbody(const ours *o) { return o->m->nbody; }
const char *ours_body_name(const ours *o, int b) { return o->m->info->body_names[b]; }
const double *ours_start_q(const ours *o) { return o->q0; }
const double *ours_start_v(const ours *o) { return o->v0; }

int ours_acc(ours *o, const double *q, const double *v, double *acc)
{
    return mb_anl_reactions(&o->a, 0, q, v, acc, NULL);
}

int ours_rhs(ours *o, const double *z, double *f)
{
    return mbi_forms[MB_BAUMGARTE]->rhs(&o->s, 0, z, f);
}
