/* mb_eval.c - the model evaluations every formulation and integrator shares (the fused
 * kinematics, mb_sim_impl.h: mbi_eval_kin). Layer: runtime core, below every formulation and
 * integrator file: calls only the model (mb_model.h); no allocation. */
#include "mb_sim_impl.h"

/* (the fused call's sixth argument goes on the stack: out of line, its frame is not under the
 * single functions') */
static MB_NOINLINE void eval_kin_fused(mb_sim *s, mb_real t, const mb_real *q)
{
    const mb_model *m = s->m;
    m->eval_kin(m, t, q, s->Phi, s->Phit, s->Pq, MBI_TRIG(s));
}

void mbi_eval_kin(mb_sim *s, mb_real t, const mb_real *q)
{
    const mb_model *m = s->m;
    s->kin_fresh = 0;
#if !MBI_ONLY   /* (the time of the last evaluation: mb_rk.c, accept; not in a firmware build) */
    s->kin_t = t;
#endif
    if (m->eval_kin) { eval_kin_fused(s, t, q); return; }
    m->phi(m, t, q, s->Phi);
    m->phi_t(m, t, q, s->Phit);
    m->phi_q(m, t, q, s->Pq);
}
