/* mb_fmu_desc.c - writes an FMU's modelDescription.xml (FMI 2.0, Co-Simulation and Model
 * Exchange) for the model
 * named in mb_fmu_model.h: its variables in the order of mb_fmu_vars.h, their units (those of
 * the model file's inputs, sensors and tunables from mb_model_info), the run settings
 * as the default experiment and the model structure. A host tool of make fmu (mk/fmu.mk), linked
 * with the model and the runtime. Usage: mb_fmu_desc SOURCE.c... > modelDescription.xml (the
 * C files of the FMU's sources/ that a master compiles). Exit 0, or 1 with a message on stderr. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mb_fmu_model.h"
#include "mb_fmu_vars.h"
#include "mb_fmu_stab.h"
#include "mb_analysis.h"
#include "mb_sim.h"
#include "mb_version.h"

/* text with the five XML special characters escaped */
static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* a variable's name: q and v from the coordinate and body names (as the simulator's CSV
 * columns: cart.x, cart.vx, pole.omega), the accelerations der(cart.vx), the rest the model
 * file's names */
static void var_name(FILE *f, const mb_model *m, int kind, int i, char *unit, size_t nunit)
{
    unit[0] = '\0';
    if (kind == MB_FMU_Q || kind == MB_FMU_V || kind == MB_FMU_A) {
        static const char *const vs[3] = {"vx", "vy", "omega"};
        static const char *const uq[3] = {"m", "m", "rad"}, *const uv[3] = {"m/s", "m/s", "rad/s"},
                          *const ua[3] = {"m/s2", "m/s2", "rad/s2"};
        int b = 0;
        while (b + 1 < m->nbody && mb_body_q(m, b + 1) <= i) b++;
        int k = i - mb_body_q(m, b);
        if (kind == MB_FMU_Q) {
            xml_text(f, m->info->coord_names[i]);
        } else {
            if (kind == MB_FMU_A) fputs("der(", f);
            xml_text(f, m->info->body_names[b]);
            fputc('.', f);
            fputs(vs[k], f);
            if (kind == MB_FMU_A) fputc(')', f);
        }
        snprintf(unit, nunit, "%s", kind == MB_FMU_Q ? uq[k] : kind == MB_FMU_V ? uv[k] : ua[k]);
        return;
    }
    xml_text(f, kind == MB_FMU_Y ? m->out_names[i] : kind == MB_FMU_U ? m->in_names[i] : m->par_names[i]);
}

/* The unit the model file declares for sensor, input or tunable i (mb_model_info's in_units,
 * out_units, par_units: a contact's sensors m, N, N, m/s), NULL when it declares none. */
static const char *model_unit(const mb_model *m, int kind, int i)
{
    const char *const *u = kind == MB_FMU_Y ? m->info->out_units : kind == MB_FMU_U ? m->info->in_units
                         : kind == MB_FMU_P ? m->info->par_units : NULL;
    return u && u[i] && u[i][0] ? u[i] : NULL;
}

/* The SI decomposition of a unit expression (docs/model-language.md, "Units": terms joined by
 * . * /, each a symbol, 1 or a parenthesized unit, with an optional exponent ^-2, s-2, m2):
 * exponents of kg, m, s, A, K, mol, cd, rad and a factor. 0 when every symbol is one of
 * SYMS, else -1 (the unit is then declared by name only). */
