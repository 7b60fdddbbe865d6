/* mb_analysis_cli.c - the simulator's side of the analyses: velocity, acceleration and reaction
 * columns in every CSV, and --analysis static|kinematic|inverse|modal (mb_analysis_cli.h).
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
#ifndef MB_NO_LAPACKE
#include <lapacke.h>
#endif

static const char *const anames[] = {"dynamic", "static", "kinematic", "inverse", "modal"};

int mb_cli_analysis_parse(const char *s)
{
    for (int i = 0; i < 5; i++) if (!strcmp(s, anames[i])) return i;
    return -1;
}
const char *mb_cli_analysis_name(int a) { return a >= 0 && a < 5 ? anames[a] : "?"; }

/* ------------------------------------------------------------------ reaction columns */

enum { EL_REV, EL_PRI, EL_DRV, EL_ROD, EL_RAW };

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
    const char *a = m->constraint_names ? m->constraint_names[r] : NULL;
    const char *b = r + 1 < m->nc && m->constraint_names ? m->constraint_names[r + 1] : NULL;
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
    *kind = strchr(a, '.') ? EL_RAW : EL_DRV;
    *len = strlen(a);
    return 1;
}

static void write_num(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, ",%.15g", x);
    else fputc(',', f);   /* never NaN or Inf in a CSV: an empty field */
}

static void header_extra(FILE *f, const mb_model *m)
{
    static const char *const vs[3] = {"vx", "vy", "omega"}, *const as[3] = {"ax", "ay", "alpha"};
    for (int b = 0; b < m->nbody; b++)   /* a particle has no omega, alpha */
        for (int k = 0; k < mb_body_nq(m, b); k++) fprintf(f, ",%s.%s", m->body_names[b], vs[k]);
    for (int b = 0; b < m->nbody; b++)
        for (int k = 0; k < mb_body_nq(m, b); k++) fprintf(f, ",%s.%s", m->body_names[b], as[k]);
    for (int r = 0; r < m->nc;) {
        int kind;
        size_t len;
        int used = element_at(m, r, &kind, &len);
        const char *nm = m->constraint_names ? m->constraint_names[r] : "?";
        if (!m->constraint_names) { fprintf(f, ",row%d.lambda", r); r += used; continue; }
        switch (kind) {
        case EL_REV: fprintf(f, ",%.*s.fx,%.*s.fy", (int)len, nm, (int)len, nm); break;
        case EL_PRI: fprintf(f, ",%.*s.fn,%.*s.moment", (int)len, nm, (int)len, nm); break;
        case EL_DRV: fprintf(f, ",%s.effort", nm); break;
        case EL_ROD: fprintf(f, ",%.*s.tension", (int)len, nm); break;
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
        if (st == MB_ERR_SINGULAR && dyn.a.singular_row >= 0 && m->constraint_names)
            fprintf(stderr, "Phi_q is rank-deficient at %s (a singular position or a redundant "
                    "joint: the multipliers are not unique)\n", m->constraint_names[dyn.a.singular_row]);
        else
            fprintf(stderr, "%s\n", st == MB_ERR_MODEL ? "the model has no gamma" : mb_status_str(st));
    }
    row_extra(f, m, v, st == MB_OK ? dyn.acc : NULL, st == MB_OK ? dyn.lam : NULL);
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
    return "element";
}
static int same_elem(const char *a, const char *b)
{
    size_t la = elem_len(a);
    return la == elem_len(b) && !strncmp(a, b, la);
}

#define RED_MAX_BYTES ((size_t)64 << 20)   /* the dense check's workspace limit */

int mb_cli_redundant(const mb_model *m, mb_real t, const mb_real *q, const char *prog)
{
    int nc = m->nc, found;
    if (nc == 0 || !m->constraint_names) return 0;
    size_t ws = mb_anl_workspace_size(m, MB_ANL_DENSE);
    if (!ws || ws > RED_MAX_BYTES) return -1;
    void *work = malloc(ws);
    unsigned char *dep = malloc((size_t)nc), *uses = malloc((size_t)nc), *all = malloc((size_t)nc);
    mb_anl a;
    found = -1;
    if (work && dep && uses && all && mb_anl_init(&a, m, NULL, MB_ANL_DENSE, work, ws) == MB_OK)
        found = mb_anl_redundant(&a, t, q, dep);
    if (found > 0) {
        const char *const *nm = m->constraint_names;
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
            fprintf(stderr, " (rank %d of %d equations at the assembled initial configuration; "
                    "mbgen --redundant remove generates the model without them)\n", a.rank, nc);
            r = e;
        }
    }
    free(work);
    free(dep);
    free(uses);
    free(all);
    return found < 0 ? -1 : found;
}

