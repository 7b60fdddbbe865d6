/* mb_sim.c - the runtime API: names, parameters, workspace layout, init, and reset, step and
 * dense output over the integrator table (the integrators' rows), getters. Layer: runtime core,
 * the top of the runtime's calls (mb_sim_impl.h); never allocates or prints; every array lives in
 * the caller's workspace. */
#include <stddef.h>
#include <string.h>
#include "mb_sim_impl.h"

/* ------------------------------------------------------------------ names and parameters */

static const char *const fnames[] = {"baumgarte", "canonical", "alf-explicit", "alf-trapezoid"};

/* The integrators, indexed by MB_RK4 ...: name, the formulations it takes (bits 1 << MB_*), the
 * complaint when it is given another, and its row (mb_sim_impl.h: mbi_integ; NULL when not
 * compiled in). A new integrator: one file with its row, one line here. */
#define NINTEG 6
#define FB(f) (1u << (f))
#define F_EXPL (FB(MB_BAUMGARTE) | FB(MB_CANONICAL) | FB(MB_ALF_EXPLICIT))
#define IROW(built, row) ((built) ? &(row) : NULL)
static const struct {
    const char *name;
    unsigned char forms, bad_form;
    const mbi_integ *row;
} integs[NINTEG] = {
    [MB_RK4] = {"rk4", F_EXPL, MBI_PM_TRAP, IROW(MBI_RK4, mbi_integ_rk4)},
    [MB_DOPRI5] = {"dopri5", F_EXPL, MBI_PM_TRAP, IROW(MBI_DOPRI5, mbi_integ_dopri5)},
    [MB_TRAPEZOID] = {"trapezoid", FB(MB_ALF_TRAPEZOID), MBI_PM_TRAP, IROW(MBI_F4, mbi_integ_trapezoid)},
    [MB_DOP853] = {"dop853", F_EXPL, MBI_PM_TRAP, IROW(MBI_DOP853, mbi_integ_dop853)},
    [MB_BDF] = {"bdf", FB(MB_BAUMGARTE) | FB(MB_CANONICAL) | FB(MB_ALF_TRAPEZOID), MBI_PM_BDF,
                IROW(MBI_BDF, mbi_integ_bdf)},
    [MB_HHT] = {"hht", FB(MB_BAUMGARTE), MBI_PM_HHT_FORM, IROW(MBI_HHT, mbi_integ_hht)},
};
/* the row of a run's integrator (a build with one knows it: the calls are direct then) */
#define INTEG(s)                                                                               \
    (MBI_NINTEG > 1 ? integs[(s)->p.integrator].row : MBI_RK4 ? &mbi_integ_rk4                 \
     : MBI_DOPRI5 ? &mbi_integ_dopri5 : MBI_DOP853 ? &mbi_integ_dop853 : MBI_BDF ? &mbi_integ_bdf \
     : MBI_HHT ? &mbi_integ_hht : &mbi_integ_trapezoid)
/* What any row of this build has (a firmware's build folds the slots it lacks away): an
 * adaptive step (dopri5, dop853, bdf, the adaptive trapezoid), dense output, an undo (the
 * integrators of F1-F3). */
#define ANY_ADAPTIVE (MBI_ADAPTIVE || MBI_BDF || MBI_F4A)
#define ANY_DENSE (MBI_DENSE || MBI_BDF || MBI_F4A)
#define ANY_UNDO MBI_HAS_EB

const char *mb_formulation_name(int f) { return f >= 0 && f < 4 ? fnames[f] : "?"; }
const char *mb_integrator_name(int i) { return i >= 0 && i < NINTEG ? integs[i].name : "?"; }
int mb_formulation_parse(const char *str)
{
    for (int i = 0; i < 4; i++) if (strcmp(str, fnames[i]) == 0) return i;
    return -1;
}
int mb_integrator_parse(const char *str)
{
    for (int i = 0; i < NINTEG; i++) if (strcmp(str, integs[i].name) == 0) return i;
    return -1;
}

/* Whether the caller's view of the build (mb_sim.h: MB_BUILD_CONFIG, MB_BUILD_SIZES, expanded
 * in its compilation unit) is the runtime's. */
static int same_build(unsigned long config, unsigned long sizes)
{
    return config == MB_BUILD_CONFIG && sizes == MB_BUILD_SIZES;
}

/* float's sigma reset (docs/formulations.md, "sigma reset"; overridable for measurements) */
#ifndef MB_SIGMA_RESET_RATIO_FLOAT
#define MB_SIGMA_RESET_RATIO_FLOAT MB_R(0.1)
#endif

void mb_params_default_checked(mb_params *p, int f, unsigned long config, unsigned long sizes)
{
    if (!p || !same_build(config, sizes)) return;   /* another layout: nothing written */
    memset(p, 0, sizeof *p);
    p->formulation = f;
    p->integrator = f == MB_ALF_TRAPEZOID ? MB_TRAPEZOID : MB_RK4;
    p->h = MB_R(1e-3);
    p->rtol = MB_R(1e-6);
    p->atol = MB_R(1e-8);
    p->tol = MB_R(1e-10);
    p->max_iter = 10;
    p->max_steps = 100000000L;
    p->newton_reuse = 1;
    p->hht_alpha = MB_R(-0.05);
    switch (f) {
    case MB_BAUMGARTE: p->xi = 10; p->omega = 10; break;
    case MB_CANONICAL: p->xi = 10; p->omega = 1; break;
    case MB_ALF_EXPLICIT: p->alpha = MB_R(1e7); p->xi = 1; p->omega = 10; break;
    default: p->alpha = MB_R(1e8); p->xi = MB_R(1e4); p->omega = 1; break;
    }
#if MB_FLOAT
    /* the thesis' alpha swamps the mass matrix in 24 bits and its tol is below float's noise:
     * both chosen at reset from the model's scales (auto_penalty); hht keeps its own (0: 1e8) */
    if (f >= MB_ALF_EXPLICIT) p->alpha = 0;
    p->tol = 0;
    p->rank_tol = MB_R(1e-4);   /* scaled pivot ratio; well-posed models measure > 0.05 */
#else
    p->rank_tol = MB_R(1e-8);
#endif
    p->asm_tol = 100 * MB_EPS;
    p->asm_max_iter = 50;
    p->warn_energy = MB_R(1e-2);
    p->warn_phi = MB_R(1e-3);
    /* what p = M v + Phi_q^T sigma loses of M v is about eps x the ratio: a held load (a spring
     * held by a motor, a hanging pendulum) grows sigma linearly for ever without any error of
     * its own (tests/models/yoke_hold.lua holding its spring for 20 s: ratio 1.5e4, v within
     * 1e-8 of a --sigma-reset run, 1e5 x below its truncation error). Double warns where that
     * loss reaches the default tol 1e-10 (eps x 5e5 = 1.1e-10): M v then keeps fewer digits
     * than the iteration solves for. Float keeps 1e3 (eps x 1e3 = 1.2e-4). */
#if MB_FLOAT
    p->warn_sigma = MB_R(1e3);
    /* the explicit canonical formulations' p keeps M v to eps x sigma_ratio: reset at a tenth
     * of the momentum scale (docs/embedding.md, "The sigma reset in float"). Not F4: its sigma~
     * carries alpha x the round-off of c, up to 0.8 x |M v| from one step to the next on the A01
     * pendulum, so the test fired every other step, and its restarts of the predictor cost
     * Newton its convergence on the shaper (44 max_iter steps: a newton warning) */
    if (f == MB_CANONICAL || f == MB_ALF_EXPLICIT) p->sigma_reset_ratio = MB_SIGMA_RESET_RATIO_FLOAT;
#else
    p->warn_sigma = MB_R(5e5);
#endif
    p->warn_stability = 2;
#if MBI_ACC   /* (only where bdf or the step control is built: mb_sim.h) */
    p->warn_accuracy = MB_WARN_ACCURACY_AUTO;
#endif
}