enum { U_KG, U_M, U_S, U_A, U_K, U_MOL, U_CD, U_RAD, U_N };
typedef struct { int e[U_N]; double f; } si_unit;
#define SI_EXP_MAX 1000   /* a base unit's exponent beyond this: the unit by name only */
static const struct { const char *sym; signed char e[U_N]; double f; } SYMS[] = {
    {"m", {0, 1, 0, 0, 0, 0, 0, 0}, 1},       {"kg", {1, 0, 0, 0, 0, 0, 0, 0}, 1},
    {"g", {1, 0, 0, 0, 0, 0, 0, 0}, 1e-3},    {"s", {0, 0, 1, 0, 0, 0, 0, 0}, 1},
    {"A", {0, 0, 0, 1, 0, 0, 0, 0}, 1},       {"K", {0, 0, 0, 0, 1, 0, 0, 0}, 1},
    {"mol", {0, 0, 0, 0, 0, 1, 0, 0}, 1},     {"cd", {0, 0, 0, 0, 0, 0, 1, 0}, 1},
    {"rad", {0, 0, 0, 0, 0, 0, 0, 1}, 1},     {"deg", {0, 0, 0, 0, 0, 0, 0, 1}, 0.017453292519943295},
    {"N", {1, 1, -2, 0, 0, 0, 0, 0}, 1},      {"J", {1, 2, -2, 0, 0, 0, 0, 0}, 1},
    {"W", {1, 2, -3, 0, 0, 0, 0, 0}, 1},      {"V", {1, 2, -3, -1, 0, 0, 0, 0}, 1},
    {"ohm", {1, 2, -3, -2, 0, 0, 0, 0}, 1},   {"C", {0, 0, 1, 1, 0, 0, 0, 0}, 1},
    {"Pa", {1, -1, -2, 0, 0, 0, 0, 0}, 1},    {"Hz", {0, 0, -1, 0, 0, 0, 0, 0}, 1},
    {"mm", {0, 1, 0, 0, 0, 0, 0, 0}, 1e-3},   {"cm", {0, 1, 0, 0, 0, 0, 0, 0}, 1e-2},
    {"km", {0, 1, 0, 0, 0, 0, 0, 0}, 1e3},    {"ms", {0, 0, 1, 0, 0, 0, 0, 0}, 1e-3},
    {"min", {0, 0, 1, 0, 0, 0, 0, 0}, 60},    {"h", {0, 0, 1, 0, 0, 0, 0, 0}, 3600},
    {"kN", {1, 1, -2, 0, 0, 0, 0, 0}, 1e3},   {"mA", {0, 0, 0, 1, 0, 0, 0, 0}, 1e-3},
    {"kW", {1, 2, -3, 0, 0, 0, 0, 0}, 1e3},   {"rpm", {0, 0, -1, 0, 0, 0, 0, 1}, 0.10471975511965977},
};
static int si_expr(const char **p, si_unit *u, int depth);
static int si_term(const char **p, si_unit *u, int depth)
{
    si_unit a = {{0}, 1};
    const char *s = *p;
    if (*s == '(') {
        s++;
        if (depth > 32 || si_expr(&s, &a, depth + 1) != 0 || *s != ')') return -1;
        s++;
    } else if (*s == '1' && !(s[1] >= '0' && s[1] <= '9')) {
        s++;
    } else {
        size_t n = 0, k;
        while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z')) n++;
        for (k = 0; k < sizeof SYMS / sizeof SYMS[0]; k++)
            if (strlen(SYMS[k].sym) == n && !strncmp(SYMS[k].sym, s, n)) break;
        if (n == 0 || k == sizeof SYMS / sizeof SYMS[0]) return -1;
        for (int j = 0; j < U_N; j++) a.e[j] = SYMS[k].e[j];
        a.f = SYMS[k].f;
        s += n;
    }
    int x = 1, neg = 0;
    const char *t = s;
    if (*t == '^') t++;
    if (*t == '-') { neg = 1; t++; }
    if (*t >= '0' && *t <= '9') {
        x = *t++ - '0';
        if (*t >= '0' && *t <= '9') x = 10 * x + (*t++ - '0');
        if (neg) x = -x;
        s = t;
    } else if (t != s) {
        return -1;
    }
    for (int j = 0; j < U_N; j++) {   /* nested powers ((m99)99)..: by name only, no overflow */
        if (a.e[j] > SI_EXP_MAX || a.e[j] < -SI_EXP_MAX) return -1;
        u->e[j] = a.e[j] * x;
    }
    u->f = pow(a.f, x);
    *p = s;
    return 0;
}
static int si_expr(const char **p, si_unit *u, int depth)
{
    if (si_term(p, u, depth) != 0) return -1;
    while (**p == '.' || **p == '*' || **p == '/') {
        int sign = **p == '/' ? -1 : 1;
        si_unit b;
        (*p)++;
        if (si_term(p, &b, depth) != 0) return -1;
        for (int j = 0; j < U_N; j++) u->e[j] += sign * b.e[j];
        u->f = sign > 0 ? u->f * b.f : u->f / b.f;
    }
    return 0;
}
static int si_unit_of(const char *text, si_unit *u)
{
    const char *p = text;
    if (si_expr(&p, u, 0) != 0 || *p != '\0') return -1;
    for (int j = 0; j < U_N; j++)
        if (u->e[j] > SI_EXP_MAX || u->e[j] < -SI_EXP_MAX) return -1;
    /* FMI's factor is a positive xs:double: 0 or inf from 1/(((g99)99)99) is no unit's */
    return isfinite(u->f) && isnormal(u->f) && u->f > 0 ? 0 : -1;
}