/* ------------------------------------------------------------------ the analyses */

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One full CSV row: t, q, the four monitors, the points, then the extra columns. A row with a
 * non-finite t, coordinate, monitor or point is not written (returns 1). */
static int full_row(FILE *f, const mb_model *m, double t, const mb_real *q, const double mon[4],
                    mb_real *pts, const mb_real *v, const mb_real *acc, const mb_real *lam)
{
    if (m->points) m->points(m, (mb_real)t, q, pts);
    int bad = !isfinite(t);
    for (int i = 0; i < m->nq; i++) bad |= !isfinite((double)q[i]);
    for (int i = 0; i < 4; i++) bad |= !isfinite(mon[i]);
    for (int i = 0; m->points && i < 2 * m->npoint; i++) bad |= !isfinite((double)pts[i]);
    if (bad) return 1;
    fprintf(f, "%.15g", t);
    for (int i = 0; i < m->nq; i++) fprintf(f, ",%.15g", (double)q[i]);
    fprintf(f, ",%.6e,%.6e,%.6e,%.6e", mon[0], mon[1], mon[2], mon[3]);
    if (m->points)
        for (int i = 0; i < 2 * m->npoint; i++) fprintf(f, ",%.15g", (double)pts[i]);
    row_extra(f, m, v, acc, lam);
    fputc('\n', f);
    return 0;
}

static void full_header(FILE *f, const mb_model *m)
{
    fprintf(f, "t");
    for (int i = 0; i < m->nq; i++) fprintf(f, ",%s", m->coord_names[i]);
    fprintf(f, ",energy_dev,phi_norm,phid_norm,sigma_norm");
    if (m->points)
        for (int i = 0; i < m->npoint; i++)
            fprintf(f, ",%s.x,%s.y", m->point_names[i], m->point_names[i]);
    header_extra(f, m);
    fputc('\n', f);
}

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

#ifndef MB_NO_LAPACKE
/* Modal analysis: the damped eigenproblem of the reduced linearization (Z^T M Z = I)
 * z'' + Cr z' + Kr z = 0 as the first-order system [0 I; -Kr -Cr], by LAPACKE dgeev. Prints one
 * line per mode (complex pair or real root), sorted by frequency. Returns the number of modes
 * or -1 (LAPACK failure / out of memory). */
typedef struct { double f, z, re, im; int k; } mode_t_;
static int cmp_mode(const void *x, const void *y)
{
    const mode_t_ *a = x, *b = y;
    if (a->f != b->f) return a->f < b->f ? -1 : 1;
    return a->re < b->re ? -1 : a->re > b->re;
}
static int modal_modes(const mb_anl *a, mode_t_ **out)
{
    int d = a->dof, n2 = 2 * d;
    *out = NULL;
    if (d == 0) return 0;
    double *A = calloc((size_t)n2 * (size_t)n2, sizeof *A), *wr = malloc(sizeof *wr * (size_t)n2),
           *wi = malloc(sizeof *wi * (size_t)n2);
    mode_t_ *md = malloc(sizeof *md * (size_t)n2);
    if (!A || !wr || !wi || !md) { free(A); free(wr); free(wi); free(md); return -1; }
    for (int i = 0; i < d; i++) A[i + (size_t)(d + i) * n2] = 1;   /* column-major */
    for (int j = 0; j < d; j++)
        for (int i = 0; i < d; i++) {
            A[d + i + (size_t)j * n2] = -(double)a->Kr[i + (long)j * d];
            A[d + i + (size_t)(d + j) * n2] = -(double)a->Cr[i + (long)j * d];
        }
    int info = (int)LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', n2, A, n2, wr, wi, NULL, 1, NULL, 1);
    free(A);
    if (info != 0) { free(wr); free(wi); free(md); return -1; }
    int nm = 0;
    for (int i = 0; i < n2; i++) {
        if (wi[i] < 0) continue;   /* one of each conjugate pair */
        double mag = hypot(wr[i], wi[i]);
        md[nm].re = wr[i];
        md[nm].im = wi[i];
        md[nm].f = mag / (2 * 3.14159265358979323846);   /* undamped natural frequency */
        md[nm].z = mag > 0 ? -wr[i] / mag : 0;
        /* below 1e-12: the eigen solver's rounding of an undamped mode; printed as 0 (no "-0") */
        if (fabs(md[nm].z) < 1e-12) md[nm].z = 0;
        md[nm].k = nm;
        nm++;
    }
    free(wr);
    free(wi);
    qsort(md, (size_t)nm, sizeof *md, cmp_mode);
    *out = md;
    return nm;
}
#endif

