/* mb_sim_main.c - the one command-line simulator, compiled with one model (-DMB_MODEL=<name>).
 * Layer: host tool (tools/) on top of mb_sim.h; allocates and prints, the runtime never does.
 * Writes the CSV to a temporary file renamed at the end; always ends with a summary line. Its
 * options: one table, tools/mb_sim_options.c (parsed and checked by tools/mb_optable.c). */
#include <errno.h>
#include <float.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "mb_analysis_cli.h"
#include "mb_batch.h"
#include "mb_info.h"
#include "mb_input_file.h"
#include "mb_linalg.h"
#include "mb_linsys_klu.h"
#include "mb_plan_build.h"
#include "mb_progress.h"
#include "mb_sim.h"
#include "mb_sim_options.h"

#ifndef MB_MODEL
#error "compile with -DMB_MODEL=<model name>"
#endif
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define STR2(a) #a
#define STR(a) STR2(a)
extern const mb_model CAT(MB_MODEL, _model);
#if MB_WITH_GENERIC   /* the same model as data for the generic evaluator: --eval generic */
extern const mb_model CAT(MB_MODEL, _generic_model);
#endif
static const mb_model *model = &CAT(MB_MODEL, _model);   /* --eval chooses */
/* the descriptor the rows evaluate: the sim's copy once it exists (its inputs' current holds) */
static const mb_model *emodel;
static mb_input_table intab;     /* --input-file */
static mb_real *outbuf;          /* a row's sensors [nout] */

/* The defaults: the model file's run settings (its simulate { ... } block, mb_model.preset,
 * docs/model-language.md), else mb_params_default's and T_END_DEFAULT; options override them.
 * The preset is the generated descriptor's, also with --eval generic. */
#define T_END_DEFAULT 5.0

/* The simulator's options: one table (tools/mb_sim_options.c) parses them, refuses those
 * without effect and writes --help. */
static mb_optable opts;
static char prog[256];

static void usage(FILE *f)
{
    fprintf(f, "usage: %s_sim [options]   simulate the %s model\n", model->name, model->name);
    mb_opt_usage(&opts, -1, f);
    fputs("An option that has no effect with the analysis, formulation or integrator chosen is\n"
          "refused (exit 2; docs/cli.md).\n", f);
}

static int bad(const char *opt, const char *val, const char *why)
{
    fprintf(stderr, "%s_sim: invalid value '%s' for %s: %s\n", model->name, val ? val : "", opt, why);
    return 2;
}

/* The temporary CSV, removed when the run is interrupted (SIGINT, SIGTERM, SIGHUP): a killed
 * run leaves neither a partial CSV nor its temporary. SIGPIPE and SIGXFSZ are ignored instead
 * (a closed stdout or stderr, a file size limit): the writes fail, the run ends, and the rows
 * written so far are renamed into place. */