/* UnitDefinitions: those of q, v, the accelerations and the contacts with their SI base units,
 * then every other unit the model file declares, once each, with its BaseUnit when si_unit_of
 * knows its symbols (else by name only: FMI's BaseUnit is optional). */
static void unit_definitions(FILE *f, const mb_model *m)
{
    static const char *const known[7][2] = {
        {"m", "m=\"1\""}, {"rad", "rad=\"1\""}, {"m/s", "m=\"1\" s=\"-1\""}, {"rad/s", "rad=\"1\" s=\"-1\""},
        {"m/s2", "m=\"1\" s=\"-2\""}, {"rad/s2", "rad=\"1\" s=\"-2\""}, {"N", "kg=\"1\" m=\"1\" s=\"-2\""}};
    fprintf(f, "  <UnitDefinitions>\n");
    for (int k = 0; k < 7; k++) fprintf(f, "    <Unit name=\"%s\"><BaseUnit %s/></Unit>\n", known[k][0], known[k][1]);
    const int kinds[3] = {MB_FMU_Y, MB_FMU_U, MB_FMU_P}, counts[3] = {m->nout, m->nin, m->npar};
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < counts[a]; i++) {
            const char *u = model_unit(m, kinds[a], i);
            int seen = !u;
            for (int k = 0; k < 7 && !seen; k++) seen = !strcmp(u, known[k][0]);
            for (int b = 0; b <= a && !seen; b++)   /* an earlier variable with the same unit */
                for (int j = 0; j < (b == a ? i : counts[b]) && !seen; j++) {
                    const char *w = model_unit(m, kinds[b], j);
                    seen = w && !strcmp(u, w);
                }
            if (seen) continue;
            fprintf(f, "    <Unit name=\"");
            xml_text(f, u);
            si_unit su;
            if (si_unit_of(u, &su) == 0) {
                static const char *const base[U_N] = {"kg", "m", "s", "A", "K", "mol", "cd", "rad"};
                fprintf(f, "\"><BaseUnit");
                for (int j = 0; j < U_N; j++)
                    if (su.e[j]) fprintf(f, " %s=\"%d\"", base[j], su.e[j]);
                if (su.f != 1) fprintf(f, " factor=\"%.17g\"", su.f);
                fprintf(f, "/></Unit>\n");
            } else {
                fprintf(f, "\"/>\n");
            }
        }
    fprintf(f, "  </UnitDefinitions>\n");
}

/* the attribute unit="..." of a model file's variable (nothing without a unit) */
static void unit_attr(FILE *f, const mb_model *m, int kind, int i)
{
    const char *u = model_unit(m, kind, i);
    if (!u) return;
    fprintf(f, " unit=\"");
    xml_text(f, u);
    fputc('"', f);
}

/* a reproducible pseudo-random number in [-1, 1] (xorshift) */
static double rnd(unsigned long long *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return (double)(*x >> 11) / 9007199254740992.0 * 2 - 1;
}

/* 1 when the generated model's code (MB_FMU_NAME.c among the files given) has a step function:
 * a heaviside in a formula, an abs (its derivative), a contact's force. Its derivatives are then
 * zero on whole regions (a contact's off contact), where a probe at random states would miss a
 * dependency: the sensors and the accelerations are then listed as depending on every known.
 * The pattern is how generator/sym.lua writes step(x). */