/* The numeric parameters in checking order (MBI_PFIELDS: a table, compact code on small
 * targets). */
/* > 0, >= 0, alpha, [0, 1), int >= 1, int in 1..MB_MAX_ITER_LIMIT */
enum { PK_POS, PK_NONNEG, PK_ALPHA, PK_BELOW1, PK_INT1, PK_ITER };
#define PFIELD(f, kind) {offsetof(mb_params, f), kind},
static const struct { unsigned short off; unsigned char kind; } pfields[] = {MBI_PFIELDS(PFIELD)};
#undef PFIELD
#define NPFIELD ((int)(sizeof pfields / sizeof pfields[0]))
typedef char pfields_complete[NPFIELD == MBI_NPFIELD ? 1 : -1];

/* What mb_params_check names: the checks below return an index into this table (the numeric
 * fields of pfields first, in its order), so that a caller that does not ask (what == NULL, as
 * mb_sim_init: all a firmware calls) leaves the text out of a link-time optimized image (about
 * 1 KB on a Cortex-M). */
#define PNAME(f, kind) #f,
static const char *const pmsg[] = {
    MBI_PFIELDS(PNAME)
    "formulation", "integrator",
    "integrator (hht integrates the index-3 equations with Lagrange multipliers: "
    "formulation baumgarte only)",
    "integrator (trapezoid integrates alf-trapezoid only, and alf-trapezoid takes trapezoid or bdf)",
    "integrator (bdf: baumgarte, canonical or alf-trapezoid; alf-explicit's iterated "
    "right-hand side is too noisy for bdf's difference Jacobian)",
    "hht_alpha (in [-1/3, 0])",
    "project_velocity (not with hht: it keeps Phi = 0 at every step itself)",
    "formulation (not compiled in: MB_WITH_*)", "integrator (not compiled in: MB_WITH_*)",
    "full_jacobian (not compiled in: MB_WITH_FULL_JACOBIAN)", "dense (dopri5, dop853 and bdf only)",
    "dense (not compiled in: MB_WITH_DENSE_OUTPUT)", "adaptive (0, 1, or 2 with integrator trapezoid: the extrapolated trapezoid)",
    "adaptive (not compiled in: MB_WITH_TRAPEZOID_ADAPTIVE)", "max_steps",
    "linsys (dense not compiled in: MB_WITH_DENSE)", "linsys_ops", "events (0 or 1)",
    "events (not compiled in: MB_WITH_EVENTS)"};
#undef PNAME
typedef char pmsg_complete[(int)(sizeof pmsg / sizeof pmsg[0]) == MBI_PM_N ? 1 : -1];

/* float: alpha (F3, F4) and tol 0 ask for auto_penalty's choice (at reset); double refuses 0 */
#if MB_FLOAT
#define AUTO_OK 1
#else
#define AUTO_OK 0
#endif
/* The application allocates mb_sim_storage, the runtime uses struct mb_sim: one member list
 * (mb_sim_fields.h), so one size and alignment; checked under every switch a build compiles. */
struct sim_align { char c; struct mb_sim s; };
struct storage_align { char c; mb_sim_storage s; };
typedef char sim_storage_fits[sizeof(struct mb_sim) == sizeof(mb_sim_storage) &&
                              offsetof(struct sim_align, s) == offsetof(struct storage_align, s) ? 1 : -1];

/* The first parameter p gets wrong: its pmsg index, -1 when none. */
static int params_bad(const mb_params *p)
{
    static const unsigned char f_built[4] = {MBI_F1, MBI_F2, MBI_F3, MBI_F4};
    if (p->formulation < 0 || p->formulation > 3) return MBI_PM_FORM;
    if (p->integrator < 0 || p->integrator >= NINTEG) return MBI_PM_INTEG;
    if (!(integs[p->integrator].forms & FB(p->formulation))) return integs[p->integrator].bad_form;
    if (!f_built[p->formulation]) return MBI_PM_FORM_BUILT;
    const mbi_integ *ig = integs[p->integrator].row;
    if (!ig) return MBI_PM_INTEG_BUILT;
    int k = ig->check ? ig->check(p) : -1;
    if (k >= 0) return k;
    if (p->full_jacobian && !MBI_FJ) return MBI_PM_FJ;
    if (p->dense && !MB_ADAPTIVE(p->integrator)) return MBI_PM_DENSE;
    if (p->dense && !ig->dense) return MBI_PM_DENSE_BUILT;
    if (p->adaptive < 0 || p->adaptive > 2 || (p->adaptive == 2 && p->integrator != MB_TRAPEZOID))
        return MBI_PM_ADAPT;
    if (MB_PARAMS_ADAPTIVE(p) && !ig->step_adaptive) return MBI_PM_ADAPT_BUILT;
    for (int k = 0; k < NPFIELD; k++) {
        const char *field = (const char *)p + pfields[k].off;
        int kind = pfields[k].kind, bad;
        if (kind == PK_INT1 || kind == PK_ITER) {
            int iv;
            memcpy(&iv, field, sizeof iv);
            bad = iv < 1 || (kind == PK_ITER && iv > MB_MAX_ITER_LIMIT);
        } else {
            mb_real v;
            memcpy(&v, field, sizeof v);
            bad = !isfinite(v) || v < 0 || (kind == PK_POS && !(v > 0)) ||
                  (kind == PK_ALPHA && p->formulation >= MB_ALF_EXPLICIT && !(v > 0) && !AUTO_OK) ||
                  (kind == PK_BELOW1 && v >= 1);
            if (AUTO_OK && v == 0 && pfields[k].off == offsetof(mb_params, tol)) bad = 0;
#if MBI_ACC   /* (each estimator's own threshold) */
            if (v == MB_WARN_ACCURACY_AUTO && pfields[k].off == offsetof(mb_params, warn_accuracy)) bad = 0;
#endif
        }
        if (bad) return k;
    }
    if (p->max_steps < 1) return MBI_PM_MAX_STEPS;
    if (p->events < 0 || p->events > 1) return MBI_PM_EVENTS;
    if (p->events && !MBI_EVENTS) return MBI_PM_EVENTS_BUILT;
    if (!p->linsys_ops && p->linsys != MB_LINSYS_SPARSE &&
        !(p->linsys == MB_LINSYS_DENSE && MB_WITH_DENSE))
        return MBI_PM_LINSYS;
    if (p->linsys_ops && (!p->linsys_ops->factor || !p->linsys_ops->solve)) return MBI_PM_LINSYS_OPS;
    return -1;
}

