/* _shim.c - the C face of one generated model for the Python module mbsim (python/mbsim/):
 * plain functions over an opaque context, called through ctypes, so Python never maps the
 * layout of mb_sim or mb_params. Compiled by mbsim/_build.py with the generated <name>.c and the
 * runtime into one shared library, with -DMBPY_MODEL=<name>.
 * Layer: host glue (allocates; never prints: every failure is a status code and a message in
 * the context or the caller's buffer). Reals cross as double: the module builds in double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mb_analysis.h"
#include "mb_sim.h"

#ifndef MBPY_MODEL
#error "compile with -DMBPY_MODEL=<model name>"
#endif
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
extern const mb_model CAT(MBPY_MODEL, _model);
#define MODEL (&CAT(MBPY_MODEL, _model))

typedef char mbpy_real_is_double[sizeof(mb_real) == sizeof(double) ? 1 : -1];

/* The options of mbpy_new, an array of doubles; NaN: not given (the model file's run settings,
 * else mb_params_default's, as the simulator takes them: tools/mb_sim_main.c build_params). */
enum {
    O_FORM, O_INTEG, O_H, O_RTOL, O_ATOL, O_ALPHA, O_XI, O_OMEGA, O_TOL, O_MAXIT, O_MAXSTEPS,
    O_SRESET, O_CAP, O_PROJ, O_STRICT, O_FULLJAC, O_REUSE, O_HHT, O_EXTRAP, O_TEND, O_DENSE,
    O_LINSYS, O_WARN_E, O_WARN_PHI, O_WARN_SIG, O_WARN_STAB, O_EVENTS, O_WARN_ACC, O_COUNT
};

typedef struct mbpy {
    mb_sim_storage sim_mem;
    mb_sim *sim;           /* in sim_mem */
    mb_params p;
    void *work;
    mb_anl anl;            /* the reactions (sparse level), beside the simulation */
    void *awork;
    int anl_ok;
    unsigned char *dep;    /* redundant constraint equations found at reset */
    mb_real *acc, *lam, *y;
    int started;
    char msg[512];
} mbpy;

int mbpy_option_count(void) { return O_COUNT; }

/* sizes: nq, nc, nin, nout, npar, npoint, nbody */
void mbpy_sizes(int *out)
{
    const mb_model *m = MODEL;
    out[0] = m->nq; out[1] = m->nc; out[2] = m->nin; out[3] = m->nout; out[4] = m->npar;
    out[5] = m->npoint; out[6] = m->nbody;
}

/* names: 0 the model, 1 coordinate i, 2 constraint equation i, 3 input i, 4 sensor i,
 * 5 tunable i, 6 body i, 7 rule i of the tunables; the units the model file declares
 * (mb_model_info): 8 of input i, 9 of sensor i, 10 of tunable i; NULL when there is none */
const char *mbpy_name(int kind, int i)
{
    const mb_model *m = MODEL;
    const mb_model_info *in = m->info;
    switch (kind) {
    case 0: return m->name;
    case 1: return in && i >= 0 && i < m->nq ? in->coord_names[i] : NULL;
    case 2: return in && in->constraint_names && i >= 0 && i < m->nc ? in->constraint_names[i] : NULL;
    case 3: return i >= 0 && i < m->nin ? m->in_names[i] : NULL;
    case 4: return i >= 0 && i < m->nout ? m->out_names[i] : NULL;
    case 5: return i >= 0 && i < m->npar ? m->par_names[i] : NULL;
    case 6: return in && i >= 0 && i < m->nbody ? in->body_names[i] : NULL;
    case 7: return i >= 0 && i < m->nrule ? m->par_rules[i] : NULL;
    case 8: return in && in->in_units && i >= 0 && i < m->nin && in->in_units[i][0] ? in->in_units[i] : NULL;
    case 9: return in && in->out_units && i >= 0 && i < m->nout && in->out_units[i][0] ? in->out_units[i] : NULL;
    case 10: return in && in->par_units && i >= 0 && i < m->npar && in->par_units[i][0] ? in->par_units[i] : NULL;
    default: return NULL;
    }
}

/* defaults: 0 tunable i, 1 input i, 2 the model file's t_end (0: none), 3 its h (0: none),
 * 4 body i's number of coordinates */
double mbpy_default(int kind, int i)
{
    const mb_model *m = MODEL;
    switch (kind) {
    case 0: return i >= 0 && i < m->npar ? (double)m->par[i] : (double)NAN;
    case 1: return i >= 0 && i < m->nin ? (double)m->in[3 * i] : (double)NAN;
    case 2: return m->preset ? m->preset->t_end : 0;
    case 3: return m->preset ? m->preset->h : 0;
    case 4: return i >= 0 && i < m->nbody ? mb_body_nq(m, i) : 0;
    default: return (double)NAN;
    }
}

const char *mbpy_status_str(int st) { return mb_status_str(st); }
const char *mbpy_formulation_name(int f) { return mb_formulation_name(f); }
const char *mbpy_integrator_name(int i) { return mb_integrator_name(i); }
int mbpy_formulation_parse(const char *s) { return mb_formulation_parse(s); }
int mbpy_integrator_parse(const char *s) { return mb_integrator_parse(s); }
const char *mbpy_message(const mbpy *c) { return c->msg; }

