/* test_fmu.c - imports FMUs (build/fmu_test/cartpole.fmu, suspension.fmu, motor_arm.fmu,
 * react_pendulum.fmu (sensors of reactions: the outputs against the simulator), made
 * by mk/fmu.mk as make fmu makes them) as an FMI 2.0 master does: unzips each into a temporary directory, reads
 * modelDescription.xml for the value references, dlopens binaries/linux64/<name>.so and runs
 * instantiate, setup, initialization, a piecewise-constant input over 200 communication steps,
 * terminate, free. Checks: the positions, velocities and sensors equal the simulator's run of
 * the same input table (--input-file) to 1e-12 (relative, 1 below 1): the cart-pole
 * (alf-trapezoid, fixed step), the motor arm (baumgarte/dopri5: adaptive, every communication
 * point reached exactly), the suspension with tunables set (--set), and the cart-pole in Model
 * Exchange integrated by this test's RK4 (the simulator's baumgarte/rk4); negative controls
 * (the input one step late, the tunables' defaults) differ; two instances side by side and
 * fmi2Reset give the first run bit for bit; a communication step off the solver's grid lands on
 * the communication point; the sensors' dependencies in ModelStructure; a step that overflows
 * and hostile calls return fmi2Error (or NULL) with a logged message; sources/ rebuilds the
 * library with its README's command, and the rebuilt library gives the same run bit for bit;
 * fmi2GetDirectionalDerivative (Model Exchange and Co-Simulation) against central differences;
 * events on the bouncing ball (Co-Simulation against the simulator, Model Exchange's event
 * indicators); mbgen --fmu gives make fmu's FMU.
 * Prints the FMU's cost per solver step next to the simulator's over a 20 s run (not checked).
 * Docs: docs/fmi.md. */
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "mb_fmi2.h"

/* a file under the build directory ($BUILD, as the test scripts take it; default build) */
static const char *built(const char *rel)
{
    static char buf[8][512];
    static int k;
    const char *b = getenv("BUILD");
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", b && *b ? b : "build", rel);
    return buf[k];
}

static int passed, failed;
static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL: ");
        vprintf(fmt, ap);
        printf("\n");
    }
    va_end(ap);
}

/* ---------------------------------------------------------------- the master's callbacks */
static int nlog;
static char lastlog[1024];
static fmi2Status laststatus;
static void logger(fmi2ComponentEnvironment env, fmi2String name, fmi2Status st, fmi2String cat,
                   fmi2String msg, ...)
{
    (void)env;
    (void)cat;
    va_list ap;
    va_start(ap, msg);
    char body[900];
    vsnprintf(body, sizeof body, msg, ap);
    va_end(ap);
    snprintf(lastlog, sizeof lastlog, "[%s] %s", name ? name : "?", body);
    laststatus = st;
    nlog++;
}
static long nalloc;
static void *my_calloc(size_t n, size_t size) { nalloc++; return calloc(n, size); }
static void my_free(void *p) { if (p) nalloc--; free(p); }
static const fmi2CallbackFunctions callbacks = {logger, my_calloc, my_free, NULL, NULL};
static const fmi2CallbackFunctions no_alloc = {logger, NULL, my_free, NULL, NULL};

/* a call that must fail with a message mentioning `word` */
static void expect_error(fmi2Status st, const char *what, const char *word)
{
    check(st == fmi2Error, "%s: status %d, expected fmi2Error", what, (int)st);
    check(nlog > 0 && laststatus == fmi2Error && strstr(lastlog, word) != NULL,
          "%s: logged \"%s\" (expected an error naming '%s')", what, nlog ? lastlog : "(nothing)", word);
    nlog = 0;
}

/* ---------------------------------------------------------------- the FMU's functions */
#define FMI_FUNCS(X)                                                                         \
    X(fmi2GetTypesPlatform) X(fmi2GetVersion) X(fmi2SetDebugLogging) X(fmi2Instantiate)     \
    X(fmi2FreeInstance) X(fmi2SetupExperiment) X(fmi2EnterInitializationMode)                \
    X(fmi2ExitInitializationMode) X(fmi2Terminate) X(fmi2Reset) X(fmi2GetReal)              \
    X(fmi2GetInteger) X(fmi2GetBoolean) X(fmi2GetString) X(fmi2SetReal) X(fmi2SetInteger)    \
    X(fmi2SetBoolean) X(fmi2SetString) X(fmi2GetFMUstate) X(fmi2SetFMUstate)                 \
    X(fmi2FreeFMUstate) X(fmi2SerializedFMUstateSize) X(fmi2SerializeFMUstate)               \
    X(fmi2DeSerializeFMUstate) X(fmi2GetDirectionalDerivative)                               \
    X(fmi2SetRealInputDerivatives) X(fmi2GetRealOutputDerivatives) X(fmi2DoStep)             \
    X(fmi2CancelStep) X(fmi2GetStatus) X(fmi2GetRealStatus) X(fmi2GetIntegerStatus)          \
    X(fmi2GetBooleanStatus) X(fmi2GetStringStatus) X(fmi2EnterEventMode) X(fmi2NewDiscreteStates)       \
    X(fmi2EnterContinuousTimeMode) X(fmi2CompletedIntegratorStep) X(fmi2SetTime)              \
    X(fmi2SetContinuousStates) X(fmi2GetDerivatives) X(fmi2GetEventIndicators)                \
    X(fmi2GetContinuousStates) X(fmi2GetNominalsOfContinuousStates)
static struct {
#define X(f) __typeof__(&f) f;
    FMI_FUNCS(X)
#undef X
} F;

/* ---------------------------------------------------------------- modelDescription.xml */
#define MAXVAR 64
static struct {
    char name[64], causality[16];
    unsigned vr;
    int deriv;   /* the index (1-based) of the variable this one is the derivative of, else 0 */
} var[MAXVAR];
static int nvar;
static char guid[64], ident[64];
static char *desc_xml;   /* the last modelDescription.xml read */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

/* the value of attribute `key` in the element starting at `el` (before its '>'), into out */
static int attr(const char *el, const char *key, char *out, size_t n)
{
    const char *end = strchr(el, '>');
    char pat[64];
    snprintf(pat, sizeof pat, " %s=\"", key);
    const char *a = strstr(el, pat);
    if (!a || (end && a > end)) return -1;
    a += strlen(pat);
    const char *q = strchr(a, '"');
    if (!q || (size_t)(q - a) >= n) return -1;
    memcpy(out, a, (size_t)(q - a));
    out[q - a] = '\0';
    return 0;
}

static int read_description(const char *dir)
{
    char path[512], buf[64];
    snprintf(path, sizeof path, "%s/modelDescription.xml", dir);
    char *x = slurp(path);
    if (!x) return -1;
    const char *root = strstr(x, "<fmiModelDescription");
    const char *cs = strstr(x, "<CoSimulation");
    int ok = root && cs && attr(root, "fmiVersion", buf, sizeof buf) == 0 && !strcmp(buf, "2.0") &&
             attr(root, "guid", guid, sizeof guid) == 0 && attr(cs, "modelIdentifier", ident, sizeof ident) == 0;
    check(ok, "modelDescription.xml: fmiVersion 2.0, a guid and a CoSimulation modelIdentifier");
    check(strstr(x, "<ModelExchange") != NULL && strstr(x, "<Derivatives>") != NULL,
          "modelDescription.xml: Model Exchange too, with its Derivatives");
    for (const char *p = x; ok && (p = strstr(p, "<ScalarVariable")) != NULL && nvar < MAXVAR; p++) {
        ok = attr(p, "name", var[nvar].name, sizeof var[nvar].name) == 0 &&
             attr(p, "valueReference", buf, sizeof buf) == 0 &&
             attr(p, "causality", var[nvar].causality, sizeof var[nvar].causality) == 0;
        var[nvar].vr = (unsigned)strtoul(buf, NULL, 10);
        const char *real = strstr(p, "<Real"), *end = strstr(p, "</ScalarVariable>");
        var[nvar].deriv = real && end && real < end && attr(real, "derivative", buf, sizeof buf) == 0 ? atoi(buf) : 0;
        nvar++;
    }
    check(ok && nvar > 0, "modelDescription.xml: %d variables, each with a name, valueReference, causality", nvar);
    /* every output listed in ModelStructure/Outputs, in the order of the variables */
    int nout = 0, listed = 0;
    for (int i = 0; i < nvar; i++) nout += !strcmp(var[i].causality, "output");
    const char *o = strstr(x, "<Outputs>"), *oe = o ? strstr(o, "</Outputs>") : NULL;
    for (const char *p = o; p && oe && (p = strstr(p, "<Unknown")) != NULL && p < oe; p++) listed++;
    check(nout > 0 && listed == nout, "ModelStructure: %d Outputs listed for %d output variables", listed, nout);
    free(desc_xml);
    desc_xml = x;
    return ok ? 0 : -1;
}

static unsigned vr_of(const char *name)
{
    for (int i = 0; i < nvar; i++)
        if (!strcmp(var[i].name, name)) return var[i].vr;
    check(0, "modelDescription.xml: no variable %s", name);
    return 99999;
}

/* The units of a model file's own variables (docs/model-language.md, "Units"): each variable
 * want[k][0] has <Real unit="want[k][1]"> (want[k][1] "": no unit attribute), and each unit is
 * defined once among the UnitDefinitions. */
static void check_units(const char *model, const char *const want[][2], int n)
{
    int nok = 0;
    const char *ud = desc_xml ? strstr(desc_xml, "<UnitDefinitions>") : NULL,
               *ue = ud ? strstr(ud, "</UnitDefinitions>") : NULL;
    for (int k = 0; k < n; k++) {
        char pat[96], u[40] = "";
        snprintf(pat, sizeof pat, "<ScalarVariable name=\"%s\"", want[k][0]);
        const char *p = desc_xml ? strstr(desc_xml, pat) : NULL, *r = p ? strstr(p, "<Real") : NULL;
        int has = r && attr(r, "unit", u, sizeof u) == 0;
        int defs = 0;
        snprintf(pat, sizeof pat, "<Unit name=\"%s\"", want[k][1]);
        for (const char *d = ud; d && ue && (d = strstr(d, pat)) != NULL && d < ue; d++) defs++;
        if (want[k][1][0] ? has && !strcmp(u, want[k][1]) && defs == 1 : r && !has) nok++;
        else check(0, "%s: %s has unit \"%s\" (got \"%s\"), defined %d times", model, want[k][0], want[k][1], u, defs);
    }
    check(nok == n, "%s: the units of the model file's inputs, sensors and tunables in modelDescription.xml (%d of %d)",
          model, nok, n);
}

/* A serialized FMU state's checksum rewritten (FNV-1a 64 of the bytes, its own 8 bytes at
 * offset 128 as zeros: docs/fmi.md), as a forger would; returns n. */
static size_t resum(unsigned char *b, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (i >= 128 && i < 136 ? 0 : b[i])) * 0x100000001b3ULL;
    memcpy(b + 128, &h, 8);
    return n;
}

/* ---------------------------------------------------------------- a co-simulation run */
#define T_END 2.0
#define NCOMM 200
#define H_COMM (T_END / NCOMM)
#define MAXOUT 32
static unsigned out_vr[MAXOUT];
static int nout;
static char out_name[MAXOUT][64];
static int out_sensor[MAXOUT];   /* a sensor (the simulator's out.<name> column), not a q or v */

/* the input over [k H, (k+1) H): a piecewise-constant push, back and forth */
static double input_at(int k) { return 3.0 * sin(0.37 * k) + (k % 7 == 3 ? 1.5 : 0.0); }

static fmi2Component instantiate(const char *name)
{
    return F.fmi2Instantiate(name, fmi2CoSimulation, guid, "file:///nonexistent", &callbacks, fmi2False, fmi2False);
}

/* start c at t = 0 with the input of step 0 (shift: the table starts `shift` steps late) */
static int start(fmi2Component c, unsigned vr_f, int shift)
{
    double u = input_at(-shift);
    return F.fmi2SetupExperiment(c, fmi2False, 0, 0, fmi2True, T_END) != fmi2OK ||
           F.fmi2EnterInitializationMode(c) != fmi2OK || F.fmi2SetReal(c, &vr_f, 1, &u) != fmi2OK ||
           F.fmi2ExitInitializationMode(c) != fmi2OK;
}

