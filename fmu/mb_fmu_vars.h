/* mb_fmu_vars.h - the FMU's variables by value reference, shared by the wrapper (mb_fmu.c) and
 * the writer of modelDescription.xml (mb_fmu_desc.c), so the two cannot disagree:
 *   [0, nq)             the positions q (outputs)
 *   [nq, 2 nq)          the velocities v (outputs)
 *   then nout sensors (outputs), nin inputs (inputs), npar tunables (fixed parameters). */
#ifndef MB_FMU_VARS_H
#define MB_FMU_VARS_H

#include "mb_model.h"

enum { MB_FMU_Q = 0, MB_FMU_V = 1, MB_FMU_Y = 2, MB_FMU_U = 3, MB_FMU_P = 4, MB_FMU_BAD = -1 };

static inline unsigned mb_fmu_nvars(const mb_model *m)
{
    return (unsigned)(2 * m->nq + m->nout + m->nin + m->npar);
}

/* The kind of value reference vr (MB_FMU_BAD when there is none) and its index in that kind. */
static inline int mb_fmu_vr_kind(const mb_model *m, unsigned vr, int *idx)
{
    unsigned n[5];
    n[0] = n[1] = (unsigned)m->nq;
    n[2] = (unsigned)m->nout;
    n[3] = (unsigned)m->nin;
    n[4] = (unsigned)m->npar;
    for (int k = 0; k < 5; k++) {
        if (vr < n[k]) { *idx = (int)vr; return k; }
        vr -= n[k];
    }
    *idx = -1;
    return MB_FMU_BAD;
}

/* The value reference of index i of kind k. */
static inline unsigned mb_fmu_vr(const mb_model *m, int k, int i)
{
    unsigned base[5];
    base[0] = 0;
    base[1] = (unsigned)m->nq;
    base[2] = base[1] + (unsigned)m->nq;
    base[3] = base[2] + (unsigned)m->nout;
    base[4] = base[3] + (unsigned)m->nin;
    return base[k] + (unsigned)i;
}

#endif /* MB_FMU_VARS_H */