int mb_params_check_checked(const mb_params *p, const char **what, unsigned long config,
                            unsigned long sizes)
{
    if (!same_build(config, sizes)) {
        if (what)
            *what = "the build (MB_FLOAT, MB_ONLY_* / MB_WITH_*, MB_LDL_RECIPROCAL or MB_INDEX8 / "
                    "MB_INDEX16 differ from the runtime's)";
        return MB_ERR_BUILD;
    }
    int k = params_bad(p);
    if (what) *what = k >= 0 ? pmsg[k] : NULL;
    return k >= 0 ? MB_ERR_PARAM : MB_OK;
}

/* ------------------------------------------------------------------ workspace layout */

/* lo <= v < hi; a function so that the tests stay quiet for an unsigned mb_index */
static int in_range(long v, long lo, long hi) { return v >= lo && v < hi; }

static int check_pattern(const mb_pattern *pat, int rows, int cols)
{
    if (pat->nnz < 0 || (pat->nnz > 0 && (!pat->row || !pat->col))) return 0;
    for (int k = 0; k < pat->nnz; k++) {
        if (!in_range(pat->row[k], 0, rows) || !in_range(pat->col[k], 0, cols)) return 0;
        if (k > 0 && (pat->row[k] < pat->row[k - 1] ||
                      (pat->row[k] == pat->row[k - 1] && pat->col[k] <= pat->col[k - 1]))) return 0;
    }
    return 1;
}

/* The plan must match the model's sizes and patterns (its index arrays are trusted after this:
 * every stored index is checked once here, not on every factorization). */
static int check_sym(const mb_symbolic *sy, int n)
{
    if (sy->n != n || sy->nl < 0 || sy->nupd < 0 || (n > 0 && (!sy->perm || !sy->pinv)) || !sy->lp)
        return 0;
    if (sy->lp[0] != 0 || sy->lp[n] != sy->nl || (sy->nl > 0 && !sy->li) || (sy->nupd > 0 && !sy->upd))
        return 0;
    long u = 0;
    for (int k = 0; k < n; k++) {
        if (!in_range(sy->perm[k], 0, n) || sy->pinv[sy->perm[k]] != k) return 0;
        int len = sy->lp[k + 1] - sy->lp[k];
        if (len < 0) return 0;
        for (int p = sy->lp[k]; p < sy->lp[k + 1]; p++)
            if (!in_range(sy->li[p], k + 1, n)) return 0;
        u += (long)len * (len + 1) / 2;
    }
    if (u != sy->nupd) return 0;
    for (int t = 0; t < sy->nupd; t++) if (!in_range(sy->upd[t], 0, n + sy->nl)) return 0;
    return 1;
}

static int check_map(int cnt, const mb_index *a, int lo, int hi)
{
    if (cnt > 0 && !a) return 0;
    for (int t = 0; t < cnt; t++) if (!in_range(a[t], lo, hi)) return 0;
    return 1;
}

static int check_plan(const mb_model *m)
{
    const mb_plan *P = m->plan;
    if (!P || !check_sym(&P->s, m->nc) || !check_sym(&P->a, m->nq)) return 0;
    int nnz = m->phi_q_pat.nnz, na = P->a.n + 2 * P->a.nl;
    return P->ns >= 0 && P->na >= 0 && check_map(P->ns, P->s_k, 0, nnz) &&
           check_map(P->ns, P->s_l, 0, nnz) && check_map(P->ns, P->s_dst, 0, P->s.n + P->s.nl) &&
           check_map(P->na, P->a_k, 0, nnz) && check_map(P->na, P->a_l, 0, nnz) &&
           check_map(P->na, P->a_dst, 0, P->a.n + P->a.nl) &&
           check_map(m->dq_dq_pat.nnz, P->dqq_dst, 0, na) && check_map(m->dq_dv_pat.nnz, P->dqv_dst, 0, na);
}

/* gamma is F1's only (a firmware of another formulation may omit it: MB_OMIT_GAMMA) */
static int check_model(const mb_model *m, int formulation)
{
    if (!m || m->nq <= 0 || m->nc < 0 || !m->mass || !m->q0 || !m->v0 || !m->locked ||
        !m->v_given || !m->phi || !m->phi_q || !m->phi_t || !m->phi_q_dot ||
        (formulation == MB_BAUMGARTE && !m->gamma) ||
        !m->force || !m->dforce_dq || !m->dforce_dv || !m->energy) return 0;
    for (int i = 0; i < m->nq; i++) if (!(m->mass[i] > 0)) return 0;
    if (m->npar < 0 || (m->npar > 0 && (!MB_WITH_TUNABLES || !m->par || !m->par_names || !m->par_check)) ||
        (m->npar == 0 && m->par_mass) || m->nrule < 0 || (m->nrule > 0 && !m->par_rules))
        return 0;
    if (m->npar > 0 && m->par_check(m->par) >= 0) return 0;   /* the defaults break a rule */
    if (m->nin < 0 || (m->nin > 0 && (!MB_WITH_TUNABLES || !m->in || !m->in_names)) ||
        m->nout < 0 || (m->nout > 0 && (!m->outputs || !m->out_names)) ||
        (!m->lam != !m->doutputs_dlam) || (m->doutputs_dlam && m->nout == 0))
        return 0;                                             /* inputs live beside the tunables */
#if MBI_EVENTS
    if (m->nswitch < 0 || (m->nswitch > 0 && !m->switches)) return 0;
#endif
    if (!check_plan(m)) return 0;
    return check_pattern(&m->phi_q_pat, m->nc, m->nq) && check_pattern(&m->dq_dq_pat, m->nq, m->nq) &&
           check_pattern(&m->dq_dv_pat, m->nq, m->nq);
}

