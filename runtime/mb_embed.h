/* mb_embed.h - the firmware face of the runtime: workspace sized at compile time from the
 * generated model's macros, and one init / step / read cycle over mb_sim. Layer: runtime API
 * on top of mb_sim.h; no malloc, no printing, nothing to free. See docs/embedding.md. */
#ifndef MB_EMBED_H
#define MB_EMBED_H

#include <stddef.h>
#include "mb_sim.h"
#include "mb_layout.h"

/* Workspace bytes for formulation F, integrator I, and a model with N coordinates, NC
 * constraints, PQ non-zeros in Phi_q, DQ, DV non-zeros in dQ/dq, dQ/dv and NLS, NLA entries in
 * the L factors of its plan (the generated <NAME>_NQ, _NC, _PHI_Q_NNZ, _DQ_DQ_NNZ, _DQ_DV_NNZ,
 * _S_NL, _A_NL). An integer constant expression equal to mb_sim_workspace_size() with the sparse
 * back end, full_jacobian, dense output and F4's step control off: both sum the block list of
 * mb_layout.h (tests/test_embed.c checks the equality); p.events off (no event blocks: a
 * firmware built with MB_WITH_EVENTS and events on sizes with mb_sim_workspace_size, and so
 * does one whose model has contact gaps in an adaptive run, which keeps the gaps' blocks for
 * its step limit even with events off). full_jacobian needs more: use the _FJ
 * form; F4's step control (mb_params.adaptive) 2 nq reals more (adaptive 2, the extrapolated
 * trapezoid: 14 nq + 7 nc + 2 more), which these do not count. These
 * two are for models without tunables or inputs; the _P form adds NP tunables and NM (N when
 * the mass matrix depends on them, else 0: <NAME>_NPAR, <NAME>_MASS_TUNABLE * <NAME>_NQ), the
 * _PI form NI inputs too (<NAME>_NIN: their holds and 2 N reals of mb_sim_set_input's
 * scratch), the _PIR form NR = 1 when a sensor reads a reaction (<NAME>_OUT_REACTIONS: the
 * block in which mb_sim_get_output solves for the multipliers, PQ + NLS + 2 N + 5 NC reals). */
#define MB_EMBED_WORK_BYTES(F, I, N, NC, PQ, DQ, DV, NLS, NLA) \
    MB_LAYOUT_BYTES(F, I, 0, 0, 0, 0, N, NC, PQ, DQ, DV, NLS, NLA, 0, 0, 0, 0, 0)
#define MB_EMBED_WORK_BYTES_FJ(F, I, N, NC, PQ, DQ, DV, NLS, NLA) \
    MB_LAYOUT_BYTES(F, I, 1, 0, 0, 0, N, NC, PQ, DQ, DV, NLS, NLA, 0, 0, 0, 0, 0)
#define MB_EMBED_WORK_BYTES_P(F, I, N, NC, PQ, DQ, DV, NLS, NLA, NP, NM) \
    MB_LAYOUT_BYTES(F, I, 0, 0, 0, 0, N, NC, PQ, DQ, DV, NLS, NLA, NP, NM, 0, 0, 0)
#define MB_EMBED_WORK_BYTES_PI(F, I, N, NC, PQ, DQ, DV, NLS, NLA, NP, NM, NI) \
    MB_LAYOUT_BYTES(F, I, 0, 0, 0, 0, N, NC, PQ, DQ, DV, NLS, NLA, NP, NM, NI, 0, 0)
#define MB_EMBED_WORK_BYTES_PIR(F, I, N, NC, PQ, DQ, DV, NLS, NLA, NP, NM, NI, NR) \
    MB_LAYOUT_BYTES(F, I, 0, 0, 0, 0, N, NC, PQ, DQ, DV, NLS, NLA, NP, NM, NI, 0, NR)
/* The same from a generated model's macro prefix, e.g. MB_EMBED_MODEL_WORK_BYTES(ANDREWS, ...)
 * (tunables, inputs and sensors of reactions included). */
#define MB_EMBED_MODEL_WORK_BYTES(P, F, I)                                                   \
    MB_EMBED_WORK_BYTES_PIR(F, I, P##_NQ, P##_NC, P##_PHI_Q_NNZ, P##_DQ_DQ_NNZ, P##_DQ_DV_NNZ, \
                            P##_S_NL, P##_A_NL, P##_NPAR, P##_MASS_TUNABLE * P##_NQ, P##_NIN, \
                            P##_OUT_REACTIONS)

/* Declare static, suitably aligned workspace of at least BYTES bytes named VAR. (The solver
 * object itself: a static mb_sim_storage, mb_sim.h.) */
#define MB_EMBED_WORKSPACE(VAR, BYTES) \
    static mb_real VAR[((BYTES) + sizeof(mb_real) - 1) / sizeof(mb_real)]

/* Lay the solver out on work[size] and start it at time t0 from q[nq], v[nq] (NULL: the
 * model's q0 / v0). assemble != 0 first makes q, v consistent (Newton, as mb_sim_reset).
 * Returns MB_OK or the failure of mb_sim_init / mb_sim_reset. Does not allocate. */
#define mb_embed_start(s, m, p, work, size, t0, q, v, assemble) \
    mb_embed_start_checked((s), (m), (p), (work), (size), (t0), (q), (v), (assemble), \
                           MB_BUILD_CONFIG, MB_BUILD_SIZES)   /* (mb_sim.h: MB_ERR_BUILD) */
int mb_embed_start_checked(mb_sim *s, const mb_model *m, const mb_params *p, void *work, size_t size,
                           mb_real t0, const mb_real *q, const mb_real *v, int assemble,
                           unsigned long config, unsigned long sizes);

/* One fixed step of exactly p->h (the cycle of a periodic task); time is t0 + k h from the
 * step counter, never accumulated (dopri5: adaptive steps up to t + h). Returns MB_OK, a
 * positive event (the step was taken) or a negative failure (the state stays at the last good
 * step). In float, t itself resolves only eps |t| (docs/embedding.md, "Single precision"). */
int mb_embed_step(mb_sim *s);

/* Copy the state out: q[nq] and v[nq] (either may be NULL). */
void mb_embed_state(const mb_sim *s, mb_real *q, mb_real *v);

/* Monitors after the last step: energy deviation Delta U (J, eq. 6.19), |Phi|_2 and
 * |Phi_q v + Phi_t|_2. */
mb_real mb_embed_energy_dev(const mb_sim *s);
mb_real mb_embed_phi_norm(const mb_sim *s);
mb_real mb_embed_phid_norm(const mb_sim *s);

#endif /* MB_EMBED_H */
