/* mb_forms.c - the formulation table (mb_sim_impl.h: mbi_forms) and what the integrators do
 * through it alike: the start-up evaluation, f again after a failed step, the undo of a step.
 * Layer: runtime core, above the formulation files and below the integrators and mb_sim.c (which
 * reach the formulations only through here); no allocation. */
#include <stddef.h>
#include "mb_sim_impl.h"

/* a formulation not compiled in has a NULL row (its code, unreferenced, is dropped by the
 * linker's --gc-sections where its file is compiled at all) */
#define FROW(built, row) ((built) ? &(row) : NULL)
const mbi_form *const mbi_forms[4] = {
    FROW(MBI_F1, mbi_form_baumgarte), FROW(MBI_F2, mbi_form_canonical),
    FROW(MBI_F3, mbi_form_alf_explicit), FROW(MBI_F4, mbi_form_alf_trapezoid),
};

int mbi_form_start(mb_sim *s, mb_real t0)
{
    const mbi_form *f = MBI_FORM(s);
    int st;
    if (f->start) st = f->start(s, t0);   /* implicit: its own start-up evaluation */
#if MBI_HAS_EB
    else {                                /* explicit: f at the start state */
        s->mon.evals++;
        st = f->rhs(s, t0, s->z, s->fz);
    }
#else
    else st = MB_ERR_STATE;               /* (no explicit formulation in this build) */
#endif
    if (st) return st;
    mbi_take_eval(s);
#if MBI_HAS_EB
    s->have_f = 1;
#endif
#if MBI_HAS_GE
    s->ge_n = -1;                         /* a new state: the accuracy companion starts anew */
#endif
    return MB_OK;
}

#if MBI_HAS_EB
int mbi_form_restart(mb_sim *s, mb_real t)
{
    if (!MBI_FORM(s)->rhs) return MB_OK;
    int st = mbi_form_start(s, t);
#if MBI_F2 || MBI_F3
    /* Phi_t at the step's start for canonical's and alf-explicit's work of the drivers (ptq:
     * the monitor's copy of the last step's end), which an undo leaves at the discarded end
     * and a new input's slope moves (baumgarte's work takes lambda^T Phi_t, pdrv) */
    if (st == MB_OK) copy(s->nc, s->ptq, s->Phit);
#endif
    return st;
}

int mbi_undo_step(mb_sim *s, mb_real t_start, int st)
{
    copy(s->nz, s->z, s->zold);
    copy(s->n, s->v, s->v0);
    copy(s->nc, s->S, s->S0);
    s->t = t_start;
    s->have_f = 0;
    return st;
}
#endif