/* The layout's switches for p: a build with one formulation / integrator knows them, so the
 * block sizes fold to constants. */
typedef struct { int f, ig, fj, ls, dn, ad, ne; } lay_sel;
static lay_sel lay_select(const mb_model *m, const mb_params *p)
{
    lay_sel l;
    l.f = MBI_NFORM == 1 ? MBI_ONE_FORM : p->formulation;
    l.ig = MBI_NINTEG == 1 ? MBI_ONE_INTEG : p->integrator;
    l.fj = MBI_FJ && p->full_jacobian;
    l.ls = MB_WITH_DENSE && p->linsys == MB_LINSYS_DENSE && !p->linsys_ops;
    /* events: the sensors' blocks when the model has gaps (in an adaptive run also without
     * events: the contacts' step limit, mb_event.c); dopri5's and dop853's dense output, on
     * which events are located */
    int ngap = MBI_EVENTS && (p->events || MB_PARAMS_ADAPTIVE(p)) ? mb_event_sensors(m, NULL) : 0;
    int nsw = MBI_EVENTS && p->events ? m->nswitch : 0;
    l.ne = ngap + nsw > 0 ? m->nout + nsw : 0;
    l.dn = MBI_DENSE && (p->dense || (p->events && ngap > 0));
    l.ad = MBI_F4A && l.ig == MB_TRAPEZOID ? p->adaptive : 0;
    return l;
}
#define LAY_ARGS(l, m) (l).f, (l).ig, (l).fj, (l).ls, (l).dn, (l).ad, (m)->nq, (m)->nc,         \
    (m)->phi_q_pat.nnz, (m)->dq_dq_pat.nnz, (m)->dq_dv_pat.nnz, (m)->plan->s.nl, (m)->plan->a.nl, \
    (m)->npar, (m)->par_mass ? (m)->nq : 0, (m)->nin, (l).ne, (m)->doutputs_dlam != NULL
#define LAY_APPLY(mac, ...) mac(__VA_ARGS__)   /* LAY_ARGS expanded into mac's arguments */

/* The workspace's bytes: the sum of the block list (no mb_sim needed: a temporary one to lay out
 * into would be 1.2 KB of stack, the firmware's deepest frame). */
static size_t layout_bytes(const mb_model *m, const mb_params *p)
{
    lay_sel l = lay_select(m, p);
    return LAY_APPLY(MB_LAYOUT_BYTES, LAY_ARGS(l, m));
}

/* Bump allocator over the caller's memory. Blocks are rounded to MB_LAYOUT_ALIGN, so the total
 * is exactly MB_LAYOUT_BYTES (mb_layout.h). Empty blocks are NULL. */
typedef struct { char *base; size_t off; } arena;
static void *take(arena *a, size_t bytes)
{
    size_t off = a->off;
    a->off = off + MB_LAYOUT_ROUND(bytes);
    return bytes > 0 ? a->base + off : NULL;
}

/* The blocks on work (of at least layout_bytes). */
static void layout(mb_sim *s, const mb_model *m, const mb_params *p, void *work)
{
    arena a = {(char *)work, 0};
    lay_sel l = lay_select(m, p);
#define TAKE_R(field, count) s->field = take(&a, sizeof(mb_real) * (size_t)(count));
#define TAKE_J(field, count) s->field = take(&a, sizeof(int) * (size_t)(count));
#define TAKE_A(field, base, c) if (c) s->field = s->base;   /* shared (mb_layout.h) */
    LAY_APPLY(MB_LAYOUT, TAKE_R, TAKE_J, TAKE_A, LAY_ARGS(l, m))
#undef TAKE_R
#undef TAKE_J
#undef TAKE_A
}

size_t mb_sim_workspace_size_checked(const mb_model *m, const mb_params *p, unsigned long config,
                                     unsigned long sizes)
{
    if (!same_build(config, sizes) || !p || mb_params_check(p, NULL) != MB_OK ||
        !check_model(m, p->formulation))
        return 0;
    return layout_bytes(m, p);
}

int mb_sim_init_checked(mb_sim *s, const mb_model *m, const mb_params *p, void *work, size_t size,
                        unsigned long config, unsigned long sizes)
{
    if (!same_build(config, sizes)) return MB_ERR_BUILD;   /* before touching s or p */
    if (!s || !p) return MB_ERR_PARAM;
    memset(s, 0, sizeof *s);
    if (mb_params_check(p, NULL) != MB_OK) return MB_ERR_PARAM;
    if (!check_model(m, p->formulation)) return MB_ERR_MODEL;
    if (!work || ((size_t)work % sizeof(mb_real)) != 0) return MB_ERR_WORKSPACE;
    if (size < layout_bytes(m, p)) return MB_ERR_WORKSPACE;
    layout(s, m, p, work);
    memset(work, 0, size);
    s->m = m;
#if MB_WITH_TUNABLES
    if (m->npar > 0 || m->nin > 0) {  /* the tunables and inputs: own copies of the descriptor,
                                       * par, the inputs' holds (mb_input.c) and M */
        s->mloc = *m;
        for (int i = 0; i < m->npar; i++) s->par[i] = m->par[i];
        for (int i = 0; i < 3 * m->nin; i++) s->hold[i] = m->in[i];
        if (m->npar > 0) s->mloc.par = s->par;
        if (m->nin > 0) s->mloc.in = s->hold;
        if (m->par_mass) {
            s->mloc.mass = s->pmass;
            m->par_mass(&s->mloc, s->pmass);
        }
        s->m = &s->mloc;
    }
#endif
    s->p = *p;
#if MB_FLOAT
    s->auto_alpha = p->alpha == 0 && p->formulation >= MB_ALF_EXPLICIT && p->integrator != MB_HHT;
    s->auto_tol = p->tol == 0;
#endif
    s->n = m->nq;
    s->nc = m->nc;
    s->nnz = m->phi_q_pat.nnz;
    s->nz = 2 * s->n + (p->formulation == MB_BAUMGARTE ? 0 : s->nc);
#if MBI_HAS_KKT
    if (s->minv) for (int i = 0; i < s->n; i++) s->minv[i] = 1 / m->mass[i];
#endif
    s->mon.singular_row = -1;
#if MBI_HAS_EV
    if (s->evk) {                          /* (an adaptive run's gaps also without p.events) */
        s->ngap = mb_event_sensors(m, s->evk);
        s->nev = p->events ? s->ngap : 0;
        s->nsw = p->events ? m->nswitch : 0;
        s->ev_on = s->nev + s->nsw > 0;
    }
#endif
#if MBI_HAS_EB
    /* the fastest rate of the stabilization's constraint dynamics, Phi'' + 2 xi w Phi' + w^2 Phi
     * = 0 (F1; F2, F3 in Phi and Int Phi): w (xi + sqrt(xi^2 - 1)), w for xi < 1 */
    if (m->nc > 0 && p->formulation != MB_ALF_TRAPEZOID && p->integrator != MB_HHT)
        s->stab_rate = p->xi >= 1 ? p->omega * (p->xi + MB_SQRT(p->xi * p->xi - 1)) : p->omega;
#endif
    return MB_OK;
}

