/* mb_analysis_cli.c - the simulator's side of the analyses: velocity, acceleration and reaction
 * columns in every CSV, and --analysis static|quasistatic|kinematic|inverse|modal|frequency|
 * linearize, a function each (their options: the simulator's table, tools/mb_sim_options.c):
 * mode shapes as animation frames, the FRF's rows, the linearization's matrices.
 * Layer: host tool (tools/) on runtime/mb_analysis.h; allocates and prints.
 *
 * Reactions by element, from the multipliers lambda of M a + Phi_q^T lambda = Q (the constraint
 * force on the system is -Phi_q^T lambda) and the equations of generator/elements.lua, the
 * element found from its rows' names (element names hold no '.'):
 *  - revolute J, rows J.x, J.y: Phi = r_P(b1) - r_Q(b2), so the force on the second-named body
 *    b2 is +lambda: J.fx = lambda(J.x), J.fy = lambda(J.y) (global frame; -J.f on b1);
 *  - prismatic J, rows J.angle (phi_b1 - phi_b2 - angle) and J.perp (n . (r_Q - r_P), n the unit
 *    normal of the axis, fixed in b1): on b2 a force -lambda(J.perp) n at its point Q and a couple
 *    lambda(J.angle): J.fn = -lambda(J.perp) (along n = R(phi_b1) Omega axis), J.moment =
 *    lambda(J.angle) (N m, counter-clockwise);
 *  - driver D, row D (q_k - f(t), or phi_b2 - phi_b1 - f(t)): the force or torque it applies to
 *    its coordinate (or to b2) is D.effort = -lambda(D);
 *  - rod R, row R.dist ((d . d - L^2) / (2 L), d = r_Q - r_P): the force on its second end is
 *    -lambda d / L, along the rod towards the first end for lambda > 0: R.tension = lambda(R.dist)
 *    (N, positive in tension; exact when |d| = L);
 *  - cam C, row C.profile (the follower's point on the profile; its gradient in the follower is
 *    the profile's outward unit normal n): the force on the follower is -lambda n, and
 *    C.normal = -lambda(C.profile) (N, positive when the cam pushes the follower outward);
 *  - any other row R: R.lambda, the multiplier itself. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "mb_analysis.h"
#include "mb_analysis_cli.h"
#include "mb_info.h"
#include "mb_sim.h"
#if !MB_NO_LAPACKE
#include <lapacke.h>
#endif

const char *const mb_cli_analysis_names[MB_CLI_NANALYSES] = {"dynamic", "static", "kinematic",
    "inverse", "modal", "quasistatic", "frequency", "linearize"};

int mb_cli_analysis_parse(const char *s)
{
    for (int i = 0; i < MB_CLI_NANALYSES; i++) if (!strcmp(s, mb_cli_analysis_names[i])) return i;
    return -1;
}
const char *mb_cli_analysis_name(int a) { return a >= 0 && a < MB_CLI_NANALYSES ? mb_cli_analysis_names[a] : "?"; }

/* The analyses' own options of the run (mb_cli_run_analysis sets it). */
static const mb_cli_aopt *ao;

const char *mb_cli_analysis_check(int which, const mb_cli_aopt *o)
{
    if (which == MB_CLI_FREQUENCY && !o->input)
        return "frequency analysis needs a harmonic input: --input <body>.x, <body>.y (a force at "
               "the body's CoM), <body>.phi (a torque) or <body>.<point>.x|y (a force at a point); "
               "see docs/analyses.md";
    if (o->f_min > 0 && o->f_max > 0 && !(o->f_max > o->f_min))
        return "--f-max must be above --f-min";
    return NULL;
}

/* ------------------------------------------------------------------ reaction columns */

enum { EL_REV, EL_PRI, EL_DRV, EL_ROD, EL_CAM, EL_RAW };

static int ends_with(const char *s, const char *suf, size_t *plen)
{
    size_t ls = strlen(s), lf = strlen(suf);
    if (ls <= lf || strcmp(s + ls - lf, suf) != 0) return 0;
    *plen = ls - lf;
    return 1;
}

/* The element of row r (and how many rows it takes): kind, and the length of its name. */
static int element_at(const mb_model *m, int r, int *kind, size_t *len)
{
    const char *a = m->info->constraint_names ? m->info->constraint_names[r] : NULL;
    const char *b = r + 1 < m->nc && m->info->constraint_names ? m->info->constraint_names[r + 1] : NULL;
    size_t la, lb;
    if (!a) { *kind = EL_RAW; *len = 0; return 1; }
    if (b && ends_with(a, ".x", &la) && ends_with(b, ".y", &lb) && la == lb && !strncmp(a, b, la)) {
        *kind = EL_REV; *len = la; return 2;
    }
    if (b && ends_with(a, ".angle", &la) && ends_with(b, ".perp", &lb) && la == lb &&
        !strncmp(a, b, la)) {
        *kind = EL_PRI; *len = la; return 2;
    }
    if (ends_with(a, ".dist", &la) && !strchr(a + la + 1, '.') && !memchr(a, '.', la)) {
        *kind = EL_ROD; *len = la; return 1;
    }
    if (ends_with(a, ".profile", &la) && !strchr(a + la + 1, '.') && !memchr(a, '.', la)) {
        *kind = EL_CAM; *len = la; return 1;
    }
    *kind = strchr(a, '.') ? EL_RAW : EL_DRV;
    *len = strlen(a);
    return 1;
}

static void write_num(FILE *f, double x)
{
    if (x == 0) x = 0;    /* -0 (a reaction of a sign-flipped zero) reads as 0 */
    if (isfinite(x)) fprintf(f, ",%.15g", x);
    else fputc(',', f);   /* never NaN or Inf in a CSV: an empty field */
}

static void header_extra(FILE *f, const mb_model *m)
{
    static const char *const vs[3] = {"vx", "vy", "omega"}, *const as[3] = {"ax", "ay", "alpha"};
    for (int b = 0; b < m->nbody; b++)   /* a particle has no omega, alpha */
        for (int k = 0; k < mb_body_nq(m, b); k++) fprintf(f, ",%s.%s", m->info->body_names[b], vs[k]);
    for (int b = 0; b < m->nbody; b++)
        for (int k = 0; k < mb_body_nq(m, b); k++) fprintf(f, ",%s.%s", m->info->body_names[b], as[k]);
    for (int r = 0; r < m->nc;) {
        int kind;
        size_t len;
        int used = element_at(m, r, &kind, &len);
        const char *nm = m->info->constraint_names ? m->info->constraint_names[r] : "?";
        if (!m->info->constraint_names) { fprintf(f, ",row%d.lambda", r); r += used; continue; }
        switch (kind) {
        case EL_REV: fprintf(f, ",%.*s.fx,%.*s.fy", (int)len, nm, (int)len, nm); break;
        case EL_PRI: fprintf(f, ",%.*s.fn,%.*s.moment", (int)len, nm, (int)len, nm); break;
        case EL_DRV: fprintf(f, ",%s.effort", nm); break;
        case EL_ROD: fprintf(f, ",%.*s.tension", (int)len, nm); break;
        case EL_CAM: fprintf(f, ",%.*s.normal", (int)len, nm); break;
        default: fprintf(f, ",%s.lambda", nm); break;
        }
        r += used;
    }
}

/* v, acc (NULL: empty fields) and the reactions from lambda (NULL: empty). */
static void row_extra(FILE *f, const mb_model *m, const mb_real *v, const mb_real *acc,
                      const mb_real *lam)
{
    for (int i = 0; i < m->nq; i++) write_num(f, v ? (double)v[i] : (double)NAN);
    for (int i = 0; i < m->nq; i++) write_num(f, acc ? (double)acc[i] : (double)NAN);
    for (int r = 0; r < m->nc;) {
        int kind;
        size_t len;
        int used = element_at(m, r, &kind, &len);
        double l0 = lam ? (double)lam[r] : (double)NAN, l1 = lam && used > 1 ? (double)lam[r + 1] : (double)NAN;
        switch (kind) {
        case EL_REV: write_num(f, l0); write_num(f, l1); break;
        case EL_PRI: write_num(f, -l1); write_num(f, l0); break;
        case EL_DRV: write_num(f, -l0); break;
        case EL_ROD: write_num(f, l0); break;
        case EL_CAM: write_num(f, -l0); break;   /* the row's gradient in the follower is the outward normal */
        default: write_num(f, l0); break;
        }
        r += used;
    }
}

/* The dynamic run's reaction solver. */
static struct {
    mb_anl a;
    void *work;
    mb_real *acc, *lam;
    const char *prog;
    int warned;
} dyn;

int mb_cli_csv_open(const mb_model *m, const char *prog)
{
    size_t ws = mb_anl_workspace_size(m, MB_ANL_SPARSE);
    mb_cli_csv_close();
    dyn.prog = prog;
    dyn.warned = 0;
    if (!ws) return 0;   /* a model the reactions cannot use: empty columns */
    dyn.work = malloc(ws);
    dyn.acc = malloc(sizeof(mb_real) * (size_t)(m->nq + 1));
    dyn.lam = malloc(sizeof(mb_real) * (size_t)(m->nc + 1));
    if (!dyn.work || !dyn.acc || !dyn.lam) { mb_cli_csv_close(); return -1; }
    if (mb_anl_init(&dyn.a, m, NULL, MB_ANL_SPARSE, dyn.work, ws) != MB_OK) {
        free(dyn.work);
        dyn.work = NULL;
    }
    return 0;
}

void mb_cli_csv_close(void)
{
    free(dyn.work);
    free(dyn.acc);
    free(dyn.lam);
    dyn.work = NULL;
    dyn.acc = dyn.lam = NULL;
}

void mb_cli_csv_header(FILE *f, const mb_model *m) { header_extra(f, m); }

int mb_cli_multipliers(mb_real t, const mb_real *q, const mb_real *v, mb_real *lam, int nc)
{
    int st = dyn.work ? mb_anl_reactions(&dyn.a, t, q, v, dyn.acc, dyn.lam) : MB_ERR_MODEL;
    if (st == MB_OK) memcpy(lam, dyn.lam, sizeof(mb_real) * (size_t)nc);
    return st;
}

void mb_cli_csv_row(FILE *f, const mb_model *m, mb_real t, const mb_real *q, const mb_real *v)
{
    if (!v) {   /* velocities not known (an interpolated row without its evaluation) */
        row_extra(f, m, NULL, NULL, NULL);
        return;
    }
    int st = dyn.work ? mb_anl_reactions(&dyn.a, t, q, v, dyn.acc, dyn.lam) : MB_ERR_MODEL;
    if (st != MB_OK && !dyn.warned++) {
        fprintf(stderr, "%s_sim: warning: accelerations and reactions left empty from t=%.9g: ",
                dyn.prog ? dyn.prog : m->name, (double)t);
        if (st == MB_ERR_SINGULAR && dyn.a.singular_row >= 0 && m->info->constraint_names)
            fprintf(stderr, "Phi_q is rank-deficient at %s (a singular position or a redundant "
                    "joint: the multipliers are not unique)\n", m->info->constraint_names[dyn.a.singular_row]);
        else
            fprintf(stderr, "%s\n", st == MB_ERR_MODEL ? "the model has no gamma" : mb_status_str(st));
    }
    row_extra(f, m, v, st == MB_OK ? dyn.acc : NULL, st == MB_OK ? dyn.lam : NULL);
}

int mb_cli_csv_outputs(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *y)
{
    if (!m->doutputs_dlam) {
        m->outputs(m, t, q, v, y, NULL, NULL);
        return 1;
    }
    /* the same solve as the reaction columns (mb_cli_csv_row): the same numbers */
    return dyn.work && mb_anl_outputs(&dyn.a, t, q, v, dyn.lam, y, NULL, NULL, NULL) == MB_OK;
}

