/* mb_fmu_desc.c - writes an FMU's modelDescription.xml (FMI 2.0, Co-Simulation) for the model
 * named in mb_fmu_model.h: its variables in the order of mb_fmu_vars.h, units, the run settings
 * as the default experiment and the model structure. A host tool of make fmu (mk/fmu.mk), linked
 * with the model and the runtime. Usage: mb_fmu_desc SOURCE.c... > modelDescription.xml (the
 * C files of the FMU's sources/ that a master compiles). Exit 0, or 1 with a message on stderr. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mb_fmu_model.h"
#include "mb_fmu_vars.h"
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
 * columns: cart.x, cart.vx, pole.omega), the rest the model file's names */
static void var_name(FILE *f, const mb_model *m, int kind, int i, char *unit, size_t nunit)
{
    unit[0] = '\0';
    if (kind == MB_FMU_Q || kind == MB_FMU_V) {
        static const char *const vs[3] = {"vx", "vy", "omega"};
        static const char *const uq[3] = {"m", "m", "rad"}, *const uv[3] = {"m/s", "m/s", "rad/s"};
        int b = 0;
        while (b + 1 < m->nbody && mb_body_q(m, b + 1) <= i) b++;
        int k = i - mb_body_q(m, b);
        if (kind == MB_FMU_Q) {
            xml_text(f, m->info->coord_names[i]);
        } else {
            xml_text(f, m->info->body_names[b]);
            fputc('.', f);
            fputs(vs[k], f);
        }
        snprintf(unit, nunit, "%s", kind == MB_FMU_Q ? uq[k] : uv[k]);
        return;
    }
    xml_text(f, kind == MB_FMU_Y ? m->out_names[i] : kind == MB_FMU_U ? m->in_names[i] : m->par_names[i]);
}

/* a reproducible pseudo-random number in [-1, 1] (xorshift) */
static double rnd(unsigned long long *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return (double)(*x >> 11) / 9007199254740992.0 * 2 - 1;
}

/* dep[i * nin + j] = 1 when sensor i depends on input j directly (feedthrough): dy/du
 * (generated, exact) nonzero at any of 4 random states and input values; a sensor without
 * feedthrough has dy/du = 0 identically. */
static void feedthrough(const mb_model *m, unsigned char *dep)
{
    memset(dep, 0, (size_t)(m->nout * m->nin));
    if (!m->doutputs_du || m->nin == 0) return;
    mb_model mm = *m;
    mb_real *in = calloc((size_t)(3 * m->nin), sizeof *in), *q = malloc(sizeof *q * (size_t)m->nq),
            *v = malloc(sizeof *v * (size_t)m->nq), *d = malloc(sizeof *d * (size_t)(m->nout * m->nin));
    if (!in || !q || !v || !d) {
        for (int k = 0; k < m->nout * m->nin; k++) dep[k] = 1;   /* the safe answer: dependent */
    } else {
        unsigned long long x = 0x9e3779b97f4a7c15ULL;
        mm.in = in;
        for (int s = 0; s < 4; s++) {
            for (int j = 0; j < m->nin; j++) in[3 * j] = (mb_real)(m->in[3 * j] + rnd(&x));
            for (int j = 0; j < m->nq; j++) {
                q[j] = (mb_real)(m->q0[j] + 0.1 * rnd(&x));
                v[j] = (mb_real)rnd(&x);
            }
            mm.doutputs_du(&mm, (mb_real)(0.5 + 0.25 * rnd(&x)), q, v, d);
            for (int k = 0; k < m->nout * m->nin; k++)
                if (d[k] != 0 || !isfinite((double)d[k])) dep[k] = 1;
        }
    }
    free(in);
    free(q);
    free(v);
    free(d);
}

