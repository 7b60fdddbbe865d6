/* mb_fmu.c - the FMI 2.0 wrapper around one generated model (docs/fmi.md): Co-Simulation steps
 * the generated solver; Model Exchange gives the derivatives of the states [q; v] from the
 * index-1 equations with Baumgarte's stabilization (mb_anl_reactions on a stabilized gamma).
 * mb_fmu_model.h (written by make fmu into the FMU's sources/) names the model, its GUID and
 * the run settings; everything else is the runtime's embedded API (runtime/mb_sim.h). Each
 * instance holds its own mb_sim and workspace, allocated with the master's allocateMemory (the
 * runtime itself never allocates); every error is reported through the master's logger. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "mb_fmu_model.h"
#include "mb_fmi2.h"
#include "mb_fmu_vars.h"
#include "mb_analysis.h"
#include "mb_sim.h"
#include "mb_status.h"

/* the FMU is double: fmi2Real and mb_real are the same type */
typedef char mb_fmu_real_is_double[sizeof(mb_real) == sizeof(double) ? 1 : -1];

/* The states of an instance (FMI 2.0, 4.2.4: the Co-Simulation state machine), one bit each so
 * that a function names the states it may be called in. */
enum {
    S_INSTANTIATED = 1, S_INIT = 2, S_STEP = 4, S_TERMINATED = 8, S_ERROR = 16,
    S_EVENT = 32, S_CONT = 64,   /* Model Exchange: event mode, continuous-time mode */
    S_ANY = 127, S_RUN = S_STEP | S_EVENT | S_CONT
};

/* The model the accelerations are computed on: the sim's descriptor (its tunables and input
 * holds) with gamma replaced by Gamma - 2 xi w (Phi_q v + Phi_t) - w^2 Phi, F1's right-hand
 * side (5.2; xi = w = 0 in Co-Simulation: the exact index-1 accelerations). */
typedef struct me_model {
    mb_model m;                  /* first: the descriptor the functions get is this struct */
    void (*gamma0)(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *out);
    mb_real xi, w;
    mb_real *pq, *ph, *pt;       /* scratch: Phi_q values, Phi, Phi_t */
} me_model;

static void stab_gamma(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *out)
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

typedef struct fmu_inst {
    fmi2CallbackLogger logger;
    fmi2CallbackAllocateMemory alloc;
    fmi2CallbackFreeMemory release;
    fmi2ComponentEnvironment env;
    char *name;
    int state, logging;
    const mb_model *m;
    mb_params p;
    mb_sim_storage sim_mem;
    mb_sim *sim;                 /* in sim_mem */
    void *work;
    size_t ws;
    mb_real *par, *u, *du, *y;   /* tunables, inputs and their slopes as set; the sensors */
    double t0, t_stop, tol;
    int stop_defined, tol_defined;
    int started;                 /* sim initialized and reset at t0 with par, u, du */
    unsigned warned;             /* the monitor's warning bits already logged */
    int me;                      /* a Model Exchange instance */
    me_model mm;                 /* the accelerations' model (after the start) */
    mb_anl anl;
    void *awork;
    size_t aws;
    mb_real *x, *acc;            /* ME: the states [q; v] at t_me; the accelerations */
    mb_real *lam;                /* the multipliers of sensors that read reactions */
    double t_me;
    int acc_ok;                  /* acc is at the current state, time and inputs */
} fmu_inst;

static const char *state_name(int s)
{
    switch (s) {
    case S_INSTANTIATED: return "instantiated";
    case S_INIT: return "initialization mode";
    case S_STEP: return "step mode";
    case S_TERMINATED: return "terminated";
    case S_EVENT: return "event mode";
    case S_CONT: return "continuous-time mode";
    default: return "error";
    }
}

/* Log through the master's logger; the message is passed as an argument of "%s", never as a
 * format (a name with a '%' in it stays text). Errors and warnings are logged always, the
 * rest only with logging on. */
static void logmsg(const fmu_inst *c, fmi2Status st, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    if (!c || !c->logger || (st == fmi2OK && !c->logging)) return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    c->logger(c->env, c->name ? c->name : "?", st,
              st >= fmi2Error ? "logStatusError" : st == fmi2OK ? "logAll" : "logStatusWarning", "%s", buf);
}

/* The instance, when the call is allowed in its state; else NULL after logging why. */
static fmu_inst *check(fmi2Component comp, int allowed, const char *fn)
{
    fmu_inst *c = (fmu_inst *)comp;
    if (!c) return NULL;
    if (!(c->state & allowed)) {
        logmsg(c, fmi2Error, "%s: not allowed in %s", fn, state_name(c->state));
        return NULL;
    }
    return c;
}

/* The run's parameters: as the simulator builds them (tools/mb_sim_main.c): the formulation's
 * defaults, the model file's simulate { ... } settings, the settings make fmu was given. */