/* ------------------------------------------------------------------ redundant equations */

/* The element of constraint row r: its name's length up to the first '.', and a word for its
 * kind from the row names of generator/elements.lua. */
static size_t elem_len(const char *nm) { const char *d = strchr(nm, '.'); return d ? (size_t)(d - nm) : strlen(nm); }
static const char *elem_word(const char *nm)
{
    const char *d = strchr(nm, '.');
    if (!d) return "driver";
    if (!strcmp(d, ".dist")) return "rod";
    if (!strcmp(d, ".x") || !strcmp(d, ".y") || !strcmp(d, ".angle") || !strcmp(d, ".perp")) return "joint";
    if (!strcmp(d, ".mesh")) return "gear";
    if (!strcmp(d, ".travel")) return "rack";
    if (!strcmp(d, ".profile")) return "cam";
    return "element";
}
static int same_elem(const char *a, const char *b)
{
    size_t la = elem_len(a);
    return la == elem_len(b) && !strncmp(a, b, la);
}

/* a runner's answer for a usage error found only once the model is analysed (exit 2) */
#define MB_CLI_USAGE_ST 1000
#define RED_MAX_BYTES ((size_t)64 << 20)   /* the dense check's workspace limit */

/* mb_anl_redundant at (t, q) into dep[nc]: first on the sparse workspace (its proof that the
 * equations are independent costs about a factorization of S), then, only when that fails, on
 * the dense one (the pivoted QR names the dependent equations) if it fits in RED_MAX_BYTES.
 * Returns mb_anl_redundant's count, or -1 (not checked; *over the dense workspace's size when
 * that was over RED_MAX_BYTES, else 0); *work (to free) holds a's workspace. */
static int rank_check(const mb_model *m, mb_real t, const mb_real *q, mb_anl *a, void **work,
                      unsigned char *dep, size_t *over)
{
    int found = -1;
    *work = NULL;
    *over = 0;
    for (int level = MB_ANL_SPARSE; level <= MB_ANL_DENSE; level++) {
        size_t ws = mb_anl_workspace_size(m, level);
        free(*work);
        *work = NULL;
        if (ws > RED_MAX_BYTES) *over = ws;
        if (!ws || ws > RED_MAX_BYTES || !(*work = malloc(ws))) return -1;
        if (mb_anl_init(a, m, NULL, level, *work, ws) != MB_OK) return -1;
        found = mb_anl_redundant(a, t, q, dep);
        if (found != MB_ERR_WORKSPACE) break;
    }
    return found < 0 ? -1 : found;
}

/* mb_cli_redundant at `where` (the words after "rank r of nc equations at"); advice: the
 * mbgen advice of the start-up report (0 in an analysis, which says what it does with them). */
static int redundant_report(const mb_model *m, mb_real t, const mb_real *q, const char *prog,
                            unsigned char *dep_out, const char *where, int advice)
{
    int nc = m->nc, found = -1;
    if (nc == 0 || !m->info || !m->info->constraint_names) return 0;
    void *work = NULL;
    unsigned char *dep = malloc((size_t)nc), *uses = malloc((size_t)nc), *all = malloc((size_t)nc);
    mb_anl a;
    size_t over = 0;
    if (dep && uses && all) found = rank_check(m, t, q, &a, &work, dep, &over);
    if (over)   /* never a silent skip: say what was not checked and why */
        fprintf(stderr, "%s_sim: note: redundant constraints not checked at %s: the sparse proof of "
                "independence did not hold and the dense check would need %zu MB (limit %zu MB)\n",
                prog, where, over >> 20, RED_MAX_BYTES >> 20);
    if (found > 0 && dep_out) memcpy(dep_out, dep, (size_t)nc);
    if (found > 0) {
        const char *const *nm = m->info->constraint_names;
        /* one warning line per element (the tools' convention: every line of a warning says so) */
        for (int r = 0; r < nc;) {   /* one line per element with dependent rows */
            int e = r;
            while (e < nc && same_elem(nm[r], nm[e])) e++;
            int any = 0;
            for (int k = r; k < e; k++) any |= dep[k];
            if (!any) { r = e; continue; }
            fprintf(stderr, "%s_sim: warning: redundant constraint: %s \"%.*s\" (", prog, elem_word(nm[r]),
                    (int)elem_len(nm[r]), nm[r]);
            memset(all, 0, (size_t)nc);
            for (int k = r, first = 1; k < e; k++) {
                if (!dep[k]) continue;
                fprintf(stderr, "%s%s", first ? "" : ", ", nm[k]);
                first = 0;
                if (mb_anl_redundant_support(&a, k, uses) == MB_OK)
                    for (int i = 0; i < nc; i++) all[i] |= uses[i];
            }
            int nby = 0, last = -1;
            for (int i = 0; i < nc; i++)   /* the other elements, each once */
                if (all[i] && !same_elem(nm[i], nm[r])) {
                    int seen = 0;
                    for (int j = 0; j < i; j++) seen |= all[j] && same_elem(nm[j], nm[i]);
                    if (!seen) { nby++; last = i; }
                }
            fprintf(stderr, ") %s", nby == 0 ? "is dependent on its own equations" : nby == 1 ? "duplicates" : "is implied by");
            for (int i = 0, k = 0; i < nc; i++) {
                if (!all[i] || same_elem(nm[i], nm[r])) continue;
                int seen = 0;
                for (int j = 0; j < i; j++) seen |= all[j] && same_elem(nm[j], nm[i]);
                if (seen) continue;
                fprintf(stderr, "%s%s \"%.*s\"", k == 0 ? " " : i == last ? " and " : ", ",
                        elem_word(nm[i]), (int)elem_len(nm[i]), nm[i]);
                k++;
            }
            /* the rank here cannot tell a redundancy from a singular position (a rank loss at
             * this configuration only): mbgen's check near it can (generator/redundant.lua) */
            fprintf(stderr, " (rank %d of %d equations at %s%s)\n", a.rank, nc, where,
                    advice ? "; mbgen --redundant remove generates the model without them, unless "
                             "mbgen --check finds a singular position instead" : "");
            r = e;
        }
    }
    free(work);
    free(dep);
    free(uses);
    free(all);
    return found < 0 ? -1 : found;
}

int mb_cli_redundant(const mb_model *m, mb_real t, const mb_real *q, const char *prog, unsigned char *dep_out)
{
    return redundant_report(m, t, q, prog, dep_out, "the assembled initial configuration", 1);
}

/* The first dependent constraint equation of Phi_q(t, q), -1 when none (or not checked): what
 * a failed static or quasistatic analysis names, as kinematic does. */
static int first_dependent(const mb_model *m, mb_real t, const mb_real *q)
{
    int nc = m->nc, row = -1;
    if (nc == 0 || !m->info || !m->info->constraint_names) return -1;
    void *work = NULL;
    unsigned char *dep = malloc((size_t)nc);
    mb_anl a;
    size_t over;   /* (a failure's message says what failed; the check only adds a name) */
    if (dep && rank_check(m, t, q, &a, &work, dep, &over) > 0)
        for (int k = 0; k < nc && row < 0; k++)
            if (dep[k]) row = k;
    free(work);
    free(dep);
    return row;
}

/* Redundant constraints found by an analysis (rank < nc at its state): named by element, then
 * what their reactions are. where: "the equilibrium", ... */
static void analysis_redundant(const mb_model *m, mb_real t, const mb_real *q, int rank, const char *where)
{
    if (redundant_report(m, t, q, m->name, NULL, where, 0) <= 0)   /* not named: the rank alone */
        fprintf(stderr, "%s_sim: warning: Phi_q has rank %d < %d constraint equations at %s "
                "(redundant constraints)\n", m->name, rank, m->nc, where);
    fprintf(stderr, "%s_sim: warning: the reactions of redundant constraints are not unique: the "
            "dependent equations' are reported as 0\n", m->name);
}

/* ------------------------------------------------------------------ the analyses */

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One full CSV row: t, q, the four monitors, the points, then the extra columns, the inputs as
 * the model sees them at t and the sensors (as the dynamic CSV's in.*, out.*; a sensor of a
 * reaction reads the row's multipliers lam, the sensors are empty without v, or without lam
 * where they read reactions). pts [2 npoint + nout]: scratch for the points, then the sensors.
 * A row with a non-finite t, coordinate, monitor, point or sensor is not written (returns 1). */
static int full_row_tail(FILE *f, const mb_model *m, double t, const mb_real *q, const double mon[4],
                         mb_real *pts, const mb_real *v, const mb_real *acc, const mb_real *lam,
                         const char *tail)
{
    mb_real *y = pts + 2 * m->npoint;
    int have_y = m->nout > 0 && v && (!m->doutputs_dlam || lam);
    if (m->points) m->points(m, (mb_real)t, q, pts);
    if (have_y) {
        mb_model ml = *m;   /* a copy that reads the row's multipliers */
        if (m->doutputs_dlam) ml.lam = lam;
        ml.outputs(&ml, (mb_real)t, q, v, y, NULL, NULL);
    }
    int bad = !isfinite(t);
    for (int i = 0; i < m->nq; i++) bad |= !isfinite((double)q[i]);
    for (int i = 0; i < 4; i++) bad |= !isfinite(mon[i]);
    for (int i = 0; m->points && i < 2 * m->npoint; i++) bad |= !isfinite((double)pts[i]);
    for (int i = 0; have_y && i < m->nout; i++) bad |= !isfinite((double)y[i]);
    if (bad) return 1;
    fprintf(f, "%.15g", t);
    for (int i = 0; i < m->nq; i++) fprintf(f, ",%.15g", (double)q[i]);
    fprintf(f, ",%.6e,%.6e,%.6e,%.6e", mon[0], mon[1], mon[2], mon[3]);
    if (m->points)
        for (int i = 0; i < 2 * m->npoint; i++) fprintf(f, ",%.15g", (double)pts[i]);
    row_extra(f, m, v, acc, lam);
    for (int i = 0; i < m->nin; i++)
        fprintf(f, ",%.15g", (double)(m->in[3 * i] + m->in[3 * i + 1] * ((mb_real)t - m->in[3 * i + 2])));
    for (int i = 0; i < m->nout; i++) {
        if (have_y) fprintf(f, ",%.15g", (double)y[i]);
        else fputc(',', f);
    }
    if (tail) fputs(tail, f);
    fputc('\n', f);
    return 0;
}
static int full_row(FILE *f, const mb_model *m, double t, const mb_real *q, const double mon[4],
                    mb_real *pts, const mb_real *v, const mb_real *acc, const mb_real *lam)
{
    return full_row_tail(f, m, t, q, mon, pts, v, acc, lam, NULL);
}

static void full_header_tail(FILE *f, const mb_model *m, const char *tail)
{
    fprintf(f, "t");
    for (int i = 0; i < m->nq; i++) fprintf(f, ",%s", m->info->coord_names[i]);
    fprintf(f, ",energy_dev,phi_norm,phid_norm,sigma_norm");
    if (m->points)
        for (int i = 0; i < m->npoint; i++)
            fprintf(f, ",%s.x,%s.y", m->info->point_names[i], m->info->point_names[i]);
    header_extra(f, m);
    for (int i = 0; i < m->nin; i++) fprintf(f, ",in.%s", m->in_names[i]);
    for (int i = 0; i < m->nout; i++) fprintf(f, ",out.%s", m->out_names[i]);
    if (tail) fputs(tail, f);
    fputc('\n', f);
}
static void full_header(FILE *f, const mb_model *m) { full_header_tail(f, m, NULL); }