/* ------------------------------------------------------------------ tunable parameters */

int mb_sim_param_index(const mb_sim *s, const char *name)
{
    const mb_model *m = s->m;
    if (!m || !name) return -1;
    for (int i = 0; i < m->npar; i++) {
        const char *a = m->par_names[i], *b = name;
        while (*a && *a == *b) { a++; b++; }
        if (*a == 0 && *b == 0) return i;
    }
    return -1;
}

int mb_sim_set_param(mb_sim *s, int i, mb_real value, int *rule)
{
    if (rule) *rule = -1;
    if (!s->m) return MB_ERR_STATE;
    /* a subnormal value keeps too few digits and its reciprocal overflows (as --set says) */
    if (i < 0 || i >= s->m->npar || !isfinite(value) ||
        (value != 0 && !(value >= MB_REAL_MIN || -value >= MB_REAL_MIN)))
        return MB_ERR_PARAM;
#if MBI_HAS_TUN                            /* (else npar is 0: mb_sim_init refuses tunables) */
    mb_real old = s->par[i];
    s->par[i] = value;
    int r = s->m->par_check(s->par);
    if (r >= 0) {                          /* refused: the previous value stays */
        s->par[i] = old;
        if (rule) *rule = r;
        return MB_ERR_PARAM;
    }
    if (s->m->par_mass) {
        s->m->par_mass(s->m, s->pmass);
        for (int k = 0; k < s->n; k++)
            if (!(s->pmass[k] >= MB_REAL_MIN)) {   /* a rule should have said so; never run with it
                                                    (1 / pmass must stay finite) */
                s->par[i] = old;
                s->m->par_mass(s->m, s->pmass);
                return MB_ERR_PARAM;
            }
#if MBI_HAS_KKT
        if (s->minv) for (int k = 0; k < s->n; k++) s->minv[k] = 1 / s->pmass[k];
#endif
    }
    s->ready = 0;                          /* the state (p = M v, energies) needs a new reset */
    return MB_OK;
#else
    return MB_ERR_PARAM;
#endif
}

mb_real mb_sim_get_param(const mb_sim *s, int i)
{
#if MBI_HAS_TUN
    return s->m && i >= 0 && i < s->m->npar ? s->par[i] : 0;
#else
    (void)s; (void)i;
    return 0;
#endif
}

const mb_model *mb_sim_model(const mb_sim *s) { return s->m; }

/* The length scale of the constraint warning: p.length_scale, else the largest of the bodies'
 * sizes sqrt(12 J / m) (a uniform bar's length) and the diagonal of the box around their
 * centres of mass at q. */
static mb_real length_scale(const mb_sim *s, const mb_real *q)
{
    const mb_real *mass = s->m->mass;
    if (s->p.length_scale > 0) return s->p.length_scale;
    mb_real size = 0, lo[2] = {0, 0}, hi[2] = {0, 0};
    for (int b = 0; b < s->m->nbody; b++) {
        int k = mb_body_q(s->m, b);
        if (k + 1 >= s->n) break;
        /* a particle (2 coordinates) has no size of its own */
        mb_real r = mb_body_nq(s->m, b) == 3 ? MB_SQRT(12 * mass[k + 2] / mass[k]) : 0;
        if (r > size) size = r;
        for (int d = 0; d < 2; d++) {
            mb_real x = q[k + d];
            if (b == 0 || x < lo[d]) lo[d] = x;
            if (b == 0 || x > hi[d]) hi[d] = x;
        }
    }
    mb_real box = MB_HYPOT(hi[0] - lo[0], hi[1] - lo[1]);
    return box > size ? box : size;
}

#if MB_FLOAT
/* alpha and tol from the model's scales and the precision, at the assembled state (t0, z, v):
 * - alpha, the penalty term alpha Phi_q^T Phi_q against the mass matrix M (diagonal): at most
 *   m_max / sqrt(eps), m_max M's largest entry (its spectrum's top: alpha / m_max of the
 *   penalty's stiffness per unit mass; 2.9e3 m_max in float, the solve keeps half the digits;
 *   in double the same rule gives 6.7e7 m_max, the thesis' 1e8 on its unit pendulum). With
 *   drivers (Phi_t != 0) alpha also sets the noise of their work (mb_monitor.c, f4_work_floor:
 *   F4_FLOOR alpha eps (1 + |q|) / h |Phi_t| per row, the velocity's rounding eps |q| / h times
 *   alpha in sigma): at most a tenth of the kinetic energy T0 the drivers start with, so the
 *   energy test keeps its meaning (Jansen's linkage, h = 1e-3: alpha 9.7 instead of 4.4e3, whose
 *   floor of 290 J was 14 times its energy scale; the gear train 0.041, its T0 5 mJ), never
 *   below sqrt(eps) m_max. Drivers that start at rest (T0 = 0) leave the first bound.
 * - tol: 20 eps of the state's size (|q|_2, at least the length scale; before every step at
 *   least 2 eps |q|_inf: auto_tol): a few ulps of the state (the iteration stops at its
 *   rounding floor anyway: mb_trapezoid.c, NEWTON_ROUNDOFF, NEWTON_FLOOR); 100 eps left the
 *   slider-crank 4.4e-3 m off the double run, 20 eps 6.5e-4.
 * Measured on the shipped models and tests/models/jansen.lua (tests/test_float_defaults.c,
 * docs/embedding.md "Single precision"). */
static mb_real length_scale(const mb_sim *s, const mb_real *q);
/* tol before every step: the reset's choice (tol0), at least 2 eps |q|_inf, a correction's
 * rounding (a crank's angle grows: at 377 rad, after 60 turns, the Jansen linkage's tol0 of 9.5e-6
 * was below its ulp and 494 steps ended at max_iter with a newton warning; 20 eps |q|_2 at every
 * step instead loosened the slider-crank, whose crank angle grows to 20 rad in 1 s, from 1.2e-3
 * to 1.4e-2 m off the double run) */