static void build_params(fmu_inst *c)
{
    const mb_model *m = c->m;
    const mb_preset *pr = m->preset;
    mb_params *p = &c->p;
    int f = MB_FMU_FORMULATION[0] ? mb_formulation_parse(MB_FMU_FORMULATION) : MB_ALF_TRAPEZOID;
    if (f < 0 || c->me) f = c->me ? MB_BAUMGARTE : MB_ALF_TRAPEZOID;   /* (make fmu checks the names) */
    mb_params_default(p, f);
    if (MB_FMU_INTEGRATOR[0] && !c->me) p->integrator = mb_integrator_parse(MB_FMU_INTEGRATOR);
    if (MB_FMU_H > 0) p->h = (mb_real)MB_FMU_H;
    else if (pr && pr->h > 0) p->h = (mb_real)pr->h;
    mb_params_preset(p, pr, f);
    if (MB_FMU_RTOL > 0) p->rtol = (mb_real)MB_FMU_RTOL;
    if (MB_FMU_ATOL > 0) p->atol = (mb_real)MB_FMU_ATOL;
    /* the master's tolerance (fmi2SetupExperiment) for the error-controlled runs */
    if (c->tol_defined && c->tol > 0) {
        p->rtol = (mb_real)c->tol;
        p->atol = (mb_real)(c->tol * 1e-2);
    }
    if (p->integrator == MB_TRAPEZOID && (MB_FMU_RTOL > 0 || MB_FMU_ATOL > 0) && !c->me) p->adaptive = 1;
    p->max_steps = LONG_MAX;   /* a co-simulation runs as long as the master steps */
}

static void set_defaults(fmu_inst *c)
{
    const mb_model *m = c->m;
    for (int i = 0; i < m->npar; i++) c->par[i] = m->par[i];
    for (int i = 0; i < m->nin; i++) { c->u[i] = m->in[3 * i]; c->du[i] = 0; }
    c->started = 0;
    c->warned = 0;
    c->t0 = 0;
    c->stop_defined = c->tol_defined = 0;
}

static void *zalloc(fmu_inst *c, size_t n, size_t size)
{
    return n ? c->alloc(n, size) : NULL;
}

fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                              fmi2String fmuResourceLocation, const fmi2CallbackFunctions *functions,
                              fmi2Boolean visible, fmi2Boolean loggingOn)
{
    (void)fmuResourceLocation;
    (void)visible;
    if (!functions) return NULL;   /* no logger to say so */
    fmu_inst tmp;                  /* for the messages before the instance exists */
    memset(&tmp, 0, sizeof tmp);
    tmp.logger = functions->logger;
    tmp.env = functions->componentEnvironment;
    tmp.name = (char *)(instanceName ? instanceName : "?");
    if (!functions->allocateMemory || !functions->freeMemory) {
        logmsg(&tmp, fmi2Error, "fmi2Instantiate: allocateMemory and freeMemory are required");
        return NULL;
    }
    if (!instanceName || !*instanceName) {
        logmsg(&tmp, fmi2Error, "fmi2Instantiate: an empty instance name");
        return NULL;
    }
    if (fmuType != fmi2CoSimulation && fmuType != fmi2ModelExchange) {
        logmsg(&tmp, fmi2Error, "fmi2Instantiate: fmuType %d is neither Model Exchange nor Co-Simulation", (int)fmuType);
        return NULL;
    }
    if (!fmuGUID || strcmp(fmuGUID, MB_FMU_GUID) != 0) {
        logmsg(&tmp, fmi2Error, "fmi2Instantiate: GUID %s is not this FMU's %s (modelDescription.xml "
               "from another build?)", fmuGUID ? fmuGUID : "(null)", MB_FMU_GUID);
        return NULL;
    }
    fmu_inst *c = (fmu_inst *)functions->allocateMemory(1, sizeof *c);
    if (!c) {
        logmsg(&tmp, fmi2Error, "fmi2Instantiate: out of memory");
        return NULL;
    }
    c->sim = mb_sim_of(&c->sim_mem);
    c->logger = functions->logger;
    c->alloc = functions->allocateMemory;
    c->release = functions->freeMemory;
    c->env = functions->componentEnvironment;
    c->logging = loggingOn;
    c->me = fmuType == fmi2ModelExchange;
    c->m = &MB_FMU_MODEL;
    const mb_model *m = c->m;
    size_t len = strlen(instanceName);
    c->name = (char *)zalloc(c, len + 1, 1);
    if (c->name) memcpy(c->name, instanceName, len + 1);
    build_params(c);
    const char *what = NULL;
    if (mb_params_check(&c->p, &what) != MB_OK) {
        logmsg(c, fmi2Error, "fmi2Instantiate: invalid run settings: %s", what ? what : "?");
        fmi2FreeInstance(c);
        return NULL;
    }
    c->ws = mb_sim_workspace_size(m, &c->p);
    c->work = zalloc(c, (c->ws + sizeof(mb_real) - 1) / sizeof(mb_real), sizeof(mb_real));
    c->par = (mb_real *)zalloc(c, (size_t)m->npar, sizeof(mb_real));
    c->u = (mb_real *)zalloc(c, (size_t)m->nin, sizeof(mb_real));
    c->du = (mb_real *)zalloc(c, (size_t)m->nin, sizeof(mb_real));
    c->y = (mb_real *)zalloc(c, (size_t)m->nout, sizeof(mb_real));
    c->aws = mb_anl_workspace_size(m, MB_ANL_SPARSE);
    c->awork = zalloc(c, (c->aws + sizeof(mb_real) - 1) / sizeof(mb_real), sizeof(mb_real));
    c->x = (mb_real *)zalloc(c, (size_t)(2 * m->nq), sizeof(mb_real));
    c->acc = (mb_real *)zalloc(c, (size_t)m->nq, sizeof(mb_real));
    c->lam = (mb_real *)zalloc(c, (size_t)m->nc + 1, sizeof(mb_real));
    c->mm.pq = (mb_real *)zalloc(c, (size_t)m->phi_q_pat.nnz + 1, sizeof(mb_real));
    c->mm.ph = (mb_real *)zalloc(c, (size_t)m->nc + 1, sizeof(mb_real));
    c->mm.pt = (mb_real *)zalloc(c, (size_t)m->nc + 1, sizeof(mb_real));
    if (!c->name || c->ws == 0 || !c->work || (m->npar && !c->par) || (m->nin && (!c->u || !c->du)) ||
        (m->nout && !c->y) || c->aws == 0 || !c->awork || !c->x || !c->acc || !c->lam || !c->mm.pq || !c->mm.ph || !c->mm.pt) {
        logmsg(c->name ? c : &tmp, fmi2Error, "fmi2Instantiate: out of memory (workspace %zu bytes)", c->ws);
        fmi2FreeInstance(c);
        return NULL;
    }
    set_defaults(c);
    c->state = S_INSTANTIATED;
    if (c->me)
        logmsg(c, fmi2OK, "instantiated %s for Model Exchange: the index-1 equations, Baumgarte xi=%g omega=%g",
               MB_FMU_NAME, (double)c->p.xi, (double)c->p.omega);
    else
        logmsg(c, fmi2OK, "instantiated %s: %s/%s h=%g, workspace %zu bytes", MB_FMU_NAME,
               mb_formulation_name(c->p.formulation), mb_integrator_name(c->p.integrator), (double)c->p.h, c->ws);
    return c;
}