/* |Phi|_2 and |Phi_q v + Phi_t|_2 at (t, q, v), with scratch from the caller. */
static void norms(const mb_model *m, double t, const mb_real *q, const mb_real *v, mb_real *ph,
                  mb_real *pq, double *pn, double *pdn)
{
    double s = 0, sd = 0;
    m->phi(m, (mb_real)t, q, ph);
    for (int r = 0; r < m->nc; r++) s += (double)ph[r] * (double)ph[r];
    m->phi_t(m, (mb_real)t, q, ph);
    m->phi_q(m, (mb_real)t, q, pq);
    for (int k = 0; k < m->phi_q_pat.nnz; k++)
        ph[m->phi_q_pat.row[k]] += pq[k] * v[m->phi_q_pat.col[k]];
    for (int r = 0; r < m->nc; r++) sd += (double)ph[r] * (double)ph[r];
    *pn = sqrt(s);
    *pdn = sqrt(sd);
}

static const char *stability_name(int s) { return s > 0 ? "stable" : s == 0 ? "neutral" : "unstable"; }

/* Everything an analysis run allocates. */
typedef struct {
    mb_anl a;
    void *work;
    mb_real *q, *v, *acc, *lam, *pts, *ph, *pq;
    FILE *csv;
} run_mem;

static void run_free(run_mem *r)
{
    free(r->work); free(r->q); free(r->v); free(r->acc); free(r->lam); free(r->pts);
    free(r->ph); free(r->pq);
}

/* The failure of a static analysis (t >= 0: the time of a quasistatic step), on stderr. */
static void static_failure(const mb_model *m, const char *an, int about_init,
                           const mb_anl_static_info *info, int st, double t, const mb_real *q)
{
    /* at a rank loss (a singular position, redundant constraints) the equation is named, as the
     * kinematic analysis names it */
    int row = q ? first_dependent(m, (mb_real)(t >= 0 ? t : 0), q) : -1;
    if (row >= 0) {
        fprintf(stderr, "%s_sim: %s analysis failed", m->name, an);
        if (t >= 0) fprintf(stderr, " at t=%.9g", t);
        fprintf(stderr, ": redundant or singular constraint: %s (equation %d of Phi): Phi_q is "
                "rank-deficient (a singular position, or more constraint equations than "
                "coordinates)\n", m->info->constraint_names[row], row);
    }
    fprintf(stderr, "%s_sim: %s analysis failed", m->name, an);
    if (t >= 0) fprintf(stderr, " at t=%.9g", t);
    fprintf(stderr, row >= 0 ? " (the solver's words): " : ": ");
    if (about_init)
        fprintf(stderr, "the initial state cannot be assembled (%s)\n", mb_status_str(st));
    else if (info->why == MB_ANL_WHY_MAXITER)
        fprintf(stderr, "no equilibrium found in %d iterations: the loads keep doing work "
                "(unbalanced load |Z^T Q| = %.3g of |M^-1/2 Q|, %d degrees of freedom); the "
                "mechanism has no static equilibrium reachable from the model's guesses\n",
                info->iters, (double)info->residual, info->dof);
    else if (info->why == MB_ANL_WHY_STALLED)
        fprintf(stderr, "the line search found no step that lowers the energy after %d "
                "iterations (unbalanced load %.3g of |M^-1/2 Q|)\n", info->iters,
                (double)info->residual);
    else if (info->why == MB_ANL_WHY_PROJECT)
        fprintf(stderr, "the constraints cannot be satisfied from the model's guesses (%s)\n",
                mb_status_str(st));
    else
        fprintf(stderr, "%s\n", mb_status_str(st));
}

/* --about initial: the model's initial state assembled (projected onto Phi = 0) and linearized
 * with the least-squares multipliers; info as a static analysis reports it (0 iterations). */
static int initial_state(mb_anl *a, mb_real *q, mb_real *lam, mb_anl_static_info *info)
{
    int d = 0, st;
    memset(info, 0, sizeof *info);
    if ((st = mb_anl_displace(a, 0, a->m->q0, NULL, q))) return st;
    if ((st = mb_anl_linearize(a, 0, q, NULL, &d))) return st;
    memcpy(lam, a->wm[0], sizeof(mb_real) * (size_t)a->nc);   /* the least-squares multipliers */
    info->dof = d;
    info->rank = a->rank;
    info->residual = a->residual;
    info->eig_min = d > 0 ? a->ev[0] : 0;
    info->eig_max = d > 0 ? a->ev[d - 1] : 0;
    mb_real sc = fabs((double)info->eig_min) > fabs((double)info->eig_max) ? fabs((double)info->eig_min)
                                                                        : fabs((double)info->eig_max);
    mb_real etol = 100 * MB_EPS * sc;   /* as mb_anl_static */
    info->stability = d == 0 || info->eig_min > etol ? 1 : info->eig_min >= -etol ? 0 : -1;
    return MB_OK;
}

#if !MB_NO_LAPACKE
/* Modal analysis: the damped eigenproblem of the reduced linearization (Z^T M Z = I)
 * z'' + Cr z' + Kr z = 0 as the first-order system [0 I; -Kr -Cr], by LAPACKE dgeev with its
 * right eigenvectors. One mode per complex pair or real root, sorted by frequency; shape[2d]:
 * the displacement part of the eigenvector (re, then im). Returns the number of modes or -1. */
typedef struct { double f, z, re, im; double *shape; } mode_t_;
static int cmp_mode(const void *x, const void *y)
{
    const mode_t_ *a = x, *b = y;
    if (a->f != b->f) return a->f < b->f ? -1 : 1;
    return a->re < b->re ? -1 : a->re > b->re;
}
static int modal_modes(const mb_anl *a, mode_t_ **out, double **shapes)
{
    int d = a->dof, n2 = 2 * d;
    *out = NULL;
    *shapes = NULL;
    if (d == 0) return 0;
    double *A = calloc((size_t)n2 * (size_t)n2, sizeof *A), *wr = malloc(sizeof *wr * (size_t)n2),
           *wi = malloc(sizeof *wi * (size_t)n2), *vr = malloc(sizeof *vr * (size_t)n2 * (size_t)n2),
           *sh = malloc(sizeof *sh * (size_t)n2 * (size_t)n2);
    mode_t_ *md = malloc(sizeof *md * (size_t)n2);
    int nm = -1;
    if (!A || !wr || !wi || !vr || !sh || !md) goto done;
    for (int i = 0; i < d; i++) A[i + (size_t)(d + i) * n2] = 1;   /* column-major */
    for (int j = 0; j < d; j++)
        for (int i = 0; i < d; i++) {
            A[d + i + (size_t)j * n2] = -(double)a->Kr[i + (long)j * d];
            A[d + i + (size_t)(d + j) * n2] = -(double)a->Cr[i + (long)j * d];
        }
    /* the eigenvalues' scale: max(sqrt |Kr|, |Cr|); a root below ZERO_ROOT of it is a zero root
     * (no stiffness, no damping: a free body's rotation), whose double root [0 1; 0 0] dgeev
     * returns only to sqrt(eps) of that scale, with a sign that would read as growing */
    double kmax = 0, cmax = 0;
    for (long k = 0; k < (long)d * d; k++) {
        if (fabs((double)a->Kr[k]) > kmax) kmax = fabs((double)a->Kr[k]);
        if (fabs((double)a->Cr[k]) > cmax) cmax = fabs((double)a->Cr[k]);
    }
    double zero_root = 1e-6 * (sqrt(kmax) > cmax ? sqrt(kmax) : cmax);
    if (LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'V', n2, A, n2, wr, wi, NULL, 1, vr, n2) != 0) goto done;
    nm = 0;
    for (int i = 0; i < n2; i++) {
        if (wi[i] < 0) continue;   /* one of each conjugate pair (its vector: columns i, i + 1) */
        if (!(hypot(wr[i], wi[i]) > zero_root)) wr[i] = wi[i] = 0;
        double mag = hypot(wr[i], wi[i]);
        md[nm].re = wr[i];
        md[nm].im = wi[i];
        md[nm].f = mag / (2 * 3.14159265358979323846);   /* undamped natural frequency */
        md[nm].z = mag > 0 ? -wr[i] / mag : 0;   /* a zero root: neutral, neither decays nor grows */
        /* below 1e-12: the eigen solver's rounding of an undamped mode; printed as 0 (no "-0") */
        if (fabs(md[nm].z) < 1e-12) md[nm].z = 0;
        md[nm].shape = sh + (size_t)nm * n2;
        for (int k = 0; k < d; k++) {
            md[nm].shape[k] = vr[k + (size_t)i * n2];
            md[nm].shape[d + k] = wi[i] > 0 ? vr[k + (size_t)(i + 1) * n2] : 0;
        }
        nm++;
    }
    qsort(md, (size_t)nm, sizeof *md, cmp_mode);
done:
    free(A); free(wr); free(wi); free(vr);
    if (nm < 0) { free(sh); free(md); md = NULL; sh = NULL; }
    *out = md;
    *shapes = sh;
    return nm;
}
#endif

/* Mode shapes in the CSV: per mode k (1, 2, ... by frequency) ao->frames rows at the phases
 * theta_j = 2 pi j / frames, t = k - 1 + j / frames: q = q_eq + s Re(x e^(i theta)) put back onto
 * Phi = 0, x = Z (shape) with its largest component made real, s such that the largest
 * excursion is 0.1 model lengths or 0.2 rad; v = s Re(lambda x e^(i theta)) (lambda the
 * eigenvalue); accelerations and reactions empty; then the columns mode, freq_hz,
 * damping_ratio, phase (theta / 2 pi). Returns 0, or MB_ERR_* (out of memory). */
#if !MB_NO_LAPACKE
static int mode_frames(run_mem *r, const mb_model *m, const void *mdv, int nm, int *rows,
                       int *skipped, int *unprojected)
{
    const mode_t_ *md = mdv;
    int n = m->nq, d = r->a.dof, F = ao->frames;
    double *xr = malloc(sizeof *xr * (size_t)n), *xi = malloc(sizeof *xi * (size_t)n);
    mb_real *col = malloc(sizeof *col * (size_t)n), *dq = malloc(sizeof *dq * (size_t)n),
            *qf = malloc(sizeof *qf * (size_t)n), *vf = malloc(sizeof *vf * (size_t)n);
    int st = MB_OK;
    if (!xr || !xi || !col || !dq || !qf || !vf) { st = MB_ERR_WORKSPACE; goto done; }
    full_header_tail(r->csv, m, ",mode,freq_hz,damping_ratio,phase");
    for (int k = 0; k < nm; k++) {
        for (int i = 0; i < n; i++) xr[i] = xi[i] = 0;
        for (int j = 0; j < d; j++) {
            mb_anl_mode_vector(&r->a, j, col);
            for (int i = 0; i < n; i++) {
                xr[i] += (double)col[i] * md[k].shape[j];
                xi[i] += (double)col[i] * md[k].shape[d + j];
            }
        }
        /* the largest excursion relative to its limit: made real and scaled to 1 */
        double best = 0, cr = 1, ci = 0;
        for (int i = 0; i < n; i++) {
            size_t l = strlen(m->info->coord_names[i]);
            double lim = l > 4 && !strcmp(m->info->coord_names[i] + l - 4, ".phi") ? 0.2
                                                                             : 0.1 * (double)r->a.lscale;
            double a2 = (xr[i] * xr[i] + xi[i] * xi[i]) / (lim * lim);
            if (a2 > best) { best = a2; cr = xr[i]; ci = xi[i]; }
        }
        double cm = hypot(cr, ci), sc = best > 0 ? 1 / sqrt(best) : 0;
        if (cm > 0) {   /* x <- x conj(c) / |c| */
            for (int i = 0; i < n; i++) {
                double a = xr[i], b = xi[i];
                xr[i] = (a * cr + b * ci) / cm;
                xi[i] = (b * cr - a * ci) / cm;
            }
        }
        for (int j = 0; j < F; j++) {
            double th = 2 * 3.14159265358979323846 * j / F, c = cos(th), s = sin(th);
            for (int i = 0; i < n; i++) {
                dq[i] = (mb_real)(sc * (xr[i] * c - xi[i] * s));
                double lr = md[k].re * xr[i] - md[k].im * xi[i], li = md[k].re * xi[i] + md[k].im * xr[i];
                vf[i] = (mb_real)(sc * (lr * c - li * s));
            }
            if (mb_anl_displace(&r->a, 0, r->q, dq, qf) != MB_OK) {
                for (int i = 0; i < n; i++) qf[i] = r->q[i] + dq[i];   /* the linear shape as is */
                (*unprojected)++;
            }
            double pn, pdn, t = k + (double)j / F;
            norms(m, 0, qf, vf, r->ph, r->pq, &pn, &pdn);
            double mon[4] = {0, pn, pdn, 0};
            char tail[128];
            snprintf(tail, sizeof tail, ",%d,%.9g,%.9g,%.6g", k + 1, md[k].f, md[k].z, (double)j / F);
            *skipped += full_row_tail(r->csv, m, t, qf, mon, r->pts, vf, NULL, NULL, tail);
            (*rows)++;
        }
    }
done:
    free(xr); free(xi); free(col); free(dq); free(qf); free(vf);
    return st;
}
#endif