static int given(const double *o, int k) { return !isnan(o[k]); }

/* The parameters from the options, as the simulator builds them. MB_OK or MB_ERR_PARAM with
 * msg naming the field. */
static int build_params(const double *o, mb_params *p, char *msg, size_t len)
{
    const mb_preset *pr = MODEL->preset;
    mb_params dflt;
    mb_params_default(&dflt, MB_ALF_TRAPEZOID);
    int form = given(o, O_FORM) ? (int)o[O_FORM] : MB_ALF_TRAPEZOID;
    int integ = given(o, O_INTEG) ? (int)o[O_INTEG] : -1;
    if (integ == MB_HHT && !given(o, O_FORM)) form = MB_BAUMGARTE;
    if (form < 0 || form > 3) { snprintf(msg, len, "unknown formulation %d", form); return MB_ERR_PARAM; }
    int integ_used = integ >= 0 ? integ : form == MB_ALF_TRAPEZOID ? MB_TRAPEZOID : MB_RK4;
    int tol_given = given(o, O_RTOL) || given(o, O_ATOL);
    int trap_adaptive = integ_used == MB_TRAPEZOID && tol_given;
    int adaptive = MB_ADAPTIVE(integ_used) || trap_adaptive;
    double h = given(o, O_H) ? o[O_H] : pr && pr->h > 0 ? pr->h : (double)dflt.h;
    double t_end = given(o, O_TEND) ? o[O_TEND] : pr && pr->t_end > 0 ? pr->t_end : 5.0;
    mb_params_default(p, form);
    if (integ >= 0) p->integrator = integ;
    p->h = (mb_real)h;
    mb_params_preset(p, pr, form);
    int extrap = given(o, O_EXTRAP) && o[O_EXTRAP] != 0;
    if (given(o, O_RTOL)) p->rtol = (mb_real)o[O_RTOL];
    if (given(o, O_ATOL)) p->atol = (mb_real)o[O_ATOL];
    if (extrap) { p->xi = 1; p->omega = 1; }
    if (given(o, O_ALPHA)) p->alpha = (mb_real)o[O_ALPHA];
    if (given(o, O_XI)) p->xi = (mb_real)o[O_XI];
    if (given(o, O_OMEGA)) p->omega = (mb_real)o[O_OMEGA];
    if (given(o, O_TOL)) p->tol = (mb_real)o[O_TOL];
    if (given(o, O_MAXIT)) p->max_iter = (int)o[O_MAXIT];
    if (given(o, O_HHT)) p->hht_alpha = (mb_real)o[O_HHT];
    if (p->integrator == MB_TRAPEZOID && tol_given) p->adaptive = extrap ? 2 : 1;
    if (given(o, O_MAXSTEPS)) p->max_steps = (long)o[O_MAXSTEPS];
    else if (!MB_PARAMS_ADAPTIVE(p) && t_end / h + 2 > (double)p->max_steps)
        p->max_steps = (long)(t_end / h) + 2;
    if (given(o, O_SRESET)) p->sigma_reset = (mb_real)o[O_SRESET];
    if (given(o, O_CAP)) p->baumgarte_cap = (mb_real)o[O_CAP];
    p->project_velocity = given(o, O_PROJ) && o[O_PROJ] != 0;
    p->strict_newton = p->strict = given(o, O_STRICT) && o[O_STRICT] != 0;
    p->dense = !trap_adaptive && adaptive && given(o, O_DENSE) && o[O_DENSE] != 0;
    if (given(o, O_WARN_E)) p->warn_energy = (mb_real)o[O_WARN_E];
    if (given(o, O_WARN_PHI)) p->warn_phi = (mb_real)o[O_WARN_PHI];
    if (given(o, O_WARN_SIG)) p->warn_sigma = (mb_real)o[O_WARN_SIG];
    if (given(o, O_WARN_STAB)) p->warn_stability = (mb_real)o[O_WARN_STAB];
    if (given(o, O_WARN_ACC)) p->warn_accuracy = (mb_real)o[O_WARN_ACC];
    p->full_jacobian = given(o, O_FULLJAC) && o[O_FULLJAC] != 0;
    if (given(o, O_REUSE)) p->newton_reuse = o[O_REUSE] != 0;
    if (given(o, O_LINSYS)) p->linsys = (int)o[O_LINSYS];
    p->events = !given(o, O_EVENTS) || o[O_EVENTS] != 0;   /* on, as the simulator's --events */
    const char *what = NULL;
    int st = mb_params_check(p, &what);
    if (st) snprintf(msg, len, "invalid parameters: %s", what ? what : mb_status_str(st));
    return st;
}

void mbpy_free(mbpy *c)
{
    if (!c) return;
    free(c->work);
    free(c->awork);
    free(c->dep);
    free(c->acc);
    free(c->lam);
    free(c->y);
    free(c);
}