void fmi2FreeInstance(fmi2Component comp)
{
    fmu_inst *c = (fmu_inst *)comp;
    if (!c) return;
    fmi2CallbackFreeMemory release = c->release;
    release(c->work);
    release(c->par);
    release(c->u);
    release(c->du);
    release(c->y);
    release(c->lam);
    release(c->awork);
    release(c->x);
    release(c->acc);
    release(c->mm.pq);
    release(c->mm.ph);
    release(c->mm.pt);
    release(c->name);
    release(c);
}

const char *fmi2GetTypesPlatform(void) { return MB_FMI2_TYPES_PLATFORM; }
const char *fmi2GetVersion(void) { return MB_FMI2_VERSION; }

fmi2Status fmi2SetDebugLogging(fmi2Component comp, fmi2Boolean loggingOn, size_t nCategories,
                               const fmi2String categories[])
{
    fmu_inst *c = check(comp, S_ANY, "fmi2SetDebugLogging");
    if (!c) return fmi2Error;
    for (size_t k = 0; k < nCategories; k++) {
        const char *cat = categories ? categories[k] : NULL;
        if (!cat || (strcmp(cat, "logAll") && strcmp(cat, "logStatusError") && strcmp(cat, "logStatusWarning"))) {
            logmsg(c, fmi2Error, "fmi2SetDebugLogging: unknown category %s (logAll, logStatusError, "
                   "logStatusWarning)", cat ? cat : "(null)");
            return fmi2Error;
        }
    }
    c->logging = loggingOn;
    return fmi2OK;
}

fmi2Status fmi2SetupExperiment(fmi2Component comp, fmi2Boolean toleranceDefined, fmi2Real tolerance,
                               fmi2Real startTime, fmi2Boolean stopTimeDefined, fmi2Real stopTime)
{
    fmu_inst *c = check(comp, S_INSTANTIATED, "fmi2SetupExperiment");
    if (!c) return fmi2Error;
    if (!isfinite(startTime) || (stopTimeDefined && !(stopTime >= startTime)) ||
        (toleranceDefined && !(tolerance > 0 && tolerance < 1))) {
        logmsg(c, fmi2Error, "fmi2SetupExperiment: startTime %g, stopTime %g, tolerance %g: need a "
               "finite start, stop >= start and 0 < tolerance < 1", startTime, stopTime, tolerance);
        return fmi2Error;
    }
    c->t0 = startTime;
    c->stop_defined = stopTimeDefined;
    c->t_stop = stopTime;
    c->tol_defined = toleranceDefined;
    c->tol = tolerance;
    build_params(c);
    const char *what = NULL;
    if (mb_params_check(&c->p, &what) != MB_OK) {
        logmsg(c, fmi2Error, "fmi2SetupExperiment: invalid run settings: %s", what ? what : "?");
        return fmi2Error;
    }
    c->started = 0;
    return fmi2OK;
}

/* mb_sim_init, the tunables and inputs as set, the assembly at t0 (as the simulator starts:
 * inputs before the assembly, a driver may follow one). */