/* --analysis modal after the equilibrium (or the initial state) in r->q, r->lam. */
static int run_modal(run_mem *r, const mb_model *m, const mb_anl_static_info *info, char *extra,
                     size_t left, int *rows, int *skipped)
{
#if !MB_NO_LAPACKE
    int d = 0, st = mb_anl_linearize(&r->a, 0, r->q, r->lam, &d), unproj = 0;
    mode_t_ *md = NULL;
    double *shapes = NULL;
    int nm = st == MB_OK ? modal_modes(&r->a, &md, &shapes) : -1;
    if (nm < 0) {
        fprintf(stderr, "%s_sim: modal analysis failed: %s\n", m->name,
                st ? mb_status_str(st) : "the eigenvalue solver (LAPACKE dgeev) failed");
        return st ? st : MB_ERR_NONFINITE;
    }
    int growing = 0;
    for (int k = 0; k < nm; k++) growing += md[k].re > 0 && md[k].z < 0;
    if (info->stability < 0 || growing)
        fprintf(stderr, "%s_sim: warning: modal analysis about an unstable %s: %d mode%s grow%s "
                "(damping_ratio -1: a real root s > 0, the motion grows as e^(s t), s = 2 pi "
                "freq_hz)\n", m->name, ao->about_initial ? "state" : "equilibrium", growing,
                growing == 1 ? "" : "s", growing == 1 ? "s" : "");
    for (int k = 0; k < nm; k++)
        printf("mode=%d freq_hz=%.9g damping_ratio=%.9g\n", k + 1, md[k].f, md[k].z);
    if (nm == 0)   /* d = 0: nothing moves (the CSV holds the header only) */
        fprintf(stderr, "%s_sim: note: no modes: the mechanism has 0 degrees of freedom (its "
                "constraints and drivers fix every coordinate: dof=0)\n", m->name);
    st = MB_OK;
    if (r->csv) st = mode_frames(r, m, md, nm, rows, skipped, &unproj);
    if (st) fprintf(stderr, "%s_sim: out of memory\n", m->name);
    if (unproj)
        fprintf(stderr, "%s_sim: warning: %d mode-shape frames could not be put back onto the "
                "constraints (written as the linear shape)\n", m->name, unproj);
    snprintf(extra, left, " modes=%d growing=%d", nm, growing);
    free(md);
    free(shapes);
    return st;
#else
    (void)r; (void)info; (void)extra; (void)left; (void)rows; (void)skipped;
    fprintf(stderr, "%s_sim: modal analysis needs LAPACKE (built with MB_NO_LAPACKE)\n", m->name);
    return MB_ERR_PARAM;
#endif
}

/* The generalized-force (or output) vector of a name: a coordinate "<body>.x|y|phi" (a force
 * at the CoM or a torque; the coordinate itself), or a point "<body>.<point>.x|y" (a force at
 * the point; its displacement, linearized: the rigid-body lever arm at q). 0, or -1 with why. */
static int named_vector(const mb_model *m, const mb_real *q, mb_real *pts, const char *name,
                        double *vec, const char **why)
{
    int n = m->nq;
    for (int i = 0; i < n; i++) vec[i] = 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(name, m->info->coord_names[i])) { vec[i] = 1; return 0; }
    size_t l = strlen(name);
    if (l > 2 && m->points && (!strcmp(name + l - 2, ".x") || !strcmp(name + l - 2, ".y"))) {
        for (int p = 0; p < m->npoint; p++) {
            if (strlen(m->info->point_names[p]) != l - 2 || strncmp(m->info->point_names[p], name, l - 2)) continue;
            int b = m->point_body[p];
            if (b < 0 || 3 * b + 2 >= n) { *why = "a ground point does not move"; return -1; }
            m->points(m, 0, q, pts);
            double rx = (double)pts[2 * p] - (double)q[3 * b], ry = (double)pts[2 * p + 1] - (double)q[3 * b + 1];
            double ux = name[l - 1] == 'x', uy = 1 - ux;
            vec[3 * b] = ux;
            vec[3 * b + 1] = uy;
            vec[3 * b + 2] = rx * uy - ry * ux;
            return 0;
        }
    }
    *why = "not a coordinate (<body>.x, <body>.y, <body>.phi) or a moving point (<body>.<point>.x or .y) of the model";
    return -1;
}

/* --input / --response checked by name before any solve: NULL if the model has it, else why
 * (printed with every name the model has, as mb_anim --trace lists its points). */
static const char *vector_name_why(const mb_model *m, const char *name)
{
    for (int i = 0; i < m->nq; i++)
        if (!strcmp(name, m->info->coord_names[i])) return NULL;
    size_t l = strlen(name);
    if (l > 2 && m->points && (!strcmp(name + l - 2, ".x") || !strcmp(name + l - 2, ".y")))
        for (int p = 0; p < m->npoint; p++)
            if (strlen(m->info->point_names[p]) == l - 2 && !strncmp(m->info->point_names[p], name, l - 2))
                return m->point_body[p] < 0 || 3 * m->point_body[p] + 2 >= m->nq ? "a ground point does not move" : NULL;
    return "no such coordinate or moving point";
}

static void list_vector_names(const mb_model *m)
{
    fprintf(stderr, "; the coordinates are:");
    for (int i = 0; i < m->nq; i++) fprintf(stderr, "%s %s", i ? "," : "", m->info->coord_names[i]);
    int any = 0;
    for (int p = 0; m->points && p < m->npoint; p++)
        if (m->point_body[p] >= 0 && 3 * m->point_body[p] + 2 < m->nq)
            fprintf(stderr, "%s %s", any++ ? "," : "; the moving points (add .x or .y):", m->info->point_names[p]);
}

/* --analysis frequency after the equilibrium: the FRF response/input at ao->f_points
 * frequencies, log-spaced from f_min to f_max (default: a decade below the lowest and above the
 * highest undamped natural frequency), all computed before the CSV is written. */
#define TWO_PI (2 * 3.14159265358979323846)

/* The sweep's range [*f0, *f1] in Hz: --f-min, --f-max, else a decade below the lowest and above
 * the highest natural frequency of the d modes. MB_OK, or after saying why MB_CLI_USAGE_ST (one
 * bound on the wrong side of the other's default) or MB_ERR_PARAM (nothing to choose from). */
static int frf_range(const run_mem *r, const mb_model *m, int d, double *f0p, double *f1p)
{
    double f0 = ao->f_min, f1 = ao->f_max, wlo = 0, whi = 0;
    for (int i = 0; i < d; i++)
        if (r->a.ev[i] > 0) {
            double w = sqrt((double)r->a.ev[i]);
            if (wlo == 0 || w < wlo) wlo = w;
            if (w > whi) whi = w;
        }
    if (!(f0 > 0)) f0 = wlo > 0 ? wlo / TWO_PI / 10 : 0;
    if (!(f1 > 0)) f1 = whi > 0 ? whi / TWO_PI * 10 : 0;
    *f0p = f0;
    *f1p = f1;
    if (f0 > 0 && f1 > 0 && !(f1 > f0)) {
        /* one bound given, the other's default (from the natural frequencies) on its wrong side:
         * a usage error (exit 2), before the sweep; both given the wrong way round are refused
         * with the options (mb_cli_analysis_check) */
        int min_given = ao->f_min > 0;
        fprintf(stderr, "%s_sim: invalid value '%.9g' for %s: the range is empty: %s %.9g Hz is %s "
                "the default %s %.9g Hz (a decade %s the %s natural frequency, %.9g Hz); give %s "
                "too\n", m->name, min_given ? f0 : f1, min_given ? "--f-min" : "--f-max",
                min_given ? "--f-min" : "--f-max", min_given ? f0 : f1,
                min_given ? "not below" : "not above", min_given ? "--f-max" : "--f-min",
                min_given ? f1 : f0, min_given ? "above" : "below", min_given ? "highest" : "lowest",
                (min_given ? whi : wlo) / TWO_PI, min_given ? "--f-max" : "--f-min");
        return MB_CLI_USAGE_ST;
    }
    if (!(f0 > 0) || !(f1 > f0)) {
        fprintf(stderr, "%s_sim: frequency analysis: no positive natural frequency to choose the "
                "range from (%d degrees of freedom); give --f-min and --f-max (f_min %.6g, f_max "
                "%.6g Hz)\n", m->name, d, f0, f1);
        return MB_ERR_PARAM;
    }
    return MB_OK;
}

/* The FRF's CSV: H[3 k ..] = f, re, im per frequency (NaN: no steady state, empty fields); the
 * phase of x = Re(H e^(i w t)) against the force cos(w t), in degrees, unwrapped from the first
 * frequency; a real negative response lags: -180. */
static void frf_csv(FILE *csv, const double *H, int np, int *rows)
{
    double prev_ph = 0;
    int have_prev = 0;
    fprintf(csv, "freq_hz,omega,re,im,magnitude,phase_deg\n");
    for (int k = 0; k < np; k++) {
        double f = H[3 * k], re = H[3 * k + 1], im = H[3 * k + 2];
        fprintf(csv, "%.15g,%.15g", f, TWO_PI * f);
        if (!isfinite(re) || !isfinite(im)) { fprintf(csv, ",,,,\n"); continue; }
        double ph = atan2(im == 0 ? -0.0 : im, re) * 180 / 3.14159265358979323846;
        if (have_prev) {
            while (ph - prev_ph > 180) ph -= 360;
            while (ph - prev_ph < -180) ph += 360;
        }
        prev_ph = ph;
        have_prev = 1;
        fprintf(csv, ",%.15g,%.15g,%.15g,%.15g\n", re, im, hypot(re, im), ph);
        (*rows)++;
    }
}