static int has_step(int argc, char **argv)
{
    char want[256];
    snprintf(want, sizeof want, "%s.c", MB_FMU_NAME);
    for (int k = 1; k < argc; k++) {
        const char *b = strrchr(argv[k], '/');
        if (strcmp(b ? b + 1 : argv[k], want) != 0) continue;
        FILE *f = fopen(argv[k], "r");
        char line[65536];
        int found = 0;
        while (f && !found && fgets(line, sizeof line, f)) found = strstr(line, ">= MB_R(0.0) ? MB_R(1.0) : MB_R(0.0)") != NULL;
        if (f) fclose(f);
        return f ? found : 1;   /* (unreadable: the safe answer) */
    }
    return 1;
}
static int piecewise;   /* has_step of this model (set once in main) */

/* What sensor i depends on: dep[i * nk + j] = 1 for state j (q then v, j < 2 nq) and input
 * nin (j = 2 nq + l), nk = 2 nq + nin: dy/dq, dy/dv and dy/du (generated, exact) nonzero at any
 * of 4 random states and input values (a structural zero is 0 everywhere). */
static void sensor_deps(const mb_model *m, unsigned char *dep)
{
    int nq = m->nq, nk = 2 * nq + m->nin;
    memset(dep, 0, (size_t)(m->nout * nk));
    if (m->nout == 0) return;
    mb_model mm = *m;
    mb_real *in = calloc((size_t)(3 * m->nin + 1), sizeof *in), *q = malloc(sizeof *q * (size_t)nq),
            *v = malloc(sizeof *v * (size_t)nq), *d = malloc(sizeof *d * (size_t)(m->nout * m->nin + 1)),
            *y = malloc(sizeof *y * (size_t)m->nout), *dq = malloc(sizeof *dq * (size_t)(m->nout * nq)),
            *dv = malloc(sizeof *dv * (size_t)(m->nout * nq));
    if (!in || !q || !v || !d || !y || !dq || !dv || m->doutputs_dlam || piecewise) {
        /* the safe answer: dependent (a reaction depends on the whole state through lambda) */
        for (int k = 0; k < m->nout * nk; k++) dep[k] = 1;
    } else {
        unsigned long long x = 0x9e3779b97f4a7c15ULL;
        mm.in = in;
        for (int s = 0; s < 4; s++) {
            for (int j = 0; j < m->nin; j++) in[3 * j] = (mb_real)(m->in[3 * j] + rnd(&x));
            for (int j = 0; j < m->nq; j++) {
                q[j] = (mb_real)(m->q0[j] + 0.1 * rnd(&x));
                v[j] = (mb_real)rnd(&x);
            }
            mb_real t = (mb_real)(0.5 + 0.25 * rnd(&x));
            mm.outputs(&mm, t, q, v, y, dq, dv);
            if (mm.doutputs_du && m->nin) mm.doutputs_du(&mm, t, q, v, d);
            for (int i = 0; i < m->nout; i++) {
                for (int j = 0; j < nq; j++) {
                    if (dq[i * nq + j] != 0 || !isfinite((double)dq[i * nq + j])) dep[i * nk + j] = 1;
                    if (dv[i * nq + j] != 0 || !isfinite((double)dv[i * nq + j])) dep[i * nk + nq + j] = 1;
                }
                for (int l = 0; l < m->nin; l++)
                    if (!mm.doutputs_du || d[i * m->nin + l] != 0 || !isfinite((double)d[i * m->nin + l]))
                        dep[i * nk + 2 * nq + l] = 1;
            }
        }
    }
    free(in);
    free(q);
    free(v);
    free(d);
    free(y);
    free(dq);
    free(dv);
}

/* What acceleration i depends on: dep[i * nk + j] as sensor_deps, from the accelerations'
 * directional derivatives (mb_anl_dacc, as fmi2GetDirectionalDerivative gives them) along each
 * state and input at 4 random states and input values, for the exact index-1 equations
 * (Co-Simulation) and Model Exchange's stabilized ones. Returns 0, or -1 when they could not be
 * computed (a singular random state, no memory) or may miss one (piecewise): every acceleration
 * then depends on everything. */
