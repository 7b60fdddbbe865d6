/* mb_layout.h - the workspace of mb_sim as one list of blocks: laid out by mb_sim.c and summed at
 * compile time by mb_embed.h, so the firmware's static workspace and mb_sim_workspace_size()
 * come from the same formula. Layer: runtime API support; macros only, no code. */
#ifndef MB_LAYOUT_H
#define MB_LAYOUT_H

#include <stddef.h>
#include "mb_sim.h"

/* Every block starts at a multiple of MB_LAYOUT_ALIGN bytes from the workspace start (the real
 * blocks come first, the int blocks last; the workspace itself is aligned for mb_real). */
#define MB_LAYOUT_ALIGN (sizeof(mb_real) > sizeof(int) ? sizeof(mb_real) : sizeof(int))
#define MB_LAYOUT_ROUND(bytes) (((bytes) + MB_LAYOUT_ALIGN - 1) / MB_LAYOUT_ALIGN * MB_LAYOUT_ALIGN)

/* Which formulation needs what (F: MB_BAUMGARTE ... MB_ALF_TRAPEZOID). */
#define MB_L_F1(F) ((F) == MB_BAUMGARTE)
#define MB_L_KKT(F) ((F) == MB_BAUMGARTE || (F) == MB_CANONICAL)
#define MB_L_ALF(F) ((F) == MB_ALF_EXPLICIT || (F) == MB_ALF_TRAPEZOID)
#define MB_L_F4(F) ((F) == MB_ALF_TRAPEZOID)
#define MB_L_HHT(I) ((I) == MB_HHT)
/* the Newton iteration's blocks: F4, and F1 with hht */
#define MB_L_NEWTON(F, I) (MB_L_F4(F) || MB_L_HHT(I))
/* F4 with its trapezoid (not bdf): shared blocks, see MB_LAYOUT's comment (Ek from tn[2] on, tn[3]
 * grown when tn[2], tn[3], tm[1] hold fewer than PQ reals; tm[0] in tn[2] (which holds max(N,
 * NC)), Q in tn[3], cv in tm[1], no tm[2]) */
#if !MB_LAYOUT_NO_SHARE
#define MB_L_F4T(F, I) (MB_L_F4(F) && (I) == MB_TRAPEZOID)
#else   /* a test build: every block its own (tests/test_layout_share.sh: the same results) */
#define MB_L_F4T(F, I) 0
#endif
#define MB_L_IF(c, x) ((c) ? (x) : 0)
#define MB_L_MAX(a, b) ((a) > (b) ? (a) : (b))
/* F4's extrapolated trapezoid (AD = 2): the macro step's start [z; v; pdot; sigma~; ydp] (xs),
 * the end of its sequence of two substeps [z; v; pdot; sigma~] and the extrapolated q, v, work
 * and P_nc at the macro step's middle for dense output (xa: 6 N + 2 NC + 2), and Int Phi's base
 * with Phi_t at the macro step's start (xib: 2 NC), and the accuracy companion's state laid out as
 * xs and the run's Phi_t while it runs (xg: mb_trapezoid_control.c, xge_step)
 * (mb_trapezoid_control.c: extrapolated step control) */
#define MB_L_XST(N, NC) (6 * (N) + 2 * (NC))
#define MB_L_NZ(F, N, NC) (2 * (N) + (MB_L_F1(F) ? 0 : (NC)))
#define MB_L_NSTAGE(I) ((I) == MB_DOP853 ? 12 : (I) == MB_DOPRI5 ? 7 : (I) == MB_RK4 ? 4 : 0)
#define MB_L_NMAX(N, NC) MB_L_MAX(N, NC)
/* Dense scratch: the reference back end's matrix (LS = 1: max(n, nc)^2), F4 full_jacobian's
 * K1 and K2 (2 n^2). */
#define MB_L_NSCR(F, FJ, LS, N, NC)                                                           \
    MB_L_MAX(MB_L_IF(LS, MB_L_NMAX(N, NC) * MB_L_NMAX(N, NC)), MB_L_IF(MB_L_F4(F) && (FJ), 2 * (N) * (N)))