static int run_frequency(run_mem *r, const mb_model *m, char *extra, size_t left, int *rows)
{
    int n = m->nq, d = 0, np = ao->f_points, st, singular = 0;
    const char *why = "";
    st = mb_anl_linearize(&r->a, 0, r->q, r->lam, &d);
    if (st) { fprintf(stderr, "%s_sim: frequency analysis failed: %s\n", m->name, mb_status_str(st)); return st; }
    const char *resp = ao->response ? ao->response : ao->input;
    double *fin = malloc(sizeof *fin * (size_t)n), *gout = malloc(sizeof *gout * (size_t)n),
           *H = malloc(sizeof *H * (size_t)np * 3);
    mb_real *fv = malloc(sizeof *fv * (size_t)n), *xr = malloc(sizeof *xr * (size_t)n),
            *xi = malloc(sizeof *xi * (size_t)n);
    if (!fin || !gout || !H || !fv || !xr || !xi) {
        fprintf(stderr, "%s_sim: out of memory\n", m->name);
        st = MB_ERR_WORKSPACE;
        goto done;
    }
    int bad_in = named_vector(m, r->q, r->pts, ao->input, fin, &why);
    if (bad_in || named_vector(m, r->q, r->pts, resp, gout, &why)) {
        fprintf(stderr, "%s_sim: invalid value '%s' for %s: %s\n", m->name, bad_in ? ao->input : resp,
                bad_in ? "--input" : "--response", why);
        st = MB_ERR_PARAM;
        goto done;
    }
    double f0, f1;
    if ((st = frf_range(r, m, d, &f0, &f1))) goto done;
    for (int i = 0; i < n; i++) fv[i] = (mb_real)fin[i];
    double peak = -1, peak_f = 0;
    for (int k = 0; k < np; k++) {
        double f = f0 * pow(f1 / f0, (double)k / (np - 1));
        H[3 * k] = f;
        st = mb_anl_frf(&r->a, (mb_real)(TWO_PI * f), fv, xr, xi);
        if (st == MB_ERR_SINGULAR) {   /* exactly at an undamped resonance: no steady state */
            H[3 * k + 1] = H[3 * k + 2] = NAN;
            singular++;
            continue;
        }
        if (st) {
            fprintf(stderr, "%s_sim: frequency analysis failed at %.9g Hz: %s\n", m->name, f, mb_status_str(st));
            goto done;
        }
        double re = 0, im = 0;
        for (int i = 0; i < n; i++) { re += gout[i] * (double)xr[i]; im += gout[i] * (double)xi[i]; }
        H[3 * k + 1] = re;
        H[3 * k + 2] = im;
        double mag = hypot(re, im);
        if (mag > peak) { peak = mag; peak_f = f; }
    }
    if (singular)
        fprintf(stderr, "%s_sim: warning: %d frequenc%s at an undamped natural frequency (no "
                "steady state): empty fields\n", m->name, singular, singular == 1 ? "y" : "ies");
    if (r->csv) frf_csv(r->csv, H, np, rows);
    snprintf(extra, left, " input=%s response=%s points=%d f_min=%.9g f_max=%.9g peak_freq_hz=%.9g "
             "peak_magnitude=%.9g resonant_points=%d", ao->input, resp, np, f0, f1, peak_f, peak,
             singular);
    st = MB_OK;
done:
    free(fin); free(gout); free(H); free(fv); free(xr); free(xi);
    return st;
}

/* ------------------------------------------------------------------ linearize */

/* The state a simulation from the assembled initial state reaches at T (T = 0: the assembled
 * initial state itself): baumgarte with dopri5 at rtol 1e-12 (the trajectory to about 1e-10),
 * on m's holds. MB_OK or the failure. */
static int lin_sim_state(const mb_model *m, double T, mb_real *q, mb_real *v)
{
    mb_params p;
    mb_sim_storage s_mem;
    mb_sim *s = mb_sim_of(&s_mem);
    mb_params_default(&p, MB_BAUMGARTE);
    p.integrator = MB_DOPRI5;
    p.rtol = (mb_real)1e-12;
    p.atol = (mb_real)1e-14;
    p.project_velocity = 1;
    size_t ws = mb_sim_workspace_size(m, &p);
    void *work = ws ? malloc(ws) : NULL;
    int st = work ? mb_sim_init(s, m, &p, work, ws) : MB_ERR_WORKSPACE;
    if (!st) st = mb_sim_reset(s, 0, NULL, NULL, 1);
    while (!st && (double)mb_sim_get_t(s) < T) {
        st = mb_sim_step(s, (mb_real)T);
        if (st > 0) st = MB_OK;   /* an event: the step was taken */
    }
    if (!st) {
        memcpy(q, mb_sim_get_q(s), sizeof(mb_real) * (size_t)m->nq);
        memcpy(v, mb_sim_get_v(s), sizeof(mb_real) * (size_t)m->nq);
    }
    free(work);
    return st;
}

/* A matrix (row-major, r x c) as an Octave text file that NumPy's loadtxt also reads (the
 * header lines are comments to it): "<base>_<name>.txt". 0 or -1 (errno). */
static int lin_write_txt(const char *base, const char *name, const char *what, const mb_real *a,
                         int r, int c)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s_%s.txt", base, name) >= (int)sizeof path) { errno = ENAMETOOLONG; return -1; }
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "# %s\n# name: %s\n# type: matrix\n# rows: %d\n# columns: %d\n", what, name, r, c);
    for (int i = 0; i < r; i++) {
        for (int j = 0; j < c; j++) fprintf(f, " %.17g", (double)a[(long)i * c + j]);
        fputc('\n', f);
    }
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    return bad ? -1 : 0;
}

/* A name written at *np (room checked by the caller: 80 bytes each), *np moved past it. */
static char *lin_name(char **np, const char *fmt, const char *s)
{
    char *r = *np;
    int k = snprintf(r, 80, fmt, s);
    *np += (k < 80 ? k : 79) + 1;
    return r;
}

/* One block of the CSV: "block,row,<column names>", then a row per matrix row. */
static void lin_csv_block(FILE *f, const char *name, const mb_real *a, int r, int c,
                          char **rn, char **cn)
{
    fprintf(f, "block,row");
    for (int j = 0; j < c; j++) fprintf(f, ",%s", cn[j]);
    fputc('\n', f);
    for (int i = 0; i < r; i++) {
        fprintf(f, "%s,%s", name, rn[i]);
        for (int j = 0; j < c; j++) fprintf(f, ",%.17g", (double)a[(long)i * c + j]);
        fputc('\n', f);
    }
}

/* --analysis linearize: A, B, C, D in minimal coordinates and the descriptor form of the full
 * coordinates at the equilibrium (static), the assembled initial state (initial) or the state
 * simulated to T (t=T), on the inputs' defaults (docs/analyses.md, "Linearization"). */
/* The buffers of a linearization (lin_alloc, lin_free). */
typedef struct {
    mb_anl a;
    void *work;
    int *zidx;
    mb_real *q, *v, *acc, *lam, *A, *B, *Tq, *Tv, *C, *D, *Yq, *Yv, *y, *hold, *E, *Af, *Bf, *Cf;
    mb_real *pq, *pq0, *g, *e, *ph0, *ph1, *dqq, *dqv;
    char **rn, **cn, *names;
    char **un, **yn, **fn;   /* the names of the inputs, outputs and descriptor states */
    /* sensors that read reactions (rs): dy/dlambda [nout x nc], dlambda/d[x u]
     * [nc x (2n + nin)] (mb_anl_ss.dlambda), the descriptor form's own D (Df: lambda is in its
     * x, so only the direct dy/du) */
    int rs;
    mb_real *Yl, *dL, *Df;
} lin_mem;

static void lin_free(lin_mem *L)
{
    free(L->work); free(L->zidx); free(L->q); free(L->v); free(L->acc); free(L->lam); free(L->A);
    free(L->B); free(L->Tq); free(L->Tv); free(L->C); free(L->D); free(L->Yq); free(L->Yv);
    free(L->y); free(L->hold); free(L->E); free(L->Af); free(L->Bf); free(L->Cf); free(L->pq);
    free(L->pq0); free(L->g); free(L->e); free(L->ph0); free(L->ph1); free(L->dqq); free(L->dqv);
    free(L->rn); free(L->cn); free(L->names); free(L->un); free(L->yn); free(L->fn);
    free(L->Yl); free(L->dL); free(L->Df);
}

/* All of them, zeroed (1: done, 0: out of memory). */
static int lin_alloc(lin_mem *L, const mb_model *m, size_t ws)
{
    int n = m->nq, nc = m->nc, nin = m->nin, nout = m->nout, N = 2 * n + nc;
    L->work = ws ? malloc(ws) : NULL;
    L->zidx = malloc(sizeof(int) * (size_t)n);
    L->q = calloc((size_t)n, sizeof(mb_real)); L->v = calloc((size_t)n, sizeof(mb_real));
    L->acc = calloc((size_t)n, sizeof(mb_real)); L->lam = calloc((size_t)nc + 1, sizeof(mb_real));
    L->A = calloc((size_t)4 * n * n + 1, sizeof(mb_real)); L->B = calloc((size_t)2 * n * nin + 1, sizeof(mb_real));
    L->Tq = calloc((size_t)2 * n * n + 1, sizeof(mb_real)); L->Tv = calloc((size_t)2 * n * n + 1, sizeof(mb_real));
    L->C = calloc((size_t)2 * n * nout + 1, sizeof(mb_real)); L->D = calloc((size_t)nout * nin + 1, sizeof(mb_real));
    L->Yq = calloc((size_t)nout * n + 1, sizeof(mb_real)); L->Yv = calloc((size_t)nout * n + 1, sizeof(mb_real));
    L->y = calloc((size_t)nout + 1, sizeof(mb_real)); L->hold = calloc((size_t)3 * nin + 1, sizeof(mb_real));
    L->E = calloc((size_t)N * N, sizeof(mb_real)); L->Af = calloc((size_t)N * N, sizeof(mb_real));
    L->Bf = calloc((size_t)N * nin + 1, sizeof(mb_real)); L->Cf = calloc((size_t)N * nout + 1, sizeof(mb_real));
    L->pq = calloc((size_t)m->phi_q_pat.nnz + 1, sizeof(mb_real)); L->pq0 = calloc((size_t)m->phi_q_pat.nnz + 1, sizeof(mb_real));
    L->g = calloc((size_t)m->phi_q_pat.nnz + 1, sizeof(mb_real)); L->e = calloc((size_t)n, sizeof(mb_real));
    L->ph0 = calloc((size_t)nc + 1, sizeof(mb_real)); L->ph1 = calloc((size_t)nc + 1, sizeof(mb_real));
    L->dqq = calloc((size_t)m->dq_dq_pat.nnz + 1, sizeof(mb_real)); L->dqv = calloc((size_t)m->dq_dv_pat.nnz + 1, sizeof(mb_real));
    L->rn = calloc((size_t)N + 1, sizeof(char *)); L->cn = calloc((size_t)N + 1, sizeof(char *));
    L->names = malloc((size_t)(3 * N + 3 * nin + 3 * nout + 8) * 80);
    L->rs = m->doutputs_dlam != NULL;
    if (L->rs) {
        L->Yl = calloc((size_t)nout * nc + 1, sizeof(mb_real));
        L->dL = calloc((size_t)nc * (2 * n + nin) + 1, sizeof(mb_real));
        L->Df = calloc((size_t)nout * nin + 1, sizeof(mb_real));
        if (!L->Yl || !L->dL || !L->Df) return 0;
    }
    return L->work && L->zidx && L->q && L->v && L->acc && L->lam && L->A && L->B && L->Tq && L->Tv &&
           L->C && L->D && L->Yq && L->Yv && L->y && L->hold && L->E && L->Af && L->Bf && L->Cf &&
           L->pq && L->pq0 && L->g && L->e && L->ph0 && L->ph1 && L->dqq && L->dqv && L->rn && L->cn &&
           L->names;
}

/* The operating point at t into L->q, L->v (L->lam: the static multipliers): the static
 * equilibrium, or the state a simulation reaches at t (the initial state at 0). Returns the
 * status after saying why it failed. */
static int lin_point(lin_mem *L, const mb_model *m, double t, int quiet)
{
    int st;
    if (ao->about_t < 0 && !ao->about_initial) {
        mb_anl_static_info info;
        memcpy(L->q, m->q0, sizeof(mb_real) * (size_t)m->nq);
        if ((st = mb_anl_static(&L->a, 0, L->q, L->lam, &info))) {
            static_failure(m, "linearize", 0, &info, st, -1, L->q);
            return st;
        }
        if (!quiet && info.stability < 0)
            fprintf(stderr, "%s_sim: note: the equilibrium is unstable (reduced stiffness eigenvalue "
                    "%.6g 1/s^2 < 0)\n", m->name, (double)info.eig_min);
    } else if ((st = lin_sim_state(m, t, L->q, L->v))) {
        fprintf(stderr, "%s_sim: linearize analysis failed: the %s cannot be reached: %s\n", m->name,
                ao->about_t >= 0 ? "state at the given time" : "initial state", mb_status_str(st));
        return st;
    }
    return MB_OK;
}

