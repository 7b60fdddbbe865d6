/* mb_sim.c - the runtime API: names, parameters, workspace layout, init, reset and the step
 * orchestration over the formulation and integrator files, getters. Layer: runtime core
 * (mb_sim_impl.h); never allocates or prints; every array lives in the caller's workspace. */
#include <stddef.h>
#include <string.h>
#include "mb_sim_impl.h"

/* ------------------------------------------------------------------ names and parameters */

static const char *const fnames[] = {"baumgarte", "canonical", "alf-explicit", "alf-trapezoid"};
/* indexed by MB_RK4 ...; a value without a name (none compiled here) is NULL */
#define NINTEG 6
static const char *const inames[NINTEG] = {[MB_RK4] = "rk4", [MB_DOPRI5] = "dopri5",
                                           [MB_TRAPEZOID] = "trapezoid", [MB_DOP853] = "dop853",
                                           [MB_BDF] = "bdf", [MB_HHT] = "hht"};

const char *mb_formulation_name(int f) { return f >= 0 && f < 4 ? fnames[f] : "?"; }
const char *mb_integrator_name(int i) { return i >= 0 && i < NINTEG && inames[i] ? inames[i] : "?"; }
int mb_formulation_parse(const char *str)
{
    for (int i = 0; i < 4; i++) if (strcmp(str, fnames[i]) == 0) return i;
    return -1;
}
int mb_integrator_parse(const char *str)
{
    for (int i = 0; i < NINTEG; i++) if (inames[i] && strcmp(str, inames[i]) == 0) return i;
    return -1;
}

/* Whether the caller's view of the build (mb_sim.h: MB_BUILD_CONFIG, MB_BUILD_SIZES, expanded
 * in its compilation unit) is the runtime's. */
static int same_build(unsigned long config, unsigned long sizes)
{
    return config == MB_BUILD_CONFIG && sizes == MB_BUILD_SIZES;
}

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
#ifdef MB_FLOAT
    p->rank_tol = MB_R(1e-4);   /* scaled pivot ratio; well-posed models measure > 0.05 */
#else
    p->rank_tol = MB_R(1e-8);
#endif
    p->asm_tol = 100 * MB_EPS;
    p->asm_max_iter = 50;
    p->warn_energy = MB_R(1e-2);
    p->warn_phi = MB_R(1e-3);
    p->warn_sigma = MB_R(1e3);
    p->warn_stability = 2;
}

/* The numeric parameters in checking order (a table: compact code on small targets). */
/* > 0, >= 0, alpha, [0, 1), int >= 1, int in 1..MB_MAX_ITER_LIMIT */
enum { PK_POS, PK_NONNEG, PK_ALPHA, PK_BELOW1, PK_INT1, PK_ITER };
#define PFIELDS(X)                                                                               \
    X(h, PK_POS) X(rtol, PK_POS) X(atol, PK_POS) X(h_min, PK_NONNEG) X(h_max, PK_NONNEG)         \
    X(alpha, PK_ALPHA) X(xi, PK_NONNEG) X(omega, PK_NONNEG) X(tol, PK_POS) X(max_iter, PK_ITER)  \
    X(sigma_reset, PK_NONNEG) X(baumgarte_cap, PK_NONNEG) X(rank_tol, PK_BELOW1)                 \
    X(asm_tol, PK_POS) X(asm_max_iter, PK_INT1) X(warn_energy, PK_NONNEG)                        \
    X(warn_phi, PK_NONNEG) X(warn_sigma, PK_NONNEG) X(warn_stability, PK_NONNEG)                 \
    X(length_scale, PK_NONNEG)
#define PFIELD(f, kind) {offsetof(mb_params, f), kind},
static const struct { unsigned short off; unsigned char kind; } pfields[] = {PFIELDS(PFIELD)};
#undef PFIELD
#define NPFIELD ((int)(sizeof pfields / sizeof pfields[0]))