/* Dense output (p.dense, DN = 1): the continuous extension's vectors of the state (dopri5 4,
 * dop853 7), for the work at an interpolated time sigma and Phi_t at the step's start, and the
 * run's evaluation's v and sigma kept while the interpolant's evaluations overwrite them (N + NC:
 * mb_rk.c, rk_dense; not the step's start v0, S0, which an undo needs after event location
 * inside a step). */
#define MB_L_NDENSE(I) ((I) == MB_DOP853 ? 7 : (I) == MB_DOPRI5 ? 4 : 0)
#define MB_L_DENSE(F, I, DN, N, NC)                                                          \
    MB_L_IF((DN) && MB_L_NDENSE(I) > 0, MB_L_NDENSE(I) * MB_L_NZ(F, N, NC) + 3 * (NC) + (N))
/* The adaptive integrators' stage powers of the loads (16: DOP853's stages with its dense
 * output's) and, with dense output, the 7 coefficients of the interpolated work. */
#define MB_L_KP(I) MB_L_IF(MB_L_NDENSE(I) > 0, 16)
#define MB_L_DW(I, DN) MB_L_IF((DN) && MB_L_NDENSE(I) > 0, 7)
/* dopri5 and dop853 in a build with the accuracy warning (MBI_HAS_GE): the warning's companion
 * solution (mb_rk.c, ge_step), its state and f there (2 NZ), the run's evaluation kept
 * while it steps (ev_v, ev_sig: N + NC) and the positions' difference and error estimate so
 * far (2 N), in one block gz. */
/* bdf: the Nordsieck array of orders up to 5 (6 state vectors), 5 more state vectors (e, e of
 * the last step, f, Newton's d, the error weights) and, F1-F3, two dense nz x nz matrices
 * (the finite-difference Jacobian, the Newton matrix's LU) with nz pivots (F4 solves its
 * sparse Newton matrix in FA), the accuracy warning's two error vectors (2 N) and its dense
 * output's copy of the run's evaluation's v and sigma while the interpolant's evaluation
 * overwrites them (N + NC: mb_bdf.c, bdf_dense; not the step's start v0, S0, which an undo
 * needs after event location inside a step). */
#define MB_L_BDF(F, I) ((I) == MB_BDF)
#define MB_L_BV(F, I, N, NC) MB_L_IF(MB_L_BDF(F, I), MB_L_NZ(F, N, NC))
#define MB_L_BM(F, I, N, NC) MB_L_IF(MB_L_BDF(F, I) && !MB_L_F4(F), MB_L_NZ(F, N, NC) * MB_L_NZ(F, N, NC))

/* mb_sim_get_output of a model whose sensors read reactions (mb_input.c): Phi_q (PQ), S in the
 * plan's storage (NC + NLS), Q and M^-1 (2 N), Gamma, the multipliers and the factorization's
 * and solve's scratch (4 NC). */
#define MB_L_RX(N, NC, PQ, NLS) ((PQ) + (NLS) + 2 * (N) + 5 * (NC))

/* The blocks of fields a build leaves out of mb_sim (mb_config.h: MBI_HAS_*) are left out of the
 * list too; their counts are 0 for every formulation and integrator such a build accepts. */