static void auto_tol(mb_sim *s)
{
    mb_real y = 2 * MB_EPS * nrminf(s->n, s->z);
    s->p.tol = y > s->tol0 ? y : s->tol0;
}
static void auto_penalty(mb_sim *s, mb_real t0)
{
    const mb_model *m = s->m;
    int n = s->n;
    if (s->auto_alpha) {
        const mb_pattern *P = &m->phi_q_pat;
        mb_real mmax = 0, t = 0, drv = 0, qm = 0;
        for (int i = 0; i < n; i++) {
            if (m->mass[i] > mmax) mmax = m->mass[i];
            t += m->mass[i] * s->v[i] * s->v[i] / 2;
        }
        mbi_eval_kin(s, t0, s->z);
        for (int k = 0; k < P->nnz; k++) {   /* (the pattern is sorted by row) */
            mb_real a = MB_FABS(s->z[P->col[k]]);
            if (a > qm) qm = a;
            if (k + 1 == P->nnz || P->row[k + 1] != P->row[k]) {
                drv += MB_FABS(s->Phit[P->row[k]]) * (1 + qm);
                qm = 0;
            }
        }
        mb_real a = mmax / MB_SQRT(MB_EPS);
        if (drv > 0 && t > 0) {   /* (drivers that start at rest: no energy to scale with) */
            mb_real ad = MB_R(0.1) * t * s->p.h / (F4_FLOOR * MB_EPS * drv);
            mb_real lo = MB_SQRT(MB_EPS) * mmax;
            if (ad < a) a = ad > lo ? ad : lo;
        }
        s->p.alpha = a;
    }
    if (s->auto_tol) {
        mb_real y = nrm2(n, s->z), l = length_scale(s, s->z);
        s->tol0 = 20 * MB_EPS * (y > l ? y : l);
        auto_tol(s);
    }
}
#endif

/* ------------------------------------------------------------------ reset and step */


int mb_sim_reset(mb_sim *s, mb_real t0, const mb_real *q, const mb_real *v, int assemble)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc, st;
    if (!m) return MB_ERR_STATE;
    s->ready = 0;
    if (!isfinite(t0)) return MB_ERR_PARAM;
    memset(&s->mon, 0, sizeof s->mon);
    s->mon.singular_row = -1;
#if MBI_HAS_EB
    s->stab_run = 0;
#endif
    /* the sine cache empty (NaN angles): a run from reset repeats bit for bit */
#if MBI_HAS_TRIG
    for (int i = 0; i < MB_TRIG_ENTRY * n; i++) s->trig[i] = (mb_real)NAN;
#endif
    zero(s->nz, s->z);
    copy(n, s->z, q ? q : m->q0);
    copy(n, s->v, v ? v : m->v0);
    if (!finite_vec(n, s->z) || !finite_vec(n, s->v)) return MB_ERR_NONFINITE;
    s->t = t0;
    if (assemble && (st = mb_sim_assemble(s, t0, s->z, s->v, NULL))) return st;
    zero(nc, s->sig);
    zero(nc, s->ev_sig);
    if (s->lam) { zero(nc, s->lam); zero(nc, s->ev_lam); }
    copy(n, s->ev_v, s->v);
    if (s->p.formulation == MB_BAUMGARTE) copy(n, s->z + n, s->v);
    else for (int i = 0; i < n; i++) s->z[n + i] = m->mass[i] * s->v[i];   /* 5.19 */
#if MB_FLOAT
    if (s->auto_alpha || s->auto_tol) auto_penalty(s, t0);
#endif
    if ((st = INTEG(s)->start(s, t0))) return st;
    s->h_next = s->p.h;
    s->nhist = 0;                          /* F4's first step: Euler predictor */
    s->reuse_wait = s->reuse_slow = s->kin_fresh = 0;
#if MBI_HAS_F4A
    s->nqh = 0;
    s->td_t0 = t0;                         /* no step to interpolate */
#endif
#if MBI_HAS_BDF
    s->bok = 0;                            /* bdf: a new Nordsieck array at the first step */
#endif
#if MBI_HAS_GE
    s->ge_n = -2;                          /* the accuracy companion starts anew, its estimate
                                            * cleared (mb_rk.c, ge_sync) */
#endif
    s->t_grid0 = t0;
    s->nfixed = 0;
#if MBI_HAS_EB
    s->dense_state = 0;
#endif
    s->energy_armed = 0;
    mb_real pnc, pdrv;
    mbi_measure(s, &pnc, &pdrv);
    s->pnc = pnc;
    s->pdrv = pdrv;
    copy(nc, s->ptq, s->Phit);
    s->mon.E0 = s->mon.T + s->mon.V;
    s->mon.V0 = s->mon.V;
    s->mon.W = 0;
    s->mon.lscale = length_scale(s, s->z);
    mbi_update_max(s);
#if MBI_HAS_EV
    s->ev_cut = 0;
    s->ev_tlast = (mb_real)NAN;
    s->ev_offgrid = 0;
    if (s->nev || s->nsw) mbi_event_gaps(s, t0, s->z, s->evw);
#endif
    s->ready = 1;
    return MB_OK;
}

#if MBI_HAS_KKT
/* The step came near a singular position: its smallest pivot ratio of S below sqrt(rank_tol). */
static int near_singular(const mb_sim *s)
{
    return s->step_ratio < 0 || s->step_ratio * s->step_ratio < s->p.rank_tol;
}
#endif

/* A failed step of F1 or F2 that came near a singular position (its smallest pivot ratio of S
 * below sqrt(rank_tol)): the non-finite state, the step size underflow or the broken energy
 * balance it ended in are the rank loss, named by the constraint of that pivot. */
static int singular_step(mb_sim *s, int st)
{
    (void)s;                               /* (a build with neither) */
#if MBI_HAS_EB
    s->dense_state = 0;
#endif
#if MBI_HAS_KKT
    if (s->p.formulation <= MB_CANONICAL && near_singular(s) &&
        (st == MB_ERR_NONFINITE || st == MB_ERR_STEP_UNDERFLOW || st == MB_ERR_SINGULAR)) {
        if (st != MB_ERR_SINGULAR || s->mon.singular_row < 0) s->mon.singular_row = s->step_row;
        if (s->step_ratio < s->mon.min_pivot_ratio || s->mon.min_pivot_ratio == 0)
            s->mon.min_pivot_ratio = s->step_ratio;   /* (a rolled-back monitor lost it) */
        return MB_ERR_SINGULAR;
    }
#endif
    return st;
}

/* The monitors and warnings after a step, out of line (MB_NOINLINE): their frames then come after
 * the step's, not under it (with LTO mb_sim_step's frame, on the firmware's deepest path, Andrews
 * lean: 72 bytes, 144 with them inlined). */