/* A context with the options o[O_COUNT] (NaN: not given); NULL with *status and msg on failure. */
mbpy *mbpy_new(const double *o, char *msg, int len, int *status)
{
    const mb_model *m = MODEL;
    mbpy *c = calloc(1, sizeof *c);
    int st;
    msg[0] = '\0';
    if (!c) { snprintf(msg, (size_t)len, "out of memory"); *status = MB_ERR_WORKSPACE; return NULL; }
    c->sim = mb_sim_of(&c->sim_mem);
    if ((st = build_params(o, &c->p, msg, (size_t)len))) { mbpy_free(c); *status = st; return NULL; }
    size_t ws = mb_sim_workspace_size(m, &c->p);
    c->work = ws ? malloc(ws) : NULL;
    c->acc = malloc(sizeof(mb_real) * (size_t)(m->nq + 1));
    c->lam = malloc(sizeof(mb_real) * (size_t)(m->nc + 1));
    c->y = malloc(sizeof(mb_real) * (size_t)(m->nout + 1));
    c->dep = malloc((size_t)m->nc + 1);
    st = c->work && c->acc && c->lam && c->y && c->dep ? mb_sim_init(c->sim, m, &c->p, c->work, ws)
                                                         : MB_ERR_WORKSPACE;
    if (st) {
        snprintf(msg, (size_t)len, "init: %s", mb_status_str(st));
        mbpy_free(c);
        *status = st;
        return NULL;
    }
    size_t as = mb_anl_workspace_size(m, MB_ANL_SPARSE);
    c->awork = as ? malloc(as) : NULL;
    c->anl_ok = c->awork && mb_anl_init(&c->anl, mb_sim_model(c->sim), NULL, MB_ANL_SPARSE, c->awork, as) == MB_OK;
    *status = MB_OK;
    return c;
}

int mbpy_set_param(mbpy *c, int i, double v)
{
    int rule = -1, st = mb_sim_set_param(c->sim, i, (mb_real)v, &rule);
    const mb_model *m = MODEL;
    if (st && rule >= 0 && rule < m->nrule)
        snprintf(c->msg, sizeof c->msg, "tunable %s = %.17g breaks the model's rule %s", m->par_names[i], v, m->par_rules[rule]);
    else if (st)
        snprintf(c->msg, sizeof c->msg, "tunable %d = %.17g: not a finite normal number", i, v);
    if (!st) c->started = 0;   /* a new reset is needed */
    return st;
}
double mbpy_get_param(const mbpy *c, int i) { return (double)mb_sim_get_param(c->sim, i); }

int mbpy_set_input(mbpy *c, int i, double v, double slope)
{
    int st = slope == 0 ? mb_sim_set_input(c->sim, i, (mb_real)v)
                        : mb_sim_set_input_slope(c->sim, i, (mb_real)v, (mb_real)slope);
    if (st) snprintf(c->msg, sizeof c->msg, "input %d = %.17g: %s", i, v, mb_status_str(st));
    return st;
}
double mbpy_get_input(const mbpy *c, int i) { return (double)mb_sim_get_input(c->sim, i); }

/* The largest |Phi| and its equation after a failed assembly, into msg. */
static void assembly_detail(mbpy *c)
{
    const mb_model *m = mb_sim_model(c->sim);
    if (m->nc == 0) return;
    m->phi(m, mb_sim_get_t(c->sim), mb_sim_get_q(c->sim), c->lam);
    int worst = 0;
    for (int i = 1; i < m->nc; i++)
        if (!(fabs((double)c->lam[i]) <= fabs((double)c->lam[worst]))) worst = i;
    size_t l = strlen(c->msg);
    snprintf(c->msg + l, sizeof c->msg - l, "; |Phi|_inf = %.3g at constraint %s", fabs((double)c->lam[worst]),
             m->info && m->info->constraint_names ? m->info->constraint_names[worst] : "?");
}

/* Redundant equations at the assembled state, for alf-trapezoid's Newton iteration (as the
 * simulator: the sparse proof first, the dense QR when it fails). */
static void redundant_rows(mbpy *c)
{
    const mb_model *m = mb_sim_model(c->sim);
    if (m->nc == 0) return;
    for (int level = MB_ANL_SPARSE; level <= MB_ANL_DENSE; level++) {
        size_t ws = mb_anl_workspace_size(m, level);
        if (level == MB_ANL_DENSE && ws > ((size_t)64 << 20)) return;
        void *w = ws ? malloc(ws) : NULL;
        mb_anl a;
        int k = w && mb_anl_init(&a, m, NULL, level, w, ws) == MB_OK
                    ? mb_anl_redundant(&a, mb_sim_get_t(c->sim), mb_sim_get_q(c->sim), c->dep) : MB_ERR_WORKSPACE;
        free(w);
        if (k == MB_ERR_WORKSPACE && level == MB_ANL_SPARSE) continue;
        if (k > 0) mb_sim_set_redundant_rows(c->sim, c->dep);
        return;
    }
}

/* Start at t0 from q, v (NULL: the model's guesses), assembled when asked. */
int mbpy_reset(mbpy *c, double t0, const double *q, const double *v, int assemble)
{
    int st = mb_sim_reset(c->sim, (mb_real)t0, q, v, assemble);
    c->msg[0] = '\0';
    if (st != MB_ERR_ASSEMBLY_POS && st >= 0) redundant_rows(c);
    if (st < 0) {
        int in_asm = st == MB_ERR_ASSEMBLY_POS || st == MB_ERR_ASSEMBLY_VEL;
        snprintf(c->msg, sizeof c->msg, "%s at t=%.9g failed: %s",
                 in_asm ? "assembly" : "start-up (the first evaluation after assembly)", t0, mb_status_str(st));
        if (st == MB_ERR_ASSEMBLY_POS) assembly_detail(c);
    }
    c->started = st >= 0;
    return st;
}