/* Inputs must enter the loads only: a driver fed by one is a prescribed motion. Returns 0, or
 * MB_ERR_MODEL after naming the input and the constraint it enters. */
static int lin_inputs_in_loads(lin_mem *L, const mb_model *m, double t)
{
    int nin = m->nin, nc = m->nc;
    if (nin == 0) return MB_OK;
    mb_model cp = *m;
    memcpy(L->hold, m->in, sizeof(mb_real) * 3 * (size_t)nin);
    cp.in = L->hold;
    m->phi(m, (mb_real)t, L->q, L->ph0);
    for (int i = 0; i < nin; i++) {
        L->hold[3 * i] += 1;
        cp.phi(&cp, (mb_real)t, L->q, L->ph1);
        L->hold[3 * i] -= 1;
        for (int r = 0; r < nc; r++)
            if (L->ph1[r] != L->ph0[r]) {
                fprintf(stderr, "%s_sim: linearize analysis: input \"%s\" enters constraint %s (a "
                        "driver's f): a prescribed motion, not a load; linearize takes inputs "
                        "that enter the loads only\n", m->name, m->in_names[i],
                        m->info && m->info->constraint_names ? m->info->constraint_names[r] : "?");
                return MB_ERR_MODEL;
            }
    }
    return MB_OK;
}

/* C = [dy/dq, dy/dv] [dq/dx; dv/dx], D = dy/du, and the descriptor form Ef, Af, Bf, Cf at (t,
 * q, v) with the multipliers L->lam (d2 = 2 d: the minimal state's size). Sensors that read
 * reactions read L->lam (a descriptor copy) and add dy/dlambda dlambda/dx to C, dy/dlambda
 * dlambda/du to D (dlambda from the same solve as A: L->dL); Cf reads lambda, Df = dy/du. */
static void lin_descriptor(lin_mem *L, const mb_model *m, double t, int d2)
{
    int n = m->nq, nc = m->nc, nin = m->nin, nout = m->nout, N = 2 * n + nc, rs = L->rs;
    const mb_real *q = L->q, *v = L->v;
    mb_real *Af = L->Af;
    mb_model ml = *m;
    if (rs) ml.lam = L->lam;
    if (nout > 0) ml.outputs(&ml, (mb_real)t, q, v, L->y, L->Yq, L->Yv);
    if (nout > 0 && nin > 0) ml.doutputs_du(&ml, (mb_real)t, q, v, L->D);
    if (rs) {
        ml.doutputs_dlam(&ml, (mb_real)t, q, v, L->Yl);
        memcpy(L->Df, L->D, sizeof(mb_real) * (size_t)nout * (size_t)nin);
    }
    for (int i = 0; i < nout; i++)
        for (int j = 0; j < d2 + (rs ? nin : 0); j++) {
            double s_ = 0;
            for (int k = 0; j < d2 && k < n; k++)
                s_ += (double)L->Yq[(long)i * n + k] * (double)L->Tq[(long)k * d2 + j] +
                      (double)L->Yv[(long)i * n + k] * (double)L->Tv[(long)k * d2 + j];
            for (int r = 0; rs && r < nc; r++)
                s_ += (double)L->Yl[(long)i * nc + r] * (double)L->dL[(long)r * (d2 + nin) + j];
            if (j < d2) L->C[(long)i * d2 + j] = (mb_real)s_;
            else L->D[(long)i * nin + j - d2] += (mb_real)s_;
        }
    m->phi_q(m, (mb_real)t, q, L->pq);
    m->dforce_dq(m, (mb_real)t, q, v, L->dqq);
    m->dforce_dv(m, (mb_real)t, q, v, L->dqv);
    memset(L->e, 0, sizeof(mb_real) * (size_t)n);
    m->phi_q_dot(m, (mb_real)t, q, L->e, L->pq0);
    const mb_pattern *pp = &m->phi_q_pat;
    for (int i = 0; i < n; i++) {
        L->E[(long)i * N + i] = 1;
        L->E[(long)(n + i) * N + n + i] = m->mass[i];
        Af[(long)i * N + n + i] = 1;
    }
    for (int k = 0; k < m->dq_dq_pat.nnz; k++) Af[(long)(n + m->dq_dq_pat.row[k]) * N + m->dq_dq_pat.col[k]] += L->dqq[k];
    for (int k = 0; k < m->dq_dv_pat.nnz; k++) Af[(long)(n + m->dq_dv_pat.row[k]) * N + n + m->dq_dv_pat.col[k]] += L->dqv[k];
    for (int k = 0; k < pp->nnz; k++) {
        Af[(long)(n + pp->col[k]) * N + 2 * n + pp->row[k]] = -L->pq[k];   /* -Phi_q^T */
        Af[(long)(2 * n + pp->row[k]) * N + pp->col[k]] = L->pq[k];        /* Phi_q dq = 0 */
    }
    for (int j = 0; j < n && nc > 0; j++) {   /* -(Phi_q^T lambda)_q, column j */
        L->e[j] = 1;
        m->phi_q_dot(m, (mb_real)t, q, L->e, L->g);
        L->e[j] = 0;
        for (int k = 0; k < pp->nnz; k++)
            Af[(long)(n + pp->col[k]) * N + j] -= (L->g[k] - L->pq0[k]) * L->lam[pp->row[k]];
    }
    if (nin > 0) {
        mb_real *qu = L->Bf + (long)n * nin;   /* rows n .. 2n - 1 */
        m->dforce_du(m, (mb_real)t, q, v, qu);
    }
    for (int i = 0; i < nout; i++)
        for (int k = 0; k < n; k++) {
            L->Cf[(long)i * N + k] = L->Yq[(long)i * n + k];
            L->Cf[(long)i * N + n + k] = L->Yv[(long)i * n + k];
        }
    for (int i = 0; rs && i < nout; i++)
        for (int r = 0; r < nc; r++) L->Cf[(long)i * N + 2 * n + r] = L->Yl[(long)i * nc + r];
}

/* The rows' and columns' names: z, then z' as d(z) (L->rn); the inputs, the outputs; the full
 * state q, v as d(q), lambda as the constraint names (L->fn). 0, or -1 when out of memory. */
static int lin_names(lin_mem *L, const mb_model *m, int d)
{
    int n = m->nq, nc = m->nc, nin = m->nin, nout = m->nout, N = 2 * n + nc;
    char *np = L->names;
#define NAME(fmt, ...) lin_name(&np, fmt, __VA_ARGS__)
    char **zn = L->rn;   /* rows of the minimal form: z, d(z) */
    for (int j = 0; j < d; j++) zn[j] = NAME("%s", m->info->coord_names[L->zidx[j]]);
    for (int j = 0; j < d; j++) zn[d + j] = NAME("d(%s)", m->info->coord_names[L->zidx[j]]);
    L->un = malloc(sizeof(char *) * (size_t)(nin + 1));
    L->yn = malloc(sizeof(char *) * (size_t)(nout + 1));
    L->fn = malloc(sizeof(char *) * (size_t)(N + 1));
    if (!L->un || !L->yn || !L->fn) return -1;
    for (int i = 0; i < nin; i++) L->un[i] = NAME("%s", m->in_names[i]);
    for (int i = 0; i < nout; i++) L->yn[i] = NAME("%s", m->out_names[i]);
    for (int k = 0; k < n; k++) L->fn[k] = NAME("%s", m->info->coord_names[k]);
    for (int k = 0; k < n; k++) L->fn[n + k] = NAME("d(%s)", m->info->coord_names[k]);
    for (int r = 0; r < nc; r++)
        L->fn[2 * n + r] = NAME("lambda(%s)", m->info->constraint_names ? m->info->constraint_names[r] : "?");
#undef NAME
    return 0;
}

/* The CSV of named blocks (through the temporary tmp, renamed to out) and the text files
 * <out without .csv>_<name>.txt. 0, or 1 after saying what could not be written (nothing left). */
static int lin_write(const lin_mem *L, const mb_model *m, const char *out, char *tmp, size_t tmpsize,
                     const char *about, double t, int d2)
{
    int n = m->nq, nc = m->nc, nin = m->nin, nout = m->nout, N = 2 * n + nc, bad;
    char **zn = L->rn, **un = L->un, **yn = L->yn, **fn = L->fn;
    FILE *csv;
    if (snprintf(tmp, tmpsize, "%s.tmp.%ld", out, (long)getpid()) >= (int)tmpsize ||
        !(csv = fopen(tmp, "w"))) {
        fprintf(stderr, "%s_sim: cannot write --out %s: %s\n", m->name, out, strerror(errno));
        tmp[0] = '\0';
        return 1;
    }
    fprintf(csv, "# linearize %s about=%s t=%.17g: x = [z; d(z)], x' = A x + B u, y = C x + D u; "
            "descriptor: Ef x' = Af x + Bf u, y = Cf x + %s u, x = [q; d(q); lambda]\n",
            m->name, about, t, L->rs ? "Df" : "D");
    lin_csv_block(csv, "A", L->A, d2, d2, zn, zn);
    lin_csv_block(csv, "B", L->B, d2, nin, zn, un);
    lin_csv_block(csv, "C", L->C, nout, d2, yn, zn);
    lin_csv_block(csv, "D", L->D, nout, nin, yn, un);
    lin_csv_block(csv, "Ef", L->E, N, N, fn, fn);
    lin_csv_block(csv, "Af", L->Af, N, N, fn, fn);
    lin_csv_block(csv, "Bf", L->Bf, N, nin, fn, un);
    lin_csv_block(csv, "Cf", L->Cf, nout, N, yn, fn);
    if (L->rs) lin_csv_block(csv, "Df", L->Df, nout, nin, yn, un);
    bad = ferror(csv);
    if (fclose(csv) != 0) bad = 1;
    /* the text files: <out without .csv>_<name>.txt */
    char base[4096];
    size_t lo = strlen(out);
    snprintf(base, sizeof base, "%.*s", (int)(lo > 4 && !strcmp(out + lo - 4, ".csv") ? lo - 4 : lo), out);
    struct { const char *nm, *what; const mb_real *mat; int r, c; } mats[] = {
        {"A", "minimal coordinates: x' = A x + B u, x = [z; d(z)]", L->A, d2, d2},
        {"B", "minimal coordinates: input matrix", L->B, d2, nin},
        {"C", "minimal coordinates: y = C x + D u", L->C, nout, d2},
        {"D", "sensors' feedthrough dy/du", L->D, nout, nin},
        {"Ef", "descriptor form: Ef x' = Af x + Bf u, x = [q; d(q); lambda]", L->E, N, N},
        {"Af", "descriptor form: state matrix", L->Af, N, N},
        {"Bf", "descriptor form: input matrix", L->Bf, N, nin},
        {"Cf", L->rs ? "descriptor form: y = Cf x + Df u" : "descriptor form: y = Cf x + D u", L->Cf, nout, N},
        {"Df", "descriptor form: the sensors' direct dy/du (lambda is in x)", L->Df, nout, nin}};
    for (size_t i = 0; !bad && i < sizeof mats / sizeof mats[0] - (L->rs ? 0 : 1); i++)
        if (lin_write_txt(base, mats[i].nm, mats[i].what, mats[i].mat, mats[i].r, mats[i].c)) {
            fprintf(stderr, "%s_sim: cannot write %s_%s.txt: %s\n", m->name, base, mats[i].nm, strerror(errno));
            bad = 1;
        }
    if (!bad && rename(tmp, out) != 0) {
        fprintf(stderr, "%s_sim: cannot write %s: %s\n", m->name, out, strerror(errno));
        bad = 1;
    }
    if (bad) remove(tmp);
    tmp[0] = '\0';
    return bad;
}