static int accel_deps(const mb_model *m, unsigned char *dep)
{
    int nq = m->nq, nc = m->nc, nin = m->nin, nk = 2 * nq + nin, ok = 1;
    memset(dep, 0, (size_t)(nq * nk));
    me_model mm;
    memset(&mm, 0, sizeof mm);
    mm.m = *m;
    mm.gamma0 = m->gamma;
    mm.m.gamma = m->gamma ? stab_gamma : NULL;
    mb_params pme;   /* Model Exchange's xi and omega, as the wrapper builds them */
    mb_params_default(&pme, MB_BAUMGARTE);
    mb_params_preset(&pme, m->preset, MB_BAUMGARTE);
    size_t ws = mb_anl_workspace_size(m, MB_ANL_DENSE);
    mb_real *in = calloc((size_t)(3 * nin + 1), sizeof *in), *buf = malloc(sizeof(mb_real) * (size_t)(6 * nq + 3 * nc + nin + 4)),
            *work = ws ? malloc(ws) : NULL;
    mm.pq = malloc(sizeof(mb_real) * (size_t)(m->phi_q_pat.nnz + 1));
    mm.ph = malloc(sizeof(mb_real) * (size_t)(nc + 1));
    mm.pt = malloc(sizeof(mb_real) * (size_t)(nc + 1));
    mb_anl a;
    if (piecewise || !m->gamma || !in || !buf || !work || !mm.pq || !mm.ph || !mm.pt) ok = 0;
    mm.m.in = in;
    if (ok && mb_anl_init(&a, &mm.m, NULL, MB_ANL_DENSE, work, ws) != MB_OK) ok = 0;
    mb_real *q = buf, *v = q + nq, *dq = v + nq, *dv = dq + nq, *acc = dv + nq, *da = acc + nq, *lam = da + nq,
            *dlam = lam + nc + 1, *du = dlam + nc + 1;
    unsigned long long x = 0x2545f4914f6cdd1dULL;
    for (int s = 0; s < 4 && ok; s++) {
        for (int j = 0; j < nin; j++) in[3 * j] = (mb_real)(m->in[3 * j] + rnd(&x));
        for (int j = 0; j < nq; j++) {
            q[j] = (mb_real)(m->q0[j] + 0.1 * rnd(&x));
            v[j] = (mb_real)rnd(&x);
        }
        mb_real t = (mb_real)(0.5 + 0.25 * rnd(&x));
        for (int stab = 0; stab < 2 && ok; stab++) {
            mm.xi = stab ? pme.xi : 0;
            mm.w = stab ? pme.omega : 0;
            for (int j = 0; j < nk && ok; j++) {
                for (int i = 0; i < nq; i++) dq[i] = dv[i] = 0;
                for (int l = 0; l < nin; l++) du[l] = 0;
                if (j < nq) dq[j] = 1;
                else if (j < 2 * nq) dv[j - nq] = 1;
                else du[j - 2 * nq] = 1;
                if (mb_anl_dacc(&a, t, q, v, dq, dv, nin ? du : NULL, 2 * mm.xi * mm.w, acc, lam, da, NULL) != MB_OK) {
                    ok = 0;
                    break;
                }
                for (int i = 0; i < nq; i++)
                    if (da[i] != 0) dep[i * nk + j] = 1;
            }
        }
    }
    free(in);
    free(buf);
    free(work);
    free(mm.pq);
    free(mm.ph);
    free(mm.pt);
    if (!ok) memset(dep, 1, (size_t)(nq * nk));
    return ok ? 0 : -1;
}

static void source_files(FILE *f, int argc, char **argv)
{
    fprintf(f, "    <SourceFiles>\n");
    for (int k = 1; k < argc; k++) {
        const char *b = strrchr(argv[k], '/');
        fprintf(f, "      <File name=\"");
        xml_text(f, b ? b + 1 : argv[k]);
        fprintf(f, "\"/>\n");
    }
    fprintf(f, "    </SourceFiles>\n");
}