static int step_fail(mbpy *c, int st)
{
    snprintf(c->msg, sizeof c->msg, "runtime fault at t=%.9g (step %ld, after %ld accepted): %s",
             (double)mb_sim_get_t(c->sim), mb_sim_get_monitor(c->sim)->steps + 1,
             mb_sim_get_monitor(c->sim)->steps, mb_status_str(st));
    return st;
}

int mbpy_step(mbpy *c, double t_stop)
{
    if (!c->started) { snprintf(c->msg, sizeof c->msg, "step before reset (or after a tunable was set): %s", mb_status_str(MB_ERR_STATE)); return MB_ERR_STATE; }
    int st = mb_sim_step(c->sim, (mb_real)t_stop);
    return st < 0 ? step_fail(c, st) : st;
}

/* Steps until t_end (the last one lands on it); *steps the steps taken. */
int mbpy_run_to(mbpy *c, double t_end, long *steps)
{
    long k = 0;
    int st = MB_OK;
    if (!c->started) { snprintf(c->msg, sizeof c->msg, "run before reset: %s", mb_status_str(MB_ERR_STATE)); return MB_ERR_STATE; }
    mb_real te = (mb_real)t_end;
    while (mb_sim_get_t(c->sim) < te) {
        st = mb_sim_step(c->sim, te);
        if (st < 0) { step_fail(c, st); break; }
        k++;
    }
    if (steps) *steps = k;
    return st < 0 ? st : MB_OK;
}

double mbpy_t(const mbpy *c) { return (double)mb_sim_get_t(c->sim); }
double mbpy_h(const mbpy *c) { return (double)mb_sim_get_h(c->sim); }
double mbpy_p_h(const mbpy *c) { return (double)c->p.h; }   /* the h of the options */
void mbpy_state(const mbpy *c, double *q, double *v)
{
    int n = MODEL->nq;
    if (q) memcpy(q, mb_sim_get_q(c->sim), sizeof(double) * (size_t)n);
    if (v) memcpy(v, mb_sim_get_v(c->sim), sizeof(double) * (size_t)n);
}
int mbpy_outputs_at(mbpy *c, double t, const double *q, const double *v, double *y, double *dq, double *dv);
int mbpy_outputs(mbpy *c, double *y)
{
    /* (sensors of reactions: mb_sim_get_output solves the multipliers at the current state,
     * the numbers of mb_anl_outputs) */
    int st = mb_sim_get_output(c->sim, y, NULL, NULL);
    if (st) snprintf(c->msg, sizeof c->msg, "sensors: %s", mb_status_str(st));
    return st;
}
/* The sensors at a state of the caller's (t, q, v), and their Jacobians when dq, dv given. */
int mbpy_outputs_at(mbpy *c, double t, const double *q, const double *v, double *y, double *dq, double *dv)
{
    const mb_model *m = mb_sim_model(c->sim);
    if (m->nout == 0) { snprintf(c->msg, sizeof c->msg, "the model has no sensors"); return MB_ERR_PARAM; }
    if (m->doutputs_dlam) {   /* sensors of reactions: the multipliers at (t, q, v) */
        int st = c->anl_ok ? mb_anl_outputs(&c->anl, (mb_real)t, q, v, c->lam, y, dq && dv ? dq : NULL,
                                            dq && dv ? dv : NULL, NULL) : MB_ERR_MODEL;
        if (st) snprintf(c->msg, sizeof c->msg, "sensors (reactions): %s", mb_status_str(st));
        return st;
    }
    m->outputs(m, (mb_real)t, q, v, y, dq && dv ? dq : NULL, dq && dv ? dv : NULL);
    return MB_OK;
}

/* The monitors: steps, rejected, evals, newton_iters, alf_iters, maxiter_events, sigma_resets,
 * factorizations, energy_dev, phi_norm, phid_norm, sigma_norm, max_energy_dev, max_phi,
 * max_phid, max_sigma, warn (bits), T, V */
enum { MON_COUNT = 19 };
int mbpy_monitor_count(void) { return MON_COUNT; }
static void monitor(const mbpy *c, double *o)
{
    const mb_monitor *mo = mb_sim_get_monitor(c->sim);
    const double v[MON_COUNT] = {
        (double)mo->steps, (double)mo->rejected, (double)mo->evals, (double)mo->newton_iters,
        (double)mo->alf_iters, (double)mo->maxiter_events, (double)mo->sigma_resets,
        (double)mo->factorizations, (double)mo->energy_dev, (double)mo->phi_norm,
        (double)mo->phid_norm, (double)mo->sigma_norm, (double)mo->max_energy_dev,
        (double)mo->max_phi, (double)mo->max_phid, (double)mo->max_sigma, (double)mo->warn,
        (double)mo->T, (double)mo->V };
    memcpy(o, v, sizeof v);
}
void mbpy_monitor(const mbpy *c, double *o) { monitor(c, o); }