static fmi2Status start(fmu_inst *c, const char *fn)
{
    const mb_model *m = c->m;
    int st = mb_sim_init(c->sim, m, &c->p, c->work, c->ws);
    if (st != MB_OK) {
        logmsg(c, fmi2Error, "%s: mb_sim_init: %s", fn, mb_status_str(st));
        return fmi2Error;
    }
    for (int i = 0; i < m->npar; i++) {
        int rule = -1;
        if (mb_sim_set_param(c->sim, i, c->par[i], &rule) != MB_OK) {
            logmsg(c, fmi2Error, "%s: parameter %s = %.17g breaks the model's rule %s", fn, m->par_names[i],
                   (double)c->par[i], rule >= 0 ? m->par_rules[rule] : "(a finite, normal number)");
            return fmi2Error;
        }
    }
    for (int i = 0; i < m->nin; i++) mb_sim_set_input_slope(c->sim, i, c->u[i], c->du[i]);
    st = mb_sim_reset(c->sim, (mb_real)c->t0, NULL, NULL, 1);
    if (st < 0) {
        logmsg(c, fmi2Error, "%s: the start at t=%g (assembly and first evaluation) failed: %s", fn, c->t0,
               mb_status_str(st));
        return fmi2Error;
    }
    /* the accelerations' model: the sim's descriptor (tunables, input holds), gamma stabilized
     * in Model Exchange */
    c->mm.m = *mb_sim_model(c->sim);
    c->mm.gamma0 = c->mm.m.gamma;
    c->mm.m.gamma = c->mm.gamma0 ? stab_gamma : NULL;
    c->mm.xi = c->me ? c->p.xi : 0;
    c->mm.w = c->me ? c->p.omega : 0;
    st = mb_anl_init(&c->anl, &c->mm.m, NULL, MB_ANL_SPARSE, c->awork, c->aws);
    if (st != MB_OK) {
        logmsg(c, fmi2Error, "%s: mb_anl_init: %s", fn, mb_status_str(st));
        return fmi2Error;
    }
    for (int i = 0; i < m->nq; i++) {
        c->x[i] = mb_sim_get_q(c->sim)[i];
        c->x[m->nq + i] = mb_sim_get_v(c->sim)[i];
    }
    c->t_me = c->t0;
    c->acc_ok = 0;
    c->started = 1;
    c->warned = 0;
    return fmi2OK;
}

/* The current time and state: the sim's (Co-Simulation) or the master's (Model Exchange). */
static double cur(const fmu_inst *c, const mb_real **q, const mb_real **v)
{
    if (c->me) {
        *q = c->x;
        *v = c->x + c->m->nq;
        return c->t_me;
    }
    *q = mb_sim_get_q(c->sim);
    *v = mb_sim_get_v(c->sim);
    return (double)mb_sim_get_t(c->sim);
}

/* The accelerations at the current state: -1 after logging a failure (a singular position). */
static int accelerations(fmu_inst *c, const char *fn)
{
    if (c->acc_ok) return 0;
    const mb_real *q, *v;
    double t = cur(c, &q, &v);
    int st = mb_anl_reactions(&c->anl, (mb_real)t, q, v, c->acc, NULL);
    if (st != MB_OK) {
        logmsg(c, fmi2Error, "%s: the accelerations at t=%.9g: %s", fn, t, mb_status_str(st));
        return -1;
    }
    c->acc_ok = 1;
    return 0;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component comp)
{
    fmu_inst *c = check(comp, S_INSTANTIATED, "fmi2EnterInitializationMode");
    if (!c) return fmi2Error;
    c->state = S_INIT;
    return fmi2OK;
}

fmi2Status fmi2ExitInitializationMode(fmi2Component comp)
{
    fmu_inst *c = check(comp, S_INIT, "fmi2ExitInitializationMode");
    if (!c) return fmi2Error;
    if (!c->started && start(c, "fmi2ExitInitializationMode") != fmi2OK) {
        c->state = S_ERROR;
        return fmi2Error;
    }
    c->state = c->me ? S_EVENT : S_STEP;   /* Model Exchange continues in event mode */
    return fmi2OK;
}

fmi2Status fmi2Terminate(fmi2Component comp)
{
    fmu_inst *c = check(comp, S_RUN | S_ERROR, "fmi2Terminate");
    if (!c) return fmi2Error;
    c->state = S_TERMINATED;
    return fmi2OK;
}

fmi2Status fmi2Reset(fmi2Component comp)
{
    fmu_inst *c = check(comp, S_ANY, "fmi2Reset");
    if (!c) return fmi2Error;
    set_defaults(c);
    build_params(c);
    c->state = S_INSTANTIATED;
    return fmi2OK;
}

/* A value reference's kind and index, or MB_FMU_BAD after logging it. */
static int lookup(const fmu_inst *c, fmi2ValueReference vr, int *idx, const char *fn)
{
    int k = mb_fmu_vr_kind(c->m, vr, idx);
    if (k == MB_FMU_BAD)
        logmsg(c, fmi2Error, "%s: no Real variable has value reference %u (%s has %u)", fn, vr, MB_FMU_NAME,
               mb_fmu_nvars(c->m));
    return k;
}