static char tmp[4096];
static void on_signal(int sig)
{
    if (tmp[0]) unlink(tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One CSV row; a row holding a non-finite value (NaN or Inf: e.g. energy_dev when the energy
 * itself overflows) is not written, and the first such row is named on stderr. A CSV never
 * holds NaN or Inf. */
static long rows_skipped;
static long rows_written;   /* data rows in the CSV: none (a failed assembly), no --out file */
/* the row at time t: positions q, velocities v (NULL: not known) and the monitors mo (after a
 * step, or interpolated) */
static void row(FILE *f, double t, const mb_real *q, const mb_real *v, const mb_monitor *mo,
                mb_real *pts)
{
    const double mon[4] = { (double)mo->energy_dev, (double)mo->phi_norm, (double)mo->phid_norm,
                            (double)mo->sigma_norm };
    static const char *const mon_names[4] = { "energy_dev", "phi_norm", "phid_norm", "sigma_norm" };
    const char *what = NULL;
    const mb_model *em = emodel ? emodel : model;
    if (model->points) model->points(model, (mb_real)t, q, pts);
    int have_y = em->nout > 0 && v && mb_cli_csv_outputs(em, (mb_real)t, q, v, outbuf);
    if (!isfinite(t)) what = "t";
    for (int i = 0; !what && i < model->nq; i++)
        if (!isfinite((double)q[i])) what = model->info->coord_names[i];
    for (int i = 0; !what && i < 4; i++)
        if (!isfinite(mon[i])) what = mon_names[i];
    for (int i = 0; !what && model->points && i < 2 * model->npoint; i++)
        if (!isfinite((double)pts[i])) what = model->info->point_names[i / 2];
    for (int i = 0; !what && have_y && i < em->nout; i++)
        if (!isfinite((double)outbuf[i])) what = em->out_names[i];
    if (what) {
        if (rows_skipped++ == 0)
            fprintf(stderr, "%s_sim: warning: CSV row at t=%.9g not written: %s is not a finite "
                    "number (a CSV never holds NaN or Inf)\n", model->name, t, what);
        return;
    }
    fprintf(f, "%.15g", t);
    for (int i = 0; i < model->nq; i++) fprintf(f, ",%.15g", (double)q[i]);
    fprintf(f, ",%.6e,%.6e,%.6e,%.6e", mon[0], mon[1], mon[2], mon[3]);
    if (model->points)
        for (int i = 0; i < 2 * model->npoint; i++) fprintf(f, ",%.15g", (double)pts[i]);
    mb_cli_csv_row(f, model, (mb_real)t, q, v);   /* velocities, accelerations, reactions */
    for (int i = 0; i < em->nin; i++)               /* inputs as the model sees them at t */
        fprintf(f, ",%.15g", (double)(em->in[3 * i] + em->in[3 * i + 1] * ((mb_real)t - em->in[3 * i + 2])));
    for (int i = 0; i < em->nout; i++) {            /* sensors (empty without velocities, or
                                                       reactions without multipliers) */
        if (have_y) fprintf(f, ",%.15g", (double)outbuf[i]);
        else fputc(',', f);
    }
    fputc('\n', f);
    rows_written++;
}

/* After a failed write: cut the temporary back to its last complete line (the rows before the
 * failure stay valid). Returns the number of bytes kept, 0 when not even the header is whole,
 * -1 when the file cannot be read back. */
static long keep_complete_rows(const char *path)
{
    FILE *f = fopen(path, "rb+");
    long keep = 0, pos = 0;
    int c;
    if (!f) return -1;
    while ((c = getc(f)) != EOF) {
        pos++;
        if (c == '\n') keep = pos;
    }
    int bad_io = ferror(f) || ftruncate(fileno(f), (off_t)keep) != 0;
    if (fclose(f) != 0) bad_io = 1;
    return bad_io ? -1 : keep;
}


/* The warnings (mb_sim.h: MB_WARN_*): one stderr line per condition met, with the first time
 * it was met, its value there, its threshold and what to do; returns how many. */
static const char *const warn_names[MB_NWARN] = {"newton", "energy", "constraint", "sigma", "stability",
                                                            "accuracy"};
/* A driver moves at the sim's state (dPhi/dt != 0 there or at t = 0): drivers do work */
static int driven(const mb_sim *s)
{
    int nc = model->nc, on = 0;
    mb_real *pt = nc > 0 ? malloc(sizeof(mb_real) * (size_t)nc) : NULL;
    for (int k = 0; pt && k < 2 && !on; k++) {
        model->phi_t(model, k ? mb_sim_get_t(s) : 0, mb_sim_get_q(s), pt);
        for (int i = 0; i < nc; i++) on |= pt[i] != 0;
    }
    free(pt);
    return on;
}

static int report_warnings(const mb_sim *s, const mb_params *p)
{
    const mb_monitor *mo = mb_sim_get_monitor(s);
    int count = 0;
    for (int k = 0; k < MB_NWARN; k++) {
        if (!(mo->warn & MB_WARN_BIT(k))) continue;
        double t = (double)mo->warn_t[k], v = (double)mo->warn_val[k];
        count++;
        fprintf(stderr, "%s_sim: warning: %s: first at t=%.9g: ", model->name, warn_names[k], t);
        switch (k) {
        case MB_WARN_NEWTON:
            if (p->adaptive == 2 && mo->maxiter_events == 0)   /* the held steps' count (mb_monitor.c) */
                fprintf(stderr, "%.0f steps (by the end %ld of %ld) were taken with sigma held after "
                        "a diverging Newton iteration (singular positions), more than 1 %%: the "
                        "error estimate does not bound them; --estimate-error measures the result",
                        v, mo->sigma_holds, mo->steps);
            else
                fprintf(stderr, "a Newton iteration stopped at max_iter %d above tol %.3g (the step was "
                        "kept); %ld such steps in the run; a smaller --h or a larger --max-iter",
                        p->max_iter, (double)p->tol, mo->maxiter_events);
            break;
        case MB_WARN_ENERGY:
            fprintf(stderr, "|energy deviation| = %.3g of the energy scale (threshold %.3g); by the "
                    "end max |energy deviation| %.3g J, energy scale %.3g J (max of T + |V - V0| + "
                    "|W|); a smaller --h or --rtol", v, (double)p->warn_energy,
                    (double)mo->max_energy_dev, (double)mo->escale);
            /* a driven mechanism under the penalty: W comes from the multipliers, whose
             * rounding grows with alpha / h, so a smaller --h can make it worse (cam_follower) */
            if ((p->formulation == MB_ALF_EXPLICIT || p->formulation == MB_ALF_TRAPEZOID) && driven(s))
                fprintf(stderr, "; the mechanism is driven: if a smaller --h makes it larger, the "
                        "drivers' work W (summed from the penalty's multipliers) may be what is "
                        "off: try --alpha 1e4 to 1e6 (now %.3g) and compare the positions",
                        (double)p->alpha);
            break;
        case MB_WARN_CONSTRAINT:
            fprintf(stderr, "|Phi| = %.3g of the length scale %.3g m (threshold %.3g); max |Phi| "
                    "%.3g m; a smaller --h or --rtol, or a larger omega", v, (double)mo->lscale,
                    (double)p->warn_phi, (double)mo->max_phi);
            break;
        case MB_WARN_SIGMA:
            fprintf(stderr, "sigma grows without bound: |Phi_q^T sigma| = %.3g x the momentum scale "
                    "%.3g (threshold %.3g), max |sigma| %.3g; the momenta p = M v + Phi_q^T sigma "
                    "lose about eps x that ratio of M v: --sigma-reset S keeps |sigma| below S",
                    v, (double)mo->pscale, (double)p->warn_sigma, (double)mo->max_sigma);
            break;
        case MB_WARN_ACCURACY:
            /* (the extrapolated trapezoid: its companion likewise, mb_trapezoid_control.c) */
            if (p->integrator == MB_DOPRI5 || p->integrator == MB_DOP853 || p->adaptive == 2) {
                fprintf(stderr, "the positions' global error is estimated at %.3g tolerances "
                        "(threshold %.3g; %.3g by the end) by a companion solution at twice the "
                        "step: the step control bounds each step's error by rtol/atol, not the "
                        "run's; --estimate-error measures it, a smaller --rtol or dop853 reduces "
                        "it (docs/formulations.md, \"Warnings\")", v, (double)mo->err_lim,
                        (double)mo->err_sum);
                break;
            }
            /* bdf and the step-controlled trapezoid: their signed sums (mb_bdf.c, acc_step;
             * mb_trapezoid_control.c, trap_acc) */
            fprintf(stderr, "the positions' error the steps' local errors add up to is "
                    "estimated at %.3g tolerances (threshold %.3g; %.3g by the end: the "
                    "position errors and the velocity errors times the time since, with "
                    "their signs): the step control bounds each step's error by rtol/atol, "
                    "not the run's; --estimate-error measures it, for long runs dop853 "
                    "(docs/formulations.md, \"Warnings\")", v, (double)mo->err_lim,
                    (double)mo->err_sum);
            break;
        default:
            fprintf(stderr, "a step far beyond the stability limit of %s: h |lambda| = %.3g x the "
                    "limit (threshold %.3g); a smaller --h, an adaptive --integrator or "
                    "alf-trapezoid", mb_integrator_name(p->integrator), v, (double)p->warn_stability);
            break;
        }
        fputc('\n', stderr);
    }
    return count;
}

/* After MB_ERR_NONFINITE: the model function that went non-finite after the last good state,
 * by name, when one did (a force's or a driver's function of time outside its domain, such as
 * sqrt(1 - t) after t = 1): the generalized forces and the constraints' Phi, dPhi/dt with q, v of
 * the last good step, at the times the failed step evaluated (the stage nodes of the step in use
 * and of the first step), then on a grid of NONFINITE_GRID times to t-end (an adaptive step that
 * crossed the bad time was rejected and shrunk: its length is gone). The first hit is named. */
#define NONFINITE_GRID 1024
static void nonfinite_source(const mb_sim *s, const mb_params *p, double t_end)
{
    static const double node[] = { 0, 0.2, 0.3, 0.5, 0.8, 8.0 / 9, 1 };
    const int nn = (int)(sizeof node / sizeof node[0]);
    int n = model->nq, nc = model->nc;
    mb_real *f = malloc(sizeof(mb_real) * (size_t)(n + 2 * nc + 1));
    if (!f) return;
    const mb_real *q = mb_sim_get_q(s), *v = mb_sim_get_v(s);
    double t0 = (double)mb_sim_get_t(s), hs[2] = { (double)mb_sim_get_h(s), (double)p->h };
    for (int k = 0; k < 2 * nn + NONFINITE_GRID; k++) {
        double tk = k < 2 * nn ? t0 + node[k % nn] * hs[k / nn]
                               : t0 + (t_end - t0) * (k - 2 * nn + 1) / NONFINITE_GRID;
        mb_real t = (mb_real)tk;
        model->force(model, t, q, v, f);
        if (nc > 0) {
            model->phi(model, t, q, f + n);
            model->phi_t(model, t, q, f + n + nc);
        }
        for (int i = 0; i < n + 2 * nc; i++) {
            if (isfinite((double)f[i])) continue;
            if (i < n)
                fprintf(stderr, "; the generalized force on %s (a force, torque, spring or damper "
                        "on that body, or gravity) is %s at t=%.9g, with q and v of the last good step",
                        model->info->coord_names[i], isnan((double)f[i]) ? "NaN" : "Inf", (double)t);
            else
                fprintf(stderr, "; %s of constraint %s (a driver's function of time, or a joint's "
                        "equation) is %s at t=%.9g, with q of the last good step",
                        i < n + nc ? "Phi" : "dPhi/dt",
                        model->info->constraint_names ? model->info->constraint_names[(i - n) % nc] : "?",
                        isnan((double)f[i]) ? "NaN" : "Inf", (double)t);
            free(f);
            return;
        }
    }
    free(f);
}

/* After a failed velocity assembly: the given initial velocities (held, they cannot all be met)
 * and the constraint whose velocity equation Phi_q v + Phi_t = 0 is missed most at the end. */
static void velocity_detail(const mb_sim *s)
{
    const mb_pattern *pat = &model->phi_q_pat;
    const mb_real *q = mb_sim_get_q(s), *v = mb_sim_get_v(s);
    mb_real *pq = malloc(sizeof(mb_real) * (size_t)(pat->nnz + 1));
    mb_real *w = malloc(sizeof(mb_real) * (size_t)(model->nc + 1));
    if (pq && w && model->nc > 0) {
        model->phi_q(model, 0, q, pq);
        model->phi_t(model, 0, q, w);
        for (int k = 0; k < pat->nnz; k++) w[pat->row[k]] += pq[k] * v[pat->col[k]];
        int worst = 0, shown = 0, given = 0;
        for (int i = 1; i < model->nc; i++)
            if (!(fabs((double)w[i]) <= fabs((double)w[worst]))) worst = i;
        for (int c = 0; c < model->nq; c++) given += model->v_given && model->v_given[c];
        fprintf(stderr, "; the given initial velocities ");
        for (int c = 0; c < model->nq && shown < 8; c++)
            if (model->v_given && model->v_given[c])
                fprintf(stderr, "%s%s = %.6g", shown++ ? ", " : "", model->info->coord_names[c], (double)v[c]);
        if (given > shown) fprintf(stderr, " and %d more", given - shown);
        if (!given) fprintf(stderr, "(none)");
        fprintf(stderr, " cannot all hold: the velocity constraints then leave |Phi_q v + Phi_t|_inf = "
                "%.3g at constraint %s (%d constraints in %d coordinates)", fabs((double)w[worst]),
                model->info->constraint_names ? model->info->constraint_names[worst] : "?", model->nc, model->nq);
    }
    free(pq);
    free(w);
}

/* The contact whose gap (sensor "<K>.gap") is least at the sim's state: its index in the
 * sensors, or -1 (no contact, or out of memory); its gap in *g. */
static int least_gap(const mb_sim *s, double *g)
{
    int best = -1;
    if (model->info->ncontact <= 0 || model->nout <= 0) return -1;
    mb_real *y = malloc(sizeof(mb_real) * (size_t)model->nout);
    int *gap = malloc(sizeof(int) * (size_t)model->nout);
    int ng = y && gap ? mb_event_sensors(model, gap) : 0;
    if (ng > 0) model->outputs(model, mb_sim_get_t(s), mb_sim_get_q(s), mb_sim_get_v(s), y, NULL, NULL);
    for (int k = 0; k < ng; k++)
        if (best < 0 || (double)y[gap[k]] < *g) { best = gap[k]; *g = (double)y[gap[k]]; }
    free(y);
    free(gap);
    return best;
}

/* A contact that starts deeper than 1e-3 of the length scale inside: its force pushes from
 * the first step, which is seldom meant (a line's direction flipped puts the body on its
 * inner side). A note, not a warning: a preloaded start is legitimate. */
static void contact_start_note(const mb_sim *s)
{
    double g = 0, ls = (double)mb_sim_get_monitor(s)->lscale;
    int k = least_gap(s, &g);
    if (k < 0 || !(g < -1e-3 * (ls > 0 ? ls : 1))) return;
    size_t n = strlen(model->out_names[k]) - 4;
    fprintf(stderr, "%s_sim: note: contact \"%.*s\" starts %.3g m inside (gap %.3g m at t = 0, "
            "%.2g of the length scale %.3g m): its force pushes the bodies apart from the first "
            "step; if that is not meant, check the initial positions or the line's direction (its "
            "left side is outside)\n", model->name, (int)n, model->out_names[k], -g, g, -g / ls, ls);
}

/* What failed and its size, appended to a fault message: the step in use, the system that
 * could not be solved (dimension) and the quantity that left its bounds. */
static void fault_detail(const mb_sim *s, const mb_params *p, int st, double t_end)
{
    if (st == MB_ERR_ASSEMBLY_VEL) { velocity_detail(s); return; }   /* no step taken */
    const mb_monitor *mo = mb_sim_get_monitor(s);
    int n = model->nq, nc = model->nc;
    double h = (double)mb_sim_get_h(s);
    fprintf(stderr, "; h=%.3g s", h);
    if (st == MB_ERR_SINGULAR || st == MB_ERR_NOT_SPD) {
        if (p->formulation == MB_ALF_TRAPEZOID)
            fprintf(stderr, "; Newton matrix (5.52) %d x %d", n, n);
        else if (p->formulation == MB_ALF_EXPLICIT)
            fprintf(stderr, "; M + Phi_q^T alpha Phi_q %d x %d", n, n);
        else
            fprintf(stderr, "; Phi_q M^-1 Phi_q^T %d x %d (KKT Schur complement)%s", nc, nc,
                    p->project_velocity ? " or velocity projection" : "");
        if (mo->singular_row >= 0)   /* the pivot of S that vanished, by name */
            fprintf(stderr, "; redundant or singular constraint: %s (equation %d of Phi)",
                    model->info->constraint_names ? model->info->constraint_names[mo->singular_row] : "?",
                    mo->singular_row);
        if (p->formulation != MB_ALF_TRAPEZOID && mo->min_pivot_ratio < p->rank_tol)
            fprintf(stderr, ", pivot ratio %.3g < rank_tol %.3g", (double)mo->min_pivot_ratio,
                    (double)p->rank_tol);
        else if (p->formulation != MB_ALF_TRAPEZOID)   /* a near-singular step that broke down */
            fprintf(stderr, ", pivot ratio %.3g < sqrt(rank_tol) %.3g in the step, which broke the "
                    "energy balance or the constraints", (double)mo->min_pivot_ratio,
                    sqrt((double)p->rank_tol));
    } else if (st == MB_ERR_NEWTON) {
        fprintf(stderr, "; no correction below tol %.3g within max_iter %d; Newton matrix %d x %d",
                (double)p->tol, p->max_iter, n, n);
        if (p->strict_newton)   /* the step may have been merely slow, not diverging */
            fprintf(stderr, "; --strict makes every step not converged within max_iter an error");
        double g = 0;
        int k = least_gap(s, &g);
        if (k >= 0 && g <= 0)   /* a stiff contact's touch: the step, not the model, is at fault */
            fprintf(stderr, "; contact \"%.*s\" is touching (gap %.3g m at the last good step): a "
                    "stiff contact (its k, or friction's slope mu f / v_stick) can defeat Newton at a "
                    "fixed step, and a smaller --h may not help: an adaptive run (--rtol 1e-6, or "
                    "--integrator bdf --rtol 1e-6) cuts the step where Newton fails",
                    (int)(strlen(model->out_names[k]) - 4), model->out_names[k], g);
    } else if (st == MB_ERR_STEP_UNDERFLOW) {
        fprintf(stderr, "; the adaptive step fell below its minimum (rtol %.3g, atol %.3g)",
                (double)p->rtol, (double)p->atol);
    } else if (st == MB_ERR_SUSPECT) {
        for (int k = 0; k < MB_NWARN; k++)
            if (mo->warn & MB_WARN_BIT(k) && mo->warn_t[k] == mb_sim_get_t(s))
                fprintf(stderr, "; --strict: warning %s (below)", warn_names[k]);
    } else if (st == MB_ERR_MAX_STEPS) {
        fprintf(stderr, "; max_steps %ld (--max-steps) accepted steps before t-end, %ld rejected",
                p->max_steps, mo->rejected);
    } else if (st == MB_ERR_NONFINITE) {
        const mb_real *q = mb_sim_get_q(s), *v = mb_sim_get_v(s);
        double qm = 0, vm = 0;
        for (int i = 0; i < n; i++) {
            if (fabs((double)q[i]) > qm) qm = fabs((double)q[i]);
            if (fabs((double)v[i]) > vm) vm = fabs((double)v[i]);
        }
        fprintf(stderr, "; at the last good step max |q| = %.3g, max |v| = %.3g (%d coordinates)",
                qm, vm, n);
        nonfinite_source(s, p, t_end);
    }
}

/* After a failed assembly: the largest constraint residual at the last iterate and its name. */
static void assembly_detail(const mb_sim *s, const mb_params *p)
{
    mb_real *ph = malloc(sizeof(mb_real) * (size_t)(model->nc + 1));
    if (!ph) return;
    model->phi(model, 0, mb_sim_get_q(s), ph);
    int worst = 0;
    for (int i = 1; i < model->nc; i++)
        if (!(fabs((double)ph[i]) <= fabs((double)ph[worst]))) worst = i;
    if (model->nc > 0)
        fprintf(stderr, "; |Phi|_inf = %.3g at constraint %s (tolerance %.3g, at most %d Newton "
                "iterations, %d constraints in %d coordinates)", fabs((double)ph[worst]),
                model->info->constraint_names ? model->info->constraint_names[worst] : "?",
                (double)p->asm_tol, p->asm_max_iter, model->nc, model->nq);
    free(ph);
}

/* The workspace: malloc'd per run; with --batch one for every row, grown when a row needs more
 * and zeroed before each (as a fresh allocation of its size is). */
static int work_keep;
static void *work_kept;
static size_t work_kept_n;
static void *work_get(size_t n)
{
    if (!work_keep) return malloc(n);
    if (n > work_kept_n) {
        free(work_kept);
        work_kept_n = 0;
        if (!(work_kept = malloc(n))) return NULL;
        work_kept_n = n;
    }
    memset(work_kept, 0, n);
    return work_kept;
}
static void work_put(void *p)
{
    if (!work_keep) free(p);
}

/* What main allocates beside the run's own buffers: the plan of a model without one and the
 * KLU back end. cleanup(rc) frees both and returns rc (main runs more than once when fuzzed). */
static mb_plan *own_plan;
static mb_linsys_ops *klu;
static mb_real *set_mass;     /* --set: the mass diagonal at the values given */
static int cleanup(int rc)
{
    free(set_mass);
    set_mass = NULL;
    mbp_free(own_plan);
    mb_klu_close(klu);
    mb_cli_csv_close();
    mb_input_table_free(&intab);
    free(outbuf);
    outbuf = NULL;
    own_plan = NULL;
    klu = NULL;
    return rc;
}

#define MAX_PAR 1000    /* tunables of a model (generator/model.lua: MAX_TUNABLES) */

typedef mb_sim_cli cli;   /* what the command line asks for (tools/mb_sim_options.h) */

/* One run: the simulation, its memory and how it went. */
typedef struct run_state {
    mb_sim_storage sim_mem, sh_mem, fc_mem;   /* the runs' simulation objects */
    mb_sim *sim;               /* in sim_mem */
    void *work;
    mb_real *pts;              /* the points of a CSV row */
    unsigned char *dep;        /* the redundant constraint equations (mb_cli_redundant) */
    size_t ws;
    FILE *csv;                 /* the temporary CSV (tmp), NULL without --out */
    int st, fault;             /* the last status; 1: the run failed (status=error) */
    double w0;                 /* wall clock at the start */
    /* --estimate-error: the second run (rtol/10, atol/10 or h/2), compared at the output rows */
    mb_sim *sh;                /* in sh_mem */
    void *shw;
    mb_real *lam, *lam2;       /* the two runs' multipliers at a row */
    mb_real *q2, *v2;          /* the second run's state at a row (adaptive: dense output) */
    int sh_on, sh_st;          /* the second run is going; its failure (< 0), else MB_OK */
    long sh_rows;              /* rows compared */
    double eq, ev, er;         /* the largest differences of q, v and the multipliers */
    /* fixed steps' accuracy companion (--warn-error): the run again at 2h, in lock-step */
    mb_sim *fc;                /* in fc_mem */
    void *fcw;
    double *fcwt;              /* the coordinates' weights (companion_init) */
    mb_real *fcpt;             /* the named points of both runs */
    int fc_on, fc_st, fc_order;   /* going; its failure (< 0); the method's order p */
    double fc_lim, fc_max;     /* the threshold; the largest estimate so far */
    double fc_t, fc_val;       /* the first comparison above the threshold (fc_t < 0: none) */
} run_state;

/* An option given on the command line that has no effect with the analysis, formulation or
 * integrator chosen is refused (exit 2), never silently ignored: the table names the option,
 * what it steers and what was chosen (docs/cli.md, "Options that do not apply"): first those of
 * the dynamic run, then the time grid. Returns 1 after saying so, 0 when every option applies. */
static int no_effect(const cli *c)
{
    int i = c->integ >= 0 ? c->integ : c->form == MB_ALF_TRAPEZOID ? MB_TRAPEZOID : MB_RK4;
    mb_opt_ctx x = { c->analysis, c->form, i, c->trap_adaptive };
    return mb_opt_refuse(&opts, MB_SIM_G_DYNAMIC, c->given, c, &x) ||
           mb_opt_refuse(&opts, MB_SIM_G_TIME, c->given, c, &x);
}

/* Whether integrator i fits formulation f: the runtime's own rule (mb_params_check on the
 * defaults of f with i), so the simulator never keeps a second copy of it. */
static int pair_fits(int f, int i)
{
    mb_params q;
    mb_params_default(&q, f);
    q.integrator = i;
    return mb_params_check(&q, NULL) == MB_OK;
}

/* The integrator fits the formulation: else refused with the integrators this formulation takes
 * (listed from pair_fits). Returns 1 after saying so, else 0. */
static int integrator_fits(const cli *c)
{
    int f = c->form, i = c->integ;
    if (c->analysis != MB_CLI_DYNAMIC || i < 0 || f < 0 || f > 3 || pair_fits(f, i)) return 0;
    char takes[96] = "";
    int ok[8], nok = 0, k = 0;
    for (int j = 0; j < 8 && strcmp(mb_integrator_name(j), "?") != 0; j++)
        if (pair_fits(f, j)) ok[nok++] = j;
    for (k = 0; k < nok; k++) {
        size_t l = strlen(takes);
        snprintf(takes + l, sizeof takes - l, "%s%s", k == 0 ? "" : k == nok - 1 ? " or " : ", ",
                 mb_integrator_name(ok[k]));
    }
    fprintf(stderr, "%s_sim: --integrator %s does not fit --formulation %s: %s takes %s%s\n", model->name,
            mb_integrator_name(i), mb_formulation_name(f), mb_formulation_name(f), takes,
            i == MB_HHT ? " (hht integrates the index-3 equations with Lagrange multipliers: baumgarte's)"
            : i == MB_BDF ? " (alf-explicit's iterated right-hand side is too noisy for bdf's difference Jacobian)"
            : "");
    return 1;
}

/* --eval: the model functions chosen, which must run this model (the option table calls it). */
const char *mb_sim_eval_accept(int eval)
{
    if (eval == 0) model = &CAT(MB_MODEL, _model);
#if MB_WITH_GENERIC
    else model = &CAT(MB_MODEL, _generic_model);
#else
    else return "expected generated or generic (when built with the generic evaluator)";
#endif
    if (model->nq == 0)   /* emit_data.lua leaves it empty: removed equations, inputs, ... */
        return "the generic evaluator does not run this model: it was generated with "
               "mbgen --redundant remove, or it has inputs, sensors, actuators, joint torques, "
               "contacts, loads that depend on the state or a cam profile given as a function "
               "(generated/<model>_data.c says which)";
    return NULL;
}

/* The step and the output grid: --t-end / --h within 2e9 steps; --every K steps (fixed step) or
 * an output interval in seconds (adaptive: the rows are interpolated by the integrator's dense
 * output). Returns -1 to go on, else 2 after saying why. */
static int output_grid(cli *c)
{
    if (c->t_end / c->h > 2e9) {
        fprintf(stderr, "%s_sim: invalid values --t-end %g and --h %g: %.3g steps (at most 2e9)\n",
                model->name, c->t_end, c->h, c->t_end / c->h);
        return 2;
    }
    c->dt_out = c->h;
    if (c->every_arg && c->adaptive) {
        const char *why = mb_opt_num(c->every_arg, &c->dt_out);
        if (why) return bad("--every", c->every_arg, why);
        if (!(c->dt_out > 0)) return bad("--every", c->every_arg, "must be > 0 (seconds between rows of an adaptive run)");
    } else if (c->every_arg) {
        char *end;
        long k;
        errno = 0;
        k = strtol(c->every_arg, &end, 10);
        if (!*c->every_arg || *end || errno || k < 1 || k > 1000000000L)
            return bad("--every", c->every_arg, "expected an integer >= 1 (steps between rows of a fixed-step run)");
        c->every = (int)k;
    }
    if (c->adaptive && c->t_end / c->dt_out > 2e9) {
        fprintf(stderr, "%s_sim: invalid values --t-end %g and output interval %g: %.3g rows (at most 2e9)\n",
                model->name, c->t_end, c->dt_out, c->t_end / c->dt_out);
        return 2;
    }
    return -1;
}

/* The options fit together: the analyses' own (--about, --input, ...), the integrator and the
 * formulation, each option given has an effect, and --out names a regular file. Returns -1 to
 * go on, else 2 after saying why. */
static int fits_together(const cli *c, int integ_used)
{
    if (mb_opt_refuse(&opts, MB_SIM_G_ANALYSIS, c->given, c,
                      &(mb_opt_ctx){ c->analysis, c->form, integ_used, c->trap_adaptive }))
        return 2;
    const char *awhy = mb_cli_analysis_check(c->analysis, &c->anl);
    if (awhy) { fprintf(stderr, "%s_sim: %s\n", model->name, awhy); return 2; }
    if (integrator_fits(c) || no_effect(c)) return 2;
    struct stat sb;   /* the CSV replaces --out by rename: only ever a regular file */
    if (c->out && !strcmp(c->out, "-"))   /* "-" is no stdout here: a file named "-" would be a surprise */
        return bad("--out", c->out, "the CSV goes to a regular file (written to a temporary and renamed), not to stdout (the summary line goes there); give a file name");
    if (c->out && stat(c->out, &sb) == 0 && !S_ISREG(sb.st_mode)) return bad("--out", c->out, "exists and is not a regular file");
    return -1;
}

/* The options, checked. Returns -1 to go on, else the exit status (--help: 0, a bad option: 2).
 * The defaults: the model file's run settings (mb_model.preset), else mb_params_default's. */
static int parse_args(int argc, char **argv, cli *c)
{
    const mb_preset *pr = model->preset;
    mb_params dflt;
    mb_params_default(&dflt, MB_ALF_TRAPEZOID);   /* its step: the default without a preset */
    snprintf(prog, sizeof prog, "%s_sim", model->name);
    mb_sim_options(&opts, prog);
    mb_sim_cli_reset(c);   /* main runs more than once when fuzzed */
    c->h = pr && pr->h > 0 ? pr->h : (double)dflt.h;
    c->t_end = pr && pr->t_end > 0 ? pr->t_end : T_END_DEFAULT;
    int rc = mb_opt_parse(&opts, argc, argv, c, c->given, usage);
    if (rc >= 0) return rc;
    /* hht integrates baumgarte's equations (docs/formulations.md): the formulation when none is
     * given; any other is refused by mb_params_check */
    if (c->form < 0) c->form = c->integ == MB_HHT ? MB_BAUMGARTE : MB_ALF_TRAPEZOID;
    int integ_used = c->integ >= 0 ? c->integ : c->form == MB_ALF_TRAPEZOID ? MB_TRAPEZOID : MB_RK4;
    c->trap_adaptive = integ_used == MB_TRAPEZOID && (c->o_rtol > 0 || c->o_atol > 0);
    c->adaptive = MB_ADAPTIVE(integ_used) || c->trap_adaptive;
    if (c->max_err > 0) c->est = 1;   /* --max-error needs the estimate */
    if ((rc = output_grid(c)) >= 0) return rc;
    return fits_together(c, integ_used);
}

/* The run's parameters: mb_params_default, the model file's settings for the formulation, the
 * options. Returns -1 to go on or the exit status 2. */
static int build_params(cli *c, mb_params *p)
{
    const mb_preset *pr = CAT(MB_MODEL, _model).preset;   /* also with --eval generic */
    mb_params_default(p, c->form);
    if (c->integ >= 0) p->integrator = c->integ;
    p->h = (mb_real)c->h;
    mb_params_preset(p, pr, c->form);   /* the model file's settings for this formulation (those given) */
    if (c->o_rtol > 0) p->rtol = (mb_real)c->o_rtol;
    if (c->o_atol > 0) p->atol = (mb_real)c->o_atol;
    /* --extrapolate: a soft stabilization unless --xi / --omega say otherwise (with xi omega h
     * >> 1 the extrapolation falls back to order 2: docs/formulations.md, "Long runs") */
    if (c->extrap) { p->xi = 1; p->omega = 1; }
    if (c->o_alpha > 0) p->alpha = (mb_real)c->o_alpha;
    if (c->o_xi >= 0) p->xi = (mb_real)c->o_xi;
    if (c->o_omega >= 0) p->omega = (mb_real)c->o_omega;
    if (c->o_tol > 0) p->tol = (mb_real)c->o_tol;
    if (c->o_maxit > 0) p->max_iter = c->o_maxit;
    if (c->o_hht <= 0) p->hht_alpha = (mb_real)c->o_hht;
    /* the step control of alf-trapezoid: switched on by a tolerance (docs/cli.md) */
    if (p->integrator == MB_TRAPEZOID && (c->o_rtol > 0 || c->o_atol > 0)) p->adaptive = c->extrap ? 2 : 1;
    if (c->o_maxsteps > 0) p->max_steps = c->o_maxsteps;
    else if (!MB_PARAMS_ADAPTIVE(p) && c->t_end / c->h + 2 > (double)p->max_steps)
        p->max_steps = (long)(c->t_end / c->h) + 2;   /* the default never cuts a fixed-step run short */
    if (c->o_sreset >= 0) p->sigma_reset = (mb_real)c->o_sreset;
    if (c->o_cap >= 0) p->baumgarte_cap = (mb_real)c->o_cap;
    p->project_velocity = c->proj;
    p->strict_newton = c->strict;
    p->strict = c->strict;
    p->dense = !c->trap_adaptive && c->adaptive && (c->out != NULL || c->est);   /* only the rows need it */
    mb_real *warn_p[5] = {&p->warn_energy, &p->warn_phi, &p->warn_sigma, &p->warn_stability,
                          &p->warn_accuracy};
    for (int i = 0; i < 5; i++) if (c->o_warn[i] >= 0) *warn_p[i] = (mb_real)c->o_warn[i];
    p->full_jacobian = c->fulljac;
    if (c->reuse >= 0) p->newton_reuse = c->reuse;
    p->events = c->events != 0;
    /* default: the generated plan's kernels for generated code, SuiteSparse KLU for the generic
     * evaluator (a general sparse library: what generated code is compared against) */
    if (c->linsys < 0) c->linsys = model->data ? LINSYS_KLU : MB_LINSYS_SPARSE;
    if (c->linsys != LINSYS_KLU) p->linsys = c->linsys;
    const char *what;
    if (mb_params_check(p, &what)) {   /* before anything is allocated */
        fprintf(stderr, "%s_sim: invalid parameters: %s\n", model->name, what);
        return 2;
    }
    return -1;
}

/* The names --set takes, for a message: the tunables with their defaults, then the inputs. */
static void list_settable(void)
{
    if (model->npar == 0 && model->nin == 0) {
        fprintf(stderr, "the model has none%s\n", model->data ? " in the generic "
                "evaluator (it runs tunables at their defaults; use --eval generated)" : "");
        return;
    }
    fprintf(stderr, "the tunables are:");
    if (model->npar == 0) fprintf(stderr, " none");
    for (int i = 0; i < model->npar; i++)
        fprintf(stderr, " %s (default %.17g)", model->par_names[i], (double)model->par[i]);
    fprintf(stderr, "; the inputs are:");
    if (model->nin == 0) fprintf(stderr, " none");
    for (int i = 0; i < model->nin; i++)
        fprintf(stderr, " %s (default %.17g)", model->in_names[i], (double)model->in[3 * i]);
    fputc('\n', stderr);
}

/* --set: a copy of the descriptor whose par (and, when M depends on them, mass) hold the values
 * given, each checked against the model's rules (mb_model.par_check) before anything runs, and
 * whose input holds start at the values given to inputs (held from t = 0 in place of the model
 * file's default): the simulation (mb_sim_init starts from the descriptor's par and in) and the
 * analyses both use it. An input that --input-file also gives is refused (the file would set it
 * from its first row on, so the --set value would never apply). Returns 0, or 2 after naming
 * the problem (an unknown name lists the tunables and the inputs). */
static int apply_sets(const cli *c)
{
    static mb_model tuned;
    static mb_real par[MAX_PAR], hold[3 * MAX_PAR];
    if (model->npar > MAX_PAR || model->nin > MAX_PAR) {
        fprintf(stderr, "%s_sim: --set: more than " STR(MAX_PAR) " tunables or inputs\n", model->name);
        return 2;
    }
    for (int i = 0; i < model->npar; i++) par[i] = model->par[i];
    for (int i = 0; i < 3 * model->nin; i++) hold[i] = model->in[i];
    for (int k = 0; k < c->nset; k++) {
        const char *s = c->set[k], *e = strchr(s, '=');
        size_t len = (size_t)(e - s);
        int idx = -1, in_idx = -1;
        for (int i = 0; i < model->npar && idx < 0; i++)
            if (strlen(model->par_names[i]) == len && !strncmp(model->par_names[i], s, len)) idx = i;
        for (int i = 0; i < model->nin && idx < 0 && in_idx < 0; i++)
            if (strlen(model->in_names[i]) == len && !strncmp(model->in_names[i], s, len)) in_idx = i;
        if (idx < 0 && in_idx < 0) {
            fprintf(stderr, "%s_sim: --set %s: unknown tunable or input '%.*s'; ", model->name, s, (int)len, s);
            list_settable();
            return 2;
        }
        mb_real *dst = idx >= 0 ? &par[idx] : &hold[3 * in_idx];
        *dst = (mb_real)strtod(e + 1, NULL);   /* checked by parse_args */
        if (!isfinite((double)*dst)) {
            fprintf(stderr, "%s_sim: --set %s: not a finite number in this precision\n", model->name, s);
            return 2;
        }
        /* a subnormal value (or one that rounds to 0 in this precision) keeps too few digits
         * and its reciprocal overflows: a mass of 1e-320 made M^-1 infinite, which the start-up
         * check then called a redundant joint */
        double lo = sizeof(mb_real) == sizeof(float) ? (double)FLT_MIN : DBL_MIN;
        if (strtod(e + 1, NULL) != 0 && !(fabs((double)*dst) >= lo)) {
            fprintf(stderr, "%s_sim: --set %s: not a normal number in this precision (nonzero "
                    "magnitudes start at %.3g; a subnormal value loses digits and its reciprocal "
                    "overflows)\n", model->name, s, lo);
            return 2;
        }
        int in_file = 0;   /* (setup reads --input-file first) */
        for (int j = 0; in_idx >= 0 && j < intab.ncol; j++) in_file |= intab.col_in[j] == in_idx;
        if (in_file) {
            fprintf(stderr, "%s_sim: --set %s: --input-file %s also gives input '%s' (from its first "
                    "row on, so the --set value would never apply): give it in one of them\n",
                    model->name, s, c->input_file, model->in_names[in_idx]);
            return 2;
        }
    }
    int r = model->npar > 0 && model->par_check ? model->par_check(par) : -1;
    if (r >= 0) {
        fprintf(stderr, "%s_sim: --set:", model->name);
        for (int k = 0; k < c->nset; k++) fprintf(stderr, " %s", c->set[k]);
        fprintf(stderr, ": the values break the model's rule %s\n", model->par_rules[r]);
        return 2;
    }
    tuned = *model;
    tuned.par = par;
    if (model->nin > 0) tuned.in = hold;
    if (model->par_mass) {
        if (!(set_mass = malloc(sizeof(mb_real) * (size_t)model->nq))) {
            fprintf(stderr, "%s_sim: out of memory\n", model->name);
            return 2;
        }
        model->par_mass(&tuned, set_mass);
        tuned.mass = set_mass;
    }
    model = &tuned;
    return 0;
}

/* --input-file's holds at t into a second run (--estimate-error's, the accuracy companion):
 * the table keeps the row it applied last, the first run's, and skips that row again, which
 * left a second run at the inputs' defaults; here it is applied whatever the table kept, and
 * that put back (mb_sim_set_input leaves an unchanged hold as it is). */
static void inputs_second(mb_sim *s, double t, int foh)
{
    int applied = intab.applied;
    long row = intab.row;
    intab.applied = 0;
    mb_input_table_apply(&intab, s, t, foh);
    intab.applied = applied;
    intab.row = row;
}

/* A second run (--estimate-error's, the accuracy companion) to the first run's start: the
 * inputs at t = 0, the reset, and the redundant rows the first run found (nred of them) */
static int second_start(const cli *c, run_state *r, mb_sim *s2, int nred)
{
    if (intab.nrow > 0) inputs_second(s2, 0, c->foh);
    int st = mb_sim_reset(s2, 0, NULL, NULL, 1);
    if (st == MB_OK && nred > 0) (void)mb_sim_set_redundant_rows(s2, r->dep);
    return st;
}

/* ------------------------------------------------------------------ fixed steps' accuracy
 * A fixed-step run has no error estimate: rk4 on canonical at h = 1e-3 swings the crank-rocker
 * of docs/validation.md (section 10) 1.8e-3 of its size off in 20 s, silently (the energy it
 * loses near the crank's turning point shifts the phase). The simulator estimates the positions' global
 * error by global Richardson extrapolation, as dopri5's companion does in the runtime (mb_rk.c,
 * ge_step): a second run of the same method at 2h from the same start, compared at every
 * second step point, where its error is about 2^p times the run's (order p: rk4 4, hht and
 * the trapezoid 2), so (run - companion) / (2^p - 1) estimates the run's error. Its largest
 * value over the named points and the coordinates as lengths (an angle's times its body's
 * half length), in units of the mechanism's size L (mon.lscale), past --warn-error E (default
 * 1e-3) is the accuracy warning. In the tool, not the runtime: the run is not touched (its
 * rows are those without it) and no firmware build carries it. Cost:
 * the companion's steps, half the run's. A companion that fails (its step beyond a stability
 * limit or a singular position the run passes) ends the comparison without a warning. */
#define FC_DEFAULT 1e-3
static void companion_free(run_state *r)
{
    free(r->fcw);
    free(r->fcwt);
    free(r->fcpt);
    r->fcw = NULL;
    r->fcwt = NULL;
    r->fcpt = NULL;
    r->fc_on = 0;
}
static void companion_init(const cli *c, const mb_params *p, run_state *r)
{
    r->fc_on = 0;
    r->fcw = NULL;
    r->fcwt = NULL;
    r->fcpt = NULL;
    r->fc_max = 0;
    r->fc_t = -1;
    r->fc_lim = c->o_warn_err >= 0 ? c->o_warn_err : FC_DEFAULT;
    if (c->adaptive || !(r->fc_lim > 0)) return;
    r->fc_order = p->integrator == MB_RK4 ? 4 : 2;   /* hht, the trapezoid */
    mb_params p2 = *p;
    p2.h = 2 * p->h;
    p2.strict = p2.strict_newton = 0;   /* its warnings are not the run's */
    size_t ws2 = mb_sim_workspace_size(model, &p2);
    r->fc = mb_sim_of(&r->fc_mem);
    r->fcw = ws2 ? malloc(ws2) : NULL;
    r->fcwt = malloc(sizeof(double) * (size_t)(model->nq + 1));
    r->fcpt = model->points ? malloc(sizeof(mb_real) * (size_t)(4 * model->npoint + 1)) : NULL;
    if (r->fcw && r->fcwt && mb_sim_init(r->fc, model, &p2, r->fcw, ws2) == MB_OK) r->fc_on = 1;
    else { companion_free(r); return; }
    /* an angle's error as a length: how far it moves the ends of a uniform bar of the body's
     * inertia, sqrt(3 J / m) (J about the centre of mass, m the body's mass: the coordinate
     * before, its y); 1 m without the names */
    for (int i = 0; i < model->nq; i++) {
        const char *nm = model->info ? model->info->coord_names[i] : NULL;
        size_t l = nm ? strlen(nm) : 0;
        r->fcwt[i] = 1;
        if (l > 4 && !strcmp(nm + l - 4, ".phi") && i > 0 && model->mass[i - 1] > 0)
            r->fcwt[i] = sqrt(3 * (double)model->mass[i] / (double)model->mass[i - 1]);
    }
}

/* After a step of the run to t: the companion to t (one step of 2h every second step), compared
 * there. Returns 1 when the comparison raised the warning with --strict (the run stops). */
static int companion_cmp(const cli *c, const mb_params *p, run_state *r)
{
    if (!r->fc_on || r->fc_st < 0) return 0;
    double t = (double)mb_sim_get_t(r->sim), tol = 1e-9 * c->h;
    while ((double)mb_sim_get_t(r->fc) < t - tol) {
        double t0 = (double)mb_sim_get_t(r->fc);
        if (intab.nrow > 0) inputs_second(r->fc, t0, c->foh);
        int st = mb_sim_step(r->fc, (mb_real)c->t_end);
        if (st < 0) {
            if (!c->quiet)
                fprintf(stderr, "%s_sim: note: the accuracy companion at twice the step stopped at "
                        "t=%.9g (%s): no accuracy estimate after it\n", model->name,
                        (double)mb_sim_get_t(r->fc), mb_status_str(st));
            r->fc_st = st;
            return 0;
        }
        /* rk4's companion beyond its stability limit at 2h (its monitor's h |lambda| / limit,
         * beyond it at two of three steps): its error grows by the instability, not by 2^p
         * times the run's (the forced oscillator at h = 2.5e-4: estimated 1e-3 of its size at
         * t = 0.037, the run 9e-11 m off); stopped as a failed step is */
        double sf = (double)mb_sim_get_monitor(r->fc)->stiffness;
        if (sf > 1) {
            if (!c->quiet)
                fprintf(stderr, "%s_sim: note: the accuracy companion at twice the step went "
                        "beyond the stability limit (h |lambda| = %.3g x the limit) at t=%.9g: no "
                        "accuracy estimate after it\n", model->name, sf,
                        (double)mb_sim_get_t(r->fc));
            r->fc_st = MB_ERR_SUSPECT;
            return 0;
        }
    }
    if (fabs((double)mb_sim_get_t(r->fc) - t) > tol) return 0;   /* between its steps */
    const mb_real *q = mb_sim_get_q(r->sim), *q2 = mb_sim_get_q(r->fc);
    double L = (double)mb_sim_get_monitor(r->sim)->lscale, a = (double)((1 << r->fc_order) - 1), e = 0;
    if (!(L > 0)) L = 1;
    for (int i = 0; i < model->nq; i++) {   /* the coordinates as lengths (fcwt) */
        double d = fabs((double)q[i] - (double)q2[i]) * r->fcwt[i];
        if (d > e || d != d) e = d;
    }
    if (model->points && r->fcpt) {   /* and the named points (a CSV's x, y columns) */
        int np = model->npoint;
        model->points(model, (mb_real)t, q, r->fcpt);
        model->points(model, (mb_real)t, q2, r->fcpt + 2 * np);
        for (int j = 0; j < np; j++) {
            double dx = (double)r->fcpt[2 * j] - (double)r->fcpt[2 * np + 2 * j];
            double dy = (double)r->fcpt[2 * j + 1] - (double)r->fcpt[2 * np + 2 * j + 1];
            double d = sqrt(dx * dx + dy * dy);
            if (d > e || d != d) e = d;
        }
    }
    e /= a * L;
    if (e > r->fc_max || e != e) r->fc_max = e;
    if (r->fc_t < 0 && !(e <= r->fc_lim)) {
        r->fc_t = t;
        r->fc_val = e;
        return p->strict;
    }
    return 0;
}

/* The linear-system back end, the plan of a model without one, the workspace and mb_sim_init.
 * Returns -1 to go on or the exit status. */
static int setup(const cli *c, mb_params *p, run_state *r)
{
    /* from here on every return goes through cleanup() */
    if (c->linsys == LINSYS_KLU) {
        if (!(klu = mb_klu_open())) { fprintf(stderr, "%s_sim: out of memory\n", model->name); return 1; }
        p->linsys_ops = klu;
    }
    /* A model without a symbolic plan (the generic evaluator, hand-written fixtures) gets one
     * here, from its patterns: the same planner and AMD order the generator uses. */
    static mb_model planned;
    if (!model->plan) {
        own_plan = mbp_build(model->nq, model->nc, &model->phi_q_pat, &model->dq_dq_pat,
                             &model->dq_dv_pat, MBP_ORDER_AMD);
        if (!own_plan) {
            fprintf(stderr, "%s_sim: cannot build the sparse plan (out of memory?)\n", model->name);
            return cleanup(1);
        }
        planned = *model;
        planned.plan = own_plan;
        model = &planned;
    }
    if (c->input_file) {
        char why[512];
        if (c->analysis != MB_CLI_DYNAMIC) {
            fprintf(stderr, "%s_sim: --input-file applies to the dynamic analysis only\n", model->name);
            return cleanup(2);
        }
        if (mb_input_table_read(c->input_file, model, &intab, why, sizeof why) != 0) {
            fprintf(stderr, "%s_sim: --input-file %s\n", model->name, why);
            return cleanup(2);
        }
    } else if (c->foh) {
        fprintf(stderr, "%s_sim: --hold has no effect without --input-file\n", model->name);
        return cleanup(2);
    }
    if (c->nset > 0 && apply_sets(c) != 0) return cleanup(2);
    if (c->analysis != MB_CLI_DYNAMIC)   /* the other analyses: tools/mb_analysis_cli.c */
        return cleanup(mb_cli_run_analysis(c->analysis, model, &c->anl, c->out, tmp, sizeof tmp, c->t_end, c->h,
                                           c->every, c->quiet));
    r->ws = mb_sim_workspace_size(model, p);
    if (r->ws == 0) { fprintf(stderr, "%s_sim: invalid model descriptor\n", model->name); return cleanup(2); }
    r->work = work_get(r->ws);
    r->pts = malloc(sizeof(mb_real) * (size_t)(2 * model->npoint + 1));
    r->sim = mb_sim_of(&r->sim_mem);
    r->sh = mb_sim_of(&r->sh_mem);
    int st = r->work && r->pts ? mb_sim_init(r->sim, model, p, r->work, r->ws) : MB_ERR_WORKSPACE;
    if (st) { fprintf(stderr, "%s_sim: init: %s\n", model->name, mb_status_str(st)); work_put(r->work); free(r->pts); return cleanup(1); }
    emodel = mb_sim_model(r->sim);
    r->sh_on = 0;
    r->shw = NULL;
    r->lam = r->lam2 = r->q2 = NULL;
    if (c->est) {   /* the second run: a tenth of the tolerances, or half the step */
        mb_params p2 = *p;
        if (MB_PARAMS_ADAPTIVE(p)) { p2.rtol /= 10; p2.atol /= 10; }
        else { p2.h /= 2; if (p2.max_steps < 50000000L) p2.max_steps *= 2; }
        p2.strict = 0;   /* its warnings are not the run's */
        size_t ws2 = mb_sim_workspace_size(model, &p2);
        r->shw = ws2 ? malloc(ws2) : NULL;
        r->lam = malloc(sizeof(mb_real) * (size_t)(model->nc + 1));
        r->lam2 = malloc(sizeof(mb_real) * (size_t)(model->nc + 1));
        r->q2 = malloc(sizeof(mb_real) * (size_t)(2 * model->nq + 1));
        r->v2 = r->q2 ? r->q2 + model->nq : NULL;
        st = r->shw && r->lam && r->lam2 && r->q2 ? mb_sim_init(r->sh, model, &p2, r->shw, ws2) : MB_ERR_WORKSPACE;
        if (st) {
            fprintf(stderr, "%s_sim: --estimate-error: the second run's init: %s\n", model->name, mb_status_str(st));
            work_put(r->work); free(r->pts); free(r->shw); free(r->lam); free(r->lam2); free(r->q2);
            return cleanup(1);
        }
        r->sh_on = 1;
    }
    companion_init(c, p, r);
    outbuf = malloc(sizeof(mb_real) * (size_t)(model->nout + 1));
    if (!outbuf) { fprintf(stderr, "%s_sim: out of memory\n", model->name); work_put(r->work); free(r->pts); return cleanup(1); }
    return -1;
}

/* --estimate-error: the second run to the row at t (q, v: the first run's; v NULL: not known),
 * then the largest differences so far; a failure of the second run ends the comparison (named
 * on stderr; the summary says est_err=failed). */
static void shadow_cmp(const cli *c, run_state *r, double t, const mb_real *q, const mb_real *v)
{
    if (!r->sh_on || r->sh_st < 0) return;
    int n = model->nq, nc = model->nc;
    /* fixed steps land on t (the rows are on the first run's grid, h / 2 divides it); adaptive
     * steps go their own way to t-end and the row is their dense output */
    while ((double)mb_sim_get_t(r->sh) < t) {
        mb_real ts = (mb_real)(c->adaptive ? c->t_end : t);
        if (intab.nrow > 0) {   /* the inputs' holds as the first run sets them */
            double t0 = (double)mb_sim_get_t(r->sh), tn = mb_input_table_next(&intab, t0);
            if (c->adaptive && tn < (double)ts) ts = (mb_real)tn;
            inputs_second(r->sh, t0, c->foh);
        }
        int st = mb_sim_step(r->sh, ts);
        if (st < 0) {
            fprintf(stderr, "%s_sim: --estimate-error: the second run stopped at t=%.9g: %s; the "
                    "estimate covers t < %.9g\n", model->name, (double)mb_sim_get_t(r->sh),
                    mb_status_str(st), (double)mb_sim_get_t(r->sh));
            r->sh_st = st;
            return;
        }
    }
    const mb_real *q2 = mb_sim_get_q(r->sh), *v2 = mb_sim_get_v(r->sh);
    if ((double)mb_sim_get_t(r->sh) != t) {
        if (!c->adaptive) return;   /* (not on its grid: not compared) */
        if (mb_sim_dense(r->sh, (mb_real)t, r->q2, r->v2, NULL) == MB_OK) v2 = r->v2;
        else if (mb_sim_dense(r->sh, (mb_real)t, r->q2, NULL, NULL) == MB_OK) v2 = NULL;
        else return;
        q2 = r->q2;
        if (!v2) v = NULL;
    }
    for (int i = 0; i < n; i++) {
        double d = fabs((double)q[i] - (double)q2[i]);
        if (d > r->eq || d != d) r->eq = d;
        if (v) {
            d = fabs((double)v[i] - (double)v2[i]);
            if (d > r->ev || d != d) r->ev = d;
        }
    }
    if (v && nc > 0 && mb_cli_multipliers((mb_real)t, q, v, r->lam, nc) == MB_OK &&
        mb_cli_multipliers((mb_real)t, q2, v2, r->lam2, nc) == MB_OK)
        for (int k = 0; k < nc; k++) {
            double d = fabs((double)r->lam[k] - (double)r->lam2[k]);
            if (d > r->er || d != d) r->er = d;
        }
    r->sh_rows++;
}

/* A row at t: compared with the second run (--estimate-error), written to the CSV (--out) */
static void emit(const cli *c, run_state *r, double t, const mb_real *q, const mb_real *v, const mb_monitor *mo)
{
    shadow_cmp(c, r, t, q, v);
    if (r->csv) row(r->csv, t, q, v, mo, r->pts);
}
static void emit_now(const cli *c, run_state *r)
{
    emit(c, r, (double)mb_sim_get_t(r->sim), mb_sim_get_q(r->sim), mb_sim_get_v(r->sim),
         mb_sim_get_monitor(r->sim));
}

/* The steps to t-end: a CSV row every --every steps (fixed step) or at every output time,
 * interpolated (adaptive); a failure is named on stderr and sets r->fault. */
static void step_loop(const cli *c, const mb_params *p, run_state *r)
{
    mb_progress bar;
    mb_progress_init(&bar, mb_progress_wanted(c->quiet) ? stderr : NULL, 0, c->t_end);
    long k = 0, out_k = 0;
    mb_real *qd = malloc(sizeof(mb_real) * (size_t)model->nq);   /* an interpolated row */
    mb_real *vd = malloc(sizeof(mb_real) * (size_t)model->nq);
    const mb_real *vrow = vd;
    mb_monitor mdo, mprev = *mb_sim_get_monitor(r->sim);            /* and the step's start */
    double tprev = 0;
    if (r->fault) {
        /* nothing simulated */
    } else if (r->st < 0) {
        /* the assembly, or the first evaluation after it (a redundant joint shows there) */
        int in_asm = r->st == MB_ERR_ASSEMBLY_POS || r->st == MB_ERR_ASSEMBLY_VEL;
        fprintf(stderr, "%s_sim: %s at t=0 failed: %s", model->name,
                in_asm ? "assembly" : "start-up (the first evaluation after assembly)", mb_status_str(r->st));
        if (r->st == MB_ERR_ASSEMBLY_POS) assembly_detail(r->sim, p);
        else fault_detail(r->sim, p, r->st, c->t_end);
        fputc('\n', stderr);
        r->fault = 1;
    } else if (!qd || !vd) {
        fprintf(stderr, "%s_sim: out of memory\n", model->name);
        r->fault = 1;
    } else {
        emit_now(c, r);
        mb_real te = (mb_real)c->t_end;
        while (mb_sim_get_t(r->sim) < te) {
            mb_real ts = te;
            if (intab.nrow > 0) {   /* --input-file: the holds of this step (adaptive: to the next row) */
                double t0 = (double)mb_sim_get_t(r->sim), tn = mb_input_table_next(&intab, t0);
                if (c->adaptive && tn < (double)te) ts = (mb_real)tn;
                mb_input_table_apply(&intab, r->sim, t0, c->foh);
            }
            r->st = mb_sim_step(r->sim, ts);   /* adaptive: rows from dense output */
            if (r->st < 0) {
                mb_progress_done(&bar); /* erase the bar: the message starts on a clean line */
                fprintf(stderr, "%s_sim: runtime fault at t=%.9g (step %ld, after %ld accepted): %s",
                        model->name, (double)mb_sim_get_t(r->sim), mb_sim_get_monitor(r->sim)->steps + 1,
                        mb_sim_get_monitor(r->sim)->steps,
                        mb_status_str(r->st));
                fault_detail(r->sim, p, r->st, c->t_end);
                fputc('\n', stderr);
                r->fault = 1;
                break;
            }
            k++;
            if (r->fc_on && companion_cmp(c, p, r)) {   /* --strict: the accuracy warning */
                mb_progress_done(&bar);
                fprintf(stderr, "%s_sim: runtime fault at t=%.9g (after %ld accepted steps): %s; "
                        "--strict: warning accuracy (below)\n", model->name,
                        (double)mb_sim_get_t(r->sim), mb_sim_get_monitor(r->sim)->steps,
                        mb_status_str(MB_ERR_SUSPECT));
                r->st = MB_ERR_SUSPECT;
                r->fault = 1;
                break;
            }
            mb_progress_update(&bar, (double)mb_sim_get_t(r->sim));
            double tn = (double)mb_sim_get_t(r->sim);
            if ((r->csv || r->sh_on) && c->adaptive) {
                /* the rows t = j dt_out inside the step, interpolated; the last row is t_end */
                for (;;) {
                    double to = (double)(out_k + 1) * c->dt_out;
                    if (to > tn || to >= c->t_end - 1e-9 * c->dt_out) break;
                    out_k++;
                    if (to == tn) { emit_now(c, r); continue; }
                    int sd = mb_sim_dense(r->sim, (mb_real)to, qd, vd, &mdo);
                    vrow = vd;
                    if (sd < 0 && mb_sim_dense(r->sim, (mb_real)to, qd, NULL, NULL) == MB_OK) {
                        vrow = NULL;
                        /* no evaluation at the interpolated state (e.g. a singular position of
                         * baumgarte, canonical): its monitors between the step's ends */
                        const mb_monitor *m1 = mb_sim_get_monitor(r->sim);
                        double a = (to - tprev) / (tn - tprev);
                        mdo = *m1;
                        mdo.energy_dev = (mb_real)((1 - a) * (double)mprev.energy_dev + a * (double)m1->energy_dev);
                        mdo.phi_norm = (mb_real)((1 - a) * (double)mprev.phi_norm + a * (double)m1->phi_norm);
                        mdo.phid_norm = (mb_real)((1 - a) * (double)mprev.phid_norm + a * (double)m1->phid_norm);
                        mdo.sigma_norm = (mb_real)((1 - a) * (double)mprev.sigma_norm + a * (double)m1->sigma_norm);
                        sd = MB_OK;
                    }
                    if (sd < 0) {
                        mb_progress_done(&bar);
                        fprintf(stderr, "%s_sim: dense output at t=%.9g failed: %s\n", model->name,
                                to, mb_status_str(sd));
                        r->st = sd;
                        r->fault = 1;
                        break;
                    }
                    emit(c, r, to, qd, vrow, &mdo);
                }
                if (r->fault) break;
                if (tn >= c->t_end) emit_now(c, r);
                mprev = *mb_sim_get_monitor(r->sim);
                tprev = tn;
            } else if ((r->csv || r->sh_on) && (++out_k % c->every == 0 || tn >= c->t_end)) {
                emit_now(c, r);
            }
        }
        /* the rows written: dopri5's and dop853's accuracy companion compares its last steps */
        int fs = r->fault ? MB_OK : mb_sim_finish(r->sim);
        if (fs < 0) {   /* (--strict: the comparison raised the accuracy warning) */
            mb_progress_done(&bar);
            fprintf(stderr, "%s_sim: runtime fault at t=%.9g (after %ld accepted steps): %s\n",
                    model->name, (double)mb_sim_get_t(r->sim), mb_sim_get_monitor(r->sim)->steps,
                    mb_status_str(fs));
            r->st = fs;
            r->fault = 1;
        }
    }
    free(qd);
    free(vd);
    mb_progress_done(&bar);
}

/* Close the CSV and rename it into place (keeping the complete rows after a failed write). */
static void close_csv(const cli *c, run_state *r)
{
    if (r->csv) {
        int bad_io = ferror(r->csv);
        int err = errno;
        if (fclose(r->csv) != 0) { bad_io = 1; err = errno; }
        if (bad_io) {   /* keep the complete rows written before the failure */
            long kept = keep_complete_rows(tmp);
            fprintf(stderr, "%s_sim: cannot write %s: %s%s\n", model->name, c->out, strerror(err),
                    kept > 0 ? "; the complete rows written before are kept" : "");
            r->fault = 1;
            if (kept <= 0) remove(tmp);
        }
        int keep = !bad_io || access(tmp, F_OK) == 0;
        if (keep && rows_written == 0) {   /* a header alone is no result: nothing to plot */
            fprintf(stderr, "%s_sim: no CSV row was computed: --out %s not written\n", model->name, c->out);
            remove(tmp);
            keep = 0;
        }
        if (keep && rename(tmp, c->out) != 0) {
            fprintf(stderr, "%s_sim: cannot write %s: %s\n", model->name, c->out, strerror(errno));
            remove(tmp);
            r->fault = 1;
        } else if (keep && mb_info_write_csv(c->out, model) != 0) {
            r->fault = 1;   /* the animation's bodies, points, joints, springs: tools/mb_info.h */
        }
        tmp[0] = '\0';
    }
}

/* Open the CSV, reset (assembly), print the parameter line, step, close the CSV. Returns -1 to
 * go on to the summary, else the exit status. */
static int run(const cli *c, const mb_params *p, run_state *r)
{
    r->w0 = wall();
    r->csv = NULL;
    r->fault = 0;
    r->dep = NULL;
    int nred = 0;   /* redundant constraint equations found at the start */
    signal(SIGPIPE, SIG_IGN);   /* a closed stdout/stderr: writes fail, the CSV is still kept */
    signal(SIGXFSZ, SIG_IGN);   /* a file size limit: the write fails (EFBIG), rows so far kept */
    if (c->out) {
        if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", c->out, (long)getpid()) >= (int)sizeof tmp) { work_put(r->work); free(r->pts); companion_free(r); cleanup(0); return bad("--out", c->out, "path too long"); }
        r->csv = fopen(tmp, "w");
        if (r->csv) { signal(SIGINT, on_signal); signal(SIGTERM, on_signal); signal(SIGHUP, on_signal); }
        else {   /* no run; the summary line still ends the output (docs/cli.md) */
            fprintf(stderr, "%s_sim: cannot write --out %s (temporary %s): %s\n", model->name, c->out, tmp, strerror(errno));
            tmp[0] = '\0';
            r->fault = 1;
        }
    }
    if (r->csv && mb_cli_csv_open(emodel ? emodel : model, model->name) != 0) {
        fprintf(stderr, "%s_sim: out of memory\n", model->name);
        fclose(r->csv);
        remove(tmp);
        tmp[0] = '\0';
        r->csv = NULL;
        r->fault = 1;
    }
    if (r->csv) {
        fprintf(r->csv, "t");
        for (int i = 0; i < model->nq; i++) fprintf(r->csv, ",%s", model->info->coord_names[i]);
        fprintf(r->csv, ",energy_dev,phi_norm,phid_norm,sigma_norm");
        if (model->points)
            for (int i = 0; i < model->npoint; i++)
                fprintf(r->csv, ",%s.x,%s.y", model->info->point_names[i], model->info->point_names[i]);
        mb_cli_csv_header(r->csv, model);   /* velocities, accelerations, reactions */
        for (int i = 0; i < model->nin; i++) fprintf(r->csv, ",in.%s", model->in_names[i]);
        for (int i = 0; i < model->nout; i++) fprintf(r->csv, ",out.%s", model->out_names[i]);
        fputc('\n', r->csv);
    }
    /* --input-file: the holds at t = 0 before the assembly (a driver may follow an input) */
    if (intab.nrow > 0) mb_input_table_apply(&intab, r->sim, 0, c->foh);
    r->st = r->fault ? MB_OK : mb_sim_reset(r->sim, 0, NULL, NULL, 1);
    /* redundant joints by name, at the assembled positions (F1/F2 then stop at a rank loss) */
    if (!r->fault && r->st != MB_ERR_ASSEMBLY_POS) {
        /* alf-trapezoid's Newton leaves them out (mb_params: redundant_rows) */
        r->dep = model->nc ? malloc((size_t)model->nc) : NULL;
        nred = mb_cli_redundant(model, 0, mb_sim_get_q(r->sim), model->name, r->dep);
        if (nred > 0 && mb_sim_set_redundant_rows(r->sim, r->dep) != MB_OK && p->formulation == MB_ALF_TRAPEZOID)
            fprintf(stderr, "%s_sim: note: this build keeps them in alf-trapezoid's Newton iteration "
                    "(-DMB_WITH_REDUNDANT_ROWS=0): expect steps at max_iter; mbgen --redundant remove "
                    "leaves them out of the model\n", model->name);
    }
    if (r->st == MB_OK && !r->fault) contact_start_note(r->sim);
    if (r->sh_on) {   /* --estimate-error: the second run from the same start */
        r->sh_rows = 0;
        r->eq = r->ev = r->er = 0;
        r->sh_st = MB_OK;
        if (!r->csv && mb_cli_csv_open(emodel ? emodel : model, model->name) != 0) r->sh_st = MB_ERR_WORKSPACE;
        if (r->sh_st == MB_OK && r->st == MB_OK && !r->fault) r->sh_st = second_start(c, r, r->sh, nred);
        if (r->sh_st < 0 && r->st == MB_OK && !r->fault)
            fprintf(stderr, "%s_sim: --estimate-error: the second run's start failed: %s\n", model->name,
                    mb_status_str(r->sh_st));
    }
    if (r->fc_on) {   /* --warn-error's companion: from the same start */
        r->fc_st = r->st == MB_OK && !r->fault ? second_start(c, r, r->fc, nred) : MB_ERR_STATE;
    }
    if (r->st == MB_OK && !c->quiet && !r->fault)
        fprintf(stderr, "%s_sim: %s/%s%s h=%g%s t_end=%g alpha=%g xi=%g omega=%g%s tol=%g max_iter=%d, "
                "workspace %zu bytes, linear algebra %s, %s evaluator\n",
                model->name, mb_formulation_name(p->formulation), mb_integrator_name(p->integrator),
                c->extrap ? " (extrapolated)" : "", c->h, c->adaptive ? " (first step)" : "", c->t_end,
                (double)p->alpha, (double)p->xi, (double)p->omega,
                c->extrap && (c->o_xi < 0 || c->o_omega < 0) ? " (--extrapolate's, not the model's)" : "",
                (double)p->tol, p->max_iter, r->ws,
                c->linsys == MB_LINSYS_DENSE ? mb_linalg_backend() : c->linsys == LINSYS_KLU ? "klu" : "sparse", model->data ? "generic" : "generated");
    step_loop(c, p, r);
    close_csv(c, r);
    return -1;
}

/* The sensors at the end of the run (the summary line's out.NAME=, a sweep's summary.csv
 * columns): the values the CSV's last row holds, computed again at the sim's final state (a
 * reaction's sensor needs the multipliers' solve, set up here when no --out set it up). */
static void final_sensors(const run_state *r)
{
    const mb_model *em = emodel ? emodel : model;
    if (em->nout <= 0) return;
    const mb_real *q = mb_sim_get_q(r->sim), *v = mb_sim_get_v(r->sim);
    int have = outbuf && q && v;
    if (have && em->doutputs_dlam) have = mb_cli_csv_open(em, model->name) == 0;
    have = have && mb_cli_csv_outputs(em, mb_sim_get_t(r->sim), q, v, outbuf);
    for (int i = 0; i < em->nout; i++)
        printf(" out.%s=%.9g", em->out_names[i], have ? (double)outbuf[i] : (double)NAN);
}

/* The warnings and the summary line (the interface: always the last line on stdout); frees the
 * run. Returns the exit status. */
static int summary(const cli *c, const mb_params *p, run_state *r)
{
    if (rows_skipped > 1)
        fprintf(stderr, "%s_sim: warning: %ld CSV rows with non-finite values not written\n",
                model->name, rows_skipped);
    int warnings = report_warnings(r->sim, p);
    if (r->fc_on && r->fc_t >= 0) {   /* the fixed steps' companion (companion_cmp) */
        warnings++;
        fprintf(stderr, "%s_sim: warning: accuracy: first at t=%.9g: the positions' global error is "
                "estimated at %.3g of the mechanism's size (threshold %.3g; %.3g by the end) by a "
                "companion run at twice the step ((run - companion) / %d, order %d): a fixed step "
                "has no error control; a smaller --h or an adaptive --integrator, --estimate-error "
                "measures it (docs/formulations.md, \"Warnings\")\n", model->name, r->fc_t, r->fc_val,
                r->fc_lim, r->fc_max, (1 << r->fc_order) - 1, r->fc_order);
    }
    const mb_monitor *mo = mb_sim_get_monitor(r->sim);
    /* the accuracy warning's estimate: its largest value over the run, in tolerances (what
     * --warn-accuracy is compared with); 0 where none is made (fixed steps, --warn-accuracy 0) */
    double err_est = c->adaptive && p->warn_accuracy != 0 ? (double)mo->err_max : 0;
    printf("status=%s code=%d model=%s formulation=%s integrator=%s steps=%ld rejected=%ld "
           "evals=%ld newton_iters=%ld alf_iters=%ld maxiter_events=%ld newton_roundoff=%ld sigma_resets=%ld sigma_holds=%ld events=%ld onsets=%ld factorizations=%ld solves=%ld "
           "max_energy_dev=%.6e max_phi=%.6e max_phid=%.6e max_sigma=%.6e warnings=%d t_end=%.9g err_est=%.3e wall_s=%.3f",
           r->fault ? "error" : "ok", r->fault ? r->st : 0, model->name, mb_formulation_name(p->formulation),
           mb_integrator_name(p->integrator), mo->steps, mo->rejected, mo->evals, mo->newton_iters,
           mo->alf_iters, mo->maxiter_events, mo->newton_roundoff, mo->sigma_resets, mo->sigma_holds,
           mo->events, mo->onsets, mo->factorizations,
           mo->solves, (double)mo->max_energy_dev,
           (double)mo->max_phi, (double)mo->max_phid, (double)mo->max_sigma, warnings,
           (double)mb_sim_get_t(r->sim), err_est, wall() - r->w0);
    final_sensors(r);
    int over = 0;   /* --max-error not met */
    if (c->est) {   /* the estimate, its cost (the second run's steps), the bound */
        int ok = r->sh_st == MB_OK && r->sh_rows > 0;
        if (ok) printf(" est_err_q=%.3e est_err_v=%.3e est_err_r=%.3e", r->eq, r->ev, r->er);
        else printf(" est_err=failed");
        printf(" est_steps=%ld", r->sh_on ? mb_sim_get_monitor(r->sh)->steps : 0L);
        if (c->max_err > 0) {
            over = !ok || !(r->eq <= c->max_err);
            printf(" max_error=%s", over ? "exceeded" : "met");
            if (over)
                fprintf(stderr, "%s_sim: --max-error %g: %s\n", model->name, c->max_err,
                        ok ? "the estimated position error is larger" : "no estimate (the second run failed)");
        }
    }
    putchar('\n');
    companion_free(r);
    free(r->shw);
    free(r->lam);
    free(r->lam2);
    free(r->q2);
    work_put(r->work);
    free(r->pts);
    free(r->dep);
    cleanup(0);
    if (fflush(stdout) != 0 || ferror(stdout)) {   /* the summary line is the interface */
        fprintf(stderr, "%s_sim: cannot write the summary line to stdout: %s\n", model->name, strerror(errno));
        return 1;
    }
    return r->fault || over ? 1 : 0;
}

/* One run: the command line as given (main), or a row of --batch (tools/mb_batch.c). */
static int run_once(int argc, char **argv)
{
    cli c;
    mb_params p;
    run_state r;
    int rc;
    rows_skipped = rows_written = 0;   /* (main runs more than once in the fuzz target) */
    model = &CAT(MB_MODEL, _model);   /* not a copy with the plan a previous run freed */
    if ((rc = parse_args(argc, argv, &c)) >= 0) return rc;
    if ((rc = build_params(&c, &p)) >= 0) return rc;
    if ((rc = setup(&c, &p, &r)) >= 0) return rc;
    if ((rc = run(&c, &p, &r)) >= 0) return rc;
    return summary(&c, &p, &r);
}

/* An option that takes the next word as its value (mb_batch_find skips that word). */
static int takes_value(const char *a)
{
    int row = mb_opt_find(&opts, a);
    return row >= 0 && opts.opt[row].kind != MB_OPT_FLAG && opts.opt[row].kind != MB_OPT_HELP;
}

int main(int argc, char **argv)
{
    const char *rows;
    int at;
    model = &CAT(MB_MODEL, _model);
    snprintf(prog, sizeof prog, "%s_sim", model->name);
    mb_sim_options(&opts, prog);   /* for takes_value */
    int rc = mb_batch_find(argc, argv, takes_value, prog, &rows, &at);
    if (rc) return rc;
    if (!rows) return run_once(argc, argv);
    work_keep = 1;   /* one workspace for every row */
    rc = mb_batch_main(prog, rows, argc, argv, at, run_once);
    free(work_kept);
    work_kept = NULL;
    work_kept_n = 0;
    work_keep = 0;
    return rc;
}