/* Accelerations and multipliers of the index-1 equations at (t, q, v) on the sim's descriptor
 * (its tunables and inputs): mb_anl_reactions. */
int mbpy_reactions(mbpy *c, double t, const double *q, const double *v, double *acc, double *lam)
{
    if (!c->anl_ok) { snprintf(c->msg, sizeof c->msg, "reactions: %s", mb_status_str(MB_ERR_MODEL)); return MB_ERR_MODEL; }
    int st = mb_anl_reactions(&c->anl, (mb_real)t, q, v, acc, lam);
    if (st) snprintf(c->msg, sizeof c->msg, "reactions at t=%.9g: %s", t, mb_status_str(st));
    return st;
}

/* One row of a simulation's result: t, q, v, sensors, accelerations, multipliers (NaN where
 * the reactions fail), monitors. */
typedef struct rows {
    double *T, *Q, *V, *Y, *A, *L, *M;
    long n, cap;
} rows;
static void put_row(mbpy *c, rows *r, double t, const mb_real *q, const mb_real *v, const mb_monitor *mo)
{
    const mb_model *m = mb_sim_model(c->sim);
    int nq = m->nq, nc = m->nc, no = m->nout;
    long k = r->n++;
    if (k >= r->cap) return;
    r->T[k] = t;
    memcpy(r->Q + k * nq, q, sizeof(double) * (size_t)nq);
    memcpy(r->V + k * nq, v, sizeof(double) * (size_t)nq);
    int st = c->anl_ok ? mb_anl_reactions(&c->anl, (mb_real)t, q, v, r->A + k * nq, r->L + k * nc) : MB_ERR_MODEL;
    if (st) {
        for (int i = 0; i < nq; i++) r->A[k * nq + i] = (double)NAN;
        for (int i = 0; i < nc; i++) r->L[k * nc + i] = (double)NAN;
    }
    if (no > 0) {   /* sensors of reactions (mb_model.lam) read this row's multipliers */
        mb_model ml = *m;
        if (ml.lam) ml.lam = r->L + k * nc;
        ml.outputs(&ml, (mb_real)t, q, v, r->Y + k * no, NULL, NULL);
    }
    if (mo) {
        const double v4[4] = { (double)mo->energy_dev, (double)mo->phi_norm, (double)mo->phid_norm, (double)mo->sigma_norm };
        memcpy(r->M + k * 4, v4, sizeof v4);
    }
}

/* The simulation from the current state to t_end, as the command-line simulator's CSV rows:
 * fixed steps every `every` steps and at t_end; adaptive runs at t = j dt_out (interpolated by
 * the dense output) and t_end. Arrays for cap rows (T[cap], Q, V [cap nq], Y [cap nout],
 * A [cap nq], L [cap nc], M [cap 4]: energy_dev, phi_norm, phid_norm, sigma_norm); *nrows the
 * rows written (a run needing more than cap rows stops with MB_ERR_PARAM). */
int mbpy_simulate(mbpy *c, double t_end, long every, double dt_out, long cap, double *T, double *Q,
                  double *V, double *Y, double *A, double *L, double *M, long *nrows)
{
    rows r = { T, Q, V, Y, A, L, M, 0, cap };
    const mb_model *m = MODEL;
    int adaptive = MB_PARAMS_ADAPTIVE(&c->p), st = MB_OK;
    long out_k = 0;
    *nrows = 0;
    if (!c->started) { snprintf(c->msg, sizeof c->msg, "simulate before reset: %s", mb_status_str(MB_ERR_STATE)); return MB_ERR_STATE; }
    mb_real *qd = malloc(sizeof(mb_real) * (size_t)m->nq), *vd = malloc(sizeof(mb_real) * (size_t)m->nq);
    if (!qd || !vd) { free(qd); free(vd); snprintf(c->msg, sizeof c->msg, "out of memory"); return MB_ERR_WORKSPACE; }
    mb_monitor mdo;
    put_row(c, &r, (double)mb_sim_get_t(c->sim), mb_sim_get_q(c->sim), mb_sim_get_v(c->sim), mb_sim_get_monitor(c->sim));
    mb_real te = (mb_real)t_end;
    while (mb_sim_get_t(c->sim) < te) {
        st = mb_sim_step(c->sim, te);
        if (st < 0) { step_fail(c, st); break; }
        st = MB_OK;
        double tn = (double)mb_sim_get_t(c->sim);
        if (adaptive) {
            for (;;) {
                double to = (double)(out_k + 1) * dt_out;
                if (to > tn || to >= t_end - 1e-9 * dt_out) break;
                out_k++;
                if (to == tn) {
                    put_row(c, &r, tn, mb_sim_get_q(c->sim), mb_sim_get_v(c->sim), mb_sim_get_monitor(c->sim));
                    continue;
                }
                int sd = mb_sim_dense(c->sim, (mb_real)to, qd, vd, &mdo);
                if (sd < 0) {
                    snprintf(c->msg, sizeof c->msg, "dense output at t=%.9g failed: %s", to, mb_status_str(sd));
                    st = sd;
                    break;
                }
                put_row(c, &r, to, qd, vd, &mdo);
            }
            if (st < 0) break;
            if (tn >= t_end) put_row(c, &r, tn, mb_sim_get_q(c->sim), mb_sim_get_v(c->sim), mb_sim_get_monitor(c->sim));
        } else if (++out_k % every == 0 || tn >= t_end) {
            put_row(c, &r, tn, mb_sim_get_q(c->sim), mb_sim_get_v(c->sim), mb_sim_get_monitor(c->sim));
        }
        if (r.n > cap) {
            snprintf(c->msg, sizeof c->msg, "more result rows than the %ld expected", cap);
            st = MB_ERR_PARAM;
            break;
        }
    }
    free(qd);
    free(vd);
    /* the rows taken: the accuracy companion (dopri5, dop853, the extrapolated trapezoid)
     * compares its last steps */
    if (st >= 0 && mb_sim_get_t(c->sim) >= te) {
        int fs = mb_sim_finish(c->sim);
        if (fs < 0) st = step_fail(c, fs);
    }
    *nrows = r.n < cap ? r.n : cap;
    return st;
}