/* The summary line of a linearization (and its notes on stderr unless quiet). */
static void lin_summary(const lin_mem *L, const mb_model *m, const char *about, double t, int d,
                        int quiet, double w0)
{
    int n = m->nq, nc = m->nc, nin = m->nin, nout = m->nout;
    /* is the point at rest in equilibrium? (else: a point of a trajectory) */
    double vmax = 0, amax = 0;
    for (int i = 0; i < n; i++) {
        if (fabs((double)L->v[i]) > vmax) vmax = fabs((double)L->v[i]);
        if (fabs((double)L->acc[i]) > amax) amax = fabs((double)L->acc[i]);
    }
    int rest = vmax == 0 && amax <= 1e-9 * (1 + amax);
    if (!quiet) {
        if (!rest)
            fprintf(stderr, "%s_sim: note: linearized about a point of a trajectory (|v| %.3g, |a| "
                    "%.3g): A is the Jacobian of the motion there (curvature terms included; "
                    "dGamma/dq by central differences), valid near that point in time\n",
                    m->name, vmax, amax);
        if (nin == 0) fprintf(stderr, "%s_sim: note: the model has no inputs: B and D have 0 columns\n", m->name);
        if (nout == 0) fprintf(stderr, "%s_sim: note: the model has no sensors: C and D have 0 rows\n", m->name);
    }
    printf("status=ok code=0 analysis=linearize model=%s about=%s t=%.9g point=%s dof=%d states=%d "
           "inputs=%d outputs=%d descriptor=%d z=", m->name, about, t,
           rest ? "equilibrium" : "trajectory", d, 2 * d, nin, nout, 2 * n + nc);
    for (int j = 0; j < d; j++) printf("%s%s", j ? "," : "", L->rn[j]);
    printf(" dependent=");
    for (int j = 0; j < nc; j++) printf("%s%s", j ? "," : "", m->info->coord_names[L->zidx[d + j]]);
    printf(" wall_s=%.3f\n", wall() - w0);
}

static int run_linearize(const mb_model *m, const char *out, char *tmp, size_t tmpsize, int quiet)
{
    const char *an = "linearize";
    double w0 = wall();
    int st;
    char about[64];
    if (ao->about_t >= 0) snprintf(about, sizeof about, "t=%.9g", ao->about_t);
    else snprintf(about, sizeof about, "%s", ao->about_initial ? "initial" : "static");
    if (m->nin > 0 && !m->dforce_du) {
        fprintf(stderr, "%s_sim: linearize analysis: the model has inputs but no dforce_du "
                "(generated before model interface 9?): regenerate it\n", m->name);
        printf("status=error code=%d analysis=%s model=%s\n", MB_ERR_MODEL, an, m->name);
        return 1;
    }
    size_t ws = mb_anl_workspace_size(m, MB_ANL_DENSE);
    lin_mem L;
    memset(&L, 0, sizeof L);
    tmp[0] = '\0';
    if (!lin_alloc(&L, m, ws)) {
        fprintf(stderr, "%s_sim: %s analysis: %s\n", m->name, an,
                ws ? "out of memory" : "the model cannot be analysed (invalid descriptor)");
        printf("status=error code=%d analysis=%s model=%s\n", ws ? MB_ERR_WORKSPACE : MB_ERR_MODEL, an, m->name);
        lin_free(&L);
        return 1;
    }
    if ((st = mb_anl_init(&L.a, m, NULL, MB_ANL_DENSE, L.work, ws)))
        fprintf(stderr, "%s_sim: %s analysis: init: %s\n", m->name, an, mb_status_str(st));
    double t = ao->about_t >= 0 ? ao->about_t : 0;   /* the operating point */
    if (!st) st = lin_point(&L, m, t, quiet);
    if (!st) st = lin_inputs_in_loads(&L, m, t);
    mb_anl_ss ss = {L.zidx, 0, L.A, L.B, L.Tq, L.Tv, L.acc, L.lam, L.dL};
    if (!st && (st = mb_anl_linearize_ss(&L.a, (mb_real)t, L.q, L.v, 0, NULL, &ss))) {
        fprintf(stderr, "%s_sim: %s analysis failed", m->name, an);
        if (st == MB_ERR_SINGULAR && L.a.singular_row >= 0 && m->info->constraint_names)
            fprintf(stderr, ": redundant or singular constraint: %s (equation %d of Phi): Phi_q is "
                    "rank-deficient (a singular position, or more constraint equations than "
                    "coordinates): no minimal coordinates there\n",
                    m->info->constraint_names[L.a.singular_row], L.a.singular_row);
        else
            fprintf(stderr, ": %s\n", mb_status_str(st));
    }
    if (st) {
        printf("status=error code=%d analysis=%s model=%s\n", st, an, m->name);
        lin_free(&L);
        return 1;
    }
    lin_descriptor(&L, m, t, 2 * ss.d);
    if (lin_names(&L, m, ss.d) != 0) {
        fprintf(stderr, "%s_sim: out of memory\n", m->name);
        lin_free(&L);
        return 1;
    }
    if (out && lin_write(&L, m, out, tmp, tmpsize, about, t, 2 * ss.d)) {
        printf("status=error code=0 analysis=%s model=%s\n", an, m->name);
        lin_free(&L);
        return 1;
    }
    lin_summary(&L, m, about, t, ss.d, quiet, w0);
    lin_free(&L);
    return 0;
}

/* What one analysis run reports: the summary line's own fields, the CSV rows written and left
 * out (non-finite), whether it failed (and its status), whether the failure was a usage error. */
typedef struct {
    char extra[512];
    int rows, skipped, fault, code, usage;
} anl_result;

static void fail(anl_result *o, int st) { o->fault = 1; o->code = st; }

/* static, modal and frequency: the equilibrium (or, --about initial, the initial state), its
 * stability and, for the two others, what is linearized about it. */
static void run_equilibrium(run_mem *r, const mb_model *m, int which, int quiet, anl_result *o)
{
    const char *an = mb_cli_analysis_name(which);
    mb_anl_static_info info;
    int about_init = which != MB_CLI_STATIC && ao->about_initial;
    int st = about_init ? initial_state(&r->a, r->q, r->lam, &info) : mb_anl_static(&r->a, 0, r->q, r->lam, &info);
    if (st) {
        static_failure(m, an, about_init, &info, st, -1, about_init ? NULL : r->q);
        fail(o, st);
        return;
    }
    double pn, pdn, mon[4];
    norms(m, 0, r->q, r->v, r->ph, r->pq, &pn, &pdn);
    mon[0] = 0; mon[1] = pn; mon[2] = pdn; mon[3] = 0;
    snprintf(o->extra, sizeof o->extra, "%s iterations=%d rejected=%d escapes=%d dof=%d rank=%d "
             "residual=%.3e stability=%s eig_min=%.9e eig_max=%.9e",
             which == MB_CLI_STATIC ? "" : about_init ? " about=initial" : " about=static",
             info.iters, info.rejected, info.escapes, info.dof, info.rank,
             (double)info.residual, stability_name(info.stability), (double)info.eig_min,
             (double)info.eig_max);
    if (which == MB_CLI_STATIC && r->csv) {
        /* at rest: v = 0, acc = 0 */
        o->skipped += full_row(r->csv, m, 0, r->q, mon, r->pts, r->v, r->acc, r->lam);
        o->rows++;
    }
    if (!quiet || which != MB_CLI_MODAL) {
        if (info.stability < 0)
            fprintf(stderr, "%s_sim: warning: the %s is unstable (reduced stiffness "
                    "eigenvalue %.6g 1/s^2 < 0)\n", m->name,
                    about_init ? "initial state" : "equilibrium found", (double)info.eig_min);
        if (info.rank < m->nc)
            analysis_redundant(m, 0, r->q, info.rank,
                               about_init ? "the initial state" : "the equilibrium");
    }
    if (about_init && (double)info.residual > 1e-6)
        fprintf(stderr, "%s_sim: warning: the initial state is not an equilibrium: the "
                "joints do not carry %.3g of the load (|Z^T Q| / |M^-1/2 Q|); the "
                "linearization about it leaves that load out\n", m->name, (double)info.residual);
    char *e = o->extra + strlen(o->extra);
    size_t left = sizeof o->extra - (size_t)(e - o->extra);
    if (which == MB_CLI_MODAL) {
        st = run_modal(r, m, &info, e, left, &o->rows, &o->skipped);
        if (st) fail(o, st);
    } else if (which == MB_CLI_FREQUENCY) {
        st = run_frequency(r, m, e, left, &o->rows);
        if (st == MB_CLI_USAGE_ST) o->usage = 1, st = MB_ERR_PARAM;
        if (st) fail(o, st);
    }
}

/* quasistatic: a static equilibrium at every output time k h, each from the previous one. */
static void run_quasistatic(run_mem *r, const mb_model *m, double t_end, double h, int every,
                            anl_result *o)
{
    long nsteps = (long)ceil(t_end / h - 1e-9);
    int nout = 0, iters = 0, unstable = 0, redundant = 0;
    double max_res = 0, t_last = 0;
    mb_anl_static_info info;
    mb_anl_quasistatic_start(&r->a);
    for (long k = 0; k <= nsteps; k++) {
        double t = k == nsteps ? t_end : (double)k * h;
        int st = mb_anl_quasistatic(&r->a, (mb_real)t, r->q, r->lam, &info);
        if (st) {
            static_failure(m, "quasistatic", 0, &info, st, t, r->q);
            fail(o, st);
            break;
        }
        iters += info.iters;
        if (info.rank < m->nc && !redundant++) {   /* named once, where first found */
            char where[64];
            snprintf(where, sizeof where, "the equilibrium at t=%.9g", t);
            analysis_redundant(m, (mb_real)t, r->q, info.rank, where);
        }
        if ((double)info.residual > max_res) max_res = (double)info.residual;
        if (info.stability < 0 && !unstable++)
            fprintf(stderr, "%s_sim: warning: the equilibrium at t=%.9g is unstable (reduced "
                    "stiffness eigenvalue %.6g 1/s^2 < 0)\n", m->name, t, (double)info.eig_min);
        if (r->csv && (k % every == 0 || k == nsteps)) {
            double pn, pdn;
            norms(m, t, r->q, r->v, r->ph, r->pq, &pn, &pdn);
            double mon[4] = {0, pn, pdn, 0};
            o->skipped += full_row(r->csv, m, t, r->q, mon, r->pts, r->v, r->acc, r->lam);
            o->rows++;
        }
        t_last = t;
        nout++;
    }
    snprintf(o->extra, sizeof o->extra, " outputs=%d iterations=%d max_residual=%.3e unstable=%d "
             "t_end=%.9g", nout, iters, max_res, unstable, t_last);
}

/* Why a kinematic or inverse step failed at t, on stderr (the line started by the caller). */
static void motion_failure(const run_mem *r, const mb_model *m, int st, int why, int dof)
{
    if (why == MB_ANL_WHY_DOF)
        fprintf(stderr, "%d degree%s of freedom not driven (%d coordinates, %d "
                "constraint equations); kinematic and inverse analysis need a "
                "mechanism whose drivers leave none: add drivers, or use --analysis "
                "dynamic\n", dof, dof == 1 ? "" : "s", m->nq, m->nc);
    else if (why == MB_ANL_WHY_GAMMA || st == MB_ERR_MODEL)
        fprintf(stderr, "the model has no gamma (built with MB_OMIT_GAMMA)\n");
    else if (st == MB_ERR_SINGULAR && r->a.singular_row >= 0 && m->info->constraint_names)
        fprintf(stderr, "redundant or singular constraint: %s (equation %d of Phi): "
                "Phi_q is rank-deficient (a singular position, or more constraint "
                "equations than coordinates)\n", m->info->constraint_names[r->a.singular_row],
                r->a.singular_row);
    else if (why == MB_ANL_WHY_PROJECT)
        fprintf(stderr, "the positions do not satisfy the constraints (Newton from the "
                "previous output did not converge: %s)\n", mb_status_str(st));
    else
        fprintf(stderr, "%s\n", mb_status_str(st));
}