/* What mb_params_check names: the checks below return an index into this table (the numeric
 * fields of pfields first, in its order), so that a caller that does not ask (what == NULL, as
 * mb_sim_init: all a firmware calls) leaves the text out of a link-time optimized image (about
 * 1 KB on a Cortex-M). */
#define PNAME(f, kind) #f,
static const char *const pmsg[] = {
    PFIELDS(PNAME)
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
    "linsys (dense not compiled in: MB_WITH_DENSE)", "linsys_ops"};
#undef PNAME
enum { PM_FORM = NPFIELD, PM_INTEG, PM_HHT_FORM, PM_TRAP, PM_BDF, PM_HHT_ALPHA, PM_HHT_PROJ,
       PM_FORM_BUILT, PM_INTEG_BUILT, PM_FJ, PM_DENSE, PM_DENSE_BUILT, PM_ADAPT, PM_ADAPT_BUILT,
       PM_MAX_STEPS, PM_LINSYS, PM_LINSYS_OPS, PM_N };
typedef char pmsg_complete[(int)(sizeof pmsg / sizeof pmsg[0]) == PM_N ? 1 : -1];

/* The first parameter p gets wrong: its pmsg index, -1 when none. */
static int params_bad(const mb_params *p)
{
    static const unsigned char f_built[4] = {MBI_F1, MBI_F2, MBI_F3, MBI_F4};
    static const unsigned char i_built[NINTEG] = {[MB_RK4] = MBI_RK4, [MB_DOPRI5] = MBI_DOPRI5,
                                                  [MB_TRAPEZOID] = MBI_F4, [MB_DOP853] = MBI_DOP853,
                                                  [MB_BDF] = MBI_BDF, [MB_HHT] = MBI_HHT};
    if (p->formulation < 0 || p->formulation > 3) return PM_FORM;
    if (p->integrator < 0 || p->integrator >= NINTEG || !inames[p->integrator]) return PM_INTEG;
    if (p->integrator == MB_HHT && p->formulation != MB_BAUMGARTE) return PM_HHT_FORM;
    if (p->integrator == MB_TRAPEZOID ? p->formulation != MB_ALF_TRAPEZOID
        : p->formulation == MB_ALF_TRAPEZOID && p->integrator != MB_BDF)
        return PM_TRAP;
    if (p->integrator == MB_BDF && p->formulation == MB_ALF_EXPLICIT) return PM_BDF;
    if (p->integrator == MB_HHT && !(p->hht_alpha >= -MB_R(1.0) / 3 && p->hht_alpha <= 0))
        return PM_HHT_ALPHA;
    if (p->integrator == MB_HHT && p->project_velocity) return PM_HHT_PROJ;
    if (!f_built[p->formulation]) return PM_FORM_BUILT;
    if (!i_built[p->integrator]) return PM_INTEG_BUILT;
    if (p->full_jacobian && !MBI_FJ) return PM_FJ;
    if (p->dense && !MB_ADAPTIVE(p->integrator)) return PM_DENSE;
    if (p->dense && p->integrator != MB_BDF && !MBI_DENSE) return PM_DENSE_BUILT;
    if (p->adaptive < 0 || p->adaptive > 2 || (p->adaptive == 2 && p->integrator != MB_TRAPEZOID))
        return PM_ADAPT;
    if (p->adaptive && p->integrator == MB_TRAPEZOID && !MBI_F4A) return PM_ADAPT_BUILT;
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
                  (kind == PK_ALPHA && p->formulation >= MB_ALF_EXPLICIT && !(v > 0)) ||
                  (kind == PK_BELOW1 && v >= 1);
        }
        if (bad) return k;
    }
    if (p->max_steps < 1) return PM_MAX_STEPS;
    if (!p->linsys_ops && p->linsys != MB_LINSYS_SPARSE &&
        !(p->linsys == MB_LINSYS_DENSE && MB_WITH_DENSE))
        return PM_LINSYS;
    if (p->linsys_ops && (!p->linsys_ops->factor || !p->linsys_ops->solve)) return PM_LINSYS_OPS;
    return -1;
}