/* The state-space linearization x' = A x + B u, y = C x + D u in minimal coordinates about
 * mode 0: the static equilibrium from the model's guesses, 1: the assembled initial state, 2:
 * the caller's (t, q, v) (qv[2 nq]); on the sim's descriptor (its tunables and inputs).
 * Arrays sized for d = nq: zidx[nq], A[4 nq^2], B[2 nq nin], C[nout 2 nq], D[nout nin],
 * qop, vop [nq] (the operating point). *d the minimal coordinates. */
int mbpy_linearize(mbpy *c, int mode, double t, const double *qv, int *d, int *zidx, double *A,
                   double *B, double *C, double *D, double *qop, double *vop)
{
    const mb_model *m = mb_sim_model(c->sim);
    int n = m->nq, nc = m->nc, nin = m->nin, nout = m->nout, st;
    size_t ws = mb_anl_workspace_size(m, MB_ANL_DENSE);
    void *work = ws ? malloc(ws) : NULL;
    mb_real *Tq = calloc((size_t)2 * n * n + 1, sizeof(mb_real)), *Tv = calloc((size_t)2 * n * n + 1, sizeof(mb_real));
    mb_real *Yq = calloc((size_t)nout * n + 1, sizeof(mb_real)), *Yv = calloc((size_t)nout * n + 1, sizeof(mb_real));
    mb_real *acc = calloc((size_t)n + 1, sizeof(mb_real)), *lam = calloc((size_t)nc + 1, sizeof(mb_real));
    mb_real *y = calloc((size_t)nout + 1, sizeof(mb_real));
    int rs = m->doutputs_dlam != NULL;   /* sensors of reactions: + dy/dlambda dlambda/d[x u] */
    mb_real *Yl = rs ? calloc((size_t)nout * nc + 1, sizeof(mb_real)) : NULL;
    mb_real *dL = rs ? calloc((size_t)nc * (2 * n + nin) + 1, sizeof(mb_real)) : NULL;
    mb_anl a;
    c->msg[0] = '\0';
    if (!work || !Tq || !Tv || !Yq || !Yv || !acc || !lam || !y || (rs && (!Yl || !dL))) { st = MB_ERR_WORKSPACE; snprintf(c->msg, sizeof c->msg, "linearize: out of memory"); goto done; }
    if (nin > 0 && !m->dforce_du) { st = MB_ERR_MODEL; snprintf(c->msg, sizeof c->msg, "linearize: the model has inputs but no dforce_du: regenerate it"); goto done; }
    if ((st = mb_anl_init(&a, m, NULL, MB_ANL_DENSE, work, ws))) { snprintf(c->msg, sizeof c->msg, "linearize: init: %s", mb_status_str(st)); goto done; }
    if (mode == 0) {
        mb_anl_static_info info;
        t = 0;
        memcpy(qop, m->q0, sizeof(double) * (size_t)n);
        memset(vop, 0, sizeof(double) * (size_t)n);
        if ((st = mb_anl_static(&a, 0, qop, lam, &info))) {
            static const char *const why[] = { "", "no equilibrium within the iteration limit (the loads keep doing work)",
                "the line search found no step that lowers the energy", "the constraints could not be satisfied",
                "degrees of freedom remain", "Phi_q rank-deficient", "the model has no gamma" };
            snprintf(c->msg, sizeof c->msg, "linearize: no static equilibrium from the model's guesses: %s%s%s",
                     mb_status_str(st), info.why > 0 && info.why <= 6 ? ": " : "", info.why > 0 && info.why <= 6 ? why[info.why] : "");
            goto done;
        }
    } else if (mode == 1) {
        t = 0;
        memcpy(qop, m->q0, sizeof(double) * (size_t)n);
        memcpy(vop, m->v0, sizeof(double) * (size_t)n);
        if ((st = mb_sim_assemble(c->sim, 0, qop, vop, d))) {
            snprintf(c->msg, sizeof c->msg, "linearize: the initial state does not assemble: %s", mb_status_str(st));
            c->started = 0;   /* the assembly ran on the sim's workspace */
            goto done;
        }
        c->started = 0;
    } else {
        memcpy(qop, qv, sizeof(double) * (size_t)n);
        memcpy(vop, qv + n, sizeof(double) * (size_t)n);
    }
    mb_anl_ss ss = { zidx, 0, A, B, Tq, Tv, acc, lam, dL };
    if ((st = mb_anl_linearize_ss(&a, (mb_real)t, qop, vop, 0, NULL, &ss))) {
        if (st == MB_ERR_SINGULAR && a.singular_row >= 0 && m->info && m->info->constraint_names)
            snprintf(c->msg, sizeof c->msg, "linearize: Phi_q is rank-deficient at constraint %s (a singular position or a redundant joint): %s",
                     m->info->constraint_names[a.singular_row], mb_status_str(st));
        else
            snprintf(c->msg, sizeof c->msg, "linearize: %s", mb_status_str(st));
        goto done;
    }
    *d = ss.d;
    int d2 = 2 * ss.d;
    mb_model ml = *m;   /* the sensors at the state's multipliers (interface 13) */
    if (rs) ml.lam = lam;
    if (nout > 0) ml.outputs(&ml, (mb_real)t, qop, vop, y, Yq, Yv);
    if (nout > 0 && nin > 0) ml.doutputs_du(&ml, (mb_real)t, qop, vop, D);
    if (rs) ml.doutputs_dlam(&ml, (mb_real)t, qop, vop, Yl);
    for (int i = 0; i < nout; i++)
        for (int j = 0; j < d2 + (rs ? nin : 0); j++) {
            double s = 0;
            for (int k = 0; j < d2 && k < n; k++)
                s += Yq[(long)i * n + k] * Tq[(long)k * d2 + j] + Yv[(long)i * n + k] * Tv[(long)k * d2 + j];
            for (int r = 0; rs && r < nc; r++) s += Yl[(long)i * nc + r] * dL[(long)r * (d2 + nin) + j];
            if (j < d2) C[(long)i * d2 + j] = s;
            else D[(long)i * nin + j - d2] += s;
        }
done:
    free(work); free(Tq); free(Tv); free(Yq); free(Yv); free(acc); free(lam); free(y); free(Yl); free(dL);
    return st;
}