#define MB_L_KEEP(x) x
#define MB_L_DROP(x)
#define MB_L_SEL(c) MB_L_SEL_(c)
#define MB_L_SEL_(c) MB_L_SEL_##c
#define MB_L_SEL_1 MB_L_KEEP
#define MB_L_SEL_0 MB_L_DROP

 /* MB_LAYOUT(R, J, A, F, I, FJ, LS, DN, AD, N, NC, PQ, DQ, DV, NLS, NLA, NP, NM, NI, NE, NR) expands
  * R(field, count) for each block of mb_real and J(field, count) for each block of int, in layout
  * order, then A(field, base, c) for each block that shares another's (MB_L_SHARED), for
 * formulation F, integrator I, full_jacobian FJ (0/1), dense back end LS (0/1), dense output DN
 * (0/1), F4's step control AD (0/1/2: mb_params.adaptive with the trapezoid; its position
 * history, with 2 the extrapolation's two states), N coordinates, NC constraints, PQ non-zeros of Phi_q, DQ and DV of dQ/dq and
 * dQ/dv, NLS and NLA entries in the plan's L of S and of A (mb_model.h: mb_plan), NP tunables
  * (mb_model.npar), NM = N when M depends on them (mb_model.par_mass), else 0, and NI inputs
  * (mb_model.nin: their holds, and two vectors of Q for mb_input.c, only when NI > 0), NE the
  * sensors when p.events is on and the model has gaps, else 0 (mb_event.c), NR 1 when the
  * model's sensors read reactions (mb_model.doutputs_dlam: mb_sim_get_output's solve for the
  * multipliers in its own block rx, so that it leaves the integrator's blocks alone; with the
  * inputs' blocks, none in a build without tunables), else 0. A block of
  * count 0 is not used by F (its pointer is NULL) unless A shares a block into it. Shared
  * (MB_L_SHARED): S and ev_S are sig and ev_sig (equal in every formulation), F4 keeps its
  * start-up evaluation's ev_v, ev_sig in tn[2], tm[2] (Newton temporaries, free then; with the
  * trapezoid ev_sig in S0, below), and F3/F4 factor S (assembly; F4's bdf for its accuracy
  * estimate after an accepted step) in FA's block: A's factorization never lives across
  * either. Not listed: k[0] is fz (FSAL). F4 with the trapezoid (MB_L_F4T) shares blocks by
  * lifetime (an iteration of trap_step: evaluation,
 * c, residual with sv, [Newton matrix, factorization], solve for dq, dp and 5.53 with tmpm):
 * - Ek, alive only while a matrix is assembled (the Newton matrix; the start-up evaluation's
 *   after it has read ev_v, before it forms b), from tn[2] on over tn[3] and tm[1] (dq, dp,
 *   tmpm: free then; contiguous, with full_jacobian's tn[4..7], free then too, between);
 * - tm[0] in tn[2]: sv (the residual only: dq is formed after it, and the last iteration forms
 *   no residual, so dq survives it), the start-up evaluation's b (formed after Ek is spent,
 *   spent before ev_v is written) and the assembly's w (no dq there);
 * - lsd, the scratch of the ldl factorizations of assembly and start-up only, in zk (the step's
 *   start state); lsy, the solves' scratch, in tn[3] (the step solves for dq before it forms dp);
 * - Q in tn[3]: alive from an evaluation to the residual (or, with the model's fused pass,
 *   mbi_f4_fusable, over the unrolled Newton matrix and its factorization, which use no Ek;
 *   likewise cv below) (no solve, no dp in between; the last
 *   iteration evaluates no Q, so dq, dp survive it; the start-up's Q follows its solves, the
 *   assembly's scratch wt = Q is spent before its factorization);
 * - cv in tm[1]: c from the constraint to the residual, and the last iteration's after the loop
 *   (held_step_sane); tmpm is formed after the residual (5.53); the start-up's c = Phi_q v after
 *   the iteration's tm[1] is spent;
 * - no tm[2]: sigma~ at the step's start is S0 (mb_sim_step), the start-up's ev_sig lives in
 *   S0 (written at each step's start), and the pointer tm[2] (the monitor's scratch between
 *   steps) is tm[0] (tn[2]). hht (F1) keeps the
 * acceleration in fz's second half, its Newton matrix in FA, Phi_q^T lambda - Q of the last
 * step in hr and, during a step, Phi linearized at the new iterate in tm[1] (F1's right-hand
 * side, which uses it, is not called then). trig, the fused evaluations' sine cache (6 N, an
 * entry per coordinate: mb_trig.h), lives across steps in every formulation. */