int mb_params_check_checked(const mb_params *p, const char **what, unsigned long config,
                            unsigned long sizes)
{
    if (!same_build(config, sizes)) {
        if (what) *what = "the build (MB_FLOAT or MB_ONLY_* / MB_WITH_* differ from the runtime's)";
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
        m->nout < 0 || (m->nout > 0 && (!m->outputs || !m->out_names)))
        return 0;                                             /* inputs live beside the tunables */
    if (!check_plan(m)) return 0;
    return check_pattern(&m->phi_q_pat, m->nc, m->nq) && check_pattern(&m->dq_dq_pat, m->nq, m->nq) &&
           check_pattern(&m->dq_dv_pat, m->nq, m->nq);
}

/* The layout's switches for p: a build with one formulation / integrator knows them, so the
 * block sizes fold to constants. */
typedef struct { int f, ig, fj, ls, dn, ad; } lay_sel;
static lay_sel lay_select(const mb_params *p)
{
    lay_sel l;
    l.f = MBI_NFORM == 1 ? MBI_ONE_FORM : p->formulation;
    l.ig = MBI_NINTEG == 1 ? MBI_ONE_INTEG : p->integrator;
    l.fj = MBI_FJ && p->full_jacobian;
    l.ls = MB_WITH_DENSE && p->linsys == MB_LINSYS_DENSE && !p->linsys_ops;
    l.dn = MBI_DENSE && p->dense;
    l.ad = MBI_F4A && l.ig == MB_TRAPEZOID ? p->adaptive : 0;
    return l;
}
#define LAY_ARGS(l, m) (l).f, (l).ig, (l).fj, (l).ls, (l).dn, (l).ad, (m)->nq, (m)->nc,         \
    (m)->phi_q_pat.nnz, (m)->dq_dq_pat.nnz, (m)->dq_dv_pat.nnz, (m)->plan->s.nl, (m)->plan->a.nl, \
    (m)->npar, (m)->par_mass ? (m)->nq : 0, (m)->nin
#define LAY_APPLY(mac, ...) mac(__VA_ARGS__)   /* LAY_ARGS expanded into mac's arguments */

/* The workspace's bytes: the sum of the block list (no mb_sim needed: a temporary one to lay out
 * into was 1.2 KB of stack, the firmware's deepest frame). */
