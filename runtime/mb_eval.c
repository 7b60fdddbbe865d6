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
    if (m->eval_kin) { eval_kin_fused(s, t, q); return; }
    m->phi(m, t, q, s->Phi);
    m->phi_t(m, t, q, s->Phit);
    m->phi_q(m, t, q, s->Pq);
}

#if MBI_F2 || MBI_F3
/* Q and Phidot_q at (t, q, v) into s->Q, s->Pqd, after mbi_eval_kin at the same (t, q): the
 * model's fused evaluation finds the angles' sines and cosines in the cache, where the single
 * functions call libm for each */
void mbi_eval_force_pqd(mb_sim *s, mb_real t, const mb_real *q, const mb_real *v)
{
    const mb_model *m = s->m;
#if MB_WITH_TRIG_CACHE
    if (m->eval_force_phi_q_dot) {
        m->eval_force_phi_q_dot(m, t, q, v, s->Q, s->Pqd, MBI_TRIG(s));
        return;
    }
#endif
    m->force(m, t, q, v, s->Q);
    m->phi_q_dot(m, t, q, v, s->Pqd);
}
#endif