#define MB_LAYOUT(R, J, A, F, I, FJ, LS, DN, AD, N, NC, PQ, DQ, DV, NLS, NLA, NP, NM, NI, NE, NR)      \
    R(z, MB_L_NZ(F, N, NC)) MB_L_SEL(MBI_HAS_EB)(R(fz, MB_L_IF(!MB_L_F4(F), MB_L_NZ(F, N, NC)))) \
    R(v, N) R(pd, MB_L_IF(MB_L_F4(F), N))                                                     \
    R(sig, NC) R(lam, MB_L_IF(MB_L_F1(F), NC)) R(ptq, NC)                                      \
    R(ev_v, MB_L_IF(!MB_L_F4(F), N)) R(ev_sig, MB_L_IF(!MB_L_F4(F), NC))                      \
    R(ev_lam, MB_L_IF(MB_L_F1(F), NC))                                                        \
    R(Pq, PQ) R(Pqd, MB_L_IF(!MB_L_F1(F) || MB_L_HHT(I), PQ))                                \
    R(dQq, MB_L_IF(MB_L_NEWTON(F, I), DQ))                                                    \
    R(dQv, MB_L_IF(MB_L_NEWTON(F, I) || MB_L_BDF(F, I), DV))   /* bdf: acc_damping */        \
    R(Phi, NC) R(Phit, NC) R(Gam, MB_L_IF(MB_L_F1(F), NC)) R(Q, MB_L_IF(!MB_L_F4T(F, I), N))   \
    R(cv, MB_L_IF(MB_L_ALF(F) && !MB_L_F4T(F, I), NC))                                        \
    R(tn[0], N) R(tn[1], N) R(tn[2], MB_L_IF(MB_L_F4(F), MB_L_F4T(F, I) ? MB_L_NMAX(N, NC) : (N)))  \
    R(tn[3], MB_L_IF(MB_L_F4(F), MB_L_F4T(F, I) ? MB_L_MAX(MB_L_NMAX(N, NC), (PQ) - MB_L_NMAX(N, NC) - (NC)) : (N))) \
    R(tn[4], MB_L_IF(MB_L_F4(F) && (!MB_L_F4T(F, I) || (FJ)), N))                               \
    MB_L_SEL(MBI_HAS_FJ)(R(tn[5], MB_L_IF(MB_L_F4(F) && (FJ), N)) R(tn[6], MB_L_IF(MB_L_F4(F) && (FJ), N))) \
    MB_L_SEL(MBI_HAS_TN7)(R(v0, MB_L_IF(!MB_L_F4(F) || (FJ), N)))                              \
    R(tm[0], MB_L_IF(!MB_L_F4T(F, I), NC)) R(tm[1], NC) R(tm[2], MB_L_IF(!MB_L_F4T(F, I), NC))  \
    R(S0, NC)                                                                                 \
    MB_L_SEL(MBI_HAS_EXPL)(                                                                   \
    R(k[1], MB_L_IF(MB_L_NSTAGE(I) > 1, MB_L_NZ(F, N, NC)))                                   \
    R(k[2], MB_L_IF(MB_L_NSTAGE(I) > 2, MB_L_NZ(F, N, NC)))                                   \
    R(k[3], MB_L_IF(MB_L_NSTAGE(I) > 3, MB_L_NZ(F, N, NC)))                                   \
    R(k[4], MB_L_IF(MB_L_NSTAGE(I) > 4, MB_L_NZ(F, N, NC)))                                   \
    R(k[5], MB_L_IF(MB_L_NSTAGE(I) > 5, MB_L_NZ(F, N, NC)))                                   \
    R(k[6], MB_L_IF(MB_L_NSTAGE(I) > 6, MB_L_NZ(F, N, NC)))                                   \
    R(k[7], MB_L_IF(MB_L_NSTAGE(I) > 7, MB_L_NZ(F, N, NC)))                                   \
    R(k[8], MB_L_IF(MB_L_NSTAGE(I) > 8, MB_L_NZ(F, N, NC)))                                   \
    R(k[9], MB_L_IF(MB_L_NSTAGE(I) > 9, MB_L_NZ(F, N, NC)))                                   \
    R(k[10], MB_L_IF(MB_L_NSTAGE(I) > 10, MB_L_NZ(F, N, NC)))                                 \
    R(k[11], MB_L_IF(MB_L_NSTAGE(I) > 11, MB_L_NZ(F, N, NC))))                                \
    MB_L_SEL(MBI_HAS_EB)(R(ztmp, MB_L_IF(!MB_L_F4(F), MB_L_NZ(F, N, NC)))                      \
                         R(zold, MB_L_IF(!MB_L_F4(F), MB_L_NZ(F, N, NC))))                     \
    R(zk, MB_L_IF(MB_L_F4(F), MB_L_NZ(F, N, NC))) R(yd, MB_L_IF(MB_L_F4(F), 2 * (N)))          \
    R(ydp, MB_L_IF(MB_L_F4(F), 2 * (N)))                                                      \
    MB_L_SEL(MBI_HAS_F4A)(R(qh1, MB_L_IF(MB_L_F4(F) && (AD), N)) R(qh2, MB_L_IF(MB_L_F4(F) && (AD), N)) \
                          R(tacc, MB_L_IF(MB_L_F4(F) && (AD) == 1, 7 * (N) + (NC) + MB_L_NMAX(N, NC))) \
                          R(xs, MB_L_IF(MB_L_F4(F) && (AD) == 2, MB_L_XST(N, NC)))               \
                          R(xa, MB_L_IF(MB_L_F4(F) && (AD) == 2, 6 * (N) + 2 * (NC) + 2))        \
                          R(xib, MB_L_IF(MB_L_F4(F) && (AD) == 2, 2 * (NC))))                   \
    MB_L_SEL(MBI_HAS_XGE)(R(xg, MB_L_IF(MB_L_F4(F) && (AD) == 2, MB_L_XST(N, NC) + (NC))))       \
    R(FS, MB_L_IF(!MB_L_ALF(F), (NC) + (NLS)))                                                \
    R(FA, MB_L_IF(MB_L_ALF(F) || MB_L_HHT(I),                                                 \
                  MB_L_MAX((NC) + (NLS), (N) + (MB_L_NEWTON(F, I) ? 2 : 1) * (NLA))))            \
    MB_L_SEL(MBI_HAS_KKT)(R(minv, MB_L_IF(MB_L_KKT(F), N)))                              \
    R(lsd, MB_L_IF(!MB_L_F4T(F, I), MB_L_NMAX(N, NC)))                                        \
    R(lsy, MB_L_IF(!MB_L_F4T(F, I), MB_L_NMAX(N, NC)))                                        \
    MB_L_SEL(MBI_HAS_FJ)(R(kb, MB_L_IF(MB_L_F4(F) && (FJ), PQ)))                                  \
    R(Ek, MB_L_IF((MB_L_ALF(F) && !MB_L_F4T(F, I)) || MB_L_HHT(I), PQ))                        \
    R(Dk, MB_L_IF(MB_L_F4(F), PQ))                                                            \
    MB_L_SEL(MBI_HAS_HHT)(R(hr, MB_L_IF(MB_L_HHT(I), N)))                                         \
    MB_L_SEL(MBI_HAS_TRIG)(R(trig, MB_TRIG_ENTRY * (N)))                                      \
    MB_L_SEL(MBI_HAS_SCR)(R(scr, MB_L_NSCR(F, FJ, LS, N, NC)))                                \
    MB_L_SEL(MBI_HAS_EXPL)(R(dn, MB_L_DENSE(F, I, DN, N, NC)) R(kp, MB_L_KP(I))               \
                           R(dn_w, MB_L_DW(I, DN)))                                           \
    MB_L_SEL(MBI_HAS_GE)(R(gz, MB_L_IF(MB_L_NDENSE(I) > 0, 2 * MB_L_NZ(F, N, NC) + 3 * (N) + (NC)))) \
    MB_L_SEL(MBI_HAS_BDF)(                                                                        \
    R(bz, 6 * MB_L_BV(F, I, N, NC)) R(be, MB_L_BV(F, I, N, NC)) R(bep, MB_L_BV(F, I, N, NC))  \
    R(bf, MB_L_BV(F, I, N, NC)) R(bd, MB_L_BV(F, I, N, NC)) R(bw, MB_L_BV(F, I, N, NC))       \
    R(bJ, MB_L_BM(F, I, N, NC)) R(bM, MB_L_BM(F, I, N, NC))                                   \
    R(bacc, MB_L_IF(MB_L_BDF(F, I), 2 * (N)))                                                \
    R(bsv, MB_L_IF(MB_L_BDF(F, I) && !MB_L_F4(F), (N) + (NC))))                               \
    MB_L_SEL(MBI_HAS_TUN)(R(par, NP) R(pmass, NM) R(hold, 3 * (NI))                          \
                          R(inq, MB_L_IF((NI) > 0, 2 * (N))))                                  \
    MB_L_SEL(MBI_HAS_EV)(R(evw, MB_L_IF((NE) > 0, 5 * (NE) + (N))))                         \
    MB_L_SEL(MBI_HAS_TUN)(R(rx, MB_L_IF(NR, MB_L_RX(N, NC, PQ, NLS))))                        \
    MB_L_SEL(MBI_HAS_PIV)(J(piv, MB_L_IF(LS, MB_L_NMAX(N, NC))))                            \
    MB_L_SEL(MBI_HAS_BDF)(J(bpiv, MB_L_IF(!MB_L_F4(F), MB_L_BV(F, I, N, NC))))                  \
    MB_L_SEL(MBI_HAS_EV)(J(evk, NE))                                                          \
    MB_L_SHARED(A, F, I)