/* The largest driver effort |lambda| of the rows in lam. */
static double max_driver_effort(const mb_model *m, const mb_real *lam, double max_eff)
{
    for (int rr = 0; rr < m->nc; rr++) {
        int kind;
        size_t len;
        int used = element_at(m, rr, &kind, &len);
        if (kind == EL_DRV && fabs((double)lam[rr]) > max_eff) max_eff = fabs((double)lam[rr]);
        rr += used - 1;
    }
    return max_eff;
}

/* kinematic / inverse: the output times k h up to t_end; the energy balance
 * T + V - E0 - W (W: work of the loads and of the drivers, lambda^T Phi_t) as a check. */
static void run_motion(run_mem *r, const mb_model *m, const char *an, double t_end, double h,
                       int every, anl_result *o)
{
    int n = m->nq, nc = m->nc;
    long nsteps = (long)ceil(t_end / h - 1e-9);
    double E0 = 0, W = 0, pw_old = 0, max_dev = 0, max_phi = 0, max_eff = 0, t_old = 0;
    int dof = 0, why = 0, nout = 0;
    mb_real e3[3];
    mb_real *vold = calloc((size_t)n, sizeof(mb_real)), *aold = calloc((size_t)n, sizeof(mb_real));
    if (!vold || !aold) { fprintf(stderr, "%s_sim: out of memory\n", m->name); o->fault = 1; }
    for (long k = 0; !o->fault && k <= nsteps; k++) {
        double t = k == nsteps ? t_end : (double)k * h;
        if (k > 0) {   /* the guess: the previous solution extrapolated */
            double dt = t - t_old;
            for (int i = 0; i < n; i++)
                r->q[i] += (mb_real)(dt * (double)vold[i] + 0.5 * dt * dt * (double)aold[i]);
        }
        int st = mb_anl_kinematic(&r->a, (mb_real)t, r->q, r->v, r->acc, &dof, &why);
        if (st == MB_OK) st = mb_anl_inverse(&r->a, (mb_real)t, r->q, r->v, r->acc, r->lam);
        if (st) {
            fprintf(stderr, "%s_sim: %s analysis failed at t=%.9g: ", m->name, an, t);
            motion_failure(r, m, st, why, dof);
            fail(o, st);
            break;
        }
        /* the energy balance: P_nc from the model, driver power lambda^T Phi_t */
        m->energy(m, (mb_real)t, r->q, r->v, e3);
        m->phi_t(m, (mb_real)t, r->q, r->ph);
        double pw = (double)e3[2];
        for (int j = 0; j < nc; j++) pw += (double)r->lam[j] * (double)r->ph[j];
        if (k == 0) E0 = (double)e3[0] + (double)e3[1];
        else W += (t - t_old) / 2 * (pw + pw_old);
        pw_old = pw;
        double dev = (double)e3[0] + (double)e3[1] - E0 - W, pn, pdn;
        if (fabs(dev) > max_dev) max_dev = fabs(dev);
        norms(m, t, r->q, r->v, r->ph, r->pq, &pn, &pdn);
        if (pn > max_phi) max_phi = pn;
        max_eff = max_driver_effort(m, r->lam, max_eff);
        if (r->csv && (k % every == 0 || k == nsteps)) {
            double mon[4] = {dev, pn, pdn, 0};
            o->skipped += full_row(r->csv, m, t, r->q, mon, r->pts, r->v, r->acc, r->lam);
            o->rows++;
        }
        memcpy(vold, r->v, sizeof(mb_real) * (size_t)n);
        memcpy(aold, r->acc, sizeof(mb_real) * (size_t)n);
        t_old = t;
        nout++;
    }
    free(vold);
    free(aold);
    snprintf(o->extra, sizeof o->extra, " outputs=%d max_energy_dev=%.6e max_phi=%.6e max_effort=%.9g "
             "t_end=%.9g", nout, max_dev, max_phi, max_eff, t_old);
}

/* The analysis' memory, its mb_anl_init, the parameter line and the temporary CSV with its
 * header. Returns -1 to go on, else the exit status (r freed, the summary line printed where
 * the run counts as started). */
static int anl_start(run_mem *r, int which, const mb_model *m, size_t ws, const char *out,
                     char *tmp, size_t tmpsize, int quiet)
{
    const char *an = mb_cli_analysis_name(which);
    int n = m->nq, nc = m->nc;
    int level = which == MB_CLI_KINEMATIC || which == MB_CLI_INVERSE ? MB_ANL_SPARSE : MB_ANL_DENSE;
    r->work = malloc(ws);
    r->q = malloc(sizeof(mb_real) * (size_t)n);
    r->v = calloc((size_t)n, sizeof(mb_real));
    r->acc = calloc((size_t)n, sizeof(mb_real));
    r->lam = calloc((size_t)nc + 1, sizeof(mb_real));
    r->pts = malloc(sizeof(mb_real) * (size_t)(2 * m->npoint + m->nout + 1));   /* and the sensors */
    r->ph = malloc(sizeof(mb_real) * (size_t)(nc + 1));
    r->pq = malloc(sizeof(mb_real) * (size_t)(m->phi_q_pat.nnz + 1));
    if (!r->work || !r->q || !r->v || !r->acc || !r->lam || !r->pts || !r->ph || !r->pq) {
        fprintf(stderr, "%s_sim: out of memory\n", m->name);
        run_free(r);
        return 1;
    }
    int st = mb_anl_init(&r->a, m, NULL, level, r->work, ws);
    if (st) {
        fprintf(stderr, "%s_sim: %s analysis: init: %s\n", m->name, an, mb_status_str(st));
        printf("status=error code=%d analysis=%s model=%s\n", st, an, m->name);
        run_free(r);
        return 1;
    }
    memcpy(r->q, m->q0, sizeof(mb_real) * (size_t)n);
    if (!quiet)
        fprintf(stderr, "%s_sim: %s analysis%s, workspace %zu bytes\n", m->name, an,
                which == MB_CLI_KINEMATIC || which == MB_CLI_INVERSE || which == MB_CLI_QUASISTATIC ?
                "" : " at t=0", ws);

    /* the CSV: a temporary renamed at the end; nothing is left when the analysis fails before
     * its first row */
    if (out) {
        if (snprintf(tmp, tmpsize, "%s.tmp.%ld", out, (long)getpid()) >= (int)tmpsize) {
            fprintf(stderr, "%s_sim: invalid value '%s' for --out: path too long\n", m->name, out);
            tmp[0] = '\0';
            run_free(r);
            return 2;
        }
        r->csv = fopen(tmp, "w");
        if (!r->csv) {
            fprintf(stderr, "%s_sim: cannot write --out %s (temporary %s): %s\n", m->name, out, tmp,
                    strerror(errno));
            tmp[0] = '\0';
            printf("status=error code=0 analysis=%s model=%s\n", an, m->name);
            run_free(r);
            return 1;
        }
        if (which != MB_CLI_MODAL && which != MB_CLI_FREQUENCY)
            full_header(r->csv, m);   /* those two write their own when they have results */
    }
    return -1;
}

/* Close the CSV and rename it into place: a failed static, modal or frequency analysis writes
 * nothing; a sequence (kinematic, inverse, quasistatic) keeps the rows before the failure. */
static void anl_close_csv(run_mem *r, int which, const mb_model *m, const char *out, char *tmp,
                          anl_result *o)
{
    int bad_io = ferror(r->csv);
    if (fclose(r->csv) != 0) bad_io = 1;
    int whole = which == MB_CLI_STATIC || which == MB_CLI_MODAL || which == MB_CLI_FREQUENCY;
    if (bad_io || (o->fault && (o->rows == 0 || whole))) {   /* a success keeps its file, even
                                                                without rows (no modes: dof 0) */
        if (bad_io) {
            fprintf(stderr, "%s_sim: cannot write %s: %s\n", m->name, out, strerror(errno));
            o->fault = 1;
        }
        remove(tmp);   /* nothing useful: no file */
    } else if (rename(tmp, out) != 0) {
        fprintf(stderr, "%s_sim: cannot write %s: %s\n", m->name, out, strerror(errno));
        remove(tmp);
        o->fault = 1;
    } else if (mb_info_write_csv(out, m) != 0) {
        o->fault = 1;   /* the drawing info file next to the CSV (tools/mb_info.h) */
    }
    tmp[0] = '\0';
}

/* The model's names for --input and --response, checked before any solve (no solve for a
 * typo). Returns 0, or 2 after naming the bad one and the valid names. */
static int frequency_names(const mb_model *m)
{
    for (int k = 0; k < 2; k++) {
        const char *nm = k == 0 ? ao->input : ao->response, *why = nm ? vector_name_why(m, nm) : NULL;
        if (!why) continue;
        fprintf(stderr, "%s_sim: invalid value '%s' for %s: %s", m->name, nm, k == 0 ? "--input" : "--response", why);
        list_vector_names(m);
        fputc('\n', stderr);
        return 2;
    }
    return 0;
}

int mb_cli_run_analysis(int which, const mb_model *m, const mb_cli_aopt *opts, const char *out,
                        char *tmp, size_t tmpsize, double t_end, double h, int every, int quiet)
{
    const char *an = mb_cli_analysis_name(which);
    double w0 = wall();
    run_mem r;
    anl_result o;
    memset(&r, 0, sizeof r);
    memset(&o, 0, sizeof o);
    ao = opts;
    if (which == MB_CLI_LINEARIZE)
        return run_linearize(m, out, tmp, tmpsize, quiet);
    int level = which == MB_CLI_KINEMATIC || which == MB_CLI_INVERSE ? MB_ANL_SPARSE : MB_ANL_DENSE;
    size_t ws = mb_anl_workspace_size(m, level);
    if (!ws) {
        fprintf(stderr, "%s_sim: %s analysis: the model cannot be analysed (invalid descriptor)\n",
                m->name, an);
        printf("status=error code=%d analysis=%s model=%s\n", MB_ERR_MODEL, an, m->name);
        return 1;
    }
    if (which == MB_CLI_FREQUENCY && !ao->input) {   /* mb_cli_analysis_check says so first */
        fprintf(stderr, "%s_sim: %s\n", m->name, mb_cli_analysis_check(which, ao));
        return 2;
    }
    if (which == MB_CLI_FREQUENCY && frequency_names(m)) return 2;
    int rc = anl_start(&r, which, m, ws, out, tmp, tmpsize, quiet);
    if (rc >= 0) return rc;
    if (which == MB_CLI_STATIC || which == MB_CLI_MODAL || which == MB_CLI_FREQUENCY)
        run_equilibrium(&r, m, which, quiet, &o);
    else if (which == MB_CLI_QUASISTATIC)
        run_quasistatic(&r, m, t_end, h, every, &o);
    else
        run_motion(&r, m, an, t_end, h, every, &o);
    if (r.csv) anl_close_csv(&r, which, m, out, tmp, &o);
    if (o.skipped)
        fprintf(stderr, "%s_sim: warning: %d CSV rows with non-finite values not written\n",
                m->name, o.skipped);
    if (o.usage) {   /* as the other usage errors: no summary, exit 2 (no CSV: a whole analysis) */
        run_free(&r);
        return 2;
    }
    printf("status=%s code=%d analysis=%s model=%s%s wall_s=%.3f\n", o.fault ? "error" : "ok", o.code, an,
           m->name, o.extra, wall() - w0);
    run_free(&r);
    return o.fault ? 1 : 0;
}