int main(int argc, char **argv)
{
    const mb_model *m = &MB_FMU_MODEL;
    FILE *f = stdout;
    int nq = m->nq, nvar = (int)mb_fmu_nvars(m);
    if (!m->info) {
        fprintf(stderr, "mb_fmu_desc: %s was built without its names (MB_OMIT_INFO)\n", m->name);
        return 1;
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
    if (integ == MB_TRAPEZOID && (MB_FMU_RTOL > 0 || MB_FMU_ATOL > 0)) p.adaptive = 1;
    const char *what = NULL;
    if (mb_params_check(&p, &what) != MB_OK) {   /* what fmi2Instantiate would refuse */
        fprintf(stderr, "mb_fmu_desc: %s: invalid run settings (%s/%s): %s\n", m->name, mb_formulation_name(form),
                mb_integrator_name(integ), what ? what : "?");
        return 1;
    }
    double t_end = m->preset && m->preset->t_end > 0 ? m->preset->t_end : 1.0;

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"");
    xml_text(f, m->name);
    fprintf(f, "\" guid=\"%s\"\n  description=\"planar multibody model %s: %s formulation, %s integrator, "
               "h %.17g s\"\n  generationTool=\"mbgen %s (make fmu)\" variableNamingConvention=\"flat\" "
               "numberOfEventIndicators=\"0\">\n",
            MB_FMU_GUID, m->name, mb_formulation_name(form), mb_integrator_name(integ), h, MB_VERSION_STRING);
    fprintf(f, "  <CoSimulation modelIdentifier=\"%s\" needsExecutionTool=\"false\" "
               "canHandleVariableCommunicationStepSize=\"true\"\n    canInterpolateInputs=\"true\" "
               "maxOutputDerivativeOrder=\"0\" canRunAsynchronuously=\"false\" "
               "canBeInstantiatedOnlyOncePerProcess=\"false\"\n    canNotUseMemoryManagementFunctions=\"false\" "
               "canGetAndSetFMUstate=\"false\" canSerializeFMUstate=\"false\" "
               "providesDirectionalDerivative=\"false\">\n",
            m->name);
    fprintf(f, "    <SourceFiles>\n");
    for (int k = 1; k < argc; k++) {
        const char *b = strrchr(argv[k], '/');
        fprintf(f, "      <File name=\"");
        xml_text(f, b ? b + 1 : argv[k]);
        fprintf(f, "\"/>\n");
    }
    fprintf(f, "    </SourceFiles>\n  </CoSimulation>\n");
    fprintf(f, "  <UnitDefinitions>\n"
               "    <Unit name=\"m\"><BaseUnit m=\"1\"/></Unit>\n"
               "    <Unit name=\"rad\"><BaseUnit rad=\"1\"/></Unit>\n"
               "    <Unit name=\"m/s\"><BaseUnit m=\"1\" s=\"-1\"/></Unit>\n"
               "    <Unit name=\"rad/s\"><BaseUnit rad=\"1\" s=\"-1\"/></Unit>\n"
               "  </UnitDefinitions>\n");
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
                       "initial=\"calculated\">\n      <Real unit=\"%s\"/>\n", m->info->coord_names[i], unit);
            break;
        case MB_FMU_Y:
            fprintf(f, " description=\"sensor\" causality=\"output\" variability=\"continuous\" "
                       "initial=\"calculated\">\n      <Real/>\n");
            break;
        case MB_FMU_U:
            fprintf(f, " description=\"input (held over each step)\" causality=\"input\" variability=\"continuous\">\n"
                       "      <Real start=\"%.17g\"/>\n", (double)m->in[3 * i]);
            break;
        default:
            fprintf(f, " description=\"tunable parameter\" causality=\"parameter\" variability=\"fixed\" "
                       "initial=\"exact\">\n      <Real start=\"%.17g\"/>\n", (double)m->par[i]);
            break;
        }
        fprintf(f, "    </ScalarVariable>\n");
    }
    fprintf(f, "  </ModelVariables>\n  <ModelStructure>\n    <Outputs>\n");
    unsigned char *dep = malloc((size_t)(m->nout * m->nin) + 1);
    if (!dep) { fprintf(stderr, "mb_fmu_desc: out of memory\n"); return 1; }
    feedthrough(m, dep);
    int nout_all = 2 * nq + m->nout;
    /* q and v at a communication point do not depend on the inputs set there; a sensor does
     * where its value reads an input */
    for (int k = 0; k < nout_all; k++) {
        fprintf(f, "      <Unknown index=\"%d\" dependencies=\"", k + 1);
        if (k >= 2 * nq) {
            int i = k - 2 * nq, first = 1;
            for (int j = 0; j < m->nin; j++)
                if (dep[i * m->nin + j]) {
                    fprintf(f, "%s%u", first ? "" : " ", mb_fmu_vr(m, MB_FMU_U, j) + 1);
                    first = 0;
                }
        }
        fprintf(f, "\"/>\n");
    }
    free(dep);
    /* at initialization every output depends on the inputs and parameters (the assembly) */
    fprintf(f, "    </Outputs>\n    <InitialUnknowns>\n");
    for (int k = 0; k < nout_all; k++) fprintf(f, "      <Unknown index=\"%d\"/>\n", k + 1);
    fprintf(f, "    </InitialUnknowns>\n  </ModelStructure>\n</fmiModelDescription>\n");
    if (fflush(f) != 0 || ferror(f)) {
        fprintf(stderr, "mb_fmu_desc: cannot write modelDescription.xml\n");
        return 1;
    }
    return 0;
}