/* The blocks that share another's (A(field, base, c): when c, field points into base's block and
 * takes no bytes of its own; its count above is 0 then), in the order they are applied (a base
 * that is itself shared comes first). Every formulation: S and ev_S are sig and ev_sig; F3/F4
 * factor S in A's block (its assembly; F4's bdf also its accuracy estimate). F4: the start-up
 * evaluation's ev_v, ev_sig in Newton temporaries. F4 with the trapezoid (MB_L_F4T): the
 * lifetimes of the comment above. */
#define MB_L_SHARED(A, F, I)                                                                   \
    A(S, sig, 1) A(FS, FA, MB_L_ALF(F))                                                        \
    A(ev_v, tn[2], MB_L_F4(F)) A(ev_sig, tm[2], MB_L_F4(F) && !MB_L_F4T(F, I))                 \
    A(ev_sig, S0, MB_L_F4T(F, I)) A(ev_S, ev_sig, 1)                                           \
    A(Ek, tn[2], MB_L_F4T(F, I)) A(lsd, zk, MB_L_F4T(F, I)) A(lsy, tn[3], MB_L_F4T(F, I))      \
    A(Q, tn[3], MB_L_F4T(F, I)) A(cv, tm[1], MB_L_F4T(F, I)) A(tm[0], tn[2], MB_L_F4T(F, I))    \
    A(tm[2], tn[2], MB_L_F4T(F, I))