int mb_cli_run_analysis(int which, const mb_model *m, const char *out, char *tmp, size_t tmpsize,
                        double t_end, double h, int every, int quiet)
{
    const char *an = mb_cli_analysis_name(which);
    int n = m->nq, nc = m->nc, fault = 0, code = 0, rows = 0, skipped = 0;
    double w0 = wall();
    run_mem r;
    memset(&r, 0, sizeof r);
    int level = which == MB_CLI_STATIC || which == MB_CLI_MODAL ? MB_ANL_DENSE : MB_ANL_SPARSE;
    size_t ws = mb_anl_workspace_size(m, level);
    if (!ws) {
        fprintf(stderr, "%s_sim: %s analysis: the model cannot be analysed (invalid descriptor)\n",
                m->name, an);
        printf("status=error code=%d analysis=%s model=%s\n", MB_ERR_MODEL, an, m->name);
        return 1;
    }
    r.work = malloc(ws);
    r.q = malloc(sizeof(mb_real) * (size_t)n);
    r.v = calloc((size_t)n, sizeof(mb_real));
    r.acc = calloc((size_t)n, sizeof(mb_real));
    r.lam = calloc((size_t)nc + 1, sizeof(mb_real));
    r.pts = malloc(sizeof(mb_real) * (size_t)(2 * m->npoint + 1));
    r.ph = malloc(sizeof(mb_real) * (size_t)(nc + 1));
    r.pq = malloc(sizeof(mb_real) * (size_t)(m->phi_q_pat.nnz + 1));
    if (!r.work || !r.q || !r.v || !r.acc || !r.lam || !r.pts || !r.ph || !r.pq) {
        fprintf(stderr, "%s_sim: out of memory\n", m->name);
        run_free(&r);
        return 1;
    }
    int st = mb_anl_init(&r.a, m, NULL, level, r.work, ws);
    if (st) {
        fprintf(stderr, "%s_sim: %s analysis: init: %s\n", m->name, an, mb_status_str(st));
        printf("status=error code=%d analysis=%s model=%s\n", st, an, m->name);
        run_free(&r);
        return 1;
    }
    memcpy(r.q, m->q0, sizeof(mb_real) * (size_t)n);
    if (!quiet)
        fprintf(stderr, "%s_sim: %s analysis%s, workspace %zu bytes\n", m->name, an,
                which == MB_CLI_KINEMATIC || which == MB_CLI_INVERSE ? "" : " at t=0", ws);

    /* the CSV: a temporary renamed at the end; nothing is left when the analysis fails before
     * its first row */
    if (out) {
        if (snprintf(tmp, tmpsize, "%s.tmp.%ld", out, (long)getpid()) >= (int)tmpsize) {
            fprintf(stderr, "%s_sim: invalid value '%s' for --out: path too long\n", m->name, out);
            tmp[0] = '\0';
            run_free(&r);
            return 2;
        }
        r.csv = fopen(tmp, "w");
        if (!r.csv) {
            fprintf(stderr, "%s_sim: cannot write --out %s (temporary %s): %s\n", m->name, out, tmp,
                    strerror(errno));
            tmp[0] = '\0';
            printf("status=error code=0 analysis=%s model=%s\n", an, m->name);
            run_free(&r);
            return 1;
        }
        full_header(r.csv, m);
    }

    char extra[512] = "";
    if (which == MB_CLI_STATIC || which == MB_CLI_MODAL) {
        mb_anl_static_info info;
        st = mb_anl_static(&r.a, 0, r.q, r.lam, &info);
        if (st) {
            fprintf(stderr, "%s_sim: %s analysis failed: ", m->name, an);
            if (info.why == MB_ANL_WHY_MAXITER)
                fprintf(stderr, "no equilibrium found in %d iterations: the loads keep doing work "
                        "(unbalanced load |Z^T Q| = %.3g of |M^-1/2 Q|, %d degrees of freedom); the "
                        "mechanism has no static equilibrium reachable from the model's guesses\n",
                        info.iters, (double)info.residual, info.dof);
            else if (info.why == MB_ANL_WHY_STALLED)
                fprintf(stderr, "the line search found no step that lowers the energy after %d "
                        "iterations (unbalanced load %.3g of |M^-1/2 Q|)\n", info.iters,
                        (double)info.residual);
            else if (info.why == MB_ANL_WHY_PROJECT)
                fprintf(stderr, "the constraints cannot be satisfied from the model's guesses (%s)\n",
                        mb_status_str(st));
            else
                fprintf(stderr, "%s\n", mb_status_str(st));
            fault = 1;
            code = st;
        } else {
            double pn, pdn, mon[4];
            norms(m, 0, r.q, r.v, r.ph, r.pq, &pn, &pdn);
            mon[0] = 0; mon[1] = pn; mon[2] = pdn; mon[3] = 0;
            snprintf(extra, sizeof extra, " iterations=%d rejected=%d escapes=%d dof=%d rank=%d "
                     "residual=%.3e stability=%s eig_min=%.9e eig_max=%.9e", info.iters,
                     info.rejected, info.escapes, info.dof, info.rank, (double)info.residual,
                     stability_name(info.stability), (double)info.eig_min, (double)info.eig_max);
            if (which == MB_CLI_STATIC && r.csv) {
                /* at rest: v = 0, acc = 0 */
                skipped += full_row(r.csv, m, 0, r.q, mon, r.pts, r.v, r.acc, r.lam);
                rows++;
            }
            if (!quiet || which == MB_CLI_STATIC) {
                if (info.stability < 0)
                    fprintf(stderr, "%s_sim: warning: the equilibrium found is unstable (reduced "
                            "stiffness eigenvalue %.6g 1/s^2 < 0)\n", m->name, (double)info.eig_min);
                if (info.rank < nc)
                    fprintf(stderr, "%s_sim: warning: Phi_q has rank %d < %d constraint equations "
                            "(redundant constraints: their reactions are not unique; the dependent "
                            "ones are reported as 0)\n", m->name, info.rank, nc);
            }
            if (which == MB_CLI_MODAL) {
#ifndef MB_NO_LAPACKE
                int d = 0;
                st = mb_anl_linearize(&r.a, 0, r.q, r.lam, &d);
                mode_t_ *md = NULL;
                int nm = st == MB_OK ? modal_modes(&r.a, &md) : -1;
                if (nm < 0) {
                    fprintf(stderr, "%s_sim: modal analysis failed: %s\n", m->name,
                            st ? mb_status_str(st) : "the eigenvalue solver (LAPACKE dgeev) failed");
                    fault = 1;
                    code = st ? st : MB_ERR_NONFINITE;
                } else {
                    if (info.stability < 0)
                        fprintf(stderr, "%s_sim: warning: modal analysis about an unstable "
                                "equilibrium: modes with a positive real part grow\n", m->name);
                    for (int k = 0; k < nm; k++)
                        printf("mode=%d freq_hz=%.9g damping_ratio=%.9g\n", k + 1, md[k].f, md[k].z);
                    if (r.csv) {   /* the equilibrium, then the mode shapes: not yet */
                        double pn2, pdn2, mon2[4];
                        norms(m, 0, r.q, r.v, r.ph, r.pq, &pn2, &pdn2);
                        mon2[0] = 0; mon2[1] = pn2; mon2[2] = pdn2; mon2[3] = 0;
                        skipped += full_row(r.csv, m, 0, r.q, mon2, r.pts, r.v, r.acc, r.lam);
                        rows++;
                    }
                    char *e = extra + strlen(extra);
                    snprintf(e, sizeof extra - (size_t)(e - extra), " modes=%d", nm);
                }
                free(md);
#else
                fprintf(stderr, "%s_sim: modal analysis needs LAPACKE (built with MB_NO_LAPACKE)\n",
                        m->name);
                fault = 1;
                code = MB_ERR_PARAM;
#endif
            }
        }
    } else {
        /* kinematic / inverse: the output times k h up to t_end; the energy balance
         * T + V - E0 - W (W: work of the loads and of the drivers, lambda^T Phi_t) as a check */
        long nsteps = (long)ceil(t_end / h - 1e-9);
        double E0 = 0, W = 0, pw_old = 0, max_dev = 0, max_phi = 0, max_eff = 0, t_old = 0;
        int dof = 0, why = 0, nout = 0;
        mb_real e3[3];
        mb_real *vold = calloc((size_t)n, sizeof(mb_real)), *aold = calloc((size_t)n, sizeof(mb_real));
        if (!vold || !aold) { fprintf(stderr, "%s_sim: out of memory\n", m->name); fault = 1; }
        for (long k = 0; !fault && k <= nsteps; k++) {
            double t = k == nsteps ? t_end : (double)k * h;
            if (k > 0) {   /* the guess: the previous solution extrapolated */
                double dt = t - t_old;
                for (int i = 0; i < n; i++)
                    r.q[i] += (mb_real)(dt * (double)vold[i] + 0.5 * dt * dt * (double)aold[i]);
            }
            st = mb_anl_kinematic(&r.a, (mb_real)t, r.q, r.v, r.acc, &dof, &why);
            if (st == MB_OK) st = mb_anl_inverse(&r.a, (mb_real)t, r.q, r.v, r.acc, r.lam);
            if (st) {
                fprintf(stderr, "%s_sim: %s analysis failed at t=%.9g: ", m->name, an, t);
                if (why == MB_ANL_WHY_DOF)
                    fprintf(stderr, "%d degree%s of freedom not driven (%d coordinates, %d "
                            "constraint equations); kinematic and inverse analysis need a "
                            "mechanism whose drivers leave none: add drivers, or use --analysis "
                            "dynamic\n", dof, dof == 1 ? "" : "s", n, nc);
                else if (why == MB_ANL_WHY_GAMMA || st == MB_ERR_MODEL)
                    fprintf(stderr, "the model has no gamma (built with MB_OMIT_GAMMA)\n");
                else if (st == MB_ERR_SINGULAR && r.a.singular_row >= 0 && m->constraint_names)
                    fprintf(stderr, "redundant or singular constraint: %s (equation %d of Phi): "
                            "Phi_q is rank-deficient (a singular position, or more constraint "
                            "equations than coordinates)\n", m->constraint_names[r.a.singular_row],
                            r.a.singular_row);
                else if (why == MB_ANL_WHY_PROJECT)
                    fprintf(stderr, "the positions do not satisfy the constraints (Newton from the "
                            "previous output did not converge: %s)\n", mb_status_str(st));
                else
                    fprintf(stderr, "%s\n", mb_status_str(st));
                fault = 1;
                code = st;
                break;
            }
            /* the energy balance: P_nc from the model, driver power lambda^T Phi_t */
            m->energy(m, (mb_real)t, r.q, r.v, e3);
            m->phi_t(m, (mb_real)t, r.q, r.ph);
            double pw = (double)e3[2];
            for (int j = 0; j < nc; j++) pw += (double)r.lam[j] * (double)r.ph[j];
            if (k == 0) E0 = (double)e3[0] + (double)e3[1];
            else W += (t - t_old) / 2 * (pw + pw_old);
            pw_old = pw;
            double dev = (double)e3[0] + (double)e3[1] - E0 - W, pn, pdn;
            if (fabs(dev) > max_dev) max_dev = fabs(dev);
            norms(m, t, r.q, r.v, r.ph, r.pq, &pn, &pdn);
            if (pn > max_phi) max_phi = pn;
            for (int rr = 0; rr < nc; rr++) {
                int kind;
                size_t len;
                int used = element_at(m, rr, &kind, &len);
                if (kind == EL_DRV && fabs((double)r.lam[rr]) > max_eff) max_eff = fabs((double)r.lam[rr]);
                rr += used - 1;
            }
            if (r.csv && (k % every == 0 || k == nsteps)) {
                double mon[4] = {dev, pn, pdn, 0};
                skipped += full_row(r.csv, m, t, r.q, mon, r.pts, r.v, r.acc, r.lam);
                rows++;
            }
            memcpy(vold, r.v, sizeof(mb_real) * (size_t)n);
            memcpy(aold, r.acc, sizeof(mb_real) * (size_t)n);
            t_old = t;
            nout++;
        }
        free(vold);
        free(aold);
        snprintf(extra, sizeof extra, " outputs=%d max_energy_dev=%.6e max_phi=%.6e max_effort=%.9g "
                 "t_end=%.9g", nout, max_dev, max_phi, max_eff, t_old);
    }

    if (r.csv) {
        int bad_io = ferror(r.csv);
        if (fclose(r.csv) != 0) bad_io = 1;
        if (bad_io || rows == 0) {
            if (bad_io) {
                fprintf(stderr, "%s_sim: cannot write %s: %s\n", m->name, out, strerror(errno));
                fault = 1;
            }
            remove(tmp);   /* nothing useful: no file */
        } else if (rename(tmp, out) != 0) {
            fprintf(stderr, "%s_sim: cannot write %s: %s\n", m->name, out, strerror(errno));
            remove(tmp);
            fault = 1;
        }
        tmp[0] = '\0';
    }
    if (skipped)
        fprintf(stderr, "%s_sim: warning: %d CSV rows with non-finite values not written\n",
                m->name, skipped);
    printf("status=%s code=%d analysis=%s model=%s%s wall_s=%.3f\n", fault ? "error" : "ok", code, an,
           m->name, extra, wall() - w0);
    run_free(&r);
    return fault ? 1 : 0;
}
