/* mb_fmu_vars.h - the FMU's variables by value reference, shared by the wrapper (mb_fmu.c) and
 * the writer of modelDescription.xml (mb_fmu_desc.c), so the two cannot disagree:
 *   [0, nq)             the positions q (outputs; continuous states)
 *   [nq, 2 nq)          the velocities v (outputs; states, the derivatives of q)
 *   [2 nq, 3 nq)        the accelerations (locals "der(...)", the derivatives of v)
 *   then nout sensors (outputs), nin inputs (inputs), npar tunables (fixed parameters). */
#ifndef MB_FMU_VARS_H
#define MB_FMU_VARS_H

#include "mb_model.h"

enum { MB_FMU_Q = 0, MB_FMU_V = 1, MB_FMU_A = 2, MB_FMU_Y = 3, MB_FMU_U = 4, MB_FMU_P = 5,
       MB_FMU_NKIND = 6, MB_FMU_BAD = -1 };

static inline void mb_fmu_counts(const mb_model *m, unsigned n[MB_FMU_NKIND])
{
    n[MB_FMU_Q] = n[MB_FMU_V] = n[MB_FMU_A] = (unsigned)m->nq;
    n[MB_FMU_Y] = (unsigned)m->nout;
    n[MB_FMU_U] = (unsigned)m->nin;
    n[MB_FMU_P] = (unsigned)m->npar;
}

static inline unsigned mb_fmu_nvars(const mb_model *m)
{
    return (unsigned)(3 * m->nq + m->nout + m->nin + m->npar);
}

/* The kind of value reference vr (MB_FMU_BAD when there is none) and its index in that kind. */
static inline int mb_fmu_vr_kind(const mb_model *m, unsigned vr, int *idx)
{
    unsigned n[MB_FMU_NKIND];
    mb_fmu_counts(m, n);
    for (int k = 0; k < MB_FMU_NKIND; k++) {
        if (vr < n[k]) { *idx = (int)vr; return k; }
        vr -= n[k];
    }
    *idx = -1;
    return MB_FMU_BAD;
}

/* The value reference of index i of kind k (its index in ModelVariables is this + 1). */
static inline unsigned mb_fmu_vr(const mb_model *m, int k, int i)
{
    unsigned n[MB_FMU_NKIND], base = 0;
    mb_fmu_counts(m, n);
    for (int j = 0; j < k; j++) base += n[j];
    return base + (unsigned)i;
}

#endif /* MB_FMU_VARS_H */