fmi2Status fmi2GetReal(fmi2Component comp, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[])
{
    fmu_inst *c = check(comp, S_ANY, "fmi2GetReal");
    if (!c) return fmi2Error;
    if (nvr && (!vr || !value)) {
        logmsg(c, fmi2Error, "fmi2GetReal: NULL arrays");
        return fmi2Error;
    }
    int have_y = 0;
    for (size_t k = 0; k < nvr; k++) {
        int i, kind = lookup(c, vr[k], &i, "fmi2GetReal");
        if (kind == MB_FMU_BAD) return fmi2Error;
        if (kind == MB_FMU_U) { value[k] = c->u[i]; continue; }
        if (kind == MB_FMU_P) { value[k] = c->par[i]; continue; }
        /* the state and the sensors: from the start of the initialization mode on */
        if (c->state == S_INSTANTIATED) {
            logmsg(c, fmi2Error, "fmi2GetReal: value reference %u is computed: not before "
                   "fmi2EnterInitializationMode", vr[k]);
            return fmi2Error;
        }
        if (!c->started) {
            if (c->state != S_INIT) {
                logmsg(c, fmi2Error, "fmi2GetReal: value reference %u: no state (the start failed)", vr[k]);
                return fmi2Error;
            }
            if (start(c, "fmi2GetReal") != fmi2OK) return fmi2Error;
        }
        const mb_real *q, *v;
        double t = cur(c, &q, &v);
        if (kind == MB_FMU_Q) value[k] = q[i];
        else if (kind == MB_FMU_V) value[k] = v[i];
        else if (kind == MB_FMU_A) {
            if (accelerations(c, "fmi2GetReal") != 0) return fmi2Error;
            value[k] = c->acc[i];
        } else {
            if (!have_y && c->m->doutputs_dlam) {   /* reactions: the index-1 multipliers */
                int st = mb_anl_outputs(&c->anl, (mb_real)t, q, v, c->lam, c->y, NULL, NULL, NULL);
                if (st != MB_OK) {
                    logmsg(c, fmi2Error, "fmi2GetReal: the sensors' reactions at t=%.9g: %s", t,
                           mb_status_str(st));
                    return fmi2Error;
                }
                have_y = 1;
            }
            if (!have_y && c->me) {
                c->mm.m.outputs(&c->mm.m, (mb_real)t, q, v, c->y, NULL, NULL);
                have_y = 1;
            }
            if (!have_y) {
                int st = mb_sim_get_output(c->sim, c->y, NULL, NULL);
                if (st != MB_OK) {
                    logmsg(c, fmi2Error, "fmi2GetReal: the sensors: %s", mb_status_str(st));
                    return fmi2Error;
                }
                have_y = 1;
            }
            value[k] = c->y[i];
        }
    }
    return fmi2OK;
}

fmi2Status fmi2SetReal(fmi2Component comp, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[])
{
    fmu_inst *c = check(comp, S_INSTANTIATED | S_INIT | S_RUN, "fmi2SetReal");
    if (!c) return fmi2Error;
    if (nvr && (!vr || !value)) {
        logmsg(c, fmi2Error, "fmi2SetReal: NULL arrays");
        return fmi2Error;
    }
    for (size_t k = 0; k < nvr; k++) {
        int i, kind = lookup(c, vr[k], &i, "fmi2SetReal");
        if (kind == MB_FMU_BAD) return fmi2Error;
        if (kind != MB_FMU_U && kind != MB_FMU_P) {   /* (the states: fmi2SetContinuousStates) */
            logmsg(c, fmi2Error, "fmi2SetReal: value reference %u is an output (only inputs and "
                   "parameters are set)", vr[k]);
            return fmi2Error;
        }
        if (!isfinite(value[k])) {
            logmsg(c, fmi2Error, "fmi2SetReal: value reference %u: %g is not finite", vr[k], value[k]);
            return fmi2Error;
        }
        if (kind == MB_FMU_P) {
            if (c->state & S_RUN) {
                logmsg(c, fmi2Error, "fmi2SetReal: parameter %s is fixed: set it before "
                       "fmi2ExitInitializationMode", c->m->par_names[i]);
                return fmi2Error;
            }
            c->par[i] = value[k];
            c->started = 0;
            continue;
        }
        c->u[i] = value[k];
        c->du[i] = 0;
        if (c->state & S_RUN) mb_sim_set_input(c->sim, i, value[k]);   /* held from now on */
        else c->started = 0;
        c->acc_ok = 0;
    }
    return fmi2OK;
}

/* No Integer, Boolean or String variables: only empty calls succeed. */
static fmi2Status no_vars(fmi2Component comp, size_t nvr, const char *fn, const char *type)
{
    fmu_inst *c = check(comp, S_ANY, fn);
    if (!c) return fmi2Error;
    if (nvr == 0) return fmi2OK;
    logmsg(c, fmi2Error, "%s: %s has no %s variables", fn, MB_FMU_NAME, type);
    return fmi2Error;
}
fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Integer value[])
{ (void)vr; (void)value; return no_vars(c, nvr, "fmi2GetInteger", "Integer"); }
fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Boolean value[])
{ (void)vr; (void)value; return no_vars(c, nvr, "fmi2GetBoolean", "Boolean"); }
fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2String value[])
{ (void)vr; (void)value; return no_vars(c, nvr, "fmi2GetString", "String"); }
fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer value[])
{ (void)vr; (void)value; return no_vars(c, nvr, "fmi2SetInteger", "Integer"); }
fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Boolean value[])
{ (void)vr; (void)value; return no_vars(c, nvr, "fmi2SetBoolean", "Boolean"); }
fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2String value[])
{ (void)vr; (void)value; return no_vars(c, nvr, "fmi2SetString", "String"); }

/* What modelDescription.xml declares false: refused with a message. */
static fmi2Status unsupported(fmi2Component comp, const char *fn, const char *flag)
{
    fmu_inst *c = check(comp, S_ANY, fn);
    if (c) logmsg(c, fmi2Error, "%s: not supported (%s=\"false\")", fn, flag);
    return fmi2Error;
}
fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *state)
{ (void)state; return unsupported(c, "fmi2GetFMUstate", "canGetAndSetFMUstate"); }
fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate state)
{ (void)state; return unsupported(c, "fmi2SetFMUstate", "canGetAndSetFMUstate"); }
fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *state)
{ (void)state; return unsupported(c, "fmi2FreeFMUstate", "canGetAndSetFMUstate"); }
fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate state, size_t *size)
{ (void)state; (void)size; return unsupported(c, "fmi2SerializedFMUstateSize", "canSerializeFMUstate"); }
fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate state, fmi2Byte serializedState[], size_t size)
{ (void)state; (void)serializedState; (void)size; return unsupported(c, "fmi2SerializeFMUstate", "canSerializeFMUstate"); }
fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte serializedState[], size_t size, fmi2FMUstate *state)
{ (void)state; (void)serializedState; (void)size; return unsupported(c, "fmi2DeSerializeFMUstate", "canSerializeFMUstate"); }
fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference vUnknown_ref[], size_t nUnknown,
                                        const fmi2ValueReference vKnown_ref[], size_t nKnown,
                                        const fmi2Real dvKnown[], fmi2Real dvUnknown[])
{
    (void)vUnknown_ref; (void)nUnknown; (void)vKnown_ref; (void)nKnown; (void)dvKnown; (void)dvUnknown;
    return unsupported(c, "fmi2GetDirectionalDerivative", "providesDirectionalDerivative");
}
fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                        const fmi2Integer order[], fmi2Real value[])
{
    (void)vr; (void)nvr; (void)order; (void)value;
    return unsupported(c, "fmi2GetRealOutputDerivatives", "maxOutputDerivativeOrder=\"0\", i.e. none; a flag");
}