static MB_NOINLINE void step_monitor(mb_sim *s, mb_real h, mb_real pnc0, mb_real pdrv0)
{
    mbi_advance_monitor(s, h, pnc0, pdrv0, NULL);
}
static MB_NOINLINE unsigned step_warnings(mb_sim *s, long maxiter_before)
{
    return mbi_warnings(s, maxiter_before);
}

#if MBI_HAS_EV
/* A fixed-step run after a switch's jump to s->t: the grid point t_plan (t_stop when last)
 * reached, or the next step ends on it from off the grid. */
static void switch_grid(mb_sim *s, mb_real t_plan, int last)
{
    s->ev_offgrid = s->t < t_plan;
    if (s->ev_offgrid) return;
    if (last) { s->t_grid0 = s->t; s->nfixed = 0; }
    else s->nfixed++;
}

/* A fixed step with switches, or off the grid after an event (out of line: the plain step
 * pays one test): the first switch before the grid point *t_new ends the step ttol before it
 * (1; mb_event.c) or is jumped at once (2: the step done); else, off the grid, the step ends on
 * the grid point with h the rest to it. */
static MB_NOINLINE int fixed_before(mb_sim *s, const mbi_integ *ig, mb_real *h, mb_real *t_new,
                                    int last)
{
    int sw = 0;
    s->ev_fixed = 1;
    s->ev_tplan = *t_new;
    s->ev_lastplan = last;
    if (s->nsw) {
        sw = mbi_switch_clip(s, ig, *t_new, &s->ev_te, &s->ev_tj);
        if (sw < 0) return sw;
        if (sw == 2) {
            switch_grid(s, *t_new, last);
            return 2;
        }
    }
    if (sw == 1) { *t_new = s->ev_te; *h = s->ev_te - s->t; }
    else if (s->ev_offgrid) *h = *t_new - s->t;
    s->ev_offgrid = 0;                     /* (switch_grid sets it again after a jump) */
    return sw;
}

/* After a step that was to end before a switch: reached there, the jump (and a fixed step's
 * grid); short of it (an adaptive trial rejected, a gap's cut), nothing: the next step looks
 * again. */
static MB_NOINLINE int switch_after(mb_sim *s, const mbi_integ *ig)
{
    if (s->t != s->ev_te) return MB_OK;
    int st = mbi_switch_jump(s, ig, s->ev_tj);
    if (st < 0) return st;
    if (s->ev_fixed) switch_grid(s, s->ev_tplan, s->ev_lastplan);
    return MB_OK;
}

/* mb_sim_step's fixed step in a run with events (gaps or switches; out of line, so that the
 * plain fixed step pays one test): the grid as there, the step ended before a switch ahead or
 * the switch jumped at once (*sw 1, 2: fixed_before), off the grid after an event the step to
 * the grid point; a step the trapezoid cut at a gap's root leaves the next off the grid. The
 * step's status, or singular_step's. */
static MB_NOINLINE int fixed_step_events(mb_sim *s, const mbi_integ *ig, const mbi_step0 *b,
                                         mb_real t_stop, mb_real rem, int *sw)
{
    mb_real h = s->p.h;
    int last = rem <= h * MB_R(1.01);
    if (last) h = rem;
    mb_real t_new = last ? t_stop : s->t_grid0 + (mb_real)(s->nfixed + 1) * h;
    int st = fixed_before(s, ig, &h, &t_new, last);
    if (st < 0) return singular_step(s, st);
    *sw = st;
    if (st == 2) return MB_OK;
    st = ig->step(s, h, t_new);
    if (st < 0) return singular_step(s, st);
#if MBI_HAS_TN7 && (MBI_RK4 || MBI_HHT)
    /* rk4, hht: a gap's root inside the step (mb_event.c): the step undone and taken again to
     * it (rk4: f at the start again, the undo drops it; hht: its a and lambda at the start
     * back), the rest to the grid point the next step's */
    mb_real tr;
    if (s->nev && (s->p.integrator == MB_RK4 || s->p.integrator == MB_HHT) &&
        mbi_event_trial(s, b->t_start, t_new, &tr)) {
#if MBI_HHT
        if (s->p.integrator == MB_HHT) st = mbi_hht_undo(s, b->t_start);
        else
#endif
        {
            ig->undo(s, b->t_start, MB_OK);
            st = ig->restart(s, s->t);
        }
        if (st < 0) return singular_step(s, st);
        st = ig->step(s, tr - s->t, tr);
        if (st < 0) return singular_step(s, st);
        mbi_event_trial_cut(s, tr);
    }
#endif
    int cut = s->t != t_new;
    if (cut) h = s->t - b->t_start;
    step_monitor(s, h, b->pnc0, b->pdrv0);
    if (ANY_UNDO && ig->undo && !isfinite(s->mon.energy_dev)) {   /* energies or work overflow */
        s->mon = b->mon0; s->pnc = b->pnc0; s->pdrv = b->pdrv0;
        st = ig->undo(s, b->t_start, MB_ERR_NONFINITE);
        mbi_event_undo(s, b);              /* (a retaken step: its cut's time) */
        return singular_step(s, st);
    }
    if (cut) s->ev_offgrid = 1;            /* the next step ends on the grid point */
    else if (*sw == 1) {}                  /* before a switch: the grid resumed after the jump */
    else if (last) { s->t_grid0 = s->t; s->nfixed = 0; }
    else s->nfixed++;
    return st;
}
#endif

