/* solver.c - the solver instance: which model, which formulation, which parameters, and the
 * statically sized workspace. Layer: application; edit the settings block for your mechanism.
 * Every setting can also come from the compiler command line (-DFW_MODEL=... etc.). */
#include "solver.h"

/* ---------------------------------------------------------------- settings */
#ifndef FW_MODEL
#define FW_MODEL double_pendulum        /* the generated model: generated/<FW_MODEL>.h */
#define FW_PREFIX DOUBLE_PENDULUM       /* its macro prefix: <FW_PREFIX>_NQ, ... */
#endif
#ifndef FW_FORMULATION
#define FW_FORMULATION MB_ALF_TRAPEZOID /* or MB_BAUMGARTE with FW_INTEGRATOR MB_RK4 */
#endif
#ifndef FW_INTEGRATOR
#define FW_INTEGRATOR MB_TRAPEZOID
#endif
/* Optional overrides of mb_params_default (the thesis' double pendulum values): FW_H, FW_ALPHA,
 * FW_XI, FW_OMEGA, FW_TOL, FW_MAX_ITER, FW_SIGMA_RESET, FW_NEWTON_REUSE. */

/* ---------------------------------------------------------------- instance */
#define FW_STR2(x) #x
#define FW_STR(x) FW_STR2(x)
#define FW_CAT2(a, b) a##b
#define FW_CAT(a, b) FW_CAT2(a, b)
#include FW_STR(FW_MODEL.h)
#define FW_MODEL_OBJ FW_CAT(FW_MODEL, _model)

/* (with the blocks of the model's tunables and inputs: they start at their defaults) */
#define FW_WORK_BYTES2(P, F, I) MB_EMBED_MODEL_WORK_BYTES(P, F, I)   /* (P expanded first) */
#define FW_WORK_BYTES FW_WORK_BYTES2(FW_PREFIX, FW_FORMULATION, FW_INTEGRATOR)

static mb_sim_storage sim_mem;   /* the solver object, static (mb_sim.h: mb_sim_of) */
MB_EMBED_WORKSPACE(work, FW_WORK_BYTES);

static void settings(mb_params *p)
{
    mb_params_default(p, FW_FORMULATION);
    p->integrator = FW_INTEGRATOR;
#ifdef FW_H
    p->h = FW_H;
#endif
#ifdef FW_ALPHA
    p->alpha = FW_ALPHA;
#endif
#ifdef FW_XI
    p->xi = FW_XI;
#endif
#ifdef FW_OMEGA
    p->omega = FW_OMEGA;
#endif
#ifdef FW_TOL
    p->tol = FW_TOL;
#endif
#ifdef FW_MAX_ITER
    p->max_iter = FW_MAX_ITER;
#endif
#ifdef FW_SIGMA_RESET
    p->sigma_reset = FW_SIGMA_RESET;
#endif
#ifdef FW_NEWTON_REUSE
    p->newton_reuse = FW_NEWTON_REUSE;
#endif
}

/* mb_embed_start's two halves apart: the parameters live on the stack only while mb_sim_init
 * copies them (configure, out of line), so their 0.2 KB are not under mb_sim_reset's deeper
 * calls; and solver_init out of line too, so that link-time optimization does not inline the
 * start-up's frames into main, under every step (docs/embedding.md). */
#if defined(__GNUC__)
#define FW_NOINLINE __attribute__((noinline))
#else
#define FW_NOINLINE
#endif
static FW_NOINLINE int configure(void)
{
    mb_params p;
    settings(&p);
    return mb_sim_init(mb_sim_of(&sim_mem), &FW_MODEL_OBJ, &p, work, sizeof work);
}

FW_NOINLINE int solver_init(void)
{
    int st = configure();
    return st != MB_OK ? st : mb_sim_reset(mb_sim_of(&sim_mem), 0, NULL, NULL, 1);
}

int solver_step(void)
{
    return mb_embed_step(mb_sim_of(&sim_mem));
}

const mb_sim *solver_sim(void)
{
    return mb_sim_of(&sim_mem);
}

mb_sim *solver_sim_rw(void)
{
    return mb_sim_of(&sim_mem);
}

unsigned long solver_work_reserved(void)
{
    return (unsigned long)sizeof work;
}

unsigned long solver_work_needed(void)
{
    mb_params p;
    settings(&p);
    return (unsigned long)mb_sim_workspace_size(&FW_MODEL_OBJ, &p);
}