/* the communication step k of c: set the input, step, read the outputs into row */
static int comm_step(fmi2Component c, unsigned vr_f, int k, int shift, double *row)
{
    double u = input_at(k - shift);
    if (F.fmi2SetReal(c, &vr_f, 1, &u) != fmi2OK) return -1;
    /* from t_k = k H to t_k+1: (t_k+1 - t_k) is exact (Sterbenz), so the FMU's t_k + step is
     * t_k+1 exactly, the time of the table's next row */
    fmi2Status st = F.fmi2DoStep(c, k * H_COMM, (k + 1) * H_COMM - k * H_COMM, fmi2True);
    if (st != fmi2OK) return -1;
    return F.fmi2GetReal(c, out_vr, (size_t)nout, row) == fmi2OK ? 0 : -1;
}

/* a whole run: rows[(NCOMM + 1) * nout], row 0 at t = 0 */
static int run(unsigned vr_f, int shift, double *rows)
{
    fmi2Component c = instantiate("cartpole_run");
    if (!c) return -1;
    int bad = start(c, vr_f, shift) || F.fmi2GetReal(c, out_vr, (size_t)nout, rows) != fmi2OK;
    for (int k = 0; k < NCOMM && !bad; k++) bad = comm_step(c, vr_f, k, shift, rows + (k + 1) * nout);
    bad |= F.fmi2Terminate(c) != fmi2OK;
    F.fmi2FreeInstance(c);
    return bad ? -1 : 0;
}

/* ---------------------------------------------------------------- the simulator's run */
/* read the simulator's CSV rows at t = k H into rows (columns by the FMU's variable names: the
 * positions and velocities as named, a sensor y as out.y); returns the rows read */
static int read_sim_csv(const char *path, double *rows)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    static char line[65536];
    int col[MAXOUT], nrow = 0;
    if (!fgets(line, sizeof line, f)) { fclose(f); return -1; }
    line[strcspn(line, "\r\n")] = '\0';
    for (int j = 0; j < nout; j++) {
        col[j] = -1;
        char want[128];
        snprintf(want, sizeof want, "%.63s", out_name[j]);
        int is_sensor = out_sensor[j];
        if (is_sensor) snprintf(want, sizeof want, "out.%.63s", out_name[j]);
        int c = 0;
        for (char *p = line; p; c++) {
            char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            if (len == strlen(want) && !strncmp(p, want, len)) col[j] = c;
            p = e ? e + 1 : NULL;
        }
        check(col[j] >= 0, "the simulator's CSV has a column %s", want);
    }
    while (fgets(line, sizeof line, f) && nrow <= NCOMM) {
        double val[512];
        int n = 0;
        for (char *p = line; p && n < 512; n++) {
            val[n] = strtod(p, NULL);
            char *e = strchr(p, ',');
            p = e ? e + 1 : NULL;
        }
        int k = (int)lround(val[0] / H_COMM);
        if (fabs(val[0] - k * H_COMM) > 1e-9 || k != nrow) continue;
        for (int j = 0; j < nout; j++) rows[nrow * nout + j] = col[j] >= 0 && col[j] < n ? val[col[j]] : (double)NAN;
        nrow++;
    }
    fclose(f);
    return nrow;
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the largest difference of a and b relative to max(1, |b|) */
static double maxdiff(const double *a, const double *b, int n, int *at)
{
    double d = 0;
    *at = -1;
    for (int i = 0; i < n; i++) {
        double e = fabs(a[i] - b[i]) / fmax(1.0, fabs(b[i]));
        if (!(e <= d)) { d = e; *at = i; }
    }
    return d;
}

