/* mb_input.c - a model's inputs and sensors at run time (docs/model-interface.md, "Inputs and
 * sensors"): the caller sets an input between steps, without mb_sim_reset, and reads the sensors
 * at the current state.
 * Layer: runtime (freestanding: no malloc, no stdio). The holds live in the workspace's hold
 * block (mb_layout.h), which the sim's copy of the descriptor reads (mloc.in: mb_sim_init), and
 * the change of the loads is formed in its own inq block; nothing here runs for a model without
 * inputs. */
#include "mb_sim_impl.h"
#include "mb_sparse.h"

#if MBI_HAS_HHT
#define HAS_HR(s) ((s)->hr != NULL)
#else
#define HAS_HR(s) 0
#endif

int mb_sim_input_index(const mb_sim *s, const char *name)
{
    const mb_model *m = s ? s->m : NULL;
    if (!m || !name) return -1;
    for (int i = 0; i < m->nin; i++) {
        const char *a = m->in_names[i], *b = name;
        while (*a && *a == *b) { a++; b++; }
        if (*a == *b) return i;
    }
    return -1;
}

/* The state's derivatives the last step left at t (F4's pdot, HHT's Phi_q^T lambda - Q) hold the
 * loads of the old hold: they take the change of Q at (t, q, v); the explicit integrators' and
 * bdf's start is evaluated again at the next step. */
int mb_sim_set_input_slope(mb_sim *s, int i, mb_real value, mb_real slope)
{
    const mb_model *m = s ? s->m : NULL;
    if (!m || i < 0 || i >= m->nin || !isfinite(value) || !isfinite(slope)) return MB_ERR_PARAM;
#if MBI_HAS_TUN
    mb_real *hold = s->hold + 3 * i;
    mb_real *q0 = NULL, *q1 = NULL;
    int n = s->n;
    /* the same hold again (a controller's unchanged output, a table between its rows): nothing
     * changes, and bdf keeps its Nordsieck array */
    if (hold[0] == value && hold[1] == slope && (slope == 0 || hold[2] == s->t)) return MB_OK;
    if (s->ready && (s->pd || HAS_HR(s))) {   /* Q at the old hold, then the new (inq: 2 nq) */
        q0 = s->inq;
        q1 = s->inq + n;
        m->force(m, s->t, s->z, s->v, q0);
    }
    hold[0] = value;
    hold[1] = slope;
    hold[2] = s->t;
    if (q0) {
        m->force(m, s->t, s->z, s->v, q1);
        if (s->pd && s->p.formulation == MB_ALF_TRAPEZOID)
            for (int k = 0; k < n; k++) s->pd[k] += q1[k] - q0[k];
#if MBI_HAS_HHT
        if (s->hr) for (int k = 0; k < n; k++) s->hr[k] -= q1[k] - q0[k];
#endif
    }
    if (s->ready) {                  /* the power of the loads at the step's start (trapezoid) */
        mb_real e[3];
        m->energy(m, s->t, s->z, s->v, e);
        s->pnc = e[2];
    }
#if MBI_HAS_EB
    s->have_f = 0;                   /* the explicit integrators evaluate their start again */
    s->dense_state = 0;
#endif
#if MBI_HAS_BDF
    s->bok = 0;                      /* bdf: a new Nordsieck array (the loads jumped) */
#endif
    s->kin_fresh = 0;
    return MB_OK;
#else
    (void)value;
    (void)slope;
    return MB_ERR_PARAM;             /* (mb_sim_init refuses inputs in this build) */
#endif
}

int mb_sim_set_input(mb_sim *s, int i, mb_real value)
{
    return mb_sim_set_input_slope(s, i, value, 0);
}

mb_real mb_sim_get_input(const mb_sim *s, int i)
{
    const mb_model *m = s ? s->m : NULL;
    if (!m || i < 0 || i >= m->nin) return 0;
    const mb_real *hold = m->in + 3 * i;
    return hold[0] + hold[1] * (s->t - hold[2]);
}

#if MBI_HAS_TUN
/* The multipliers of M acc + Phi_q^T lambda = Q, Phi_q acc = Gamma at (t, q, v) into lam[nc]:
 * S lambda = Phi_q M^-1 Q - Gamma with S = Phi_q M^-1 Phi_q^T on the model's plan. The same
 * evaluations, kernels and order as mb_anl_reactions (mb_analysis.c), so the same numbers. All
 * scratch is the block rx (mb_layout.h: MB_L_RX), which nothing else touches: the integrator's
 * matrices, factorizations and monitors stay as the last step left them. */
static int reaction_multipliers(const mb_sim *s, mb_real t, const mb_real *q, const mb_real *v,
                                mb_real **lam)
{
    const mb_model *m = s->m;
    const mb_symbolic *sy = &m->plan->s;
    int n = m->nq, nc = m->nc, bad = -1;
    mb_real ratio;
    mb_real *Pq = s->rx, *FS = Pq + m->phi_q_pat.nnz, *Q = FS + nc + sy->nl, *minv = Q + n;
    mb_real *Gam = minv + n, *y = Gam + nc, *d0 = y + nc, *ly = d0 + nc;
    if (!m->gamma) return MB_ERR_MODEL;
    m->phi_q(m, t, q, Pq);
    m->gamma(m, t, q, v, Gam);
    m->force(m, t, q, v, Q);
    for (int i = 0; i < n; i++) minv[i] = 1 / m->mass[i];
    if (nc > 0) {
        mb_sp_assemble_s(m, Pq, minv, FS);
        int st = mb_sp_ldl(sy, FS, d0, s->p.rank_tol, &ratio, &bad);
        if (st == MB_ERR_NOT_SPD) st = MB_ERR_SINGULAR;
        if (st) return st;
    }
    for (int i = 0; i < n; i++) Q[i] = minv[i] * Q[i];
    pq_mv(m, Pq, Q, y);
    for (int r = 0; r < nc; r++) y[r] -= Gam[r];
    if (nc > 0) mb_sp_ldl_solve(sy, FS, y, ly);
    for (int r = 0; r < nc; r++) if (!isfinite(y[r])) return MB_ERR_NONFINITE;
    *lam = y;
    return MB_OK;
}
#endif

int mb_sim_get_output(const mb_sim *s, mb_real *y, mb_real *dy_dq, mb_real *dy_dv)
{
    const mb_model *m = s ? s->m : NULL;
    if (!m || !y || m->nout == 0 || !m->outputs) return MB_ERR_PARAM;
    if (!s->ready) return MB_ERR_STATE;
    if (m->doutputs_dlam) {   /* sensors of reactions: the multipliers at the current state */
        mb_real *lam = NULL;
#if MBI_HAS_TUN
        int st = s->rx ? reaction_multipliers(s, s->t, s->z, s->v, &lam) : MB_ERR_MODEL;
#else
        int st = MB_ERR_MODEL;   /* (no block for the solve in this build) */
#endif
        if (st) return st;
        mb_model ml = *m;     /* a copy that reads them (no state kept) */
        ml.lam = lam;
        ml.outputs(&ml, s->t, s->z, s->v, y, dy_dq, dy_dv);
        return MB_OK;
    }
    m->outputs(m, s->t, s->z, s->v, y, dy_dq, dy_dv);
    return MB_OK;
}