int main(int argc, char **argv)
{
    const mb_model *m = &MB_FMU_MODEL;
    FILE *f = stdout;
    piecewise = has_step(argc, argv);
    int nq = m->nq, nvar = (int)mb_fmu_nvars(m);
    if (!m->info) {
        fprintf(stderr, "mb_fmu_desc: %s was built without its names (MB_OMIT_INFO)\n", m->name);
        return 1;
    }
    /* FMI names are unique: the model file keeps inputs and tunables apart, not sensors from
     * them (the CSV's out. and in. columns differ), nor any of them from a coordinate's name */
    {
        const char *const *lists[4] = {m->out_names, m->in_names, m->par_names, m->info->coord_names};
        const int counts[4] = {m->nout, m->nin, m->npar, nq};
        static const char *const what[4] = {"sensor", "input", "tunable", "coordinate"};
        for (int a = 0; a < 4; a++)
            for (int i = 0; i < counts[a]; i++)
                for (int b = a; b < 4; b++)
                    for (int j = b == a ? i + 1 : 0; j < counts[b]; j++)
                        if (!strcmp(lists[a][i], lists[b][j])) {
                            fprintf(stderr, "mb_fmu_desc: %s: %s \"%s\" has the name of %s \"%s\": an FMU's variables "
                                    "need distinct names (rename one in the model file)\n", m->name, what[a],
                                    lists[a][i], what[b], lists[b][j]);
                            return 1;
                        }
    }
    int form = MB_FMU_FORMULATION[0] ? mb_formulation_parse(MB_FMU_FORMULATION) : MB_ALF_TRAPEZOID;
    if (form < 0) {
        fprintf(stderr, "mb_fmu_desc: unknown formulation '%s' (baumgarte, canonical, alf-explicit, "
                "alf-trapezoid)\n", MB_FMU_FORMULATION);
        return 1;
    }
    mb_params p;
    mb_params_default(&p, form);
    int integ = MB_FMU_INTEGRATOR[0] ? mb_integrator_parse(MB_FMU_INTEGRATOR) : p.integrator;
    if (integ < 0) {
        fprintf(stderr, "mb_fmu_desc: unknown integrator '%s' (rk4, dopri5, dop853, bdf, trapezoid, hht)\n",
                MB_FMU_INTEGRATOR);
        return 1;
    }
    double h = MB_FMU_H > 0 ? MB_FMU_H : m->preset && m->preset->h > 0 ? m->preset->h : (double)p.h;
    p.integrator = integ;
    p.h = (mb_real)h;
    if (MB_FMU_RTOL > 0) p.rtol = (mb_real)MB_FMU_RTOL;
    if (MB_FMU_ATOL > 0) p.atol = (mb_real)MB_FMU_ATOL;
    if (MB_FMU_SIGMA_RESET > 0) p.sigma_reset = (mb_real)MB_FMU_SIGMA_RESET;
    if (integ == MB_TRAPEZOID && (MB_FMU_RTOL > 0 || MB_FMU_ATOL > 0)) p.adaptive = 1;
    const char *what = NULL;
    p.events = 1;   /* as the Co-Simulation instances run */
    if (mb_params_check(&p, &what) != MB_OK) {   /* what fmi2Instantiate would refuse */
        fprintf(stderr, "mb_fmu_desc: %s: invalid run settings (%s/%s): %s\n", m->name, mb_formulation_name(form),
                mb_integrator_name(integ), what ? what : "?");
        return 1;
    }
    double t_end = m->preset && m->preset->t_end > 0 ? m->preset->t_end : 1.0;

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"");
    xml_text(f, m->name);
    fprintf(f, "\" guid=\"%s\"\n  description=\"planar multibody model %s: Co-Simulation %s formulation, %s integrator, "
               "h %.17g s, events located; Model Exchange the index-1 equations with Baumgarte stabilization, "
               "the contacts' gaps as event indicators\"\n  generationTool=\"mbgen %s (make fmu)\" variableNamingConvention=\"flat\" "
               "numberOfEventIndicators=\"%d\">\n",
            MB_FMU_GUID, m->name, mb_formulation_name(form), mb_integrator_name(integ), h, MB_VERSION_STRING,
            mb_event_sensors(m, NULL));
    fprintf(f, "  <ModelExchange modelIdentifier=\"%s\" needsExecutionTool=\"false\" "
               "completedIntegratorStepNotNeeded=\"true\"\n    canBeInstantiatedOnlyOncePerProcess=\"false\" "
               "canNotUseMemoryManagementFunctions=\"false\" canGetAndSetFMUstate=\"true\"\n    "
               "canSerializeFMUstate=\"true\" providesDirectionalDerivative=\"true\">\n", m->name);
    source_files(f, argc, argv);
    fprintf(f, "  </ModelExchange>\n");
    fprintf(f, "  <CoSimulation modelIdentifier=\"%s\" needsExecutionTool=\"false\" "
               "canHandleVariableCommunicationStepSize=\"true\"\n    canInterpolateInputs=\"true\" "
               "maxOutputDerivativeOrder=\"0\" canRunAsynchronuously=\"false\" "
               "canBeInstantiatedOnlyOncePerProcess=\"false\"\n    canNotUseMemoryManagementFunctions=\"false\" "
               "canGetAndSetFMUstate=\"true\" canSerializeFMUstate=\"true\" "
               "providesDirectionalDerivative=\"true\">\n",
            m->name);
    source_files(f, argc, argv);
    fprintf(f, "  </CoSimulation>\n");
    unit_definitions(f, m);
    fprintf(f, "  <LogCategories>\n"
               "    <Category name=\"logStatusError\" description=\"failures: the call returns fmi2Error\"/>\n"
               "    <Category name=\"logStatusWarning\" description=\"suspect results (the runtime's monitors)\"/>\n"
               "    <Category name=\"logAll\" description=\"everything else (with logging on)\"/>\n"
               "  </LogCategories>\n");
    fprintf(f, "  <DefaultExperiment startTime=\"0\" stopTime=\"%.17g\" stepSize=\"%.17g\"/>\n", t_end, h);
    fprintf(f, "  <ModelVariables>\n");
    for (unsigned vr = 0; vr < (unsigned)nvar; vr++) {
        int i, kind = mb_fmu_vr_kind(m, vr, &i);
        char unit[16];
        fprintf(f, "    <!-- index %u -->\n    <ScalarVariable name=\"", vr + 1);
        var_name(f, m, kind, i, unit, sizeof unit);
        fprintf(f, "\" valueReference=\"%u\"", vr);
        switch (kind) {
        case MB_FMU_Q:
            fprintf(f, " description=\"position coordinate\" causality=\"output\" variability=\"continuous\" "
                       "initial=\"calculated\">\n      <Real unit=\"%s\"/>\n", unit);
            break;
        case MB_FMU_V:
            fprintf(f, " description=\"velocity of coordinate %s\" causality=\"output\" variability=\"continuous\" "
                       "initial=\"calculated\">\n      <Real unit=\"%s\" derivative=\"%u\"/>\n",
                    m->info->coord_names[i], unit, mb_fmu_vr(m, MB_FMU_Q, i) + 1);
            break;
        case MB_FMU_A:
            fprintf(f, " description=\"acceleration of coordinate %s\" causality=\"local\" variability=\"continuous\" "
                       "initial=\"calculated\">\n      <Real unit=\"%s\" derivative=\"%u\"/>\n",
                    m->info->coord_names[i], unit, mb_fmu_vr(m, MB_FMU_V, i) + 1);
            break;
        case MB_FMU_Y:
            fprintf(f, " description=\"%s\" causality=\"output\" variability=\"continuous\" "
                       "initial=\"calculated\">\n      <Real", strchr(m->out_names[i], '.') ? "contact sensor" : "sensor");
            unit_attr(f, m, kind, i);
            fprintf(f, "/>\n");
            break;
        case MB_FMU_U:
            fprintf(f, " description=\"input (held over each step)\" causality=\"input\" variability=\"continuous\">\n"
                       "      <Real");
            unit_attr(f, m, kind, i);
            fprintf(f, " start=\"%.17g\"/>\n", (double)m->in[3 * i]);
            break;
        default:
            fprintf(f, " description=\"tunable parameter\" causality=\"parameter\" variability=\"fixed\" "
                       "initial=\"exact\">\n      <Real");
            unit_attr(f, m, kind, i);
            fprintf(f, " start=\"%.17g\"/>\n", (double)m->par[i]);
            break;
        }
        fprintf(f, "    </ScalarVariable>\n");
    }
    fprintf(f, "  </ModelVariables>\n  <ModelStructure>\n    <Outputs>\n");
    int nk = 2 * nq + m->nin;
    unsigned char *dep = malloc((size_t)(m->nout * nk) + 1);
    if (!dep) { fprintf(stderr, "mb_fmu_desc: out of memory\n"); return 1; }
    sensor_deps(m, dep);
    /* the knowns are the continuous states [q; v] and the inputs: q_i and v_i are states, a
     * sensor depends on the states and inputs its value reads */
    for (int kind = MB_FMU_Q; kind <= MB_FMU_Y; kind++) {
        if (kind == MB_FMU_A) continue;
        int cnt = kind == MB_FMU_Y ? m->nout : nq;
        for (int i = 0; i < cnt; i++) {
            unsigned idx = mb_fmu_vr(m, kind, i) + 1;
            fprintf(f, "      <Unknown index=\"%u\" dependencies=\"", idx);
            if (kind != MB_FMU_Y) {
                fprintf(f, "%u", idx);
            } else {
                int first = 1;
                for (int j = 0; j < nk; j++)
                    if (dep[i * nk + j]) {
                        unsigned known = j < nq ? mb_fmu_vr(m, MB_FMU_Q, j) : j < 2 * nq ? mb_fmu_vr(m, MB_FMU_V, j - nq)
                                                                                         : mb_fmu_vr(m, MB_FMU_U, j - 2 * nq);
                        fprintf(f, "%s%u", first ? "" : " ", known + 1);
                        first = 0;
                    }
            }
            fprintf(f, "\"/>\n");
        }
    }
    free(dep);
    /* the derivatives in the order of the states [q; v]: v, then the accelerations (their
     * dependencies from the directional derivatives at random states) */
    fprintf(f, "    </Outputs>\n    <Derivatives>\n");
    for (int i = 0; i < nq; i++) fprintf(f, "      <Unknown index=\"%u\" dependencies=\"%u\"/>\n",
                                         mb_fmu_vr(m, MB_FMU_V, i) + 1, mb_fmu_vr(m, MB_FMU_V, i) + 1);
    unsigned char *adep = malloc((size_t)(nq * nk) + 1);
    if (!adep) { fprintf(stderr, "mb_fmu_desc: out of memory\n"); return 1; }
    int adep_ok = accel_deps(m, adep) == 0;
    for (int i = 0; i < nq; i++) {
        fprintf(f, "      <Unknown index=\"%u\"", mb_fmu_vr(m, MB_FMU_A, i) + 1);
        if (adep_ok) {   /* (otherwise no list: every known) */
            fprintf(f, " dependencies=\"");
            for (int j = 0, first = 1; j < nk; j++)
                if (adep[i * nk + j]) {
                    unsigned known = j < nq ? mb_fmu_vr(m, MB_FMU_Q, j) : j < 2 * nq ? mb_fmu_vr(m, MB_FMU_V, j - nq)
                                                                                     : mb_fmu_vr(m, MB_FMU_U, j - 2 * nq);
                    fprintf(f, "%s%u", first ? "" : " ", known + 1);
                    first = 0;
                }
            fputc('"', f);
        }
        fprintf(f, "/>\n");
    }
    free(adep);
    /* at initialization the outputs and derivatives depend on the inputs and parameters (the
     * assembly) */
    fprintf(f, "    </Derivatives>\n    <InitialUnknowns>\n");
    for (unsigned k = 0; k < (unsigned)(3 * nq + m->nout); k++) fprintf(f, "      <Unknown index=\"%u\"/>\n", k + 1);
    fprintf(f, "    </InitialUnknowns>\n  </ModelStructure>\n</fmiModelDescription>\n");
    if (fflush(f) != 0 || ferror(f)) {
        fprintf(stderr, "mb_fmu_desc: cannot write modelDescription.xml\n");
        return 1;
    }
    return 0;
}