/* Look up the FMI functions of lib into F: how many were found (44). */
static int load_syms(void *lib)
{
    int nsym = 0;
#define X(f)                                                                            \
    {                                                                                   \
        void *sym = dlsym(lib, #f);                                                     \
        memcpy(&F.f, &sym, sizeof sym);                                                 \
        check(sym != NULL, "the FMU exports %s", #f);                                   \
        nsym += sym != NULL;                                                            \
    }
    FMI_FUNCS(X)
#undef X
    return nsym;
}

/* Unzip fmu into a new temporary directory dir, read its description, check its sources/,
 * dlopen its library and look up the FMI functions into F; the outputs into out_vr, out_name.
 * Returns the library handle, or NULL (failures checked). */
static void *open_fmu(const char *fmu, char *dir)
{
    char cmd[2048], path[1024];
    nvar = nout = 0;
    if (!mkdtemp(dir)) { check(0, "mkdtemp %s", dir); return NULL; }
    snprintf(cmd, sizeof cmd, "unzip -q -o '%s' -d '%s'", fmu, dir);
    int rc = system(cmd);
    check(rc == 0, "unzip %s (exit %d)", fmu, rc);
    if (rc != 0 || read_description(dir) != 0) return NULL;

    /* sources/ holds every file the description lists, so a master can rebuild the library */
    snprintf(path, sizeof path, "%s/modelDescription.xml", dir);
    char *x = slurp(path);
    int nsrc = 0, missing = 0;
    for (const char *p = x ? strstr(x, "<SourceFiles>") : NULL; p && (p = strstr(p, "<File name=\"")) != NULL; p++) {
        char nm[128];
        if (attr(p, "name", nm, sizeof nm) != 0) break;
        snprintf(path, sizeof path, "%s/sources/%s", dir, nm);
        if (access(path, R_OK) != 0) missing++;
        nsrc++;
    }
    free(x);
    check(nsrc > 10 && missing == 0, "%s sources/: %d files listed, %d missing", fmu, nsrc, missing);

    snprintf(path, sizeof path, "%s/binaries/linux64/%s.so", dir, ident);
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    check(lib != NULL, "dlopen %s: %s", path, lib ? "" : dlerror());
    if (!lib) return NULL;
    if (load_syms(lib) != 44) { dlclose(lib); return NULL; }
    check(!strcmp(F.fmi2GetVersion(), "2.0") && !strcmp(F.fmi2GetTypesPlatform(), "default"),
          "fmi2GetVersion 2.0, fmi2GetTypesPlatform default");
    /* the outputs in description order */
    for (int i = 0; i < nvar && nout < MAXOUT; i++)
        if (!strcmp(var[i].causality, "output")) {
            int state = var[i].deriv > 0;   /* a velocity, or a position some variable is the derivative of */
            for (int k = 0; k < nvar; k++) state |= var[k].deriv == i + 1;
            out_sensor[nout] = !state;
            out_vr[nout] = var[i].vr;
            snprintf(out_name[nout], sizeof out_name[nout], "%.63s", var[i].name);
            nout++;
        }
    return lib;
}

static void remove_dir(const char *dir)
{
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) printf("note: could not remove %s\n", dir);
}

static void dd_part(const char *label, int me, const double *x_at, double t_at);

/* The motor arm's FMU built with baumgarte and dopri5 (adaptive): every communication point is
 * reached exactly; the outputs equal the simulator's run with the same settings and input table
 * (its adaptive steps stop at every row, as the FMU's at every communication point); the
 * current sensor reads the voltage input directly, the rate sensor only the state
 * (ModelStructure: their dependencies). */
static void adaptive_part(void)
{
    char dir[] = "/tmp/test_fmu.XXXXXX", cmd[2048], path[1100];
    void *lib = open_fmu(built("fmu_test/motor_arm.fmu"), dir);
    if (!lib) { remove_dir(dir); return; }
    snprintf(path, sizeof path, "%s/modelDescription.xml", dir);
    char *x = slurp(path);
    {
        static const char *const want[][2] = {{"V", "V"}, {"angle", "rad"}, {"rate", "rad/s"}, {"current", "A"}};
        check_units("motor_arm", want, 4);
        check(desc_xml && strstr(desc_xml, "<Unit name=\"V\"><BaseUnit kg=\"1\" m=\"2\" s=\"-3\" A=\"-1\"/></Unit>") &&
              strstr(desc_xml, "<Unit name=\"A\"><BaseUnit A=\"1\"/></Unit>"), "motor_arm: V and A with their SI base units");
    }
    unsigned vr_v = vr_of("V"), vr_i = vr_of("current"), vr_r = vr_of("rate"), vr_w = vr_of("arm.omega");
    int idx_v = -1, idx_i = -1, idx_r = -1, idx_w = -1;
    for (int i = 0; i < nvar; i++) {
        if (var[i].vr == vr_v) idx_v = i + 1;
        if (var[i].vr == vr_i) idx_i = i + 1;
        if (var[i].vr == vr_r) idx_r = i + 1;
        if (var[i].vr == vr_w) idx_w = i + 1;
    }
    char want[128], other[128];
    snprintf(want, sizeof want, "<Unknown index=\"%d\" dependencies=\"%d %d\"/>", idx_i, idx_w, idx_v);
    snprintf(other, sizeof other, "<Unknown index=\"%d\" dependencies=\"%d\"/>", idx_r, idx_w);
    check(x && strstr(x, want) && strstr(x, other), "ModelStructure: current depends on the state arm.omega and the "
          "input V (%s), rate on arm.omega only (%s)", want, other);
    check(x && strstr(x, "dopri5 integrator"), "the description names the integrator");
    free(x);
    int nrows = (NCOMM + 1) * nout;
    double *fm = malloc(sizeof(double) * (size_t)nrows), *sm = malloc(sizeof(double) * (size_t)nrows);
    fmi2Component c = instantiate("motor_arm");
    int bad = !fm || !sm || !c || start(c, vr_v, 0) || F.fmi2GetReal(c, out_vr, (size_t)nout, fm), off = 0;
    for (int k = 0; k < NCOMM && !bad; k++) {
        double tl;
        bad = comm_step(c, vr_v, k, 0, fm + (k + 1) * nout) ||
              F.fmi2GetRealStatus(c, fmi2LastSuccessfulTime, &tl) != fmi2OK;
        if (tl != (k + 1) * H_COMM) off++;
    }
    check(!bad && off == 0, "adaptive run: %d of %d communication points missed", off, NCOMM);
    /* fmi2Terminate compares dopri5's last pending steps (mb_sim_finish) as the simulator does
     * after its last row: its warning, or none, is the simulator's (below) */
    fmi2Status term = c ? F.fmi2Terminate(c) : fmi2Error;
    if (c) F.fmi2FreeInstance(c);
    snprintf(path, sizeof path, "%s/in.csv", dir);
    FILE *in = fopen(path, "w");
    if (in) {
        fprintf(in, "t,V\n");
        for (int k = 0; k < NCOMM; k++) fprintf(in, "%.17g,%.17g\n", k * H_COMM, input_at(k));
        fclose(in);
    }
    snprintf(cmd, sizeof cmd, "'%s' --quiet --formulation baumgarte --integrator dopri5 --t-end %g --input-file "
             "'%s/in.csv' --every %.17g --out '%s/sim.csv' >'%s/sum.txt'", built("motor_arm_sim"), T_END, dir,
             H_COMM, dir, dir);
    int rc = system(cmd);
    check(rc == 0, "%s (exit %d)", cmd, rc);
    snprintf(path, sizeof path, "%s/sum.txt", dir);
    char *sum = slurp(path), *w = sum ? strstr(sum, " warnings=") : NULL;
    int simwarn = w ? atoi(w + 10) : -1;
    check(w && (term == (simwarn > 0 ? fmi2Warning : fmi2OK)),
          "fmi2Terminate: %d (the simulator's run ends with warnings=%d)", (int)term, simwarn);
    free(sum);
    snprintf(path, sizeof path, "%s/sim.csv", dir);
    int nr = in ? read_sim_csv(path, sm) : -1, at;
    check(nr == NCOMM + 1, "the simulator's CSV: %d rows at the communication points (want %d)", nr, NCOMM + 1);
    double d = maxdiff(fm, sm, nrows, &at);
    printf("adaptive (motor_arm, baumgarte/dopri5) fmu vs simulator: max relative difference %.3g over %d values\n",
           d, nrows);
    check(d <= 1e-12, "adaptive: the FMU's outputs equal the simulator's to 1e-12: %.3g (%s at t=%g)", d,
          at >= 0 ? out_name[at % nout] : "-", at >= 0 ? (at / nout) * H_COMM : 0.0);
    dd_part("motor_arm, Model Exchange", 1, NULL, 0);
    dd_part("motor_arm, Co-Simulation", 0, NULL, 0);
    free(fm);
    free(sm);
    dlclose(lib);
    remove_dir(dir);
}

/* The hanging bar's FMU (tests/models/react_pendulum.lua; the simulator's defaults): its sensors
 * read the pin's reaction (model interface 13), which the FMU solves at each state with
 * mb_anl_outputs as the simulator's out. columns do: the outputs equal the simulator's run of
 * the same input table to 1e-12, the reactions included. */
static void reaction_part(void)
{
    char dir[] = "/tmp/test_fmu.XXXXXX", cmd[2048], path[1100];
    void *lib = open_fmu(built("fmu_test/react_pendulum.fmu"), dir);
    if (!lib) { remove_dir(dir); return; }
    {   /* no unit declared: no unit attribute; a unit of symbols the writer does not know
         * (ft): by name only, without a BaseUnit */
        static const char *const want[][2] = {{"u", ""}, {"fx", "(km99)4"}, {"fy", "(((m99)99)99)99"}, {"x", "ft"}};
        check_units("react_pendulum", want, 4);
        check(desc_xml && strstr(desc_xml, "<Unit name=\"ft\"/>"), "react_pendulum: the unit ft by name only");
        /* SI symbols, but a factor no double holds, an exponent past any int: by name only
         * (was factor="inf" and a signed overflow) */
        check(desc_xml && strstr(desc_xml, "<Unit name=\"(km99)4\"/>") &&
              strstr(desc_xml, "<Unit name=\"(((m99)99)99)99\"/>") && !strstr(desc_xml, "inf\""),
              "react_pendulum: units beyond a double's factor or an int's exponent by name only");
    }
    unsigned vr_u = vr_of("u");
    int nrows = (NCOMM + 1) * nout, nfx = 0;
    for (int i = 0; i < nout; i++) nfx += !strcmp(out_name[i], "fx") || !strcmp(out_name[i], "fy");
    check(nfx == 2, "the FMU's outputs hold the reaction sensors fx, fy");
    double *fm = malloc(sizeof(double) * (size_t)nrows), *sm = malloc(sizeof(double) * (size_t)nrows);
    fmi2Component c = instantiate("react_pendulum");
    int bad = !fm || !sm || !c || start(c, vr_u, 0) || F.fmi2GetReal(c, out_vr, (size_t)nout, fm);
    for (int k = 0; k < NCOMM && !bad; k++) bad = comm_step(c, vr_u, k, 0, fm + (k + 1) * nout);
    check(!bad, "the reaction sensors' co-simulation runs");
    if (c) F.fmi2FreeInstance(c);
    snprintf(path, sizeof path, "%s/in.csv", dir);
    FILE *in = fopen(path, "w");
    if (in) {
        fprintf(in, "t,u\n");
        for (int k = 0; k < NCOMM; k++) fprintf(in, "%.17g,%.17g\n", k * H_COMM, input_at(k));
        fclose(in);
    }
    snprintf(cmd, sizeof cmd, "'%s' --quiet --t-end %g --input-file '%s/in.csv' --every 10 --out "
             "'%s/sim.csv' >'%s/sum.txt'", built("react_pendulum_sim"), T_END, dir, dir, dir);
    int rc = system(cmd);
    check(rc == 0, "%s (exit %d)", cmd, rc);
    snprintf(path, sizeof path, "%s/sim.csv", dir);
    int nr = in && rc == 0 ? read_sim_csv(path, sm) : -1, at;
    check(nr == NCOMM + 1, "the simulator's CSV: %d rows at the communication points (want %d)", nr, NCOMM + 1);
    double d = nr == NCOMM + 1 ? maxdiff(fm, sm, nrows, &at) : 1;
    printf("reaction sensors (react_pendulum) fmu vs simulator: max relative difference %.3g over %d values\n",
           d, nrows);
    check(d <= 1e-12, "reactions: the FMU's outputs equal the simulator's to 1e-12: %.3g (%s)", d,
          nr == NCOMM + 1 && at >= 0 ? out_name[at % nout] : "-");
    dd_part("react_pendulum, Model Exchange", 1, NULL, 0);
    dd_part("react_pendulum, Co-Simulation", 0, NULL, 0);
    free(fm);
    free(sm);
    dlclose(lib);
    remove_dir(dir);
}

/* The quarter car's FMU (tunables, no inputs): fixed parameters set before initialization give
 * the simulator's run with --set (and differ from the defaults' run); a parameter set in step
 * mode and a value breaking the model's rule (a mass < 0) are refused with a message. */
static void tunable_part(void)
{
    char dir[] = "/tmp/test_fmu.XXXXXX", cmd[2048], path[1100];
    void *lib = open_fmu(built("fmu_test/suspension.fmu"), dir);
    if (!lib) { remove_dir(dir); return; }
    {
        static const char *const want[][2] = {{"m", "kg"}, {"k", "N/m"}, {"c", "N.s/m"}, {"F", "N"}, {"a", "m"}};
        check_units("suspension", want, 5);
        check(desc_xml && strstr(desc_xml, "<Unit name=\"N.s/m\"><BaseUnit kg=\"1\" s=\"-1\"/></Unit>") &&
              strstr(desc_xml, "<Unit name=\"N/m\"><BaseUnit kg=\"1\" s=\"-2\"/></Unit>") &&
              strstr(desc_xml, "<Unit name=\"kg\"><BaseUnit kg=\"1\"/></Unit>"), "suspension: kg, N/m, N.s/m with their SI base units");
    }
    unsigned vr_k = vr_of("k"), vr_c = vr_of("c"), vr_m = vr_of("m");
    int nrows = (NCOMM + 1) * nout;
    double *fm = malloc(sizeof(double) * (size_t)nrows), *fd = malloc(sizeof(double) * (size_t)nrows),
           *sm = malloc(sizeof(double) * (size_t)nrows);
    for (int pass = 0; pass < 2 && fm && fd && sm; pass++) {   /* 0: k, c set; 1: the defaults */
        double *rows = pass ? fd : fm, kc[2] = {20000, 500}, got[2] = {0, 0};
        unsigned vrs[2] = {vr_k, vr_c};
        fmi2Component c = instantiate("suspension");
        int bad = !c || (pass == 0 && F.fmi2SetReal(c, vrs, 2, kc) != fmi2OK) ||
                  F.fmi2SetupExperiment(c, fmi2False, 0, 0, fmi2True, T_END) != fmi2OK ||
                  F.fmi2EnterInitializationMode(c) != fmi2OK || F.fmi2ExitInitializationMode(c) != fmi2OK ||
                  F.fmi2GetReal(c, vrs, 2, got) != fmi2OK || F.fmi2GetReal(c, out_vr, (size_t)nout, rows) != fmi2OK;
        if (pass == 0) check(!bad && got[0] == 20000 && got[1] == 500, "parameters k, c read back as set");
        for (int k = 0; k < NCOMM && !bad; k++)
            bad = F.fmi2DoStep(c, k * H_COMM, (k + 1) * H_COMM - k * H_COMM, fmi2True) != fmi2OK ||
                  F.fmi2GetReal(c, out_vr, (size_t)nout, rows + (k + 1) * nout) != fmi2OK;
        check(!bad, "the suspension run %d", pass);
        if (pass == 0 && c) {
            nlog = 0;
            expect_error(F.fmi2SetReal(c, &vr_k, 1, kc), "a fixed parameter set in step mode", "fixed");
        }
        if (c) F.fmi2FreeInstance(c);
    }
    snprintf(cmd, sizeof cmd, "'%s' --quiet --t-end %g --set k=20000 --set c=500 --every 10 --out '%s/sim.csv' >/dev/null",
             built("suspension_sim"), T_END, dir);
    int rc = system(cmd);
    check(rc == 0, "%s (exit %d)", cmd, rc);
    snprintf(path, sizeof path, "%s/sim.csv", dir);
    int nr = fm && fd && sm ? read_sim_csv(path, sm) : -1, at;
    check(nr == NCOMM + 1, "the simulator's CSV: %d rows (want %d)", nr, NCOMM + 1);
    if (nr == NCOMM + 1) {
        double d = maxdiff(fm, sm, nrows, &at), dd = maxdiff(fd, sm, nrows, &at);
        printf("tunables (suspension, k and c set) fmu vs simulator --set: max relative difference %.3g; "
               "with the defaults %.3g\n", d, dd);
        check(d <= 1e-12, "tunables: the FMU equals the simulator's --set run to 1e-12: %.3g", d);
        check(dd > 1e-6, "tunables: the defaults' run differs (%.3g > 1e-6)", dd);
    }
    /* a mass < 0 breaks the model's rule: the initialization fails naming it */
    fmi2Component c = instantiate("suspension_bad");
    double mneg = -1;
    check(c && F.fmi2SetReal(c, &vr_m, 1, &mneg) == fmi2OK && F.fmi2EnterInitializationMode(c) == fmi2OK,
          "a negative mass is accepted until the start");
    nlog = 0;
    if (c) {
        expect_error(F.fmi2ExitInitializationMode(c), "a negative mass", "rule");
        F.fmi2FreeInstance(c);
    }
    free(fm);
    free(fd);
    free(sm);
    dlclose(lib);
    remove_dir(dir);
}

/* Model Exchange on the cart-pole's FMU: the master integrates the derivatives with RK4 at
 * h = 1 ms (the input held over each 10 ms, set at the communication points) and is compared
 * with the simulator's baumgarte/rk4 run of the same table; the derivatives of q are v; the
 * state machine's refusals. */
static void me_part(unsigned vr_f, const char *sim, const char *dir)
{
    enum { NX = 12 };
    char cmd[2048], path[1100];
    int nrows = (NCOMM + 1) * nout;
    double *fm = malloc(sizeof(double) * (size_t)nrows), *sm = malloc(sizeof(double) * (size_t)nrows);
    fmi2Component c = F.fmi2Instantiate("me", fmi2ModelExchange, guid, "", &callbacks, fmi2False, fmi2False);
    double x[NX], k1[NX], k2[NX], k3[NX], k4[NX], xs[NX], u = input_at(0), h = 1e-3;
    fmi2EventInfo ev;
    memset(&ev, 0, sizeof ev);
    int bad = !fm || !sm || !c || F.fmi2SetupExperiment(c, fmi2False, 0, 0, fmi2True, T_END) != fmi2OK ||
              F.fmi2EnterInitializationMode(c) != fmi2OK || F.fmi2SetReal(c, &vr_f, 1, &u) != fmi2OK ||
              F.fmi2ExitInitializationMode(c) != fmi2OK || F.fmi2NewDiscreteStates(c, &ev) != fmi2OK ||
              ev.newDiscreteStatesNeeded || F.fmi2EnterContinuousTimeMode(c) != fmi2OK ||
              F.fmi2GetContinuousStates(c, x, NX) != fmi2OK || F.fmi2GetReal(c, out_vr, (size_t)nout, fm) != fmi2OK;
    check(!bad, "Model Exchange: instantiate, initialize, event mode, continuous-time mode, the states");
    if (c && !bad) {
        nlog = 0;
        expect_error(F.fmi2DoStep(c, 0, 0.01, 1), "fmi2DoStep of a Model Exchange instance", "continuous-time mode");
        expect_error(F.fmi2SetContinuousStates(c, x, NX - 1), "11 states of 12", "12 states");
        expect_error(F.fmi2NewDiscreteStates(c, &ev), "fmi2NewDiscreteStates in continuous-time mode", "not allowed");
    }
    int steps = 0, vq = 1;
    for (int k = 0; k < NCOMM && !bad; k++) {
        u = input_at(k);
        bad = F.fmi2SetReal(c, &vr_f, 1, &u) != fmi2OK;
        for (int j = 0; j < 10 && !bad; j++, steps++) {
            double t = steps * h;   /* the simulator's grid, t0 + k h */
            fmi2Boolean enter = 1, term = 1;
            bad = F.fmi2SetTime(c, t) != fmi2OK || F.fmi2SetContinuousStates(c, x, NX) != fmi2OK ||
                  F.fmi2GetDerivatives(c, k1, NX) != fmi2OK;
            for (int i = 0; i < NX / 2 && !bad; i++) vq &= k1[i] == x[NX / 2 + i];
            for (int i = 0; i < NX; i++) xs[i] = x[i] + 0.5 * h * k1[i];
            bad = bad || F.fmi2SetTime(c, t + 0.5 * h) != fmi2OK || F.fmi2SetContinuousStates(c, xs, NX) != fmi2OK ||
                  F.fmi2GetDerivatives(c, k2, NX) != fmi2OK;
            for (int i = 0; i < NX; i++) xs[i] = x[i] + 0.5 * h * k2[i];
            bad = bad || F.fmi2SetContinuousStates(c, xs, NX) != fmi2OK || F.fmi2GetDerivatives(c, k3, NX) != fmi2OK;
            for (int i = 0; i < NX; i++) xs[i] = x[i] + h * k3[i];
            bad = bad || F.fmi2SetTime(c, t + h) != fmi2OK || F.fmi2SetContinuousStates(c, xs, NX) != fmi2OK ||
                  F.fmi2GetDerivatives(c, k4, NX) != fmi2OK;
            for (int i = 0; i < NX; i++) x[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
            bad = bad || F.fmi2SetTime(c, (steps + 1) * h) != fmi2OK || F.fmi2SetContinuousStates(c, x, NX) != fmi2OK ||
                  F.fmi2CompletedIntegratorStep(c, fmi2True, &enter, &term) != fmi2OK || enter || term;
        }
        bad = bad || F.fmi2GetReal(c, out_vr, (size_t)nout, fm + (k + 1) * nout) != fmi2OK;
    }
    check(!bad, "Model Exchange: 2000 RK4 steps through the FMU's derivatives");
    check(vq, "Model Exchange: the derivatives of q are v");
    /* the accelerations as variables (der(...), the derivatives of v) are GetDerivatives' */
    unsigned vr_a[2] = {vr_of("der(cart.vx)"), vr_of("der(pole.omega)")};
    double a[2] = {0, 0};
    check(!bad && F.fmi2GetDerivatives(c, k1, NX) == fmi2OK && F.fmi2GetReal(c, vr_a, 2, a) == fmi2OK &&
          a[0] == k1[NX / 2] && a[1] == k1[NX - 1] && a[0] != 0, "der(cart.vx), der(pole.omega) are the derivatives");
    check(!c || F.fmi2Terminate(c) == fmi2OK, "Model Exchange: fmi2Terminate");
    if (c) F.fmi2FreeInstance(c);
    snprintf(cmd, sizeof cmd, "'%s' --quiet --formulation baumgarte --integrator rk4 --t-end %g --input-file '%s/in.csv' "
             "--every 10 --out '%s/sim_me.csv' >/dev/null", sim, T_END, dir, dir);
    int rc = system(cmd);
    check(rc == 0, "%s (exit %d)", cmd, rc);
    snprintf(path, sizeof path, "%s/sim_me.csv", dir);
    int nr = !bad && rc == 0 ? read_sim_csv(path, sm) : -1, at;
    check(nr == NCOMM + 1, "the simulator's baumgarte/rk4 CSV: %d rows (want %d)", nr, NCOMM + 1);
    if (nr == NCOMM + 1) {
        double d = maxdiff(fm, sm, nrows, &at);
        printf("Model Exchange (cartpole, the master's RK4 on the FMU's derivatives) vs simulator baumgarte/rk4: "
               "max relative difference %.3g (%s at t=%g)\n", d, out_name[at % nout], (at / nout) * H_COMM);
        check(d <= 1e-12, "Model Exchange: the master's RK4 equals the simulator's baumgarte/rk4 to 1e-12: %.3g", d);
    }
    free(fm);
    free(sm);
}

/* ---------------------------------------------------------------- directional derivatives */
/* The dependencies of the Unknown with index idx in ModelStructure's section sec (Outputs,
 * Derivatives) of the last description read: dep[j] = 1 for each index j listed (j <= nvar).
 * 1: listed with dependencies, 0: listed without (it depends on every known), -1: not listed. */
static int unknown_deps(const char *sec, int idx, unsigned char *dep)
{
    char open_tag[32], close_tag[32], buf[4096];
    snprintf(open_tag, sizeof open_tag, "<%s>", sec);
    snprintf(close_tag, sizeof close_tag, "</%s>", sec);
    const char *a = desc_xml ? strstr(desc_xml, open_tag) : NULL, *b = a ? strstr(a, close_tag) : NULL;
    for (const char *p = a; p && b && (p = strstr(p, "<Unknown")) != NULL && p < b; p++) {
        if (attr(p, "index", buf, sizeof buf) != 0 || atoi(buf) != idx) continue;
        memset(dep, 0, MAXVAR + 1);
        if (attr(p, "dependencies", buf, sizeof buf) != 0) return 0;
        for (char *e, *s = buf; *s; s = e) {
            long j = strtol(s, &e, 10);
            if (e == s) break;
            if (j >= 1 && j <= nvar) dep[j] = 1;
        }
        return 1;
    }
    return -1;
}

/* The FMU's values of the unknowns uvr[nu] (the first nx the derivatives, in state order, when
 * me), into val. */
static int eval_unknowns(fmi2Component c, int me, int nx, const unsigned *uvr, int nu, double *val)
{
    if (me && F.fmi2GetDerivatives(c, val, (size_t)nx) != fmi2OK) return -1;
    return F.fmi2GetReal(c, uvr + (me ? nx : 0), (size_t)(nu - (me ? nx : 0)), val + (me ? nx : 0)) == fmi2OK ? 0 : -1;
}

/* fmi2GetDirectionalDerivative on the loaded FMU against central differences: in Model Exchange
 * the derivatives [v; acc] and the sensors by the states [q; v] (at a state 1e-3 off the
 * constraints, where Baumgarte's terms act) and the inputs, differences of fmi2GetDerivatives and
 * fmi2GetReal; in Co-Simulation the outputs by the inputs at a communication point. Agreement
 * within 1e-6 relative (1 below 1); every entry of a known the unknown's ModelStructure
 * dependencies leave out is exactly 0; a seed of all knowns at once is the sum of the columns. */
static void dd_part(const char *label, int me, const double *x_at, double t_at)
{
    enum { MU = MAXVAR };
    unsigned uvr[MU], kvr[MU];
    int nu = 0, nk = 0, nx = 0, uidx[MU], kidx[MU];
    if (me) {   /* the states: the variables the Derivatives' unknowns are derivatives of */
        const char *a = desc_xml ? strstr(desc_xml, "<Derivatives>") : NULL, *b = a ? strstr(a, "</Derivatives>") : NULL;
        char buf[32];
        for (const char *p = a; p && b && (p = strstr(p, "<Unknown")) != NULL && p < b && nx < MU / 2; p++) {
            int di = attr(p, "index", buf, sizeof buf) == 0 ? atoi(buf) : 0;
            if (di < 1 || di > nvar || var[di - 1].deriv < 1) break;
            uidx[nu] = di;
            uvr[nu++] = var[di - 1].vr;
            kidx[nk] = var[di - 1].deriv;
            kvr[nk++] = var[var[di - 1].deriv - 1].vr;
            nx++;
        }
    }
    for (int i = 0; i < nvar && nu < MU; i++) {   /* the outputs that are not states */
        int state = 0;
        for (int j = 0; j < nx; j++) state |= kidx[j] == i + 1;
        if (!strcmp(var[i].causality, "output") && !state) { uidx[nu] = i + 1; uvr[nu++] = var[i].vr; }
    }
    int nin = 0;
    for (int i = 0; i < nvar && nk < MU; i++)
        if (!strcmp(var[i].causality, "input")) { kidx[nk] = i + 1; kvr[nk++] = var[i].vr; nin++; }
    check(!me || (nx > 0 && nx % 2 == 0), "%s: %d continuous states from the Derivatives", label, nx);
    fmi2Component c = F.fmi2Instantiate("dd", me ? fmi2ModelExchange : fmi2CoSimulation, guid, "", &callbacks,
                                        fmi2False, fmi2False);
    double x[MU], u[MU], dd[MU * MU], fd[MU * MU], vp[MU], vm[MU], one = 1, seed[MU], sum[MU];
    fmi2EventInfo ev;
    int bad = !c || F.fmi2SetupExperiment(c, fmi2False, 0, 0, fmi2False, 0) != fmi2OK ||
              F.fmi2EnterInitializationMode(c) != fmi2OK;
    for (int j = 0; j < nin && !bad; j++) {
        u[j] = 0.7 + 0.2 * j;
        bad = F.fmi2SetReal(c, &kvr[nx + j], 1, &u[j]) != fmi2OK;
    }
    bad = bad || F.fmi2ExitInitializationMode(c) != fmi2OK;
    if (me && !bad) {
        bad = F.fmi2NewDiscreteStates(c, &ev) != fmi2OK || F.fmi2EnterContinuousTimeMode(c) != fmi2OK ||
              F.fmi2GetContinuousStates(c, x, (size_t)nx) != fmi2OK;
        /* off the constraints, moving (the motor arm's friction tanh(omega / 1e-3) is then smooth
         * on the differences' scale); or the state given */
        for (int i = 0; i < nx; i++) x[i] = x_at ? x_at[i] : x[i] + (i < nx / 2 ? 1e-3 : 0.5) * sin(1.0 + i);
        bad = bad || F.fmi2SetTime(c, x_at ? t_at : 0.3) != fmi2OK || F.fmi2SetContinuousStates(c, x, (size_t)nx) != fmi2OK;
    } else if (!bad) {
        for (int k = 0; k < 10 && !bad; k++) bad = F.fmi2DoStep(c, k * 0.01, (k + 1) * 0.01 - k * 0.01, fmi2True) != fmi2OK;
    }
    check(!bad, "%s: the instance set up for the directional derivatives", label);
    if (bad) { if (c) F.fmi2FreeInstance(c); return; }
    /* column j: the derivative by known j, and its central difference */
    for (int j = 0; j < nk && !bad; j++) {
        bad = F.fmi2GetDirectionalDerivative(c, uvr, (size_t)nu, &kvr[j], 1, &one, dd + (long)j * nu) != fmi2OK;
        double *base = j < nx ? &x[j] : &u[j - nx], x0 = *base, h = 2e-5 * fmax(1, fabs(x0));
        for (int pass = 0; pass < 2; pass++, h /= 2) {   /* h and h / 2, Richardson-extrapolated */
            for (int sgn = 1; sgn >= -1 && !bad; sgn -= 2) {
                *base = x0 + sgn * h;
                bad = (j < nx ? F.fmi2SetContinuousStates(c, x, (size_t)nx) : F.fmi2SetReal(c, &kvr[j], 1, base)) != fmi2OK ||
                      eval_unknowns(c, me, nx, uvr, nu, sgn > 0 ? vp : vm) != 0;
            }
            for (int i = 0; i < nu; i++) {
                double dd1 = (vp[i] - vm[i]) / (2 * h);
                fd[(long)j * nu + i] = pass == 0 ? dd1 : (4 * dd1 - fd[(long)j * nu + i]) / 3;
            }
        }
        *base = x0;
        bad = bad || (j < nx ? F.fmi2SetContinuousStates(c, x, (size_t)nx) : F.fmi2SetReal(c, &kvr[j], 1, base)) != fmi2OK;
    }
    check(!bad, "%s: fmi2GetDirectionalDerivative and the differences for %d unknowns x %d knowns", label, nu, nk);
    double worst = 0, big = 0;
    int wi = 0, wj = 0, nzero = 0, ndep = 0;
    unsigned char dep[MAXVAR + 1];
    for (int i = 0; i < nu && !bad; i++) {
        int listed = unknown_deps(me && i < nx ? "Derivatives" : "Outputs", uidx[i], dep);
        for (int j = 0; j < nk; j++) {
            double a = dd[(long)j * nu + i], f = fd[(long)j * nu + i], r = fabs(a - f) / fmax(1, fabs(f));
            if (r > worst) { worst = r; wi = i; wj = j; }
            if (fabs(a) > big) big = fabs(a);
            if (listed == 1 && !dep[kidx[j]]) { ndep++; nzero += a != 0; }
        }
    }
    printf("%s: directional derivatives vs central differences: max relative difference %.3g (d %s / d %s; "
           "largest entry %.3g), %d entries outside the dependencies\n", label, worst, bad ? "-" : var[uidx[wi] - 1].name,
           bad ? "-" : var[kidx[wj] - 1].name, big, ndep);
    check(!bad && worst <= 1e-6 && (big > 0 || !me), "%s: fmi2GetDirectionalDerivative equals central differences to 1e-6: %.3g",
          label, worst);
    check(!bad && nzero == 0, "%s: %d of the %d entries outside ModelStructure's dependencies are nonzero", label, nzero, ndep);
    /* all knowns at once: the weighted sum of the columns */
    for (int j = 0; j < nk; j++) seed[j] = 1.0 + 0.5 * j;
    double lin = 0;
    if (!bad && F.fmi2GetDirectionalDerivative(c, uvr, (size_t)nu, kvr, (size_t)nk, seed, sum) == fmi2OK) {
        for (int i = 0; i < nu; i++) {
            double e = 0, sc = 0;
            for (int j = 0; j < nk; j++) { e += seed[j] * dd[(long)j * nu + i]; sc += fabs(seed[j] * dd[(long)j * nu + i]); }
            lin = fmax(lin, fabs(sum[i] - e) / fmax(1, sc));
        }
    } else {
        lin = 1;
    }
    check(lin <= 1e-12, "%s: a seed on all %d knowns gives the weighted sum of the columns (%.3g)", label, nk, lin);
    /* refusals: a parameter or an input as the unknown; in Co-Simulation a state as a known */
    nlog = 0;
    if (nin > 0) expect_error(F.fmi2GetDirectionalDerivative(c, &kvr[nx], 1, &kvr[nx], 1, &one, sum),
                              "an input as the unknown", "not an unknown");
    if (!me) {
        unsigned q0 = var[0].vr;
        expect_error(F.fmi2GetDirectionalDerivative(c, &uvr[0], 1, &q0, 1, &one, sum), "a state as a known in "
                     "Co-Simulation", "not a known");
    }
    F.fmi2FreeInstance(c);
}

/* mbgen --fmu: the generator's own command packs the same FMU as make fmu (the cart-pole with the
 * simulator's defaults): the same modelDescription.xml (GUID included) and library bytes; a
 * setting the packer refuses leaves no FMU and exits 1; --fmu-set with an unknown key is refused
 * before anything is generated. */
static void mbgen_part(void)
{
    char dir[] = "/tmp/test_fmu.XXXXXX", cmd[4096];
    if (!mkdtemp(dir)) { check(0, "mkdtemp"); return; }
    const char *mbgen = built("mbgen");
    char mbgen_path[1024];
    snprintf(mbgen_path, sizeof mbgen_path, "%s", mbgen);
    snprintf(cmd, sizeof cmd, "'%s' models/cartpole.lua -o '%s/gen' --fmu '%s/cartpole.fmu' >'%s/out.txt' 2>&1",
             mbgen_path, dir, dir, dir);
    int rc = system(cmd);
    check(rc == 0, "mbgen models/cartpole.lua --fmu (exit %d)", rc);
    const char *ref = built("fmu_test/cartpole.fmu");
    char ref_path[1024];
    snprintf(ref_path, sizeof ref_path, "%s", ref);
    snprintf(cmd, sizeof cmd, "unzip -p '%s/cartpole.fmu' modelDescription.xml | cmp -s - <(unzip -p '%s' modelDescription.xml) && "
             "unzip -p '%s/cartpole.fmu' binaries/linux64/cartpole.so | cmp -s - <(unzip -p '%s' binaries/linux64/cartpole.so) && "
             "unzip -l '%s/cartpole.fmu' | grep -q ' sources/mb_fmu.c$'", dir, ref_path, dir, ref_path, dir);
    char sh[4200];
    snprintf(sh, sizeof sh, "bash -c \"%s\"", cmd);
    rc = rc == 0 ? system(sh) : -1;
    check(rc == 0, "mbgen --fmu gives make fmu's modelDescription.xml and library, byte for byte, with sources/");
    snprintf(cmd, sizeof cmd, "'%s' models/cartpole.lua -o '%s/gen' --fmu-set integrator=bogus --fmu '%s/bad.fmu' "
             ">'%s/bad.txt' 2>&1", mbgen_path, dir, dir, dir);
    rc = system(cmd);
    snprintf(cmd, sizeof cmd, "%s/bad.fmu", dir);
    int left = access(cmd, F_OK) == 0;
    snprintf(cmd, sizeof cmd, "grep -q \"unknown integrator 'bogus'\" '%s/bad.txt' && grep -q 'the FMU was not built' '%s/bad.txt'",
             dir, dir);
    check(WIFEXITED(rc) && WEXITSTATUS(rc) == 1 && !left && system(cmd) == 0, "mbgen --fmu-set integrator=bogus: "
          "exit 1 (got %d), the packer's message, no FMU left (%d)", WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, left);
    snprintf(cmd, sizeof cmd, "'%s' models/cartpole.lua -o '%s/gen2' --fmu-set color=red --fmu '%s/x.fmu' 2>'%s/k.txt'; "
             "test $? -eq 1 && ! test -e '%s/gen2' && ! test -e '%s/x.fmu' && grep -q 'KEY formulation' '%s/k.txt'",
             mbgen_path, dir, dir, dir, dir, dir, dir);
    check(system(cmd) == 0, "mbgen --fmu-set color=red: exit 1 with the keys named, nothing written");
    remove_dir(dir);
}

/* Events (models/bouncing_ball.lua: a contact). Co-Simulation runs with events as the
 * simulator's default (--events): baumgarte/dopri5 locates each touch-down and lift-off and cuts
 * the step there. One communication step over the whole run takes the simulator's steps (it
 * steps to t_end; its rows between are dense output): the state at the end equals the
 * simulator's to 1e-12 and differs from its --no-events run (the negative control). Model
 * Exchange: the contact's gap is the event indicator (numberOfEventIndicators 1), equal at the
 * simulator's states to its out.floor.gap column, with a sign change at each touch-down and
 * lift-off the CSV has. */
static void events_part(void)
{
    char dir[] = "/tmp/test_fmu.XXXXXX", cmd[2048], path[1100];
    void *lib = open_fmu(built("fmu_test/bouncing_ball.fmu"), dir);
    if (!lib) { remove_dir(dir); return; }
    char nev[16] = "";
    const char *root = desc_xml ? strstr(desc_xml, "<fmiModelDescription") : NULL;
    check(root && attr(root, "numberOfEventIndicators", nev, sizeof nev) == 0 && !strcmp(nev, "1"),
          "bouncing_ball: numberOfEventIndicators=\"1\" (got \"%s\")", nev);
    int ig = -1, nx = 0;
    for (int j = 0; j < nout; j++) {
        if (!strcmp(out_name[j], "floor.gap")) ig = j;
        nx += !out_sensor[j];
    }
    check(ig >= 0 && nx == 6, "bouncing_ball: the output floor.gap and 6 states");
    /* a contact's force is piecewise (zero off contact): no dependency list may leave a known out
     * (the sensors list every state, the accelerations none: every known) */
    {
        const char *d0 = desc_xml ? strstr(desc_xml, "dependencies=\"\"") : "";
        const char *o = desc_xml ? strstr(desc_xml, "<Derivatives>") : NULL;
        char buf[64] = "";
        int nacc_all = 0;
        for (const char *p = o; p && (p = strstr(p, "<Unknown")) != NULL && strstr(o, "</Derivatives>") > p; p++)
            nacc_all += attr(p, "dependencies", buf, sizeof buf) != 0;
        check(!d0 && nacc_all == 3, "bouncing_ball: no empty dependencies (%s), the 3 accelerations on every known (%d)",
              d0 ? "found" : "none", nacc_all);
    }
    /* units: the contact's sensors (m, N, N, m/s) and the states (m, rad, m/s, rad/s) */
    {
        static const char *const want[][2] = {{"floor.gap", "m"}, {"floor.normal", "N"}, {"floor.friction", "N"},
                                              {"floor.slip", "m/s"}, {"ball.y", "m"}, {"ball.phi", "rad"},
                                              {"ball.vx", "m/s"}, {"ball.omega", "rad/s"}};
        int nok = 0;
        for (int k = 0; k < 8; k++) {
            char pat[96], u[16] = "";
            snprintf(pat, sizeof pat, "<ScalarVariable name=\"%s\"", want[k][0]);
            const char *p = desc_xml ? strstr(desc_xml, pat) : NULL, *r = p ? strstr(p, "<Real") : NULL;
            if (r && attr(r, "unit", u, sizeof u) == 0 && !strcmp(u, want[k][1])) nok++;
            else check(0, "bouncing_ball: %s has unit \"%s\" (got \"%s\")", want[k][0], want[k][1], u);
        }
        check(nok == 8 && strstr(desc_xml, "<Unit name=\"N\">") != NULL, "bouncing_ball: units of the contact's "
              "sensors and the states, N among the UnitDefinitions (%d of 8)", nok);
    }
    int nrows = (NCOMM + 1) * nout;
    double *fm = malloc(sizeof(double) * (size_t)nout), *sm = malloc(sizeof(double) * (size_t)nrows),
           *sn = malloc(sizeof(double) * (size_t)nrows);
    fmi2Component c = F.fmi2Instantiate("ball", fmi2CoSimulation, guid, "", &callbacks, fmi2False, fmi2False);
    int bad = !fm || !sm || !sn || !c || ig < 0 || F.fmi2SetupExperiment(c, fmi2False, 0, 0, fmi2True, T_END) != fmi2OK ||
              F.fmi2EnterInitializationMode(c) != fmi2OK || F.fmi2ExitInitializationMode(c) != fmi2OK ||
              F.fmi2DoStep(c, 0, T_END, fmi2True) != fmi2OK || F.fmi2GetReal(c, out_vr, (size_t)nout, fm) != fmi2OK;
    check(!bad, "bouncing_ball: the co-simulation runs (one communication step of %g s)", T_END);
    if (c) F.fmi2FreeInstance(c);
    /* a serialized state of an adaptive run with events and no tunables or inputs (the solver's
     * descriptor is the model's own; dopri5's stages and dense output, the events' brackets):
     * saved at t = 1 s, its instance freed, continued in a new instance to 2 s, bit for bit as
     * the run that was not interrupted (the same two communication steps) */
    {
        double y0[MAXOUT], y1[MAXOUT];
        fmi2Component c0 = F.fmi2Instantiate("ball0", fmi2CoSimulation, guid, "", &callbacks, fmi2False, fmi2False),
                      c1 = F.fmi2Instantiate("ball1", fmi2CoSimulation, guid, "", &callbacks, fmi2False, fmi2False), c2 = NULL;
        fmi2FMUstate st = NULL;
        size_t n = 0;
        unsigned char *buf = NULL;
        int sbad = !c0 || !c1;
        for (int k = 0; k < 2 && !sbad; k++) {
            fmi2Component cc = k ? c1 : c0;
            sbad = F.fmi2SetupExperiment(cc, fmi2False, 0, 0, fmi2True, T_END) != fmi2OK ||
                   F.fmi2EnterInitializationMode(cc) != fmi2OK || F.fmi2ExitInitializationMode(cc) != fmi2OK ||
                   F.fmi2DoStep(cc, 0, 1.0, fmi2True) != fmi2OK;
        }
        sbad = sbad || F.fmi2DoStep(c0, 1.0, 1.0, fmi2True) != fmi2OK || F.fmi2GetReal(c0, out_vr, (size_t)nout, y0) != fmi2OK ||
               F.fmi2GetFMUstate(c1, &st) != fmi2OK || F.fmi2SerializedFMUstateSize(c1, st, &n) != fmi2OK ||
               !(buf = malloc(n)) || F.fmi2SerializeFMUstate(c1, st, (fmi2Byte *)buf, n) != fmi2OK ||
               F.fmi2FreeFMUstate(c1, &st) != fmi2OK;
        if (c1) F.fmi2FreeInstance(c1);
        c2 = sbad ? NULL : F.fmi2Instantiate("ball2", fmi2CoSimulation, guid, "", &callbacks, fmi2False, fmi2False);
        sbad = sbad || !c2 || F.fmi2DeSerializeFMUstate(c2, (const fmi2Byte *)buf, n, &st) != fmi2OK ||
               F.fmi2SetFMUstate(c2, st) != fmi2OK || F.fmi2FreeFMUstate(c2, &st) != fmi2OK ||
               F.fmi2DoStep(c2, 1.0, 1.0, fmi2True) != fmi2OK || F.fmi2GetReal(c2, out_vr, (size_t)nout, y1) != fmi2OK;
        printf("serialized FMU state of the bouncing ball (baumgarte/dopri5, events): %zu bytes\n", n);
        check(!sbad && !memcmp(y0, y1, sizeof(double) * (size_t)nout), "bouncing_ball (baumgarte/dopri5, events): "
              "a state serialized at t=1 (%zu bytes) continues in a new instance bit for bit", n);
        free(buf);
        if (c0) F.fmi2FreeInstance(c0);
        if (c2) F.fmi2FreeInstance(c2);
    }
    int nr = -1, nrn = -1;
    for (int ev = 1; ev >= 0 && !bad; ev--) {
        snprintf(cmd, sizeof cmd, "'%s' --quiet --formulation baumgarte --integrator dopri5 %s --t-end %g --every %.17g "
                 "--out '%s/sim%d.csv' >/dev/null", built("bouncing_ball_sim"), ev ? "" : "--no-events", T_END, H_COMM, dir, ev);
        int rc = system(cmd);
        check(rc == 0, "%s (exit %d)", cmd, rc);
        snprintf(path, sizeof path, "%s/sim%d.csv", dir, ev);
        if (rc == 0) *(ev ? &nr : &nrn) = read_sim_csv(path, ev ? sm : sn);
    }
    check(nr == NCOMM + 1 && nrn == NCOMM + 1, "the simulator's CSVs: %d and %d rows (want %d)", nr, nrn, NCOMM + 1);
    if (nr == NCOMM + 1 && nrn == NCOMM + 1) {
        int at, atn;
        double d = maxdiff(fm, sm + NCOMM * nout, nout, &at), dn = maxdiff(fm, sn + NCOMM * nout, nout, &atn);
        int touch = 0;
        for (int k = 1; k <= NCOMM; k++) touch += (sm[k * nout + ig] > 0) != (sm[(k - 1) * nout + ig] > 0);
        printf("events (bouncing_ball, baumgarte/dopri5, %d touch-downs and lift-offs) fmu vs simulator at t=%g: max "
               "relative difference %.3g (%s); vs the simulator's --no-events run %.3g\n", touch, T_END, d,
               out_name[at % nout], dn);
        check(touch >= 2, "the ball touches down and lifts off within %g s (%d sign changes of the gap)", T_END, touch);
        check(d <= 1e-12, "events: the FMU's outputs at the end equal the simulator's (events on) to 1e-12: %.3g", d);
        check(dn > 1e-9, "negative control: the simulator without events differs (%.3g)", dn);
        /* Model Exchange: the indicator at the simulator's states */
        c = F.fmi2Instantiate("ball_me", fmi2ModelExchange, guid, "", &callbacks, fmi2False, fmi2False);
        fmi2EventInfo info;
        double g = -1, worst = 0;
        int chg = 0, prev = 1;
        bad = !c || F.fmi2SetupExperiment(c, fmi2False, 0, 0, fmi2False, 0) != fmi2OK ||
              F.fmi2EnterInitializationMode(c) != fmi2OK || F.fmi2GetEventIndicators(c, &g, 1) != fmi2OK ||
              F.fmi2ExitInitializationMode(c) != fmi2OK || F.fmi2NewDiscreteStates(c, &info) != fmi2OK ||
              F.fmi2EnterContinuousTimeMode(c) != fmi2OK;
        check(!bad && g == sm[ig], "Model Exchange: the indicator at the start is the gap %g (simulator %g)", g, sm[ig]);
        for (int k = 0; k <= NCOMM && !bad; k++) {
            bad = F.fmi2SetTime(c, k * H_COMM) != fmi2OK || F.fmi2SetContinuousStates(c, sm + k * nout, 6) != fmi2OK ||
                  F.fmi2GetEventIndicators(c, &g, 1) != fmi2OK;
            worst = fmax(worst, fabs(g - sm[k * nout + ig]));
            if (k > 0) chg += (g > 0) != prev;
            prev = g > 0;
        }
        printf("Model Exchange event indicator at the simulator's states: max |gap - out.floor.gap| %.3g m, %d sign "
               "changes\n", worst, chg);
        check(!bad && worst <= 1e-12 && chg == touch, "Model Exchange: the event indicator is the simulator's gap "
              "(%.3g m) with its %d sign changes (%d)", worst, touch, chg);
        nlog = 0;
        if (c) {
            double two[2];
            expect_error(F.fmi2GetEventIndicators(c, two, 2), "2 event indicators of 1", "has 1");
            F.fmi2FreeInstance(c);
        }
        /* the directional derivatives in contact: at the simulator's deepest row (the contact's
         * force and friction, generated dQ/dq and dQ/dv) */
        int deep = 0;
        for (int k = 1; k <= NCOMM; k++) if (sm[k * nout + ig] < sm[deep * nout + ig]) deep = k;
        check(sm[deep * nout + ig] < 0, "a row of the simulator's in contact (gap %g m at t=%g)", sm[deep * nout + ig],
              deep * H_COMM);
        dd_part("bouncing_ball in contact, Model Exchange", 1, sm + deep * nout, deep * H_COMM);
    }
    free(fm);
    free(sm);
    free(sn);
    dlclose(lib);
    remove_dir(dir);
}

int main(void)
{
    char dir[] = "/tmp/test_fmu.XXXXXX", cmd[2048], path[1024];
    const char *fmu = built("fmu_test/cartpole.fmu"), *sim = built("cartpole_sim");
    int rc;
    void *lib = open_fmu(fmu, dir);
    if (!lib) goto done;
    unsigned vr_f = vr_of("F");
    {
        static const char *const want[][2] = {{"F", "N"}, {"x", "m"}, {"xdot", "m/s"}, {"theta", "rad"},
                                              {"thetadot", "rad/s"}};
        check_units("cartpole", want, 5);
    }
    check(nout == 16, "cartpole: 16 outputs (6 positions, 6 velocities, 4 sensors), got %d", nout);

    /* 1. the run against the simulator with the same table */
    int nrows = (NCOMM + 1) * nout;
    double *fm = malloc(sizeof(double) * (size_t)nrows), *sm = malloc(sizeof(double) * (size_t)nrows),
           *f2 = malloc(sizeof(double) * (size_t)nrows), *fs = malloc(sizeof(double) * (size_t)nrows);
    double t0;
    check(run(vr_f, 0, fm) == 0, "the co-simulation run (200 communication steps of 10 ms)");
    snprintf(path, sizeof path, "%s/in.csv", dir);
    FILE *in = fopen(path, "w");
    if (!in) goto freeall;
    fprintf(in, "t,F\n");
    for (int k = 0; k < 10 * NCOMM; k++) fprintf(in, "%.17g,%.17g\n", k * H_COMM, input_at(k));   /* to 20 s */
    fclose(in);
    snprintf(cmd, sizeof cmd, "'%s' --quiet --t-end %g --input-file '%s/in.csv' --every 10 --out '%s/sim.csv' >'%s/sum.txt'",
             sim, T_END, dir, dir, dir);
    rc = system(cmd);
    check(rc == 0, "%s (exit %d)", cmd, rc);
    int nr = read_sim_csv((snprintf(path, sizeof path, "%s/sim.csv", dir), path), sm);
    check(nr == NCOMM + 1, "the simulator's CSV: %d rows at the communication points (want %d)", nr, NCOMM + 1);
    int at;
    double d = maxdiff(fm, sm, nrows, &at);
    printf("fmu vs simulator: max relative difference %.3g over %d values (%s at t=%g)\n", d, nrows,
           at >= 0 ? out_name[at % nout] : "-", at >= 0 ? (at / nout) * H_COMM : 0.0);
    check(d <= 1e-12, "the FMU's outputs equal the simulator's to 1e-12: %.3g (%s at t=%g)", d,
          at >= 0 ? out_name[at % nout] : "-", at >= 0 ? (at / nout) * H_COMM : 0.0);
    /* the comparison can fail: the same table one step late */
    check(run(vr_f, 1, fs) == 0, "the shifted run");
    double ds = maxdiff(fs, sm, nrows, &at);
    printf("negative control (input one step late): max relative difference %.3g\n", ds);
    check(ds > 1e-6, "the input one step late differs from the simulator (%.3g > 1e-6)", ds);

    /* cost per solver step over a 20 s run (20000 steps, 2000 DoStep): the FMU's best of 3 runs
     * and the simulator's (its summary's wall_s, without CSV), the same input table */
    {
        double best = 1e30;
        for (int r = 0; r < 3; r++) {
            fmi2Component c = instantiate("timing");
            if (!c) break;
            double row[MAXOUT], u = input_at(0);
            int bad = F.fmi2SetupExperiment(c, fmi2False, 0, 0, fmi2True, 10 * T_END) != fmi2OK ||
                      F.fmi2EnterInitializationMode(c) != fmi2OK || F.fmi2SetReal(c, &vr_f, 1, &u) != fmi2OK ||
                      F.fmi2ExitInitializationMode(c) != fmi2OK;
            t0 = wall();
            for (int k = 0; k < 10 * NCOMM && !bad; k++) bad = comm_step(c, vr_f, k, 0, row);
            double w = wall() - t0;
            F.fmi2FreeInstance(c);
            if (bad) { check(0, "the 20 s timing run"); break; }
            if (w < best) best = w;
        }
        snprintf(cmd, sizeof cmd, "'%s' --quiet --t-end %g --input-file '%s/in.csv' | sed -n 's/.*wall_s=//p'", sim,
                 10 * T_END, dir);
        FILE *p = popen(cmd, "r");
        double ws = -1;
        if (p) {
            if (fscanf(p, "%lf", &ws) != 1) ws = -1;
            pclose(p);
        }
        printf("cost per solver step, 20 s run of 20000 steps: FMU %.3f us (2000 DoStep, each with a SetReal and "
               "a GetReal of 16 outputs; best of 3), simulator %.3f us (its wall_s, no CSV)\n",
               best / 20000 * 1e6, ws / 20000 * 1e6);
    }

    me_part(vr_f, sim, dir);
    dd_part("cartpole, Model Exchange", 1, NULL, 0);
    dd_part("cartpole, Co-Simulation", 0, NULL, 0);

    /* 2. two instances side by side, their steps interleaved: each equals a run alone */
    {
        fmi2Component a = instantiate("a"), b = instantiate("b");
        check(a && b && a != b, "two instances");
        if (a && b) {
            int bad = start(a, vr_f, 0) || start(b, vr_f, 1) || F.fmi2GetReal(a, out_vr, (size_t)nout, f2) ||
                      F.fmi2GetReal(b, out_vr, (size_t)nout, fs);
            for (int k = 0; k < NCOMM && !bad; k++)
                bad = comm_step(a, vr_f, k, 0, f2 + (k + 1) * nout) || comm_step(b, vr_f, k, 1, fs + (k + 1) * nout);
            check(!bad, "two instances stepped in turn");
            check(!memcmp(f2, fm, sizeof(double) * (size_t)nrows), "instance a equals the run alone bit for bit");
            double *alone = malloc(sizeof(double) * (size_t)nrows);
            check(alone && run(vr_f, 1, alone) == 0 && !memcmp(fs, alone, sizeof(double) * (size_t)nrows),
                  "instance b equals its run alone bit for bit");
            free(alone);
            /* fmi2Reset: back to the instantiated state, the same run again */
            check(F.fmi2Reset(a) == fmi2OK, "fmi2Reset");
            bad = start(a, vr_f, 0) || F.fmi2GetReal(a, out_vr, (size_t)nout, f2);
            for (int k = 0; k < NCOMM && !bad; k++) bad = comm_step(a, vr_f, k, 0, f2 + (k + 1) * nout);
            check(!bad && !memcmp(f2, fm, sizeof(double) * (size_t)nrows), "after fmi2Reset the run repeats bit for bit");
        }
        if (a) F.fmi2FreeInstance(a);
        if (b) F.fmi2FreeInstance(b);
    }

    /* 2b. FMU state (canGetAndSetFMUstate): saved at t = 1 s, the run to 2 s, set back, the same
     * run again bit for bit; a state is its instance's (another's refused); Model Exchange's
     * continuous states come back */
    {
        fmi2Component a = instantiate("state"), b = instantiate("other");
        fmi2FMUstate st = NULL, stb = NULL;
        int half = NCOMM / 2, bad = !a || !b || start(a, vr_f, 0) || start(b, vr_f, 0);
        for (int k = 0; k < half && !bad; k++) bad = comm_step(a, vr_f, k, 0, f2 + (k + 1) * nout);
        bad = bad || F.fmi2GetFMUstate(a, &st) != fmi2OK || !st;
        for (int k = half; k < NCOMM && !bad; k++) bad = comm_step(a, vr_f, k, 0, f2 + (k + 1) * nout);
        double tl = -1;
        bad = bad || F.fmi2SetFMUstate(a, st) != fmi2OK || F.fmi2GetRealStatus(a, fmi2LastSuccessfulTime, &tl) != fmi2OK;
        check(!bad && tl == half * H_COMM, "fmi2SetFMUstate: back at t=%g (saved at %g)", tl, half * H_COMM);
        for (int k = half; k < NCOMM && !bad; k++) bad = comm_step(a, vr_f, k, 0, fs + (k + 1) * nout);
        check(!bad && !memcmp(f2 + (half + 1) * nout, fs + (half + 1) * nout, sizeof(double) * (size_t)(NCOMM - half) * nout) &&
              !memcmp(f2 + (half + 1) * nout, fm + (half + 1) * nout, sizeof(double) * (size_t)(NCOMM - half) * nout),
              "the run from the set state repeats the second half bit for bit (and equals the run alone)");
        /* the state overwritten in place (a second fmi2GetFMUstate on it) and set again */
        check(!bad && F.fmi2GetFMUstate(a, &st) == fmi2OK && F.fmi2SetFMUstate(a, st) == fmi2OK &&
              F.fmi2GetRealStatus(a, fmi2LastSuccessfulTime, &tl) == fmi2OK && tl == T_END,
              "fmi2GetFMUstate into the same state, set back: t=%g", tl);
        nlog = 0;
        if (b && st) {
            expect_error(F.fmi2SetFMUstate(b, st), "another instance's state", "not a state this instance saved");
            expect_error(F.fmi2FreeFMUstate(b, &st), "freeing another instance's state", "not a state this instance saved");
        }
        check(!a || (F.fmi2FreeFMUstate(a, &st) == fmi2OK && st == NULL), "fmi2FreeFMUstate sets the pointer to NULL");
        if (a) F.fmi2FreeInstance(a);
        /* Model Exchange */
        double x0[12], x1[12], junk[12];
        fmi2EventInfo ev;
        for (int i = 0; i < 12; i++) junk[i] = 0.5 + i;
        fmi2Component m = F.fmi2Instantiate("me_state", fmi2ModelExchange, guid, "", &callbacks, fmi2False, fmi2False);
        bad = !m || F.fmi2SetupExperiment(m, fmi2False, 0, 0, fmi2False, 0) != fmi2OK ||
              F.fmi2EnterInitializationMode(m) != fmi2OK || F.fmi2ExitInitializationMode(m) != fmi2OK ||
              F.fmi2NewDiscreteStates(m, &ev) != fmi2OK || F.fmi2EnterContinuousTimeMode(m) != fmi2OK ||
              F.fmi2SetTime(m, 0.25) != fmi2OK || F.fmi2GetContinuousStates(m, x0, 12) != fmi2OK ||
              F.fmi2GetFMUstate(m, &stb) != fmi2OK || F.fmi2SetContinuousStates(m, junk, 12) != fmi2OK ||
              F.fmi2SetFMUstate(m, stb) != fmi2OK || F.fmi2GetContinuousStates(m, x1, 12) != fmi2OK;
        check(!bad && !memcmp(x0, x1, sizeof x0), "Model Exchange: fmi2SetFMUstate brings the continuous states back");
        check(!m || F.fmi2FreeFMUstate(m, &stb) == fmi2OK, "Model Exchange: fmi2FreeFMUstate");
        if (m) F.fmi2FreeInstance(m);
        if (b) F.fmi2FreeInstance(b);
    }

    /* 2c. serialized FMU states (canSerializeFMUstate), as a master that saves a run to disk:
     * the state at t = 1 s serialized, the state and its instance freed, the bytes deserialized
     * into a freshly instantiated instance, run to 2 s: the second second bit for bit as the
     * uninterrupted run; hostile bytes refused with fmi2Error and a message */
    {
        fmi2Component a = instantiate("ser_a"), b = NULL;
        fmi2FMUstate st = NULL;
        int half = NCOMM / 2, bad = !a || start(a, vr_f, 0);
        size_t n = 0;
        unsigned char *buf = NULL;
        for (int k = 0; k < half && !bad; k++) bad = comm_step(a, vr_f, k, 0, f2 + (k + 1) * nout);
        bad = bad || F.fmi2GetFMUstate(a, &st) != fmi2OK || F.fmi2SerializedFMUstateSize(a, st, &n) != fmi2OK ||
              n < 136 || !(buf = malloc(n)) || F.fmi2SerializeFMUstate(a, st, (fmi2Byte *)buf, n) != fmi2OK;
        check(!bad, "fmi2SerializeFMUstate at t=%g: %zu bytes", half * H_COMM, n);
        if (a) {
            if (st) F.fmi2FreeFMUstate(a, &st);
            F.fmi2FreeInstance(a);
        }
        printf("serialized FMU state of the cart-pole: %zu bytes\n", n);
        b = instantiate("ser_b");
        double tl = -1;
        bad = bad || !b || F.fmi2DeSerializeFMUstate(b, (const fmi2Byte *)buf, n, &st) != fmi2OK ||
              F.fmi2SetFMUstate(b, st) != fmi2OK || F.fmi2FreeFMUstate(b, &st) != fmi2OK ||
              F.fmi2GetRealStatus(b, fmi2LastSuccessfulTime, &tl) != fmi2OK;
        check(!bad && tl == half * H_COMM, "fmi2DeSerializeFMUstate into a new instance: at t=%g", tl);
        for (int k = half; k < NCOMM && !bad; k++) bad = comm_step(b, vr_f, k, 0, fs + (k + 1) * nout);
        check(!bad && !memcmp(fs + (half + 1) * nout, fm + (half + 1) * nout, sizeof(double) * (size_t)(NCOMM - half) * nout),
              "the deserialized state runs the second second bit for bit as the uninterrupted run");
        /* hostile bytes, each refused with a message naming why (into a fresh instance) */
        fmi2Component h = instantiate("ser_hostile");
        unsigned char *x = buf ? malloc(n) : NULL;
        if (h && x) {
            nlog = 0;
            fmi2FMUstate got = NULL;
#define DESER(len) F.fmi2DeSerializeFMUstate(h, (const fmi2Byte *)x, (len), &got)
            memcpy(x, buf, n);
            expect_error(DESER(n - 1), "a state one byte short", "truncated");
            expect_error(DESER(100), "a state cut inside its header", "truncated");
            expect_error(DESER(0), "no bytes", "truncated");
            expect_error(F.fmi2DeSerializeFMUstate(h, NULL, n, &got), "a NULL buffer", "NULL");
            expect_error(F.fmi2DeSerializeFMUstate(h, (const fmi2Byte *)x, n, NULL), "a NULL state pointer", "NULL");
            x[n - 9] ^= 0x10;   /* a bit of the workspace */
            expect_error(DESER(n), "a flipped bit in the workspace", "checksum");
            memcpy(x, buf, n);
            x[200] ^= 1;        /* a bit of the run's values */
            expect_error(DESER(n), "a flipped bit in the values", "checksum");
            memcpy(x, buf, n);
            x[20] = x[20] == '0' ? '1' : '0';   /* the GUID: another build */
            expect_error(DESER(n), "another build's GUID", "GUID");
            memcpy(x, buf, n);
            x[0] = 'X';
            expect_error(DESER(n), "no magic", "magic");
            memcpy(x, buf, n);
            x[8] = 2;           /* format version 2 */
            expect_error(DESER(n), "another format version", "version");
            memcpy(x, buf, n);
            x[72] ^= 4;         /* the solver struct's size */
            expect_error(DESER(n), "other type sizes", "sizes");
            /* forged with a valid checksum (the layout of docs/fmi.md): values and records the
             * reader checks itself */
            uint32_t simsz;
            uint64_t ws;
            memcpy(&simsz, buf + 72, 4);
            memcpy(&ws, buf + 112, 8);
            size_t nw = simsz / sizeof(void *), tags = n - (size_t)ws - 9 * nw, wi = nw;
            for (size_t i = 0; i < nw && wi == nw; i++)
                if (buf[tags + i] == 3) wi = i;   /* the first pointer into the workspace */
            check(tags > 192 && wi < nw, "the serialized solver's records found (%zu words)", nw);
            memcpy(x, buf, n);
            x[136] = 99;        /* the state machine's state */
            expect_error(DESER(resum(x, n)), "a forged state value", "inconsistent");
            if (wi < nw) {
                uint64_t off;
                memcpy(x, buf, n);
                memcpy(&off, x + tags + nw + 8 * wi, 8);
                off += 8;       /* a pointer into the middle of a block */
                memcpy(x + tags + nw + 8 * wi, &off, 8);
                expect_error(DESER(resum(x, n)), "a pointer moved within the workspace", "where none points");
                memcpy(x, buf, n);
                off = (uint64_t)ws * 4;
                memcpy(x + tags + nw + 8 * wi, &off, 8);
                expect_error(DESER(resum(x, n)), "a pointer beyond the workspace", "where none points");
                memcpy(x, buf, n);
                x[tags + wi] = 2;   /* the pointer as a raw value */
                expect_error(DESER(resum(x, n)), "a pointer given as a raw value", "as data");
                memcpy(x, buf, n);
                x[tags + wi] = 9;
                expect_error(DESER(resum(x, n)), "an unknown record", "unknown record");
            }
            memcpy(x, buf, n);
            check(DESER(resum(x, n)) == fmi2OK && got && F.fmi2FreeFMUstate(h, &got) == fmi2OK,
                  "the checksum recomputed on unchanged bytes: accepted (the forgeries fail on their content)");
            for (size_t i = 0; i < n; i++) x[i] = (unsigned char)(i * 2654435761u >> 13);
            expect_error(DESER(n), "random bytes", "magic");
            check(got == NULL && nalloc > 0, "no state came out of the refused bytes");
#undef DESER
            free(x);
        }
        /* a Model Exchange state: into a Model Exchange instance, not a Co-Simulation one */
        {
            double x0[12], x1[12];
            fmi2EventInfo ev;
            fmi2FMUstate ms = NULL;
            size_t mn = 0;
            unsigned char *mb = NULL;
            fmi2Component m = F.fmi2Instantiate("me_ser", fmi2ModelExchange, guid, "", &callbacks, fmi2False, fmi2False),
                          m2 = F.fmi2Instantiate("me_ser2", fmi2ModelExchange, guid, "", &callbacks, fmi2False, fmi2False);
            int mbad = !m || !m2 || F.fmi2SetupExperiment(m, fmi2False, 0, 0, fmi2False, 0) != fmi2OK ||
                       F.fmi2EnterInitializationMode(m) != fmi2OK || F.fmi2ExitInitializationMode(m) != fmi2OK ||
                       F.fmi2NewDiscreteStates(m, &ev) != fmi2OK || F.fmi2EnterContinuousTimeMode(m) != fmi2OK ||
                       F.fmi2SetTime(m, 0.25) != fmi2OK || F.fmi2GetContinuousStates(m, x0, 12) != fmi2OK ||
                       F.fmi2GetFMUstate(m, &ms) != fmi2OK || F.fmi2SerializedFMUstateSize(m, ms, &mn) != fmi2OK ||
                       !(mb = malloc(mn)) || F.fmi2SerializeFMUstate(m, ms, (fmi2Byte *)mb, mn) != fmi2OK ||
                       F.fmi2FreeFMUstate(m, &ms) != fmi2OK;
            mbad = mbad || F.fmi2DeSerializeFMUstate(m2, (const fmi2Byte *)mb, mn, &ms) != fmi2OK ||
                   F.fmi2SetFMUstate(m2, ms) != fmi2OK || F.fmi2FreeFMUstate(m2, &ms) != fmi2OK ||
                   F.fmi2GetContinuousStates(m2, x1, 12) != fmi2OK;
            double d0[12], d1[12];
            mbad = mbad || F.fmi2GetDerivatives(m, d0, 12) != fmi2OK || F.fmi2GetDerivatives(m2, d1, 12) != fmi2OK;
            check(!mbad && !memcmp(x0, x1, sizeof x0) && !memcmp(d0, d1, sizeof d0),
                  "Model Exchange: a deserialized state gives the states and derivatives bit for bit");
            if (h && mb) {
                nlog = 0;
                fmi2FMUstate got = NULL;
                expect_error(F.fmi2DeSerializeFMUstate(h, (const fmi2Byte *)mb, mn, &got), "a Model Exchange state "
                             "into a Co-Simulation instance", "Model Exchange state");
            }
            if (m2 && buf) {
                nlog = 0;
                fmi2FMUstate got = NULL;
                expect_error(F.fmi2DeSerializeFMUstate(m2, (const fmi2Byte *)buf, n, &got), "a Co-Simulation state "
                             "into a Model Exchange instance", "Co-Simulation state");
            }
            free(mb);
            if (m) F.fmi2FreeInstance(m);
            if (m2) F.fmi2FreeInstance(m2);
        }
        /* a state saved before the start (no solver yet): the new instance starts as the old would */
        if (h) {
            fmi2Component p = instantiate("ser_pre");
            fmi2FMUstate ps = NULL;
            size_t pn = 0;
            unsigned char *pb = NULL;
            int pbad = !p || F.fmi2GetFMUstate(p, &ps) != fmi2OK || F.fmi2SerializedFMUstateSize(p, ps, &pn) != fmi2OK ||
                       !(pb = malloc(pn)) || F.fmi2SerializeFMUstate(p, ps, (fmi2Byte *)pb, pn) != fmi2OK ||
                       F.fmi2FreeFMUstate(p, &ps) != fmi2OK;
            pbad = pbad || pn >= n || F.fmi2DeSerializeFMUstate(h, (const fmi2Byte *)pb, pn, &ps) != fmi2OK ||
                   F.fmi2SetFMUstate(h, ps) != fmi2OK || F.fmi2FreeFMUstate(h, &ps) != fmi2OK || start(h, vr_f, 0) ||
                   F.fmi2GetReal(h, out_vr, (size_t)nout, f2) != fmi2OK;
            for (int k = 0; k < half && !pbad; k++) pbad = comm_step(h, vr_f, k, 0, f2 + (k + 1) * nout);
            printf("serialized FMU state before the start: %zu bytes\n", pn);
            check(!pbad && !memcmp(f2, fm, sizeof(double) * (size_t)(half + 1) * nout),
                  "a state serialized before the start (%zu bytes): the new instance runs as the original", pn);
            free(pb);
            if (p) F.fmi2FreeInstance(p);
        }
        if (h) F.fmi2FreeInstance(h);
        if (b) F.fmi2FreeInstance(b);
        free(buf);
    }

    /* 3. communication points off the solver's grid (2.5 h): each lands exactly there */
    {
        fmi2Component c = instantiate("offgrid");
        int bad = !c || start(c, vr_f, 0), off = 0;
        double t = 0, tl = -1, hc = 0.0025;
        for (int k = 0; k < 40 && !bad; k++) {
            bad = F.fmi2DoStep(c, t, hc, fmi2True) != fmi2OK || F.fmi2GetRealStatus(c, fmi2LastSuccessfulTime, &tl) != fmi2OK;
            t += hc;
            if (fabs(tl - t) > 1e-15) off++;
        }
        check(!bad && off == 0, "off-grid communication steps: %d of 40 missed the point (last %.17g vs %.17g)", off, tl, t);
        if (c) F.fmi2FreeInstance(c);
    }

    /* 4. hostile calls: fmi2Error (or NULL) with a logged message */
    {
        nlog = 0;
        check(F.fmi2Instantiate("x", fmi2CoSimulation, guid, "", NULL, 0, 0) == NULL, "NULL callbacks: no instance");
        check(F.fmi2Instantiate("x", fmi2CoSimulation, guid, "", &no_alloc, 0, 0) == NULL, "no allocateMemory: no instance");
        expect_error(fmi2Error, "no allocateMemory", "allocateMemory");
        check(F.fmi2Instantiate("x", fmi2CoSimulation, "{00000000-0000-0000-0000-000000000000}", "", &callbacks, 0, 0) == NULL,
              "a wrong GUID: no instance");
        expect_error(fmi2Error, "a wrong GUID", "GUID");
        check(F.fmi2Instantiate("x", (fmi2Type)7, guid, "", &callbacks, 0, 0) == NULL, "fmuType 7: no instance");
        expect_error(fmi2Error, "fmuType 7", "fmuType");
        check(F.fmi2DoStep(NULL, 0, 0.01, 1) == fmi2Error, "a NULL instance: fmi2Error");
        fmi2Component c = instantiate("hostile");
        check(c != NULL, "instantiate");
        if (c) {
            double v = 1, out = 0;
            unsigned bad_vr = 9999, vr_q = out_vr[0];
            expect_error(F.fmi2DoStep(c, 0, 0.01, 1), "fmi2DoStep before initialization", "instantiated");
            expect_error(F.fmi2GetReal(c, &bad_vr, 1, &out), "fmi2GetReal of value reference 9999", "9999");
            expect_error(F.fmi2SetReal(c, &bad_vr, 1, &v), "fmi2SetReal of value reference 9999", "9999");
            expect_error(F.fmi2GetReal(c, &vr_q, 1, &out), "an output before initialization", "fmi2EnterInitializationMode");
            expect_error(F.fmi2SetReal(c, &vr_q, 1, &v), "fmi2SetReal of an output", "output");
            v = NAN;
            expect_error(F.fmi2SetReal(c, &vr_f, 1, &v), "a NaN input", "not finite");
            fmi2String cat = "logNonsense";
            expect_error(F.fmi2SetDebugLogging(c, 1, 1, &cat), "an unknown log category", "logNonsense");
            expect_error(F.fmi2ExitInitializationMode(c), "fmi2ExitInitializationMode before Enter", "instantiated");
            check(start(c, vr_f, 0) == 0, "the start after the refused calls");
            expect_error(F.fmi2DoStep(c, 0.5, 0.01, 1), "fmi2DoStep at the wrong time", "currentCommunicationPoint");
            expect_error(F.fmi2DoStep(c, 0, -0.01, 1), "a negative communication step", "communicationStepSize");
            expect_error(F.fmi2EnterInitializationMode(c), "fmi2EnterInitializationMode in step mode", "step mode");
            expect_error(F.fmi2SetFMUstate(c, NULL), "fmi2SetFMUstate of NULL", "NULL state");
            v = 1;
            expect_error(F.fmi2GetDirectionalDerivative(c, &bad_vr, 1, &vr_f, 1, &v, &out), "fmi2GetDirectionalDerivative "
                         "of value reference 9999", "9999");
            int iv = 0;
            expect_error(F.fmi2GetInteger(c, &vr_q, 1, &iv), "fmi2GetInteger", "Integer");
            expect_error(F.fmi2GetDerivatives(c, &out, 1), "fmi2GetDerivatives of a Co-Simulation instance", "Model Exchange");
            check(F.fmi2DoStep(c, 0, 0.01, 1) == fmi2OK, "a step after the refused calls");
            check(F.fmi2Terminate(c) == fmi2OK, "fmi2Terminate");
            expect_error(F.fmi2DoStep(c, 0.01, 0.01, 1), "fmi2DoStep after fmi2Terminate", "terminated");
            F.fmi2FreeInstance(c);
        }
        /* a step the solver cannot take (a push of 1e300 N overflows): fmi2Error with the
         * runtime's message; the outputs stay readable at the last good step; no more steps */
        c = instantiate("overflow");
        if (c && start(c, vr_f, 0) == 0) {
            double v = 1e300, q0[MAXOUT], q1[MAXOUT];
            check(F.fmi2DoStep(c, 0, 0.01, 1) == fmi2OK && F.fmi2GetReal(c, out_vr, (size_t)nout, q0) == fmi2OK,
                  "a step before the overflow");
            check(F.fmi2SetReal(c, &vr_f, 1, &v) == fmi2OK, "an input of 1e300 is finite: accepted");
            nlog = 0;
            expect_error(F.fmi2DoStep(c, 0.01, 0.01, 1), "a step that overflows", "failed");
            double tl = -1;
            check(F.fmi2GetReal(c, out_vr, (size_t)nout, q1) == fmi2OK && F.fmi2GetRealStatus(c, fmi2LastSuccessfulTime, &tl) == fmi2OK &&
                  tl >= 0.01 && tl < 0.02 && q1[0] == q1[0], "after the failure: the last good state at t=%g", tl);
            expect_error(F.fmi2DoStep(c, tl, 0.01, 1), "fmi2DoStep after a failed step", "error");
            check(F.fmi2Terminate(c) == fmi2OK, "fmi2Terminate after a failed step");
        }
        if (c) {
            F.fmi2FreeInstance(c);
        }
        F.fmi2FreeInstance(NULL);   /* allowed, nothing happens */
        check(nalloc == 0, "every block the FMU allocated was freed (%ld left)", nalloc);
    }

    /* 5. sources/ rebuilds the library with the command its README gives, and the rebuilt
     * library runs the same co-simulation bit for bit */
    {
        snprintf(cmd, sizeof cmd, "cd '%s/sources' && grep -q '^    cc .* -o cartpole.so -lm$' README && "
                 "cc -std=c99 -O2 -fPIC -fvisibility=hidden -shared -I. *.c -o cartpole.so -lm", dir);
        rc = system(cmd);
        check(rc == 0, "the README's command rebuilds the library from sources/ (exit %d)", rc);
        snprintf(path, sizeof path, "%s/sources/cartpole.so", dir);
        void *lib2 = rc == 0 ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
        check(lib2 != NULL, "dlopen the rebuilt library");
        if (lib2) {
            check(load_syms(lib2) == 44 && run(vr_f, 0, f2) == 0 && !memcmp(f2, fm, sizeof(double) * (size_t)nrows),
                  "the rebuilt library's run equals the shipped one's bit for bit");
            dlclose(lib2);
        }
    }
freeall:
    free(fm);
    free(sm);
    free(f2);
    free(fs);
    dlclose(lib);
done:
    remove_dir(dir);
    adaptive_part();
    tunable_part();
    reaction_part();
    events_part();
    mbgen_part();
    free(desc_xml);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