/* First-order hold (canInterpolateInputs): the input's slope over the next steps. */
fmi2Status fmi2SetRealInputDerivatives(fmi2Component comp, const fmi2ValueReference vr[], size_t nvr,
                                       const fmi2Integer order[], const fmi2Real value[])
{
    fmu_inst *c = check(comp, S_INSTANTIATED | S_INIT | S_STEP, "fmi2SetRealInputDerivatives");
    if (!c) return fmi2Error;
    if (c->me) {
        logmsg(c, fmi2Error, "fmi2SetRealInputDerivatives: a Co-Simulation function (this is a Model Exchange instance)");
        return fmi2Error;
    }
    if (nvr && (!vr || !order || !value)) {
        logmsg(c, fmi2Error, "fmi2SetRealInputDerivatives: NULL arrays");
        return fmi2Error;
    }
    for (size_t k = 0; k < nvr; k++) {
        int i, kind = lookup(c, vr[k], &i, "fmi2SetRealInputDerivatives");
        if (kind == MB_FMU_BAD) return fmi2Error;
        if (kind != MB_FMU_U || order[k] != 1 || !isfinite(value[k])) {
            logmsg(c, fmi2Error, "fmi2SetRealInputDerivatives: value reference %u order %d value %g: only "
                   "the first derivative (order 1, finite) of an input", vr[k], order[k], value[k]);
            return fmi2Error;
        }
        c->du[i] = value[k];
        if (c->state == S_STEP) {
            mb_sim *s = c->sim;
            mb_sim_set_input_slope(s, i, mb_sim_get_input(s, i), value[k]);
        } else {
            c->started = 0;
        }
    }
    return fmi2OK;
}

/* The FMU's time is within this of the master's communication point (fixed steps land on the
 * grid t0 + k h, the master adds its step sizes: the two differ in the last bits). */
static double time_slack(const fmu_inst *c, double t)
{
    return 1e-9 * (double)c->p.h + 4 * 2.220446049250313e-16 * fabs(t);
}

/* Advance to the communication point tc. Adaptive runs stop exactly there. Fixed steps stay on
 * the simulator's grid: while a whole step fits they step toward stopTime (mb_sim_step then
 * takes h and lands on t0 + k h, as the simulator running to t_end does; its last step clips
 * to stopTime; without a stopTime they step toward a point 2 h beyond), and a communication
 * point off the grid ends with a shorter step onto it. */
static int advance(fmu_inst *c, double tc)
{
    mb_sim *s = c->sim;
    int adaptive = MB_PARAMS_ADAPTIVE(&c->p);
    double h = (double)c->p.h;
    for (;;) {
        double t = (double)mb_sim_get_t(s);
        if (!(tc - t > (adaptive ? 0 : time_slack(c, tc)))) return MB_OK;
        double stop = tc;
        if (!adaptive && t + h <= tc + time_slack(c, tc))
            stop = c->stop_defined && c->t_stop >= tc - time_slack(c, tc) ? c->t_stop : tc + 2 * h;
        int st = mb_sim_step(s, (mb_real)stop);
        if (st < 0) return st;
    }
}

fmi2Status fmi2DoStep(fmi2Component comp, fmi2Real currentCommunicationPoint, fmi2Real communicationStepSize,
                      fmi2Boolean noSetFMUStatePriorToCurrentPoint)
{
    (void)noSetFMUStatePriorToCurrentPoint;
    fmu_inst *c = check(comp, S_STEP, "fmi2DoStep");
    if (!c) return fmi2Error;
    double t = (double)mb_sim_get_t(c->sim);
    if (!(communicationStepSize > 0) || !isfinite(currentCommunicationPoint + communicationStepSize)) {
        logmsg(c, fmi2Error, "fmi2DoStep: communicationStepSize %g at %g: must be positive and finite",
               communicationStepSize, currentCommunicationPoint);
        return fmi2Error;
    }
    if (fabs(currentCommunicationPoint - t) > time_slack(c, t)) {
        logmsg(c, fmi2Error, "fmi2DoStep: currentCommunicationPoint %.17g is not the FMU's time %.17g",
               currentCommunicationPoint, t);
        return fmi2Error;
    }
    c->acc_ok = 0;
    int st = advance(c, currentCommunicationPoint + communicationStepSize);
    if (st < 0) {
        const mb_monitor *mo = mb_sim_get_monitor(c->sim);
        logmsg(c, fmi2Error, "fmi2DoStep: the step from t=%.9g (after %ld accepted steps) failed: %s",
               (double)mb_sim_get_t(c->sim), mo->steps, mb_status_str(st));
        c->state = S_ERROR;
        return fmi2Error;
    }
    unsigned fresh = mb_sim_get_monitor(c->sim)->warn & ~c->warned;
    if (fresh) {   /* a suspect result (docs/formulations.md, "Warnings"): said once per condition */
        static const char *const what[MB_NWARN] = {
            "a Newton iteration stopped at max_iter", "the energy balance drifted",
            "the constraints drifted", "the constraint impulse grows", "the step is near the stability limit"};
        const mb_monitor *mo = mb_sim_get_monitor(c->sim);
        for (int k = 0; k < MB_NWARN; k++)
            if (fresh & MB_WARN_BIT(k))
                logmsg(c, fmi2Warning, "fmi2DoStep: warning at t=%.9g: %s (value %g)", (double)mo->warn_t[k],
                       what[k], (double)mo->warn_val[k]);
        c->warned |= fresh;
        return fmi2Warning;
    }
    return fmi2OK;
}