/* A block of sweep rows on one context (the options are the same for all): row r's tunables
 * and inputs P[r (npar + nin) ...] (every one, in the model's order), then a reset (assembled)
 * and the steps to t_end. OUT[r SW_COUNT + nq + nout]: t, the counts and maxima below, the final
 * q and sensors; ST[r] 0 or the failure; MSG[r 160] why (empty when it ran). The reset between
 * rows is the only work besides the steps (docs/python.md, "Sweep across cores"). */
enum { SW_COUNT = 9 };   /* t, steps, rejected, newton_iters, maxiter_events, max_energy_dev,
                            max_phi, max_phid, warn */
int mbpy_sweep_fields(void) { return SW_COUNT; }
void mbpy_sweep(mbpy *c, long n, const double *P, double t_end, double *OUT, int *ST, char *MSG)
{
    const mb_model *m = MODEL;
    int np = m->npar, ni = m->nin, nq = m->nq, no = m->nout;
    long w = SW_COUNT + nq + no;
    for (long r = 0; r < n; r++) {
        const double *pr = P + r * (np + ni);
        double *o = OUT + r * w;
        char *msg = MSG + r * 160;
        int st = MB_OK, ran = 0;
        c->msg[0] = '\0';
        for (int i = 0; i < np && !st; i++)
            if ((double)mb_sim_get_param(c->sim, i) != pr[i] || !c->started) st = mbpy_set_param(c, i, pr[i]);
        for (int i = 0; i < ni && !st; i++) st = mbpy_set_input(c, i, pr[np + i], 0);
        if (!st) { ran = 1; st = mbpy_reset(c, 0, NULL, NULL, 1); }
        if (st >= 0 && ran) st = mbpy_run_to(c, t_end, NULL);
        const mb_monitor *mo = mb_sim_get_monitor(c->sim);
        double v[SW_COUNT] = { ran ? (double)mb_sim_get_t(c->sim) : (double)NAN, (double)mo->steps,
                               (double)mo->rejected, (double)mo->newton_iters, (double)mo->maxiter_events,
                               (double)mo->max_energy_dev, (double)mo->max_phi, (double)mo->max_phid,
                               (double)mo->warn };
        if (!ran)
            for (int k = 1; k < SW_COUNT; k++) v[k] = (double)NAN;
        memcpy(o, v, sizeof v);
        for (int i = 0; i < nq; i++) o[SW_COUNT + i] = st >= 0 ? (double)mb_sim_get_q(c->sim)[i] : (double)NAN;
        if (no > 0 && (st < 0 || mbpy_outputs(c, o + SW_COUNT + nq) != MB_OK))
            for (int i = 0; i < no; i++) o[SW_COUNT + nq + i] = (double)NAN;
        ST[r] = st < 0 ? st : 0;
        snprintf(msg, 160, "%.159s", st < 0 ? c->msg : "");
    }
}

/* The static equilibrium at t = 0 from q (in: the guess, NULL: the model's guesses; out: the
 * equilibrium) on the sim's descriptor: mb_anl_static. lam[nc] the multipliers; info: iters,
 * rejected, escapes, dof, rank, residual, eig_min, eig_max, stability, why. */