/* Typed views: the named blocks of a slot, V(name, block), each a block of the list above; the
 * overlaps are the list's (MB_L_SHARED) and the ones stated here. mb_sim_impl.h makes a struct of
 * pointers of each (MBI_VIEW), the files use the names, and a -DMB_POISON_WORK build fills a
 * block with NaN where its lifetime ends (mbi_poison), so that a read through a wrong alias
 * fails a test (the tests' _poison builds).
 * The trapezoid's Newton iteration (mb_trapezoid.c): the residuals g1, g2 (residual to the
 * solve, g2 to the update), the corrections dq, dp (kept after the last iteration),
 * s = sigma~ + alpha c (the residual only), 5.53's scratch tmpn (in g1's block: g1 is spent
 * once dq is formed) and tmpm; with the trapezoid's sharing (MB_L_F4T) sv is in dq's block,
 * tmpm in c's. */
#define MB_VIEW_TRAP(V) V(g1, tn[0]) V(g2, tn[1]) V(dq, tn[2]) V(dp, tn[3]) V(sv, tm[0])         \
    V(tmpm, tm[1]) V(tmpn, tn[0])
/* bdf's dense output (mb_bdf.c): on F1-F3 the state's v and sigma kept while an evaluation
 * at the interpolated state overwrites ev_v, ev_sig, in bdf's own block (sigma after v's N;
 * not the step's start v0, S0: event location interpolates inside mb_sim_step, whose undo
 * needs them after it); on F4 the interpolated v in g1's block (dopri5's and dop853's keep
 * theirs in the dense output's block, MB_L_DENSE) */
#define MB_VIEW_DENSE(V) V(vsave, bsv) V(vv, tn[0])
/* The trapezoid's step control (mb_trapezoid_control.c), between steps: Milne's error vector
 * and the dense output's v in g1's block */