fmi2Status fmi2CancelStep(fmi2Component c)
{
    return unsupported(c, "fmi2CancelStep", "asynchronous steps");
}

fmi2Status fmi2GetStatus(fmi2Component comp, const fmi2StatusKind s, fmi2Status *value)
{
    fmu_inst *c = check(comp, S_STEP | S_ERROR | S_TERMINATED, "fmi2GetStatus");
    if (!c || !value) return fmi2Error;
    if (s == fmi2DoStepStatus) {   /* steps are synchronous: the last one has finished */
        *value = c->state == S_ERROR ? fmi2Error : fmi2OK;
        return fmi2OK;
    }
    logmsg(c, fmi2Error, "fmi2GetStatus: status kind %d is not an fmi2Status", (int)s);
    return fmi2Discard;
}

fmi2Status fmi2GetRealStatus(fmi2Component comp, const fmi2StatusKind s, fmi2Real *value)
{
    fmu_inst *c = check(comp, S_STEP | S_ERROR | S_TERMINATED, "fmi2GetRealStatus");
    if (!c || !value) return fmi2Error;
    if (s == fmi2LastSuccessfulTime) {
        *value = (double)mb_sim_get_t(c->sim);
        return fmi2OK;
    }
    logmsg(c, fmi2Error, "fmi2GetRealStatus: status kind %d is not a Real", (int)s);
    return fmi2Discard;
}

fmi2Status fmi2GetIntegerStatus(fmi2Component comp, const fmi2StatusKind s, fmi2Integer *value)
{
    (void)value;
    fmu_inst *c = check(comp, S_ANY, "fmi2GetIntegerStatus");
    if (c) logmsg(c, fmi2Error, "fmi2GetIntegerStatus: status kind %d is not an Integer", (int)s);
    return c ? fmi2Discard : fmi2Error;
}

fmi2Status fmi2GetBooleanStatus(fmi2Component comp, const fmi2StatusKind s, fmi2Boolean *value)
{
    fmu_inst *c = check(comp, S_STEP | S_ERROR | S_TERMINATED, "fmi2GetBooleanStatus");
    if (!c || !value) return fmi2Error;
    if (s == fmi2Terminated) {   /* the FMU never asks to end the run */
        *value = fmi2False;
        return fmi2OK;
    }
    logmsg(c, fmi2Error, "fmi2GetBooleanStatus: status kind %d is not a Boolean", (int)s);
    return fmi2Discard;
}

fmi2Status fmi2GetStringStatus(fmi2Component comp, const fmi2StatusKind s, fmi2String *value)
{
    fmu_inst *c = check(comp, S_STEP | S_ERROR | S_TERMINATED, "fmi2GetStringStatus");
    if (!c || !value) return fmi2Error;
    if (s == fmi2PendingStatus) {   /* no asynchronous step is ever pending */
        *value = "";
        return fmi2OK;
    }
    logmsg(c, fmi2Error, "fmi2GetStringStatus: status kind %d is not a String", (int)s);
    return fmi2Discard;
}

/* ---------------------------------------------------------------- Model Exchange */
/* The states are [q; v] (2 nq), their derivatives [v; acc] with acc from the index-1 equations
 * M acc + Phi_q^T lambda = Q, Phi_q acc = Gamma - 2 xi w Phidot - w^2 Phi (baumgarte's,
 * formulation F1, with the model file's xi and omega): the master's integrator then runs
 * baumgarte's equations. No events, no event indicators. */
static fmu_inst *check_me(fmi2Component comp, int allowed, const char *fn)
{
    fmu_inst *c = (fmu_inst *)comp;
    if (c && !c->me) {
        logmsg(c, fmi2Error, "%s: a Model Exchange function (this is a Co-Simulation instance)", fn);
        return NULL;
    }
    return check(comp, allowed, fn);
}

static int check_n(fmu_inst *c, const void *arr, size_t n, size_t want, const char *fn)
{
    if ((n && !arr) || n != want) {
        logmsg(c, fmi2Error, "%s: %zu values%s (%s has %zu states)", fn, n, n && !arr ? " at NULL" : "", MB_FMU_NAME, want);
        return -1;
    }
    return 0;
}

fmi2Status fmi2EnterEventMode(fmi2Component comp)
{
    fmu_inst *c = check_me(comp, S_EVENT | S_CONT, "fmi2EnterEventMode");
    if (!c) return fmi2Error;
    c->state = S_EVENT;
    return fmi2OK;
}