int mbpy_static(mbpy *c, const double *guess, double *q, double *lam, double *info)
{
    const mb_model *m = mb_sim_model(c->sim);
    size_t ws = mb_anl_workspace_size(m, MB_ANL_DENSE);
    void *work = ws ? malloc(ws) : NULL;
    mb_anl a;
    mb_anl_static_info in;
    int st = work ? mb_anl_init(&a, m, NULL, MB_ANL_DENSE, work, ws) : MB_ERR_WORKSPACE;
    memset(&in, 0, sizeof in);
    c->msg[0] = '\0';
    if (!st) {
        memcpy(q, guess ? guess : m->q0, sizeof(double) * (size_t)m->nq);
        st = mb_anl_static(&a, 0, q, lam, &in);
    }
    const double v[10] = { in.iters, in.rejected, in.escapes, in.dof, in.rank, (double)in.residual,
                           (double)in.eig_min, (double)in.eig_max, in.stability, in.why };
    memcpy(info, v, sizeof v);
    if (st) {
        static const char *const why[] = { "", "no equilibrium within the iteration limit (the loads keep doing work)",
            "the line search found no step that lowers the energy", "the constraints could not be satisfied",
            "degrees of freedom remain", "Phi_q rank-deficient", "the model has no gamma" };
        snprintf(c->msg, sizeof c->msg, "static analysis failed: %s%s%s", mb_status_str(st),
                 in.why > 0 && in.why <= 6 ? ": " : "", in.why > 0 && in.why <= 6 ? why[in.why] : "");
    }
    free(work);
    return st;
}

/* Kinematic and inverse-dynamic analysis of a mechanism its drivers leave no freedom, as the
 * simulator's --analysis kinematic: times k h up to t_end (the last t_end), each position from
 * the previous one extrapolated; T[cap], Q, V, A [cap nq], L [cap nc]; *nrows the rows. */
int mbpy_kinematic(mbpy *c, double t_end, double h, long cap, double *T, double *Q, double *V,
                   double *A, double *L, long *nrows)
{
    const mb_model *m = mb_sim_model(c->sim);
    int n = m->nq, nc = m->nc, st = MB_OK, dof = 0, why = 0;
    size_t ws = mb_anl_workspace_size(m, MB_ANL_SPARSE);
    void *work = ws ? malloc(ws) : NULL;
    mb_real *q = calloc((size_t)n + 1, sizeof(mb_real)), *v = calloc((size_t)n + 1, sizeof(mb_real));
    mb_real *acc = calloc((size_t)n + 1, sizeof(mb_real)), *lam = calloc((size_t)nc + 1, sizeof(mb_real));
    mb_anl a;
    long nsteps = (long)ceil(t_end / h - 1e-9), k;
    double t_old = 0;
    *nrows = 0;
    c->msg[0] = '\0';
    if (!work || !q || !v || !acc || !lam) st = MB_ERR_WORKSPACE;
    else st = mb_anl_init(&a, m, NULL, MB_ANL_SPARSE, work, ws);
    if (st) snprintf(c->msg, sizeof c->msg, "kinematic analysis: %s", mb_status_str(st));
    else memcpy(q, m->q0, sizeof(double) * (size_t)n);
    if (!st && nsteps + 1 > cap) { st = MB_ERR_PARAM; snprintf(c->msg, sizeof c->msg, "kinematic analysis: more rows than the %ld expected", cap); }
    for (k = 0; !st && k <= nsteps; k++) {
        double t = k == nsteps ? t_end : (double)k * h;
        if (k > 0) {
            double dt = t - t_old;
            for (int i = 0; i < n; i++) q[i] += dt * v[i] + 0.5 * dt * dt * acc[i];
        }
        st = mb_anl_kinematic(&a, (mb_real)t, q, v, acc, &dof, &why);
        if (st == MB_OK) st = mb_anl_inverse(&a, (mb_real)t, q, v, acc, lam);
        if (st) {
            if (why == MB_ANL_WHY_DOF)
                snprintf(c->msg, sizeof c->msg, "kinematic analysis failed at t=%.9g: %d degree%s of freedom not driven "
                         "(%d coordinates, %d constraint equations): add drivers, or simulate", t, dof, dof == 1 ? "" : "s", n, nc);
            else if (st == MB_ERR_SINGULAR && a.singular_row >= 0 && m->info && m->info->constraint_names)
                snprintf(c->msg, sizeof c->msg, "kinematic analysis failed at t=%.9g: Phi_q is rank-deficient at "
                         "constraint %s (a singular position or a redundant joint)", t, m->info->constraint_names[a.singular_row]);
            else
                snprintf(c->msg, sizeof c->msg, "kinematic analysis failed at t=%.9g: %s", t, mb_status_str(st));
            break;
        }
        T[k] = t;
        memcpy(Q + k * n, q, sizeof(double) * (size_t)n);
        memcpy(V + k * n, v, sizeof(double) * (size_t)n);
        memcpy(A + k * n, acc, sizeof(double) * (size_t)n);
        memcpy(L + k * nc, lam, sizeof(double) * (size_t)nc);
        *nrows = k + 1;
        t_old = t;
    }
    free(work); free(q); free(v); free(acc); free(lam);
    return st;
}