int mb_sim_step(mb_sim *s, mb_real t_stop)
{
    int st = MB_OK, nc = s->nc;
#if MBI_HAS_EV
    int st2;
    s->ev_cut = 0;
#endif
    if (!s->ready) return MB_ERR_STATE;
    mb_real rem = t_stop - s->t;
    if (!isfinite(t_stop) || !(rem > 0)) return MB_ERR_PARAM;
    if (s->mon.steps >= s->p.max_steps) return MB_ERR_MAX_STEPS;   /* state kept: the last step */
    const mbi_integ *ig = INTEG(s);
#if MBI_HAS_EB
    if (!s->have_f && ig->restart &&      /* after a failed step */
        (st = ig->restart(s, s->t)) < 0) return st;
#endif
#if MBI_HAS_EV
    int sw = 0;                            /* a switch ahead: 1 the step ends before it */
#endif
    mbi_step0 b;
    b.pnc0 = s->pnc;
    b.pdrv0 = s->pdrv;
    b.t_start = s->t;
    b.mon0 = s->mon;
#if MBI_STEP_H0
    b.h0 = s->h_next;
#endif
#if MBI_HAS_EV
    b.ev_tlast0 = s->ev_tlast;
#endif
#if MB_FLOAT
    if (s->auto_tol) auto_tol(s);
#endif
    copy(nc, s->S0, s->S);              /* S at the start of the step */
#if MBI_HAS_EB
    if (s->zold) {                         /* F1-F3: for the undo */
        copy(s->nz, s->zold, s->z);
        copy(s->n, s->v0, s->v);
    }
#endif
#if MBI_HAS_KKT
    s->step_ratio = 1;
    s->step_row = -1;
#endif
    /* MB_PARAMS_ADAPTIVE (mb_params_check: an adaptive run has the slot) */
    if (ANY_ADAPTIVE && (!ig->step || (s->p.adaptive && ig->step_adaptive))) {   /* the monitor advanced by the step */
#if MBI_HAS_EV
        /* no step across a whole contact: the open gaps' time to close (mb_event.c) */
        s->ev_hmax = s->ngap ? mbi_contact_hmax(s, t_stop) : 0;
        if (s->nsw) {                      /* switches (step{}): mb_event.c */
            s->ev_fixed = 0;
            sw = mbi_switch_clip(s, ig, mbi_switch_horizon(s, t_stop), &s->ev_te, &s->ev_tj);
            if (sw < 0) return singular_step(s, sw);
            if (sw == 2) return MB_OK;     /* jumped: the step done */
            if (sw == 1) t_stop = s->ev_te;
        }
#endif
        st = ig->step_adaptive(s, t_stop, &b);
        if (st < 0) return singular_step(s, st);
    } else
#if MBI_HAS_EV
    if (s->ev_on) {                        /* gaps or switches: out of line */
        st = fixed_step_events(s, ig, &b, t_stop, rem, &sw);
        if (st < 0) return st;
        if (sw == 2) return MB_OK;         /* a switch jumped: the step done */
    } else
#endif
    {
        mb_real h = s->p.h;
        /* the last step may be up to 1% longer than h, so no sliver step follows; times on the
         * grid are t0 + k h (no accumulated rounding) */
        int last = rem <= h * MB_R(1.01);
        if (last) h = rem;
        mb_real t_new = last ? t_stop : s->t_grid0 + (mb_real)(s->nfixed + 1) * h;
        st = ig->step(s, h, t_new);
        if (st < 0) return singular_step(s, st);
        step_monitor(s, h, b.pnc0, b.pdrv0);
        if (ANY_UNDO && ig->undo && !isfinite(s->mon.energy_dev)) {   /* energies or work overflow */
            s->mon = b.mon0; s->pnc = b.pnc0; s->pdrv = b.pdrv0;
            return singular_step(s, ig->undo(s, b.t_start, MB_ERR_NONFINITE));
        }
        if (last) { s->t_grid0 = s->t; s->nfixed = 0; }   /* a clipped step starts a new grid */
        else s->nfixed++;
    }
#if MBI_HAS_EV
    /* events: a gap's sign change inside the step located and the step cut there (adaptive runs
     * of the explicit formulations), else counted (mb_event.c); the warnings then see the step
     * as cut */
    if (s->ev_on && (st2 = mbi_event_step(s, ig, &b)) < 0) return singular_step(s, st2);
    /* a step that reached the switch's left side: the jump to its right */
    if (sw == 1 && (st2 = switch_after(s, ig)) < 0) return singular_step(s, st2);
#endif
    unsigned now = step_warnings(s, b.mon0.maxiter_events);
    (void)now;                             /* unused without F1 and F2 */
#if MBI_HAS_KKT
    /* F1, F2: a step that came near a singular position (smallest pivot ratio of S below
     * sqrt(rank_tol)) and left the energy balance or the constraints (the warnings' tests) has
     * not passed it: undone and reported as the rank loss it is (never a garbage state) */
    if (s->p.formulation <= MB_CANONICAL && near_singular(s) &&
        (now & (MB_WARN_BIT(MB_WARN_ENERGY) | MB_WARN_BIT(MB_WARN_CONSTRAINT)))) {
        s->mon = b.mon0; s->pnc = b.pnc0; s->pdrv = b.pdrv0;
        s->dense_state = 0;
        ig->undo(s, b.t_start, MB_ERR_SINGULAR);
#if MBI_STEP_H0
        s->h_next = b.h0;                  /* not the discarded step's proposal */
#endif
#if MBI_HAS_EV
        if (s->ev_on) mbi_event_undo(s, &b);   /* the gaps and last cut not the discarded end's */
#endif
        return singular_step(s, MB_ERR_SINGULAR);
    }
#endif
    s->mon.steps++;
    if (s->p.strict && (s->mon.warn & ~b.mon0.warn)) return MB_ERR_SUSPECT;
    return st;
}

int mb_sim_dense(mb_sim *s, mb_real t, mb_real *q, mb_real *v, mb_monitor *mo)
{
    const mbi_integ *ig = ANY_DENSE && s->m ? INTEG(s) : NULL;
    return ig && ig->dense ? ig->dense(s, t, q, v, mo) : MB_ERR_STATE;
}

int mb_sim_finish(mb_sim *s)
{
    if (!s->ready) return MB_ERR_STATE;
#if MBI_GE || MBI_XGE
    unsigned w0 = s->mon.warn;
    int done = 0;
#if MBI_GE
    done |= mbi_rk_finish(s);
#endif
#if MBI_XGE
    done |= mbi_trap_finish(s);
#endif
    if (done) mbi_warnings(s, s->mon.maxiter_events);   /* (the same state: only err_sum is new) */
    if (s->p.strict && (s->mon.warn & ~w0)) return MB_ERR_SUSPECT;
#endif
    return MB_OK;
}

mb_real mb_sim_get_t(const mb_sim *s) { return s->t; }
const mb_real *mb_sim_get_q(const mb_sim *s) { return s->z; }
const mb_real *mb_sim_get_v(const mb_sim *s) { return s->v; }
const mb_real *mb_sim_get_p(const mb_sim *s)
{
    return s->p.formulation == MB_BAUMGARTE ? NULL : s->z + s->n;
}
const mb_real *mb_sim_get_sigma(const mb_sim *s)
{
    return s->p.formulation == MB_BAUMGARTE ? NULL : s->sig;
}
const mb_monitor *mb_sim_get_monitor(const mb_sim *s) { return &s->mon; }
mb_real mb_sim_get_h(const mb_sim *s)
{
    return MB_PARAMS_ADAPTIVE(&s->p) ? s->h_next : s->p.h;
}

const mb_params *mb_sim_get_params(const mb_sim *s)
{
    return &s->p;
}

int mb_sim_set_redundant_rows(mb_sim *s, const unsigned char *rows)
{
#if MB_WITH_REDUNDANT_ROWS
    s->p.redundant_rows = rows;
    return MB_OK;
#else
    (void)s;
    return rows ? MB_ERR_PARAM : MB_OK;
#endif
}