fmi2Status fmi2NewDiscreteStates(fmi2Component comp, fmi2EventInfo *info)
{
    fmu_inst *c = check_me(comp, S_EVENT, "fmi2NewDiscreteStates");
    if (!c) return fmi2Error;
    if (!info) {
        logmsg(c, fmi2Error, "fmi2NewDiscreteStates: a NULL fmi2EventInfo");
        return fmi2Error;
    }
    info->newDiscreteStatesNeeded = fmi2False;
    info->terminateSimulation = fmi2False;
    info->nominalsOfContinuousStatesChanged = fmi2False;
    info->valuesOfContinuousStatesChanged = fmi2False;
    info->nextEventTimeDefined = fmi2False;
    info->nextEventTime = 0;
    return fmi2OK;
}

fmi2Status fmi2EnterContinuousTimeMode(fmi2Component comp)
{
    fmu_inst *c = check_me(comp, S_EVENT, "fmi2EnterContinuousTimeMode");
    if (!c) return fmi2Error;
    c->state = S_CONT;
    return fmi2OK;
}

fmi2Status fmi2CompletedIntegratorStep(fmi2Component comp, fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                       fmi2Boolean *enterEventMode, fmi2Boolean *terminateSimulation)
{
    (void)noSetFMUStatePriorToCurrentPoint;
    fmu_inst *c = check_me(comp, S_CONT, "fmi2CompletedIntegratorStep");
    if (!c) return fmi2Error;
    if (!enterEventMode || !terminateSimulation) {
        logmsg(c, fmi2Error, "fmi2CompletedIntegratorStep: NULL results");
        return fmi2Error;
    }
    *enterEventMode = fmi2False;
    *terminateSimulation = fmi2False;
    return fmi2OK;
}

fmi2Status fmi2SetTime(fmi2Component comp, fmi2Real time)
{
    fmu_inst *c = check_me(comp, S_EVENT | S_CONT, "fmi2SetTime");
    if (!c) return fmi2Error;
    if (!isfinite(time)) {
        logmsg(c, fmi2Error, "fmi2SetTime: %g is not finite", time);
        return fmi2Error;
    }
    c->t_me = time;
    c->acc_ok = 0;
    return fmi2OK;
}

fmi2Status fmi2SetContinuousStates(fmi2Component comp, const fmi2Real x[], size_t nx)
{
    fmu_inst *c = check_me(comp, S_EVENT | S_CONT, "fmi2SetContinuousStates");
    if (!c || check_n(c, x, nx, (size_t)(2 * c->m->nq), "fmi2SetContinuousStates")) return fmi2Error;
    for (size_t k = 0; k < nx; k++)
        if (!isfinite(x[k])) {
            logmsg(c, fmi2Error, "fmi2SetContinuousStates: state %zu is %g", k, x[k]);
            return fmi2Error;
        }
    for (size_t k = 0; k < nx; k++) c->x[k] = x[k];
    c->acc_ok = 0;
    return fmi2OK;
}

fmi2Status fmi2GetContinuousStates(fmi2Component comp, fmi2Real x[], size_t nx)
{
    fmu_inst *c = check_me(comp, S_INIT | S_EVENT | S_CONT | S_TERMINATED | S_ERROR, "fmi2GetContinuousStates");
    if (!c || check_n(c, x, nx, (size_t)(2 * c->m->nq), "fmi2GetContinuousStates")) return fmi2Error;
    if (!c->started && (c->state != S_INIT || start(c, "fmi2GetContinuousStates") != fmi2OK)) return fmi2Error;
    for (size_t k = 0; k < nx; k++) x[k] = c->x[k];
    return fmi2OK;
}

fmi2Status fmi2GetDerivatives(fmi2Component comp, fmi2Real dx[], size_t nx)
{
    fmu_inst *c = check_me(comp, S_EVENT | S_CONT | S_TERMINATED | S_ERROR, "fmi2GetDerivatives");
    int nq = c ? c->m->nq : 0;
    if (!c || check_n(c, dx, nx, (size_t)(2 * nq), "fmi2GetDerivatives") || !c->started) return fmi2Error;
    if (accelerations(c, "fmi2GetDerivatives") != 0) return fmi2Error;
    for (int i = 0; i < nq; i++) {
        dx[i] = c->x[nq + i];
        dx[nq + i] = c->acc[i];
    }
    return fmi2OK;
}

fmi2Status fmi2GetEventIndicators(fmi2Component comp, fmi2Real eventIndicators[], size_t ni)
{
    (void)eventIndicators;
    fmu_inst *c = check_me(comp, S_INIT | S_EVENT | S_CONT | S_TERMINATED | S_ERROR, "fmi2GetEventIndicators");
    if (!c) return fmi2Error;
    if (ni != 0) {
        logmsg(c, fmi2Error, "fmi2GetEventIndicators: %zu indicators asked, %s has none", ni, MB_FMU_NAME);
        return fmi2Error;
    }
    return fmi2OK;
}

fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component comp, fmi2Real x_nominal[], size_t nx)
{
    fmu_inst *c = check_me(comp, S_ANY, "fmi2GetNominalsOfContinuousStates");
    if (!c || check_n(c, x_nominal, nx, (size_t)(2 * c->m->nq), "fmi2GetNominalsOfContinuousStates")) return fmi2Error;
    for (size_t k = 0; k < nx; k++) x_nominal[k] = 1;
    return fmi2OK;
}