#define MB_VIEW_TRAPCTL(V) V(eq, tn[0]) V(vv, tn[0])
/* F4's full Jacobian (mb_f4_trapezoid.c, geometric terms), while the matrix is formed: the
 * difference columns, Phidot_q^T s at a unit velocity, that velocity (tn[4..6], and v0's block:
 * F4 has it for the full Jacobian only) */
#define MB_VIEW_FJ(V) V(col, tn[5]) V(cm, tn[6]) V(Pt, v0) V(vv, tn[4])
/* The explicit formulations' right-hand sides: F1 (mb_f1_baumgarte.c) the constraints' b2 and
 * Phidot (pd), its velocity projection's w and unit weights; F2 (mb_f2_canonical.c) b2; F3
 * (mb_f3_alf.c, also F4's start-up) b, the solve's right-hand side, v of the previous evaluation
 * and a b + sigma~ (sb) */
#define MB_VIEW_F1(V) V(b2, tm[0]) V(pd, tm[1])
#define MB_VIEW_F1P(V) V(w, tm[0]) V(ones, tn[0])
#define MB_VIEW_F2(V) V(b2, tm[0])
#define MB_VIEW_F3(V) V(b, tm[0]) V(rhs, tn[0]) V(vold, tn[1]) V(sb, tm[1])
/* mb_rk.c: the drivers' work by parts, Phi_t at t + d and t - d (between the right-hand sides of
 * F2 and F3, whose b2, b they reuse) */
#define MB_VIEW_DRV(V) V(fp, tm[0]) V(fm, tm[1])
/* hht (mb_hht.c): its Newton iteration's e, s, Phi linearized at the iterate (pl), the known part
 * of q1 (qp: not lsd, which the solves clobber); lambda at the step's start (lam0) */
#define MB_VIEW_HHT(V) V(e, tn[0]) V(sv, tm[0]) V(pl, tm[1]) V(qp, tn[1])
#define MB_VIEW_HHT0(V) V(lam0, tm[2])
/* mb_monitor.c, between steps: F2-F4's pdot, and Phi_q^T sigma~ of F4's sigma warning */
#define MB_VIEW_MON(V) V(pdot, tm[2]) V(u, tn[0])
/* bdf's accuracy estimate (mb_bdf.c, acc_step), after an accepted step: the velocity error,
 * Phi_q^T's product and S's right-hand side of its tangent part (free between evaluations); F4:
 * M^-1 for its S (tn[4], the corrector's tmpn, spent) */
#define MB_VIEW_BDFACC(V) V(dv, tn[0]) V(pr, tn[1]) V(y, tm[0]) V(minv, tn[4])
/* assembly (mb_assembly.c): its Gauss-Newton's w, dq, the trial q and Phi at it */
#define MB_VIEW_ASM(V) V(w, tm[0]) V(dq, tn[0]) V(qt, tn[1]) V(Ph, tm[1])
/* bdf's Newton iteration on an implicit formulation (mb_bdf.c, correct4): the same without dp,
 * tmpn its own block */
#define MB_VIEW_BDF4(V) V(g1, tn[0]) V(g2, tn[1]) V(dq, tn[2]) V(sv, tm[0]) V(tmpm, tm[1])        \
    V(tmpn, tn[4])

/* Total bytes: the sum of the rounded blocks (exactly what mb_sim_workspace_size returns). */
#define MB_L_SUM_R(field, count) +MB_LAYOUT_ROUND(sizeof(mb_real) * (size_t)(count))
#define MB_L_SUM_J(field, count) +MB_LAYOUT_ROUND(sizeof(int) * (size_t)(count))
#define MB_L_SUM_A(field, base, c)
#define MB_LAYOUT_BYTES(F, I, FJ, LS, DN, AD, N, NC, PQ, DQ, DV, NLS, NLA, NP, NM, NI, NE, NR) \
    ((size_t)0 MB_LAYOUT(MB_L_SUM_R, MB_L_SUM_J, MB_L_SUM_A, F, I, FJ, LS, DN, AD, N, NC, PQ, DQ, DV, NLS, NLA, NP, NM, NI, NE, NR))

#endif /* MB_LAYOUT_H */
