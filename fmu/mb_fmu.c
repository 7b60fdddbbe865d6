/* mb_fmu.c - the FMI 2.0 wrapper around one generated model (docs/fmi.md): Co-Simulation steps
 * the generated solver; Model Exchange gives the derivatives of the states [q; v] from the
 * index-1 equations with Baumgarte's stabilization (mb_anl_reactions on a stabilized gamma).
 * mb_fmu_model.h (written by make fmu into the FMU's sources/) names the model, its GUID and
 * the run settings; everything else is the runtime's embedded API (runtime/mb_sim.h). Both
 * interfaces give directional derivatives from the generated Jacobians (mb_anl_dacc), save and
 * restore FMU states and serialize them to bytes; Co-Simulation locates contacts' events as the simulator does, Model
 * Exchange exposes the contacts' gaps as event indicators. Each
 * instance holds its own mb_sim and workspace, allocated with the master's allocateMemory (the
 * runtime itself never allocates); every error is reported through the master's logger. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "mb_fmu_model.h"
#include "mb_fmi2.h"
#include "mb_fmu_vars.h"
#include "mb_fmu_stab.h"
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
    mb_real *jw;                 /* directional derivatives' scratch (jw_size) */
    int nev, *evk;               /* the event indicators: the sensors that are contact gaps */
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
    if (MB_FMU_SIGMA_RESET > 0) p->sigma_reset = (mb_real)MB_FMU_SIGMA_RESET;
    /* the master's tolerance (fmi2SetupExperiment) for the error-controlled runs */
    if (c->tol_defined && c->tol > 0) {
        p->rtol = (mb_real)c->tol;
        p->atol = (mb_real)(c->tol * 1e-2);
    }
    if (p->integrator == MB_TRAPEZOID && (MB_FMU_RTOL > 0 || MB_FMU_ATOL > 0) && !c->me) p->adaptive = 1;
    p->max_steps = LONG_MAX;   /* a co-simulation runs as long as the master steps */
    /* events as the simulator's default (--events): contacts' first touch located by the
     * adaptive runs of the explicit formulations; Model Exchange leaves them to the master
     * (the gaps are its event indicators) */
    p->events = !c->me;
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

/* The directional derivatives' scratch (fmi2GetDirectionalDerivative): dq, dv, dacc, acc [nq]
 * each, du [nin], lambda, dlambda [nc], the sensors' dy/dq, dy/dv [nout x nq], dy/du
 * [nout x nin], dy/dlambda [nout x nc] and y [nout]. */