static size_t layout_bytes(const mb_model *m, const mb_params *p)
{
    lay_sel l = lay_select(p);
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
    lay_sel l = lay_select(p);
#define TAKE_R(field, count) s->field = take(&a, sizeof(mb_real) * (size_t)(count));
#define TAKE_J(field, count) s->field = take(&a, sizeof(int) * (size_t)(count));
    LAY_APPLY(MB_LAYOUT, TAKE_R, TAKE_J, LAY_ARGS(l, m))
#undef TAKE_R
#undef TAKE_J
    s->S = s->sig;                 /* sigma~ after its update = sigma~ (every formulation) */
    s->ev_S = s->ev_sig;
    if (MB_L_ALF(l.f)) s->FS = s->FA; /* S (assembly only) in A's block (mb_layout.h) */
    if (l.f == MB_ALF_TRAPEZOID) { /* only the start-up evaluation uses them */
        s->ev_v = s->tn[2];
        s->ev_sig = s->ev_S = s->tm[2];
    }
    if (MB_L_F4T(l.f, l.ig)) {     /* shared blocks by lifetime (mb_layout.h) */
        s->Ek = s->tn[2];          /* tn[3], tm[1] follow it: at least nnz reals */
        s->lsd = s->zk;
        s->lsy = s->Q = s->tn[3];
        s->cv = s->tm[1];
        s->tm[0] = s->tm[2] = s->tn[2];
        s->ev_sig = s->ev_S = s->tm[3];
    }
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
    s->n = m->nq;
    s->nc = m->nc;
    s->nnz = m->phi_q_pat.nnz;
    s->nz = 2 * s->n + (p->formulation == MB_BAUMGARTE ? 0 : s->nc);
#if MBI_HAS_KKT
    if (s->minv) for (int i = 0; i < s->n; i++) s->minv[i] = 1 / m->mass[i];
#endif
    s->mon.singular_row = -1;
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
    if (i < 0 || i >= s->m->npar || !isfinite(value)) return MB_ERR_PARAM;
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
            if (!(s->pmass[k] > 0)) {      /* a rule should have said so; never run with it */
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

/* ------------------------------------------------------------------ reset and step */

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

const mbi_form *const mbi_forms[4] = {
#if MBI_F1
    &mbi_form_baumgarte,
#else
    NULL,
#endif
#if MBI_F2
    &mbi_form_canonical,
#else
    NULL,
#endif
#if MBI_F3
    &mbi_form_alf_explicit,
#else
    NULL,
#endif
#if MBI_F4
    &mbi_form_alf_trapezoid,
#else
    NULL,
#endif
};

int mb_sim_reset(mb_sim *s, mb_real t0, const mb_real *q, const mb_real *v, int assemble)
{
    const mb_model *m = s->m;
    int n = s->n, nc = s->nc, st;
    if (!m) return MB_ERR_STATE;
    s->ready = 0;
    if (!isfinite(t0)) return MB_ERR_PARAM;
    memset(&s->mon, 0, sizeof s->mon);
    s->mon.singular_row = -1;
    /* the sine cache empty (NaN angles): a run from reset repeats bit for bit */
#if MBI_HAS_TRIG
    for (int i = 0; i < 3 * n; i++) s->trig[i] = (mb_real)NAN;
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
    const mbi_form *form = mbi_forms[s->p.formulation];
#if MBI_HHT
    if (s->p.integrator == MB_HHT) {       /* F1's equations, HHT's own start */
        if ((st = mbi_hht_start(s, t0))) return st;
        mbi_take_eval(s);
#if MBI_HAS_EB
        s->have_f = 1;
#endif
    } else
#endif
    if (form->start) {                     /* implicit: its own start-up evaluation */
        if ((st = form->start(s, t0))) return st;
        mbi_take_eval(s);
#if MBI_HAS_EB
        s->have_f = 1;
#endif
    }
#if MBI_EXPLICIT
    else if ((st = mbi_rk_start(s, t0))) return st;
#endif
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
 * lean: 144 -> 72 bytes). */
static MB_NOINLINE void step_monitor(mb_sim *s, mb_real h, mb_real pnc0, mb_real pdrv0)
{
    mbi_advance_monitor(s, h, pnc0, pdrv0, NULL);
}
static MB_NOINLINE unsigned step_warnings(mb_sim *s, long maxiter_before)
{
    return mbi_warnings(s, maxiter_before);
}

int mb_sim_step(mb_sim *s, mb_real t_stop)
{
    int st = MB_OK, nc = s->nc;
    if (!s->ready) return MB_ERR_STATE;
    mb_real rem = t_stop - s->t;
    if (!isfinite(t_stop) || !(rem > 0)) return MB_ERR_PARAM;
    if (s->mon.steps >= s->p.max_steps) return MB_ERR_MAX_STEPS;   /* state kept: the last step */
#if MBI_EXPLICIT
    if (s->p.integrator != MB_TRAPEZOID && s->p.integrator != MB_HHT &&
        s->p.formulation != MB_ALF_TRAPEZOID &&
        !s->have_f &&                      /* after a failed step */
        (st = mbi_rk_start(s, s->t)) < 0) return st;
#endif
    mb_real pnc0 = s->pnc, pdrv0 = s->pdrv, t_start = s->t;
    mb_monitor mon0 = s->mon;
    (void)t_start; (void)mon0;            /* unused when only alf-trapezoid is compiled */
    copy(nc, s->tm[3], s->S);              /* S at the start of the step */
#if MBI_HAS_EB
    if (s->p.formulation != MB_ALF_TRAPEZOID) {   /* for mbi_explicit_fail */
        copy(s->nz, s->zold, s->z);
        copy(s->n, s->tn[7], s->v);
    }
#endif
#if MBI_HAS_KKT
    s->step_ratio = 1;
    s->step_row = -1;
#endif
#if MBI_BDF
    if (s->p.integrator == MB_BDF) {
        mb_real h = 0;
        s->dense_state = 0;
        s->dn_W0 = mon0.W;
        st = mbi_bdf_step(s, t_stop, &h);
        if (st < 0) return singular_step(s, st);
        step_monitor(s, h, pnc0, pdrv0);
        s->dense_state = 1;
    } else
#endif
#if MBI_ADAPTIVE
    if (MB_ADAPTIVE(s->p.integrator)) {
#if MBI_DENSE
        s->dense_state = 0;
        if (s->dn) mbi_dense_begin(s, mon0.W);
#endif
        st = mbi_step_adaptive(s, t_stop, &mon0, pnc0, pdrv0);
        if (st < 0) return singular_step(s, st);
    } else
#endif
#if MBI_F4A
    if (s->p.integrator == MB_TRAPEZOID && s->p.adaptive) {
        mb_real h = 0;
        s->td_t0 = s->t;                   /* a failed step leaves nothing to interpolate */
        st = mbi_forms[s->p.formulation]->step_adaptive(s, t_stop, &h);
        if (st < 0) return st;
        s->td_t0 = t_start;                /* mb_sim_dense's step (mbi_trap_dense) */
        s->td_W0 = mon0.W;
        s->td_P0 = pnc0;
        if (s->p.adaptive == 2) mbi_advance_monitor(s, h, pnc0, pdrv0, &s->xw);
        else step_monitor(s, h, pnc0, pdrv0);
    } else
#endif
    {
        mb_real h = s->p.h;
        /* the last step may be up to 1% longer than h, so no sliver step follows; times on the
         * grid are t0 + k h (no accumulated rounding) */
        int last = rem <= h * MB_R(1.01);
        if (last) h = rem;
        mb_real t_new = last ? t_stop : s->t_grid0 + (mb_real)(s->nfixed + 1) * h;
        (void)t_new;                       /* unused when only dopri5 is compiled */
#if MBI_RK4
        if (s->p.integrator == MB_RK4) st = mbi_step_fixed(s, h, t_new);
#endif
        if (s->p.integrator == MB_TRAPEZOID) st = mbi_forms[s->p.formulation]->step(s, h, t_new);
#if MBI_HHT
        if (s->p.integrator == MB_HHT) st = mbi_hht_step(s, h, t_new);
#endif
        if (st < 0) return singular_step(s, st);
        step_monitor(s, h, pnc0, pdrv0);
#if MBI_RK4
        if (s->p.integrator == MB_RK4 && !isfinite(s->mon.energy_dev)) {
            s->mon = mon0; s->pnc = pnc0; s->pdrv = pdrv0;
            return singular_step(s, mbi_explicit_fail(s, t_start, MB_ERR_NONFINITE));
        }
#endif
        if (last) { s->t_grid0 = s->t; s->nfixed = 0; }   /* a clipped step starts a new grid */
        else s->nfixed++;
    }
    unsigned now = step_warnings(s, mon0.maxiter_events);
    (void)now;                             /* unused without F1 and F2 */
#if MBI_F1 || MBI_F2
    /* F1, F2: a step that came near a singular position (smallest pivot ratio of S below
     * sqrt(rank_tol)) and left the energy balance or the constraints (the warnings' tests) has
     * not passed it: undone and reported as the rank loss it is (never a garbage state) */
    if (s->p.formulation <= MB_CANONICAL && near_singular(s) &&
        (now & (MB_WARN_BIT(MB_WARN_ENERGY) | MB_WARN_BIT(MB_WARN_CONSTRAINT)))) {
        s->mon = mon0; s->pnc = pnc0; s->pdrv = pdrv0;
        s->dense_state = 0;
        mbi_explicit_fail(s, t_start, MB_ERR_SINGULAR);
        return singular_step(s, MB_ERR_SINGULAR);
    }
#endif
    s->mon.steps++;
    if (s->p.strict && (s->mon.warn & ~mon0.warn)) return MB_ERR_SUSPECT;
    return st;
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
