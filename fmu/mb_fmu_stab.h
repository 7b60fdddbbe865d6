/* mb_fmu_stab.h - the descriptor whose accelerations the FMU gives: a copy of the model's with
 * gamma replaced by Baumgarte's stabilized right-hand side (F1), shared by the wrapper (mb_fmu.c:
 * Model Exchange's derivatives) and the writer of modelDescription.xml (mb_fmu_desc.c: the
 * accelerations' dependencies). */
#ifndef MB_FMU_STAB_H
#define MB_FMU_STAB_H

#include "mb_model.h"

/* The model the accelerations are computed on: the sim's descriptor (its tunables and input
 * holds) with gamma replaced by Gamma - 2 xi w (Phi_q v + Phi_t) - w^2 Phi, F1's right-hand
 * side (5.2; xi = w = 0 in Co-Simulation: the exact index-1 accelerations). */
typedef struct me_model {
    mb_model m;                  /* first: the descriptor the functions get is this struct */
    void (*gamma0)(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *out);
    mb_real xi, w;
    mb_real *pq, *ph, *pt;       /* scratch: Phi_q values, Phi, Phi_t */
} me_model;

static inline void stab_gamma(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *out)
{
    const me_model *mm = (const me_model *)(const void *)m;
    mm->gamma0(m, t, q, v, out);
    if (mm->xi == 0 && mm->w == 0) return;
    int nc = m->nc;
    m->phi(m, t, q, mm->ph);
    m->phi_t(m, t, q, mm->pt);
    m->phi_q(m, t, q, mm->pq);
    for (int k = 0; k < m->phi_q_pat.nnz; k++) mm->pt[m->phi_q_pat.row[k]] += mm->pq[k] * v[m->phi_q_pat.col[k]];
    for (int r = 0; r < nc; r++) out[r] -= 2 * mm->xi * mm->w * mm->pt[r] + mm->w * mm->w * mm->ph[r];
}

#endif /* MB_FMU_STAB_H */