static size_t jw_size(const mb_model *m)
{
    size_t nq = (size_t)m->nq, nc = (size_t)m->nc, nin = (size_t)m->nin, nout = (size_t)m->nout;
    return 4 * nq + nin + 2 * nc + nout * (2 * nq + nin + nc + 1) + 1;
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
    c->aws = mb_anl_workspace_size(m, MB_ANL_DENSE);   /* (the directional derivatives' scratch) */
    c->awork = zalloc(c, (c->aws + sizeof(mb_real) - 1) / sizeof(mb_real), sizeof(mb_real));
    c->x = (mb_real *)zalloc(c, (size_t)(2 * m->nq), sizeof(mb_real));
    c->acc = (mb_real *)zalloc(c, (size_t)m->nq, sizeof(mb_real));
    c->lam = (mb_real *)zalloc(c, (size_t)m->nc + 1, sizeof(mb_real));
    c->jw = (mb_real *)zalloc(c, jw_size(m), sizeof(mb_real));
    c->evk = (int *)zalloc(c, (size_t)m->nout + 1, sizeof(int));
    if (c->evk) c->nev = mb_event_sensors(m, c->evk);
    c->mm.pq = (mb_real *)zalloc(c, (size_t)m->phi_q_pat.nnz + 1, sizeof(mb_real));
    c->mm.ph = (mb_real *)zalloc(c, (size_t)m->nc + 1, sizeof(mb_real));
    c->mm.pt = (mb_real *)zalloc(c, (size_t)m->nc + 1, sizeof(mb_real));
    if (!c->name || c->ws == 0 || !c->work || (m->npar && !c->par) || (m->nin && (!c->u || !c->du)) ||
        (m->nout && !c->y) || c->aws == 0 || !c->awork || !c->x || !c->acc || !c->lam || !c->jw || !c->evk || !c->mm.pq || !c->mm.ph || !c->mm.pt) {
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
    release(c->jw);
    release(c->evk);
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
/* The accelerations' model of a started instance: the sim's descriptor (tunables, input holds),
 * gamma stabilized in Model Exchange; the analysis on it (scratch: no state of its own). */
static fmi2Status accel_model(fmu_inst *c, const char *fn)
{
    c->mm.m = *mb_sim_model(c->sim);
    c->mm.gamma0 = c->mm.m.gamma;
    c->mm.m.gamma = c->mm.gamma0 ? stab_gamma : NULL;
    c->mm.xi = c->me ? c->p.xi : 0;
    c->mm.w = c->me ? c->p.omega : 0;
    int st = mb_anl_init(&c->anl, &c->mm.m, NULL, MB_ANL_DENSE, c->awork, c->aws);
    if (st != MB_OK) {
        logmsg(c, fmi2Error, "%s: mb_anl_init: %s", fn, mb_status_str(st));
        return fmi2Error;
    }
    c->acc_ok = 0;
    return fmi2OK;
}

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
    if (accel_model(c, fn) != fmi2OK) return fmi2Error;
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

/* The sensors at the current state into c->y: -1 after logging a failure. Sensors that read
 * reactions solve the index-1 multipliers (mb_anl_outputs); Model Exchange evaluates them at the
 * master's state, Co-Simulation at the sim's. */
static int sensors(fmu_inst *c, const char *fn)
{
    const mb_real *q, *v;
    double t = cur(c, &q, &v);
    int st = MB_OK;
    if (c->m->doutputs_dlam) st = mb_anl_outputs(&c->anl, (mb_real)t, q, v, c->lam, c->y, NULL, NULL, NULL);
    else if (c->me) c->mm.m.outputs(&c->mm.m, (mb_real)t, q, v, c->y, NULL, NULL);
    else st = mb_sim_get_output(c->sim, c->y, NULL, NULL);
    if (st != MB_OK) {
        logmsg(c, fmi2Error, "%s: the sensors at t=%.9g: %s", fn, t, mb_status_str(st));
        return -1;
    }
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

/* The monitor's warnings not logged yet, each once per condition (a suspect result:
 * docs/formulations.md, "Warnings"): fmi2Warning when there was one. */
static fmi2Status log_fresh_warnings(fmu_inst *c, const char *fn)
{
    unsigned fresh = mb_sim_get_monitor(c->sim)->warn & ~c->warned;
    if (fresh) {   /* a suspect result (docs/formulations.md, "Warnings"): said once per condition */
        static const char *const what[6] = {
            "a Newton iteration stopped at max_iter", "the energy balance drifted",
            "the constraints drifted", "the constraint impulse sigma grows: |Phi_q^T sigma| / the momentum scale",
            "the step is near the stability limit: h |lambda| / the limit",
            "the estimated global error passes the tolerance"};
        /* the threshold each was met against, and what to change (docs/formulations.md) */
        const mb_real thr[6] = {0, c->p.warn_energy, c->p.warn_phi, c->p.warn_sigma, c->p.warn_stability,
#if MBI_ACC
                                mb_sim_get_monitor(c->sim)->err_lim
#else
                                0
#endif
        };
        static const char *const remedy[6] = {
            "a smaller h or rtol", "a smaller h or rtol", "a smaller h or rtol",
            "p = M v + Phi_q^T sigma loses about eps x that of M v: the FMU setting sigma_reset=S (make fmu FMU_SIGMA_RESET=S) keeps |sigma| below S",
            "a smaller h or an adaptive integrator", "a smaller rtol or dop853"};
        const mb_monitor *mo = mb_sim_get_monitor(c->sim);
        for (int k = 0; k < MB_NWARN; k++)
            if (fresh & MB_WARN_BIT(k))
                logmsg(c, fmi2Warning, "%s: warning at t=%.9g: %s (value %g, threshold %g): %s",
                       fn, (double)mo->warn_t[k], what[k], (double)mo->warn_val[k], (double)thr[k], remedy[k]);
        c->warned |= fresh;
        return fmi2Warning;
    }
    return fmi2OK;
}

fmi2Status fmi2Terminate(fmi2Component comp)
{
    fmu_inst *c = check(comp, S_RUN | S_ERROR, "fmi2Terminate");
    if (!c) return fmi2Error;
    int run = c->state == S_STEP && c->started;
    c->state = S_TERMINATED;
    /* a co-simulation's last steps: dopri5's and dop853's accuracy companion compares those it
     * still has pending, as the simulator does at its last row (mb_sim_finish) */
    if (!run) return fmi2OK;
    if (mb_sim_finish(c->sim) == MB_ERR_STATE) return fmi2OK;
    return log_fresh_warnings(c, "fmi2Terminate");
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
        (void)cur(c, &q, &v);
        if (kind == MB_FMU_Q) value[k] = q[i];
        else if (kind == MB_FMU_V) value[k] = v[i];
        else if (kind == MB_FMU_A) {
            if (accelerations(c, "fmi2GetReal") != 0) return fmi2Error;
            value[k] = c->acc[i];
        } else {
            if (!have_y) {
                if (sensors(c, "fmi2GetReal") != 0) return fmi2Error;
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
/* A saved state (canGetAndSetFMUstate): everything the run depends on. The sim's descriptor and
 * arrays point into the instance's own struct and workspace, which fmi2SetFMUstate restores byte
 * for byte at the same addresses: a state is set back on the instance that saved it (another's
 * is refused). To move a state to another instance or process, serialize it (below). */
#define MB_FMU_STATE_MAGIC 0x6d62666dU
typedef struct fmu_state {
    unsigned magic;
    const fmu_inst *owner;
    int state, started, stop_defined, tol_defined;
    unsigned warned;
    double t0, t_stop, tol, t_me;
    mb_params p;
    mb_sim_storage sim;          /* the instance's sim_mem (its pointers: into work) */
    mb_real *arr;                /* par [npar], u, du [nin], x [2 nq] */
    void *work;                  /* the sim's workspace, ws bytes */
} fmu_state;

static size_t state_nreal(const mb_model *m) { return (size_t)(m->npar + 2 * m->nin + 2 * m->nq); }

/* the instance's own state, or NULL after logging why */
static fmu_state *own_state(fmu_inst *c, fmi2FMUstate st, const char *fn)
{
    fmu_state *s = (fmu_state *)st;
    if (!s || s->magic != MB_FMU_STATE_MAGIC || s->owner != c) {
        logmsg(c, fmi2Error, "%s: %s", fn, s ? "not a state this instance saved (fmi2GetFMUstate of this "
               "instance)" : "a NULL state");
        return NULL;
    }
    return s;
}

/* a new state block of instance c, or NULL after logging */
static fmu_state *state_new(fmu_inst *c, const char *fn)
{
    fmu_state *s = (fmu_state *)c->alloc(1, sizeof *s);
    if (s) {
        s->arr = (mb_real *)c->alloc(state_nreal(c->m) + 1, sizeof(mb_real));
        s->work = c->alloc((c->ws + sizeof(mb_real) - 1) / sizeof(mb_real), sizeof(mb_real));
    }
    if (!s || !s->arr || !s->work) {
        if (s) { c->release(s->arr); c->release(s->work); c->release(s); }
        logmsg(c, fmi2Error, "%s: out of memory (%zu bytes of workspace)", fn, c->ws);
        return NULL;
    }
    s->magic = MB_FMU_STATE_MAGIC;
    s->owner = c;
    return s;
}

fmi2Status fmi2GetFMUstate(fmi2Component comp, fmi2FMUstate *state)
{
    static const char fn[] = "fmi2GetFMUstate";
    fmu_inst *c = check(comp, S_INSTANTIATED | S_INIT | S_RUN | S_TERMINATED | S_ERROR, fn);
    if (!c) return fmi2Error;
    if (!state) {
        logmsg(c, fmi2Error, "%s: a NULL fmi2FMUstate pointer", fn);
        return fmi2Error;
    }
    const mb_model *m = c->m;
    fmu_state *s = (fmu_state *)*state;
    if (s) {   /* a state returned before: overwritten */
        if (!own_state(c, s, fn)) return fmi2Error;
    } else if (!(s = state_new(c, fn))) {
        return fmi2Error;
    }
    s->state = c->state;
    s->started = c->started;
    s->stop_defined = c->stop_defined;
    s->tol_defined = c->tol_defined;
    s->warned = c->warned;
    s->t0 = c->t0;
    s->t_stop = c->t_stop;
    s->tol = c->tol;
    s->t_me = c->t_me;
    s->p = c->p;
    s->sim = c->sim_mem;
    mb_real *a = s->arr;
    for (int i = 0; i < m->npar; i++) *a++ = c->par[i];
    for (int i = 0; i < m->nin; i++) { *a++ = c->u[i]; *a++ = c->du[i]; }
    for (int i = 0; i < 2 * m->nq; i++) *a++ = c->x[i];
    memcpy(s->work, c->work, c->ws);
    *state = s;
    return fmi2OK;
}

fmi2Status fmi2SetFMUstate(fmi2Component comp, fmi2FMUstate state)
{
    static const char fn[] = "fmi2SetFMUstate";
    fmu_inst *c = check(comp, S_INSTANTIATED | S_INIT | S_RUN | S_TERMINATED | S_ERROR, fn);
    fmu_state *s = c ? own_state(c, state, fn) : NULL;
    if (!s) return fmi2Error;
    const mb_model *m = c->m;
    c->state = s->state;
    c->started = s->started;
    c->stop_defined = s->stop_defined;
    c->tol_defined = s->tol_defined;
    c->warned = s->warned;
    c->t0 = s->t0;
    c->t_stop = s->t_stop;
    c->tol = s->tol;
    c->t_me = s->t_me;
    c->p = s->p;
    c->sim_mem = s->sim;   /* (c->sim points into sim_mem) */
    const mb_real *a = s->arr;
    for (int i = 0; i < m->npar; i++) c->par[i] = *a++;
    for (int i = 0; i < m->nin; i++) { c->u[i] = *a++; c->du[i] = *a++; }
    for (int i = 0; i < 2 * m->nq; i++) c->x[i] = *a++;
    memcpy(c->work, s->work, c->ws);
    c->acc_ok = 0;
    if (c->started && accel_model(c, fn) != fmi2OK) {   /* (the analysis on the restored descriptor) */
        c->state = S_ERROR;
        return fmi2Error;
    }
    return fmi2OK;
}

fmi2Status fmi2FreeFMUstate(fmi2Component comp, fmi2FMUstate *state)
{
    fmu_inst *c = check(comp, S_ANY, "fmi2FreeFMUstate");
    if (!c) return fmi2Error;
    if (!state || !*state) return fmi2OK;   /* nothing to free */
    fmu_state *s = own_state(c, *state, "fmi2FreeFMUstate");
    if (!s) return fmi2Error;
    s->magic = 0;
    c->release(s->arr);
    c->release(s->work);
    c->release(s);
    *state = NULL;
    return fmi2OK;
}

/* ---------------------------------------------------------------- serialized FMU states
 * (canSerializeFMUstate; docs/fmi.md "FMU state"). The bytes:
 *   ser_header   magic, format version, byte order, the FMU's GUID, the sizes of the C types
 *                and structs, the model's counts, the workspace's size, the total size, and an
 *                FNV-1a 64 checksum of all the bytes (the checksum's own 8 taken as 0)
 *   ser_inst     the instance's state machine, start and experiment values
 *   mb_params    the run's parameters (its two pointers, which the FMU never sets, as NULL)
 *   doubles      tunables [npar], inputs and their slopes [2 nin], Model Exchange's x [2 nq]
 *   when started the solver: its struct as one record per pointer-sized word (a tag byte each,
 *                then a 64-bit value each) and its workspace (ws bytes).
 * The struct's words hold pointers into the workspace and into the struct itself, which another
 * instance has elsewhere: two solvers set up afresh at two addresses tell those words (they
 * differ) from the rest (they do not: sizes, flags, numbers, the model's constant data). A
 * pointer is written as its offset in the workspace (tag W) or the struct (tag S), and must be
 * one a fresh solver has; a word still as a fresh solver has it as tag I (the reader takes its
 * own fresh solver's: the model's constant data where this process has it); any other word as
 * its value (tag V). Deserialization checks everything before it builds a state: bytes of
 * another FMU or build, truncated or corrupted are refused with the reason, and nothing is read
 * outside the buffer. */
#define SER_MAGIC "mbfmust"   /* with its NUL: 8 bytes */
#define SER_VERSION 1u
#define SER_ORDER 0x01020304u
typedef struct ser_header {
    char magic[8];
    uint32_t version, order;
    char guid[48];
    uint32_t ptr_size, real_size, sim_size, params_size, inst_size;
    uint32_t nq, nc, nin, npar, nout;
    uint32_t me, started;
    uint64_t ws, total, sum;
} ser_header;
typedef struct ser_inst {
    int32_t state, started, stop_defined, tol_defined;
    uint32_t warned, zero;
    double t0, t_stop, tol, t_me;
} ser_inst;
typedef char ser_header_unpadded[sizeof(ser_header) == 136 && sizeof(ser_inst) == 56 ? 1 : -1];
typedef char ser_sim_words[sizeof(mb_sim_storage) % sizeof(uintptr_t) == 0 && sizeof(uintptr_t) <= 8 ? 1 : -1];
enum { TAG_I = 1, TAG_V = 2, TAG_W = 3, TAG_S = 4, TAG_NULL = 5 };
#define SER_NWORDS (sizeof(mb_sim_storage) / sizeof(uintptr_t))

static size_t ser_size(const mb_model *m, size_t ws, int started)
{
    return sizeof(ser_header) + sizeof(ser_inst) + sizeof(mb_params) + sizeof(double) * state_nreal(m) +
           (started ? SER_NWORDS * 9 + ws : 0);
}

static uint64_t fnv1a(const unsigned char *b, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}
/* the checksum of buf [n], its header's sum field counted as zeros */
static uint64_t ser_sum(const unsigned char *buf, size_t n)
{
    static const unsigned char zero[8] = {0};
    size_t at = offsetof(ser_header, sum);
    uint64_t h = fnv1a(buf, at, 0xcbf29ce484222325ULL);
    h = fnv1a(zero, 8, h);
    return fnv1a(buf + at + 8, n - at - 8, h);
}

static uintptr_t word_at(const void *base, size_t i)
{
    uintptr_t w;
    memcpy(&w, (const char *)base + i * sizeof w, sizeof w);
    return w;
}
/* the offset of address w in [base, base + n), or -1 */
static long long offset_in(uintptr_t w, const void *base, size_t n)
{
    uintptr_t b = (uintptr_t)base;
    return w >= b && w - b < n ? (long long)(w - b) : -1;
}

/* Two solvers set up afresh with p in scratch memory (at two addresses each): fresh[k] and its
 * workspace fwork[k]. Returns 0, or -1 after logging (all freed then). */
typedef struct { mb_sim_storage *st[2]; void *w[2]; } fresh_pair;
static void fresh_free(fmu_inst *c, fresh_pair *f)
{
    for (int k = 0; k < 2; k++) { c->release(f->st[k]); c->release(f->w[k]); }
}
static int fresh_init(fmu_inst *c, const mb_params *p, fresh_pair *f, const char *fn)
{
    memset(f, 0, sizeof *f);
    int st = MB_OK;
    for (int k = 0; k < 2 && st == MB_OK; k++) {
        f->st[k] = (mb_sim_storage *)c->alloc(1, sizeof(mb_sim_storage));
        f->w[k] = c->alloc((c->ws + sizeof(mb_real) - 1) / sizeof(mb_real), sizeof(mb_real));
        st = !f->st[k] || !f->w[k] ? MB_ERR_WORKSPACE : mb_sim_init(mb_sim_of(f->st[k]), c->m, p, f->w[k], c->ws);
    }
    if (st != MB_OK) {
        logmsg(c, fmi2Error, "%s: a scratch solver to lay the state out: %s", fn,
               st == MB_ERR_WORKSPACE ? "out of memory" : mb_status_str(st));
        fresh_free(c, f);
        return -1;
    }
    return 0;
}
/* 1 when offset o (tag W, or S) is where a pointer of a fresh solver points */
static int fresh_points(const fresh_pair *f, size_t ws, int tag, uint64_t o)
{
    for (size_t j = 0; j < SER_NWORDS; j++) {
        uintptr_t a = word_at(f->st[0], j);
        if (a == word_at(f->st[1], j)) continue;
        long long off = tag == TAG_W ? offset_in(a, f->w[0], ws) : offset_in(a, f->st[0], sizeof(mb_sim_storage));
        if (off >= 0 && (uint64_t)off == o) return 1;
    }
    return 0;
}

fmi2Status fmi2SerializedFMUstateSize(fmi2Component comp, fmi2FMUstate state, size_t *size)
{
    static const char fn[] = "fmi2SerializedFMUstateSize";
    fmu_inst *c = check(comp, S_ANY, fn);
    fmu_state *s = c ? own_state(c, state, fn) : NULL;
    if (!s) return fmi2Error;
    if (!size) {
        logmsg(c, fmi2Error, "%s: a NULL size pointer", fn);
        return fmi2Error;
    }
    *size = ser_size(c->m, c->ws, s->started);
    return fmi2OK;
}

fmi2Status fmi2SerializeFMUstate(fmi2Component comp, fmi2FMUstate state, fmi2Byte serializedState[], size_t size)
{
    static const char fn[] = "fmi2SerializeFMUstate";
    fmu_inst *c = check(comp, S_ANY, fn);
    fmu_state *s = c ? own_state(c, state, fn) : NULL;
    if (!s) return fmi2Error;
    const mb_model *m = c->m;
    size_t need = ser_size(m, c->ws, s->started);
    if (!serializedState || size < need) {
        logmsg(c, fmi2Error, "%s: %s (%zu bytes; fmi2SerializedFMUstateSize gives %zu)", fn,
               serializedState ? "the buffer is too small" : "a NULL buffer", size, need);
        return fmi2Error;
    }
    if (s->p.linsys_ops || s->p.redundant_rows) {   /* (never set by the FMU) */
        logmsg(c, fmi2Error, "%s: the run's parameters point outside the state", fn);
        return fmi2Error;
    }
    unsigned char *b = (unsigned char *)serializedState;
    memset(b, 0, need);
    ser_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, SER_MAGIC, 8);
    h.version = SER_VERSION;
    h.order = SER_ORDER;
    memcpy(h.guid, MB_FMU_GUID, strlen(MB_FMU_GUID) < sizeof h.guid ? strlen(MB_FMU_GUID) : sizeof h.guid - 1);
    h.ptr_size = (uint32_t)sizeof(uintptr_t);
    h.real_size = (uint32_t)sizeof(mb_real);
    h.sim_size = (uint32_t)sizeof(mb_sim_storage);
    h.params_size = (uint32_t)sizeof(mb_params);
    h.inst_size = (uint32_t)sizeof(ser_inst);
    h.nq = (uint32_t)m->nq; h.nc = (uint32_t)m->nc; h.nin = (uint32_t)m->nin;
    h.npar = (uint32_t)m->npar; h.nout = (uint32_t)m->nout;
    h.me = (uint32_t)c->me;
    h.started = (uint32_t)(s->started != 0);
    h.ws = c->ws;
    h.total = need;
    ser_inst in;
    memset(&in, 0, sizeof in);
    in.state = s->state; in.started = s->started != 0;
    in.stop_defined = s->stop_defined; in.tol_defined = s->tol_defined;
    in.warned = s->warned;
    in.t0 = s->t0; in.t_stop = s->t_stop; in.tol = s->tol; in.t_me = s->t_me;
    size_t at = sizeof h;
    memcpy(b + at, &in, sizeof in);
    at += sizeof in;
    memcpy(b + at, &s->p, sizeof s->p);
    at += sizeof s->p;
    memcpy(b + at, s->arr, sizeof(double) * state_nreal(m));
    at += sizeof(double) * state_nreal(m);
    if (s->started) {
        fresh_pair f;
        if (fresh_init(c, &s->p, &f, fn) != 0) return fmi2Error;
        unsigned char *tags = b + at;
        unsigned char *vals = tags + SER_NWORDS;
        for (size_t i = 0; i < SER_NWORDS; i++) {
            uintptr_t w = word_at(&s->sim, i), a0 = word_at(f.st[0], i);
            int moves = a0 != word_at(f.st[1], i);
            long long ow = offset_in(w, c->work, c->ws), os = offset_in(w, &c->sim_mem, sizeof c->sim_mem);
            uint64_t v = 0;
            unsigned char tag;
            if (!moves && w == a0) tag = TAG_I;
            else if (w == 0) tag = TAG_NULL;
            else if (ow >= 0) { tag = TAG_W; v = (uint64_t)ow; }
            else if (os >= 0) { tag = TAG_S; v = (uint64_t)os; }
            else if (!moves) { tag = TAG_V; v = (uint64_t)w; }
            else {
                fresh_free(c, &f);
                logmsg(c, fmi2Error, "%s: word %zu of the solver points outside its memory", fn, i);
                return fmi2Error;
            }
            tags[i] = tag;
            memcpy(vals + 8 * i, &v, 8);
        }
        fresh_free(c, &f);
        at += SER_NWORDS * 9;
        memcpy(b + at, s->work, c->ws);
        at += c->ws;
    }
    memcpy(b, &h, sizeof h);
    h.sum = ser_sum(b, need);
    memcpy(b + offsetof(ser_header, sum), &h.sum, sizeof h.sum);
    return fmi2OK;
}

/* the state machine's values a serialized state may hold */
static int ser_state_ok(int32_t st, int32_t started)
{
    if (started != 0 && started != 1) return 0;
    switch (st) {
    case S_INSTANTIATED: case S_INIT: case S_TERMINATED: case S_ERROR: return 1;
    case S_STEP: case S_EVENT: case S_CONT: return started;
    default: return 0;
    }
}

fmi2Status fmi2DeSerializeFMUstate(fmi2Component comp, const fmi2Byte serializedState[], size_t size,
                                   fmi2FMUstate *state)
{
    static const char fn[] = "fmi2DeSerializeFMUstate";
    fmu_inst *c = check(comp, S_INSTANTIATED | S_INIT | S_RUN | S_TERMINATED | S_ERROR, fn);
    if (!c) return fmi2Error;
    const mb_model *m = c->m;
    const unsigned char *b = (const unsigned char *)serializedState;
    ser_header h;
    if (!state || !b) {
        logmsg(c, fmi2Error, "%s: a NULL %s", fn, b ? "fmi2FMUstate pointer" : "buffer");
        return fmi2Error;
    }
    if (size < sizeof h) {
        logmsg(c, fmi2Error, "%s: %zu bytes: truncated (a serialized state starts with a %zu-byte header)", fn,
               size, sizeof h);
        return fmi2Error;
    }
    memcpy(&h, b, sizeof h);
    char guid[sizeof h.guid];
    memset(guid, 0, sizeof guid);
    memcpy(guid, MB_FMU_GUID, strlen(MB_FMU_GUID) < sizeof guid ? strlen(MB_FMU_GUID) : sizeof guid - 1);
    const char *why = NULL;
    if (memcmp(h.magic, SER_MAGIC, 8) != 0) why = "not a serialized state of this FMU (no mbfmust magic)";
    else if (h.version != SER_VERSION) why = "another format version (this FMU reads version 1)";
    else if (h.order != SER_ORDER) why = "written on a machine of another byte order";
    else if (memcmp(h.guid, guid, sizeof guid) != 0) why = "the state of another FMU or build (its GUID is not this FMU's)";
    else if (h.ptr_size != sizeof(uintptr_t) || h.real_size != sizeof(mb_real) || h.sim_size != sizeof(mb_sim_storage) ||
             h.params_size != sizeof(mb_params) || h.inst_size != sizeof(ser_inst))
        why = "written by a build with other type sizes (the FMU rebuilt elsewhere from its sources)";
    else if (h.me != (uint32_t)c->me)
        why = c->me ? "a Co-Simulation state into a Model Exchange instance" : "a Model Exchange state into a Co-Simulation instance";
    else if (h.nq != (uint32_t)m->nq || h.nc != (uint32_t)m->nc || h.nin != (uint32_t)m->nin ||
             h.npar != (uint32_t)m->npar || h.nout != (uint32_t)m->nout || h.ws != (uint64_t)c->ws)
        why = "its model's sizes are not this FMU's";
    else if (h.started > 1 || h.total != (uint64_t)ser_size(m, c->ws, (int)h.started))
        why = "its header's sizes do not add up";
    if (why) {
        logmsg(c, fmi2Error, "%s: %s", fn, why);
        return fmi2Error;
    }
    if ((uint64_t)size != h.total) {
        logmsg(c, fmi2Error, "%s: %zu bytes, the header says %llu: %s", fn, size, (unsigned long long)h.total,
               (uint64_t)size < h.total ? "truncated" : "trailing bytes");
        return fmi2Error;
    }
    if (ser_sum(b, size) != h.sum) {
        logmsg(c, fmi2Error, "%s: corrupted: the checksum does not match the bytes", fn);
        return fmi2Error;
    }
    ser_inst in;
    mb_params p;
    size_t at = sizeof h, nreal = state_nreal(m);
    memcpy(&in, b + at, sizeof in);
    at += sizeof in;
    memcpy(&p, b + at, sizeof p);
    at += sizeof p;
    const unsigned char *reals = b + at;
    at += sizeof(double) * nreal;
    int bad_real = 0;
    for (size_t i = 0; i < nreal; i++) {
        double x;
        memcpy(&x, reals + sizeof x * i, sizeof x);
        bad_real |= !isfinite(x);
    }
    if (!ser_state_ok(in.state, in.started) || in.started != (int32_t)h.started || bad_real || p.linsys_ops ||
        p.redundant_rows || mb_params_check(&p, NULL) != MB_OK || mb_sim_workspace_size(m, &p) != c->ws ||
        !isfinite(in.t0) || !isfinite(in.t_me)) {
        logmsg(c, fmi2Error, "%s: inconsistent values (the state machine, run parameters or numbers)", fn);
        return fmi2Error;
    }
    mb_sim_storage img;
    memset(&img, 0, sizeof img);
    if (in.started) {   /* the solver's struct for this instance's addresses */
        fresh_pair f;
        if (fresh_init(c, &p, &f, fn) != 0) return fmi2Error;
        const unsigned char *tags = b + at, *vals = tags + SER_NWORDS;
        for (size_t i = 0; i < SER_NWORDS && !why; i++) {
            uintptr_t a0 = word_at(f.st[0], i), w = 0;
            int moves = a0 != word_at(f.st[1], i);
            uint64_t v;
            memcpy(&v, vals + 8 * i, 8);
            switch (tags[i]) {
            case TAG_I: if (moves) why = "a pointer of the solver given as data"; else w = a0; break;
            case TAG_V: if (moves) why = "a pointer of the solver given as data"; else w = (uintptr_t)v; break;
            case TAG_NULL: break;
            case TAG_W:
            case TAG_S:
                if (!fresh_points(&f, c->ws, tags[i], v)) why = "a pointer of the solver to where none points";
                else w = (tags[i] == TAG_W ? (uintptr_t)c->work : (uintptr_t)&c->sim_mem) + (uintptr_t)v;
                break;
            default: why = "an unknown record of the solver's struct";
            }
            memcpy((char *)&img + i * sizeof w, &w, sizeof w);
        }
        fresh_free(c, &f);
        if (why) {
            logmsg(c, fmi2Error, "%s: %s", fn, why);
            return fmi2Error;
        }
        at += SER_NWORDS * 9;
    }
    fmu_state *s = state_new(c, fn);
    if (!s) return fmi2Error;
    s->state = in.state;
    s->started = in.started;
    s->stop_defined = in.stop_defined != 0;
    s->tol_defined = in.tol_defined != 0;
    s->warned = in.warned;
    s->t0 = in.t0; s->t_stop = in.t_stop; s->tol = in.tol; s->t_me = in.t_me;
    s->p = p;
    s->sim = in.started ? img : c->sim_mem;   /* (not started: the solver is set up at the start) */
    memcpy(s->arr, reals, sizeof(double) * nreal);
    if (in.started) memcpy(s->work, b + at, c->ws);
    else memcpy(s->work, c->work, c->ws);
    *state = s;
    return fmi2OK;
}
/* Directional derivatives (providesDirectionalDerivative): in Model Exchange the derivatives
 * [v; acc] and the outputs (q, v, the sensors) along a direction of the states [q; v] and the
 * inputs; in Co-Simulation the outputs (and the accelerations) along a direction of the inputs at
 * the communication point. From the generated Jacobians: dacc by mb_anl_dacc (the index-1
 * equations differentiated, with Baumgarte's terms in Model Exchange: the same equations
 * fmi2GetDerivatives solves), the sensors' by dy/dq, dy/dv, dy/du and, for sensors that read
 * reactions, dy/dlambda with the multipliers' derivative. */
fmi2Status fmi2GetDirectionalDerivative(fmi2Component comp, const fmi2ValueReference vUnknown_ref[], size_t nUnknown,
                                        const fmi2ValueReference vKnown_ref[], size_t nKnown,
                                        const fmi2Real dvKnown[], fmi2Real dvUnknown[])
{
    static const char fn[] = "fmi2GetDirectionalDerivative";
    fmu_inst *c = check(comp, S_STEP | S_EVENT | S_CONT, fn);
    if (!c) return fmi2Error;
    if ((nUnknown && (!vUnknown_ref || !dvUnknown)) || (nKnown && (!vKnown_ref || !dvKnown))) {
        logmsg(c, fmi2Error, "%s: NULL arrays", fn);
        return fmi2Error;
    }
    const mb_model *mm = &c->mm.m;   /* the sim's descriptor: its tunables and input holds */
    int nq = mm->nq, nc = mm->nc, nin = mm->nin, nout = mm->nout;
    mb_real *dq = c->jw, *dv = dq + nq, *da = dv + nq, *acc = da + nq, *du = acc + nq, *lam = du + nin,
            *dlam = lam + nc, *yq = dlam + nc, *yv = yq + (long)nout * nq, *yu = yv + (long)nout * nq,
            *yl = yu + (long)nout * nin, *y = yl + (long)nout * nc;
    for (int i = 0; i < 2 * nq; i++) dq[i] = 0;   /* dq and dv */
    for (int i = 0; i < nin; i++) du[i] = 0;
    int has_x = 0, want_a = 0, want_y = 0;
    for (size_t k = 0; k < nKnown; k++) {
        int i, kind = lookup(c, vKnown_ref[k], &i, fn);
        if (kind == MB_FMU_BAD) return fmi2Error;
        if (!isfinite(dvKnown[k])) {
            logmsg(c, fmi2Error, "%s: the seed of value reference %u is %g", fn, vKnown_ref[k], dvKnown[k]);
            return fmi2Error;
        }
        if (kind == MB_FMU_U) du[i] += dvKnown[k];
        else if (c->me && kind == MB_FMU_Q) { dq[i] += dvKnown[k]; has_x = 1; }
        else if (c->me && kind == MB_FMU_V) { dv[i] += dvKnown[k]; has_x = 1; }
        else {
            logmsg(c, fmi2Error, "%s: value reference %u is not a known (%s)", fn, vKnown_ref[k],
                   c->me ? "the continuous states q, v and the inputs" : "Co-Simulation: the inputs");
            return fmi2Error;
        }
    }
    for (size_t k = 0; k < nUnknown; k++) {
        int i, kind = lookup(c, vUnknown_ref[k], &i, fn);
        if (kind == MB_FMU_BAD) return fmi2Error;
        if (kind == MB_FMU_U || kind == MB_FMU_P) {
            logmsg(c, fmi2Error, "%s: value reference %u is not an unknown (the outputs and the "
                   "derivatives)", fn, vUnknown_ref[k]);
            return fmi2Error;
        }
        want_a |= kind == MB_FMU_A;
        want_y |= kind == MB_FMU_Y;
    }
    const mb_real *q, *v;
    double t = cur(c, &q, &v);
    if (want_a || (want_y && mm->doutputs_dlam)) {
        int st = mb_anl_dacc(&c->anl, (mb_real)t, q, v, has_x ? dq : NULL, has_x ? dv : NULL, nin ? du : NULL,
                             2 * c->mm.xi * c->mm.w, acc, lam, da, nc ? dlam : NULL);
        if (st != MB_OK) {
            logmsg(c, fmi2Error, "%s: the accelerations' derivatives at t=%.9g: %s", fn, t, mb_status_str(st));
            return fmi2Error;
        }
    }
    if (want_y) {
        mb_model ml = *mm;   /* reading the multipliers just solved (sensors of reactions) */
        if (mm->doutputs_dlam) ml.lam = lam;
        ml.outputs(&ml, (mb_real)t, q, v, y, yq, yv);
        for (long k = 0; k < (long)nout * nin; k++) yu[k] = 0;
        if (nin && ml.doutputs_du) ml.doutputs_du(&ml, (mb_real)t, q, v, yu);
        if (ml.doutputs_dlam) ml.doutputs_dlam(&ml, (mb_real)t, q, v, yl);
    }
    for (size_t k = 0; k < nUnknown; k++) {
        int i, kind = mb_fmu_vr_kind(mm, vUnknown_ref[k], &i);
        double d = 0;
        if (kind == MB_FMU_Q) d = dq[i];        /* a state (zero in Co-Simulation: no state known) */
        else if (kind == MB_FMU_V) d = dv[i];   /* a state, and der(q) */
        else if (kind == MB_FMU_A) d = da[i];
        else {
            const mb_real *rq = yq + (long)i * nq, *rv = yv + (long)i * nq;
            for (int j = 0; has_x && j < nq; j++) d += rq[j] * dq[j] + rv[j] * dv[j];
            for (int j = 0; j < nin; j++) d += yu[(long)i * nin + j] * du[j];
            for (int j = 0; mm->doutputs_dlam && j < nc; j++) d += yl[(long)i * nc + j] * dlam[j];
        }
        if (!isfinite(d)) {
            logmsg(c, fmi2Error, "%s: the derivative of value reference %u at t=%.9g is not finite", fn,
                   vUnknown_ref[k], t);
            return fmi2Error;
        }
        dvUnknown[k] = d;
    }
    return fmi2OK;
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
    return log_fresh_warnings(c, "fmi2DoStep");
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
 * baumgarte's equations. The event indicators are the contacts' gaps; no discrete states. */
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

/* The event indicators: the contacts' gaps (sensors "<contact>.gap", > 0 apart, <= 0 touching)
 * at the master's state; a sign change is a contact's first touch or lift-off, the kink of its
 * force. The FMU has no discrete state: an event changes nothing (fmi2NewDiscreteStates). */
fmi2Status fmi2GetEventIndicators(fmi2Component comp, fmi2Real eventIndicators[], size_t ni)
{
    fmu_inst *c = check_me(comp, S_INIT | S_EVENT | S_CONT | S_TERMINATED | S_ERROR, "fmi2GetEventIndicators");
    if (!c) return fmi2Error;
    if (ni != (size_t)c->nev || (ni && !eventIndicators)) {
        logmsg(c, fmi2Error, "fmi2GetEventIndicators: %zu indicators asked%s, %s has %d (its contacts' gaps)", ni,
               ni && !eventIndicators ? " at NULL" : "", MB_FMU_NAME, c->nev);
        return fmi2Error;
    }
    if (ni == 0) return fmi2OK;
    if (!c->started && (c->state != S_INIT || start(c, "fmi2GetEventIndicators") != fmi2OK)) return fmi2Error;
    if (sensors(c, "fmi2GetEventIndicators") != 0) return fmi2Error;
    for (int k = 0; k < c->nev; k++) eventIndicators[k] = c->y[c->evk[k]];
    return fmi2OK;
}

fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component comp, fmi2Real x_nominal[], size_t nx)
{
    fmu_inst *c = check_me(comp, S_ANY, "fmi2GetNominalsOfContinuousStates");
    if (!c || check_n(c, x_nominal, nx, (size_t)(2 * c->m->nq), "fmi2GetNominalsOfContinuousStates")) return fmi2Error;
    for (size_t k = 0; k < nx; k++) x_nominal[k] = 1;
    return fmi2OK;
}
