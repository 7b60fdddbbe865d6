/* test_runtime.c - runtime API contracts: status table, parameter and workspace validation,
 * model functions against finite differences (every model), fixture vs generated pendulum,
 * assembly, rank-loss reporting, failure leaves the last good state, sigma reset (F2-F4),
 * warnings and p.strict, projection, alf-trapezoid through exactly singular steps. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "test_plan.h"
#include "mb_sim_impl.h"   /* white box: reads mb_sim's members */
#include "test_physics_models.h"

static unsigned long rng = 987654321;
static double rnd(void)
{
    rng = rng * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}

typedef struct { mb_sim s; void *w; } simbox;
static int open_sim(simbox *b, const mb_model *m, const mb_params *p)
{
    m = planned(m);
    size_t ws = mb_sim_workspace_size(m, p);
    b->w = malloc(ws ? ws : 1);
    return mb_sim_init(&b->s, m, p, b->w, ws);
}

/* ---- finite-difference checks of one model's functions at an assembled state ---- */
#define NQ 128
static double relerr(int n, const mb_real *a, const mb_real *b)
{
    double d = 0, s = 1e-8;
    for (int i = 0; i < n; i++) {
        if (fabs((double)a[i] - (double)b[i]) > d) d = fabs((double)a[i] - (double)b[i]);
        if (fabs((double)a[i]) > s) s = fabs((double)a[i]);
    }
    return d / s;
}

static void check_model_fd(const mb_model *m)
{
    static mb_real q[NQ], v[NQ], qp[NQ], vp[NQ], f1[NQ * 4], f2[NQ * 4], val[NQ * NQ], fd[NQ * NQ], tmp[NQ * NQ];
    int n = m->nq, nc = m->nc, nnz = m->phi_q_pat.nnz;
    if (n > NQ || nc > NQ || nnz > NQ * NQ) return;
    mb_params p;
    mb_params_default(&p, MB_ALF_EXPLICIT);
    simbox b;
    int st = open_sim(&b, m, &p);
    if (!st) st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);   /* checks below run at t = 0.3 */
    CHECK(st == MB_OK, "%s: assembly: %s", m->name, mb_status_str(st));
    if (st) { free(b.w); return; }
    memcpy(q, mb_sim_get_q(&b.s), sizeof(mb_real) * n);
    for (int i = 0; i < n; i++) v[i] = (mb_real)rnd();
    mb_real t = MB_R(0.3), e = MB_R(1e-6);
    /* Phi_q vs d Phi / dq (columns by central differences) */
    m->phi_q(m, t, q, val);
    for (int k = 0; k < nnz; k++) {
        int c = m->phi_q_pat.col[k];
        memcpy(qp, q, sizeof(mb_real) * n);
        qp[c] += e; m->phi(m, t, qp, f1);
        qp[c] -= 2 * e; m->phi(m, t, qp, f2);
        fd[k] = (f1[m->phi_q_pat.row[k]] - f2[m->phi_q_pat.row[k]]) / (2 * e);
    }
    CHECK(relerr(nnz, val, fd) < 1e-7, "%s: Phi_q vs FD: %.3g", m->name, relerr(nnz, val, fd));
    /* structural zeros really are zero: full FD Jacobian outside the pattern */
    double outside = 0;
    for (int c = 0; c < n; c++) {
        memcpy(qp, q, sizeof(mb_real) * n);
        qp[c] += e; m->phi(m, t, qp, f1);
        qp[c] -= 2 * e; m->phi(m, t, qp, f2);
        for (int r = 0; r < nc; r++) {
            int in = 0;
            for (int k = 0; k < nnz; k++) if (m->phi_q_pat.row[k] == r && m->phi_q_pat.col[k] == c) in = 1;
            if (!in && fabs((double)(f1[r] - f2[r]) / (2 * e)) > outside) outside = fabs((double)(f1[r] - f2[r]) / (2 * e));
        }
    }
    CHECK(outside < 1e-8, "%s: Phi depends on q outside the pattern (%.3g)", m->name, outside);
    /* Phi_t vs d Phi / dt */
    m->phi_t(m, t, q, val);
    m->phi(m, t + e, q, f1); m->phi(m, t - e, q, f2);
    for (int r = 0; r < nc; r++) fd[r] = (f1[r] - f2[r]) / (2 * e);
    CHECK(relerr(nc, val, fd) < 1e-7, "%s: Phi_t vs FD: %.3g", m->name, relerr(nc, val, fd));
    /* Phidot_q vs d/dt Phi_q along (t, q + v t) */
    m->phi_q_dot(m, t, q, v, val);
    for (int i = 0; i < n; i++) qp[i] = q[i] + e * v[i];
    m->phi_q(m, t + e, qp, f1);
    for (int i = 0; i < n; i++) qp[i] = q[i] - e * v[i];
    m->phi_q(m, t - e, qp, f2);
    for (int k = 0; k < nnz; k++) fd[k] = (f1[k] - f2[k]) / (2 * e);
    CHECK(relerr(nnz, val, fd) < 1e-7, "%s: Phidot_q vs FD: %.3g", m->name, relerr(nnz, val, fd));
    /* Gamma = -d/dt (Phi_q v + Phi_t) at fixed v */
    m->gamma(m, t, q, v, val);
    for (int s = 0; s < 2; s++) {
        mb_real sg = s ? -e : e, *out = s ? f2 : f1;
        for (int i = 0; i < n; i++) qp[i] = q[i] + sg * v[i];
        m->phi_q(m, t + sg, qp, tmp);
        m->phi_t(m, t + sg, qp, out);
        for (int k = 0; k < nnz; k++) out[m->phi_q_pat.row[k]] += tmp[k] * v[m->phi_q_pat.col[k]];
    }
    for (int r = 0; r < nc; r++) fd[r] = -(f1[r] - f2[r]) / (2 * e);
    CHECK(relerr(nc, val, fd) < 1e-6, "%s: Gamma vs FD: %.3g", m->name, relerr(nc, val, fd));
    /* dQ/dq and dQ/dv */
    for (int which = 0; which < 2; which++) {
        const mb_pattern *pat = which ? &m->dq_dv_pat : &m->dq_dq_pat;
        (which ? m->dforce_dv : m->dforce_dq)(m, t, q, v, val);
        for (int k = 0; k < pat->nnz; k++) {
            int c = pat->col[k];
            memcpy(qp, q, sizeof(mb_real) * n); memcpy(vp, v, sizeof(mb_real) * n);
            (which ? vp : qp)[c] += e; m->force(m, t, qp, vp, f1);
            (which ? vp : qp)[c] -= 2 * e; m->force(m, t, qp, vp, f2);
            fd[k] = (f1[pat->row[k]] - f2[pat->row[k]]) / (2 * e);
        }
        CHECK(pat->nnz == 0 || relerr(pat->nnz, val, fd) < 1e-6, "%s: dQ/d%s vs FD: %.3g", m->name,
              which ? "v" : "q", relerr(pat->nnz, val, fd));
    }
    /* T = v^T M v / 2 and V consistent with the conservative part of Q: with Q_nc = 0 at v = 0
     * (no dampers acting, no time forcing assumed), -dV/dq = Q(q, 0) is checked only for models
     * without explicit time dependence in the forces; here we check T. */
    mb_real en[3], T = 0;
    m->energy(m, t, q, v, en);
    for (int i = 0; i < n; i++) T += m->mass[i] * v[i] * v[i] / 2;
    CHECK(fabs((double)(en[0] - T)) <= 1e-12 * (1 + fabs((double)T)), "%s: T = %.17g, v^T M v/2 = %.17g", m->name, (double)en[0], (double)T);
    free(b.w);
}

/* ---- a fixture with redundant constraints: joint A written twice (rows 4, 5) ---- */
static void red_phi(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{ (void)m; FX->phi(FX, t, q, out); out[4] = out[0]; out[5] = out[1]; }
static const int red_row[16] = {0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 5, 5};
static const int red_col[16] = {0, 2, 1, 2, 0, 2, 3, 5, 1, 2, 4, 5, 0, 2, 1, 2};
static void red_phi_q(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{ (void)m; FX->phi_q(FX, t, q, out); for (int k = 0; k < 4; k++) out[12 + k] = out[k]; }
static void red_phi_t(const mb_model *m, mb_real t, const mb_real *q, mb_real *out)
{ (void)m; FX->phi_t(FX, t, q, out); out[4] = out[0]; out[5] = out[1]; }
static void red_phi_q_dot(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *out)
{ (void)m; FX->phi_q_dot(FX, t, q, v, out); for (int k = 0; k < 4; k++) out[12 + k] = out[k]; }
static void red_gamma(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *out)
{ (void)m; FX->gamma(FX, t, q, v, out); out[4] = out[0]; out[5] = out[1]; }

static mb_model_info red_info;   /* the fixture's, without constraint names (6 rows, not 4) */
static mb_model redundant_model(void)
{
    mb_model r = *FX;
    red_info = *FX->info;
    red_info.constraint_names = NULL;
    r.name = "fixture_redundant";
    r.nc = 6;
    r.info = &red_info;
    r.phi_q_pat.nnz = 16; r.phi_q_pat.row = red_row; r.phi_q_pat.col = red_col;
    r.phi = red_phi; r.phi_q = red_phi_q; r.phi_t = red_phi_t; r.phi_q_dot = red_phi_q_dot; r.gamma = red_gamma;
    return r;
}

static int run_to(simbox *b, double t_end)
{
    int st = MB_OK;
    while (st >= 0 && mb_sim_get_t(&b->s) < (mb_real)t_end) st = mb_sim_step(&b->s, (mb_real)t_end);
    return st < 0 ? st : MB_OK;
}

/* alf-explicit's fixed steps converge at rk4's order at any alpha: the double pendulum to 1 s at
 * alpha 1e9 (the iteration's round-off there, alpha eps, is far above rk4's error at h = 5e-4)
 * against canonical rk4 at h = 1e-4 (coordinates at t = 1, the largest difference). F3's
 * right-hand side finishes with one pass of its iteration in residual form (mb_f3_alf.c,
 * alf_refine): err 1.18e-8, 7.2e-10 at h = 1e-3, 5e-4 (16.5 x) on both models; the iteration
 * alone (stopped at |dv| < tol, and no better with a tighter tol) 8.7e-9, 4.6e-9 on the fixture,
 * 1.04e-8, 7.8e-9 on the generated model (1.9 x, 1.3 x). */
static double f3_err(const mb_model *m, const mb_real *ref, double h)
{
    mb_params p;
    simbox b;
    mb_params_default(&p, MB_ALF_EXPLICIT);
    p.alpha = MB_R(1e9);
    p.h = (mb_real)h;
    int st = open_sim(&b, m, &p);
    if (!st) st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
    if (!st) st = run_to(&b, 1.0);
    double d = st ? 1e30 : 0;
    for (int i = 0; !st && i < m->nq; i++) d = fmax(d, fabs((double)(mb_sim_get_q(&b.s)[i] - ref[i])));
    free(b.w);
    return d;
}
static void check_f3_order(const mb_model *m)
{
    mb_params p;
    simbox b;
    mb_real ref[NQ];
    if (m->nq > NQ) return;
    mb_params_default(&p, MB_CANONICAL);
    p.h = MB_R(1e-4);
    int st = open_sim(&b, m, &p);
    if (!st) st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
    if (!st) st = run_to(&b, 1.0);
    CHECK(st == MB_OK, "%s: canonical reference: %s", m->name, mb_status_str(st));
    memcpy(ref, mb_sim_get_q(&b.s), sizeof(mb_real) * (size_t)m->nq);
    free(b.w);
    if (st) return;
    double e1 = f3_err(m, ref, 1e-3), e2 = f3_err(m, ref, 5e-4);
    CHECK(e1 < 1e-4 && e2 * 10 < e1, "%s: alf-explicit rk4 at alpha 1e9: err %.3g, %.3g at h = 1e-3, 5e-4 "
          "(rk4: 16 x; below 10 x the iteration's round-off)", m->name, e1, e2);
}

/* A NaN or Inf in Gamma reaches the KKT solve's y and through Phi_q^T y its x, which alone is
 * tested for finiteness (mb_kkt.c): the baumgarte right-hand side must stop with
 * MB_ERR_NONFINITE and leave the last good state, on the compact path (the fixture: phiq_mv,
 * pq_mtv) and on the generated kernels (the double pendulum: kkt_bv, phiq_x). Gamma turns bad
 * from t = 0.01 on, in its first or last row. */
static const mb_model *bad_base;
static mb_real bad_value;
static int bad_row;
static void bad_gamma(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *out)
{
    bad_base->gamma(m, t, q, v, out);
    if (t > MB_R(0.01)) out[bad_row] = bad_value;
}
#if MBI_GE
/* |p - M v|_2 (= |Phi_q^T sigma|_2 in F2, F3) at z = [q; p; I] with f = [v; ...] at it */
static double p_off(const mb_model *m, int n, const mb_real *z, const mb_real *f)
{
    double a = 0;
    for (int i = 0; i < n; i++) {
        double d = (double)z[n + i] - (double)m->mass[i] * (double)f[i];
        a += d * d;
    }
    return sqrt(a);
}

/* dopri5's, dop853's accuracy companion takes the run's sigma resets (mb_rk.c, ge_shift), also
 * where mb_sim_finish compared it at a step that reset (the run may go on after it): its
 * |Phi_q^T sigma| then stays that of the run, not the sum of the resets it missed (with
 * mb_sim_finish after every step, before: 596 against the run's 0.33 .. 1.26, every case) */
static void check_ge_finish_resets(const mb_model *m0)
{
    static const int F[2] = {MB_CANONICAL, MB_ALF_EXPLICIT}, I[2] = {MB_DOPRI5, MB_DOP853};
    for (int k = 0; k < 4; k++) {
        mb_params p;
        simbox b;
        mb_params_default(&p, F[k / 2]);
        p.integrator = I[k % 2];
        p.rtol = p.atol = MB_R(1e-6);
        p.sigma_reset = 1;
        int st = open_sim(&b, m0, &p), steps = 0;
        if (st == MB_OK) st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
        const mb_model *m = mb_sim_model(&b.s);
        double run = 0, comp = 0;
        while (st >= 0 && mb_sim_get_t(&b.s) < 3) {
            st = mb_sim_step(&b.s, 3);
            if (st >= 0) st = mb_sim_finish(&b.s);
            if (st < 0) break;
            steps++;
            mb_sim *s = &b.s;
            run = fmax(run, p_off(m, s->n, s->z, s->fz));
            comp = fmax(comp, p_off(m, s->n, s->gz, s->gz + s->nz));
        }
        const mb_monitor *o = mb_sim_get_monitor(&b.s);
        CHECK(st >= 0 && o->sigma_resets > steps / 2 && comp <= 2 * run,
              "companion across sigma resets at mb_sim_finish: %s %s: %s, %d steps, %ld resets, "
              "|p - M v| run %.3g, companion %.3g", mb_formulation_name(F[k / 2]),
              mb_integrator_name(I[k % 2]), mb_status_str(st), steps, o->sigma_resets, run, comp);
        free(b.w);
    }
}
#endif

#if MBI_DENSE && (MBI_F2 || MBI_F3)
/* A step undone as mb_sim_step undoes one (after a non-finite energy, or near a singular
 * position: the monitor put back, mbi_undo_step) leaves the run as it was before the step, also
 * where the step's dense output was evaluated inside it (event location, mb_event.c): v0 and
 * S0 are still the step's start (rk_dense keeps its own scratch), and the run going on from
 * there is the run that never took the step: Phi_t's copy ptq, which the monitor moved to the
 * discarded end, is the start's again (mbi_form_restart; else the drivers' work by parts
 * starts from S0^T Phi_t at the wrong time). The driven fixture, canonical (a direct solve: the
 * same bits) and alf-explicit (its sigma iteration starts warm from the discarded end: to
 * round-off). */
static void check_undo_resume(const mb_model *m0)
{
    static const int F[2] = {MB_CANONICAL, MB_ALF_EXPLICIT}, I[2] = {MB_DOPRI5, MB_DOP853};
    for (int k = 0; k < 4; k++) {
        mb_params p;
        simbox a, b;
        mb_params_default(&p, F[k / 2]);
        p.integrator = I[k % 2];
        p.rtol = p.atol = MB_R(1e-8);
        p.dense = 1;
        p.warn_accuracy = 0;   /* (the companion's comparison at the step's start is not undone) */
        int st = open_sim(&a, m0, &p), st2 = open_sim(&b, m0, &p);
        if (st == MB_OK) st = mb_sim_reset(&a.s, 0, NULL, NULL, 1);
        if (st2 == MB_OK) st2 = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
        for (int j = 0; j < 10 && st >= 0 && st2 >= 0; j++) {
            st = mb_sim_step(&a.s, 10);
            st2 = mb_sim_step(&b.s, 10);
        }
        mb_sim *s = &a.s;
        int n = s->n, nc = s->nc, same0 = 0, back = 0;
        mb_real v_start[NQ], S_start[NQ], qd[NQ], vd[NQ], hn = s->h_next, t0 = s->t;
        mb_real pnc0 = s->pnc, pdrv0 = s->pdrv;
        mb_monitor mon0 = s->mon, mo;
        memcpy(v_start, s->v, sizeof(mb_real) * (size_t)n);
        memcpy(S_start, s->S, sizeof(mb_real) * (size_t)nc);
        if (st >= 0) st = mb_sim_step(s, 10);
        if (st >= 0) st = mb_sim_dense(s, (t0 + s->t) / 2, qd, vd, &mo);
        if (st >= 0) {
            same0 = memcmp(s->v0, v_start, sizeof(mb_real) * (size_t)n) == 0 &&
                    memcmp(s->S0, S_start, sizeof(mb_real) * (size_t)nc) == 0;
            s->mon = mon0;     /* mb_sim_step's undo */
            s->pnc = pnc0;
            s->pdrv = pdrv0;
            s->dense_state = 0;
            mbi_undo_step(s, t0, MB_ERR_SINGULAR);
            s->h_next = hn;    /* (mb_sim_step's undo puts back the step's start's h) */
            back = memcmp(s->v, v_start, sizeof(mb_real) * (size_t)n) == 0 &&
                   memcmp(s->S, S_start, sizeof(mb_real) * (size_t)nc) == 0;
        }
        for (int j = 0; j < 10 && st >= 0 && st2 >= 0; j++) {
            st = mb_sim_step(&a.s, 10);
            st2 = mb_sim_step(&b.s, 10);
        }
        const mb_monitor *oa = mb_sim_get_monitor(&a.s), *ob = mb_sim_get_monitor(&b.s);
        double dq = 0, dW = fabs((double)oa->W - (double)ob->W);
        for (int i = 0; i < n; i++)
            dq = fmax(dq, fabs((double)mb_sim_get_q(&a.s)[i] - (double)mb_sim_get_q(&b.s)[i]));
        /* alf-explicit: its steps' ends move by round-off (1.4e-10 s; W by 2.5e-9 J of 27 J;
         * ptq at the discarded end put it 0.08 and 2.2 J off, canonical 0.06 and 1.4 J) */
        double tol = F[k / 2] == MB_CANONICAL ? 0 : 1e-8;
        CHECK(st >= 0 && st2 >= 0 && same0 && back &&
              fabs((double)mb_sim_get_t(&a.s) - (double)mb_sim_get_t(&b.s)) <= tol &&
              dq <= tol && dW <= tol * (1 + fabs((double)ob->W)),
              "a step undone, the run gone on: %s %s: %s/%s, v0, S0 the start's after dense output "
              "%d, v, S back %d, t %.17g/%.17g, |dq| %.3g, W %.17g against %.17g",
              mb_formulation_name(F[k / 2]), mb_integrator_name(I[k % 2]), mb_status_str(st),
              mb_status_str(st2), same0, back, (double)mb_sim_get_t(&a.s), (double)mb_sim_get_t(&b.s),
              dq, (double)oa->W, (double)ob->W);
        free(a.w);
        free(b.w);
    }
}
#endif

#if MBI_HAS_KKT && MBI_F2 && (MBI_ADAPTIVE || MBI_BDF)
/* The run up to its step k (integrator integ, canonical, events on or off), then step k made to
 * come near a singular position (rank_tol between the smallest pivot ratio r that step k
 * measured in a plain run and r^2; the energy and constraint tests at 1e-30, so met) for
 * mb_sim_step's undo. *cut: step k located an event inside it. MB_ERR_SINGULAR and *d the
 * largest difference of t, q, v, sigma, *dh that of the next step h, against the step's start
 * (0: the same bits), or another status. */
static int undone_step(const mb_model *m0, const mb_params *p, int k, mb_real r, simbox *a,
                       double *d, double *dh, int *cut)
{
    enum { NU = 128 };
    mb_real t0, h0, q0[NU], v0[NU], S0[NU];
    int st = open_sim(a, m0, p);
    if (st == MB_OK) st = mb_sim_reset(&a->s, 0, NULL, NULL, 1);
    for (int j = 0; j < k && st >= 0; j++) st = mb_sim_step(&a->s, 100);
    mb_sim *s = &a->s;
    int n = s->n, nc = s->nc;
    if (st < 0 || n > NU || nc > NU) return st < 0 ? st : MB_ERR_PARAM;
    t0 = mb_sim_get_t(s);
    h0 = mb_sim_get_h(s);
    memcpy(q0, mb_sim_get_q(s), sizeof(mb_real) * (size_t)n);
    memcpy(v0, mb_sim_get_v(s), sizeof(mb_real) * (size_t)n);
    memcpy(S0, mb_sim_get_sigma(s), sizeof(mb_real) * (size_t)nc);
    s->p.rank_tol = (mb_real)pow((double)r, 1.5);
    s->p.warn_energy = s->p.warn_phi = MB_R(1e-30);
    st = mb_sim_step(s, 100);
    s->p = *p;
    *cut = s->ev_cut;
    double dd = fabs((double)mb_sim_get_t(s) - (double)t0);
    *dh = fabs((double)mb_sim_get_h(s) - (double)h0);
    for (int i = 0; i < n; i++) {
        dd = fmax(dd, fabs((double)mb_sim_get_q(s)[i] - (double)q0[i]));
        dd = fmax(dd, fabs((double)mb_sim_get_v(s)[i] - (double)v0[i]));
    }
    for (int i = 0; i < nc; i++) dd = fmax(dd, fabs((double)mb_sim_get_sigma(s)[i] - (double)S0[i]));
    *d = dd;
    return st;
}

/* The first step of a plain run (canonical, integ, rtol 1e-6, events as given) after step kmin
 * that located an event (with events) or any (without), *r its smallest pivot ratio of S; -1
 * when none by t_end */
static int plain_step(const mb_model *m0, const mb_params *p, int kmin, double t_end, mb_real *r)
{
    simbox a;
    int st = open_sim(&a, m0, p), k = -1;
    if (st == MB_OK) st = mb_sim_reset(&a.s, 0, NULL, NULL, 1);
    for (int j = 0; j < 100000 && st >= 0 && mb_sim_get_t(&a.s) < t_end; j++) {
        st = mb_sim_step(&a.s, 100);
        if (j >= kmin && (!p->events || mb_sim_get_t(&a.s) == a.s.ev_tlast)) {
            k = j;
            *r = a.s.step_ratio;
            break;
        }
    }
    free(a.w);
    return st >= 0 ? k : -1;
}
#endif

#if MBI_HAS_KKT && MBI_F2 && MBI_EVENTS && (MBI_BDF || MBI_DOPRI5) && defined(MB_HAVE_valve_jump)
/* a run's steps to t_end (t_stop t_end): the times of the steps cut at an event (ending at the
 * root they located: ev_tlast), the first NCUT into tc, their count into *ncut */
enum { NCUT = 64 };
static int cut_times(simbox *a, mb_real t_end, mb_real *tc, int *ncut)
{
    int st = MB_OK, k = 0;
    while (st >= 0 && mb_sim_get_t(&a->s) < t_end) {
        st = mb_sim_step(&a->s, t_end);
        if (st >= 0 && mb_sim_get_t(&a->s) == a->s.ev_tlast) {
            if (k < NCUT) tc[k] = mb_sim_get_t(&a->s);
            k++;
        }
    }
    *ncut = k;
    return st;
}

/* mb_sim_step's undo of a step that located an event inside it (canonical, near a singular
 * position: undone_step; bdf's cut_dense, dopri5's cut_redo) leaves the run at the step's
 * start, t, q, v, sigma and the next step h bit for bit: bdf's dense output, which the location
 * evaluates, kept the run's v and sigma in the step's start copies v0, S0, so the undo put back
 * the discarded end's; and the undo left h at the discarded step's proposal. The run then goes
 * on to 0.2 s. The events' state is the step's start's again: the gaps it compares against and
 * the last cut's time (they were left at the discarded cut, on the far side of that crossing,
 * which the run from the start then did not see: valve_jump to 0.2 s, dopri5 95 cuts against 96
 * of the run that never took the step, the first at 0.00636 against 0.00352). dopri5: the same
 * cuts, events, onsets and end state as that run, bit for bit; bdf (its Nordsieck array dropped
 * by the undo: a restart at order 1, then other steps, and the follower's chatter after a
 * landing has other cuts) its first cut within 1e-5 s of that run's. valve_jump (its follower
 * leaves the cam and lands again). */
extern const mb_model valve_jump_model;
static void check_cut_undo(int integ)
{
    const mb_model *m0 = &valve_jump_model;
    const char *name = integ == MB_BDF ? "bdf" : "dopri5";
    mb_params p;
    mb_params_default(&p, MB_CANONICAL);
    p.integrator = integ;
    p.rtol = p.atol = MB_R(1e-6);
    p.events = 1;
    p.warn_accuracy = 0;   /* (the companion's comparison at the step's start is not undone) */
    mb_real r = 0;
    int k = plain_step(m0, &p, 1, 0.2, &r), cut = 0;
    CHECK(k > 0 && r > 0 && r < 1, "valve_jump canonical %s: a step with an event cut: step %d, "
          "pivot ratio %.3g", name, k, (double)r);
    if (!(k > 0 && r > 0 && r < 1)) return;
    simbox a, b;
    double d = -1, dh = -1;
    int st = undone_step(m0, &p, k, r, &a, &d, &dh, &cut);
    CHECK(st == MB_ERR_SINGULAR && (cut || integ != MB_BDF) && d == 0 && dh == 0, "%s step %d with an event cut "
          "undone: %s, cut %d, t, q, v, sigma the step's start's to %.3g, h to %.3g", name, k,
          mb_status_str(st), cut, d, dh);
    int st2 = open_sim(&b, m0, &p);
    if (st2 == MB_OK) st2 = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
    for (int j = 0; j < k && st2 >= 0; j++) st2 = mb_sim_step(&b.s, 100);
    /* the events' state after the undo: that of the run at the step's start, bit for bit */
    int ne = a.s.nev + a.s.nsw;
    mb_real ea = a.s.ev_tlast, eb = b.s.ev_tlast;
    int same = st2 >= 0 && ne > 0 && ne == b.s.nev + b.s.nsw &&
               memcmp(a.s.evw, b.s.evw, sizeof(mb_real) * (size_t)ne) == 0 &&
               (ea == eb || (isnan((double)ea) && isnan((double)eb))) &&
               a.s.mon.events == b.s.mon.events && a.s.mon.onsets == b.s.mon.onsets;
    CHECK(same, "%s: the events' state after the undo against the run at the step's start: "
          "gaps %s, last cut %.9g/%.9g, events %ld/%ld", name,
          ne > 0 && memcmp(a.s.evw, b.s.evw, sizeof(mb_real) * (size_t)ne) == 0 ? "same" : "differ",
          (double)ea, (double)eb, a.s.mon.events, b.s.mon.events);
    mb_real ta[NCUT], tb[NCUT];
    int na = 0, nb = 0;
    st = cut_times(&a, MB_R(0.2), ta, &na);
    if (st2 >= 0) st2 = cut_times(&b, MB_R(0.2), tb, &nb);
    double dt = na > 0 && nb > 0 ? 0 : -1, dq = 0;
    for (int j = 0; j < na && j < nb && j < NCUT; j++) dt = fmax(dt, fabs((double)ta[j] - (double)tb[j]));
    for (int i = 0; i < a.s.n; i++)
        dq = fmax(dq, fabs((double)mb_sim_get_q(&a.s)[i] - (double)mb_sim_get_q(&b.s)[i]));
    if (integ == MB_BDF) {
        double d0 = na > 0 && nb > 0 ? fabs((double)ta[0] - (double)tb[0]) : -1;
        CHECK(st >= 0 && st2 >= 0 && d0 >= 0 && d0 <= 1e-5, "bdf: the run after the undo to 0.2 s: "
              "%s, its first cut %.9g against %.9g of the run that never took the step (%d/%d "
              "cuts)", mb_status_str(st), na ? (double)ta[0] : -1.0, nb ? (double)tb[0] : -1.0,
              na, nb);
    } else
        CHECK(st >= 0 && st2 >= 0 && na == nb && dt == 0 && a.s.mon.events == b.s.mon.events &&
              a.s.mon.onsets == b.s.mon.onsets && dq == 0, "%s: the run after the undo against "
              "the run that never took the step, to 0.2 s: %s/%s, cuts %d/%d (first %.9g/%.9g), "
              "|dt| %.3g, events %ld/%ld, onsets %ld/%ld, |dq| %.3g", name, mb_status_str(st),
              mb_status_str(st2), na, nb, na ? (double)ta[0] : -1.0, nb ? (double)tb[0] : -1.0,
              dt, a.s.mon.events, b.s.mon.events, a.s.mon.onsets, b.s.mon.onsets, dq);
    free(a.w);
    free(b.w);
}
#endif

#if MBI_HAS_KKT && MBI_F2 && MBI_DOPRI5
/* A run going on after mb_sim_step's undo (canonical dopri5 near a singular position,
 * undone_step, at its step 10) is the run that never took the step: the next step starts from
 * the step's start's h (not the discarded step's proposal), and 10 steps on t, q, W are those
 * of the plain run, bit for bit (the driven fixture: canonical's direct solve, the same bits) */
static void check_undo_h(const mb_model *m0)
{
    mb_params p;
    mb_params_default(&p, MB_CANONICAL);
    p.integrator = MB_DOPRI5;
    p.rtol = p.atol = MB_R(1e-8);
    p.warn_accuracy = 0;   /* (the companion's comparison at the step's start is not undone) */
    mb_real r = 0;
    int k = plain_step(m0, &p, 10, 10, &r), cut = 0;
    CHECK(k == 10 && r > 0 && r < 1, "driven canonical dopri5: step %d, pivot ratio %.3g", k, (double)r);
    if (!(k == 10 && r > 0 && r < 1)) return;
    simbox a, b;
    double d = -1, dh = -1;
    int st = undone_step(m0, &p, k, r, &a, &d, &dh, &cut);
    int st2 = open_sim(&b, m0, &p);
    if (st2 == MB_OK) st2 = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
    for (int j = 0; j < k && st2 >= 0; j++) st2 = mb_sim_step(&b.s, 100);
    CHECK(st == MB_ERR_SINGULAR && d == 0 && dh == 0, "dopri5 step %d undone: %s, t, q, v, sigma "
          "the step's start's to %.3g, h to %.3g", k, mb_status_str(st), d, dh);
    st = MB_OK;
    for (int j = 0; j < 10 && st >= 0 && st2 >= 0; j++) {
        st = mb_sim_step(&a.s, 100);
        st2 = mb_sim_step(&b.s, 100);
    }
    double dq = fabs((double)mb_sim_get_t(&a.s) - (double)mb_sim_get_t(&b.s));
    for (int i = 0; i < a.s.n; i++)
        dq = fmax(dq, fabs((double)mb_sim_get_q(&a.s)[i] - (double)mb_sim_get_q(&b.s)[i]));
    CHECK(st >= 0 && st2 >= 0 && dq == 0 && a.s.mon.W == b.s.mon.W,
          "the run after the undo against the plain run: %s/%s, t %.17g/%.17g, |dq| %.3g, W "
          "%.17g/%.17g", mb_status_str(st), mb_status_str(st2), (double)mb_sim_get_t(&a.s),
          (double)mb_sim_get_t(&b.s), dq, (double)a.s.mon.W, (double)b.s.mon.W);
    free(a.w);
    free(b.w);
}
#endif

#if MBI_BDF && MBI_EXPLICIT
/* bdf: a step whose energies overflow while the state stays finite (V = inf from t = 0.01, the
 * dynamics untouched) is undone, as dopri5's and the fixed steps' are: MB_ERR_NONFINITE, t, q, v
 * and h those at the step's start, bit for bit (before, bdf went on with energy_dev NaN) */
static const mb_model *bad_e_base;
static void bad_energy(const mb_model *m, mb_real t, const mb_real *q, const mb_real *v, mb_real *out)
{
    bad_e_base->energy(m, t, q, v, out);
    if (t > MB_R(0.01)) out[1] = (mb_real)INFINITY;
}
static void check_bdf_energy_undo(const mb_model *m0)
{
    enum { NU = 64 };
    mb_model m = *planned(m0);
    m.energy = bad_energy;
    bad_e_base = m0;
    for (int f = MB_BAUMGARTE; f <= MB_CANONICAL; f++) {
        mb_params p;
        simbox b;
        mb_params_default(&p, f);
        p.integrator = MB_BDF;
        p.rtol = p.atol = MB_R(1e-6);
        mb_real t0 = 0, h0 = 0, q0[NU], v0[NU];
        int st = m.nq <= NU ? open_sim(&b, &m, &p) : MB_ERR_PARAM;
        if (!st) st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
        while (st >= 0 && mb_sim_get_t(&b.s) < 1) {
            t0 = mb_sim_get_t(&b.s);
            h0 = mb_sim_get_h(&b.s);
            memcpy(q0, mb_sim_get_q(&b.s), sizeof(mb_real) * (size_t)m.nq);
            memcpy(v0, mb_sim_get_v(&b.s), sizeof(mb_real) * (size_t)m.nq);
            st = mb_sim_step(&b.s, 1);
        }
        int same = st != MB_ERR_PARAM && mb_sim_get_t(&b.s) == t0 && mb_sim_get_h(&b.s) == h0 &&
                   memcmp(q0, mb_sim_get_q(&b.s), sizeof(mb_real) * (size_t)m.nq) == 0 &&
                   memcmp(v0, mb_sim_get_v(&b.s), sizeof(mb_real) * (size_t)m.nq) == 0;
        CHECK(st == MB_ERR_NONFINITE && same && t0 <= MB_R(0.01) && t0 > 0,
              "%s %s bdf: V = inf from t = 0.01: %s at t = %g, t, q, v, h the step's start's: %d",
              m.name, mb_formulation_name(f), mb_status_str(st), (double)mb_sim_get_t(&b.s), same);
        if (st != MB_ERR_PARAM) free(b.w);
    }
}
#endif

static void check_bad_gamma(const mb_model *m0)
{
    const mb_real bad[3] = { (mb_real)NAN, (mb_real)INFINITY, -(mb_real)INFINITY };
    mb_model m = *planned(m0);
    m.gamma = bad_gamma;
    m.eval_gamma_force = NULL;   /* (else baumgarte takes Gamma from the fused evaluation) */
    bad_base = m0;
    for (int integ = 0; integ < 2; integ++)
        for (int k = 0; k < 3; k++)
            for (int r = 0; r < 2; r++) {
                mb_params p;
                simbox b;
                mb_params_default(&p, MB_BAUMGARTE);
                if (integ) { p.integrator = MB_DOP853; p.rtol = p.atol = MB_R(1e-6); }
                bad_value = bad[k];
                bad_row = r ? m.nc - 1 : 0;
                int st = open_sim(&b, &m, &p);
                if (!st) st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
                CHECK(st == MB_OK, "%s: bad Gamma: start: %s", m.name, mb_status_str(st));
                if (!st) st = run_to(&b, 0.1);
                int finite = 1;
                for (int i = 0; i < m.nq; i++)
                    finite &= isfinite((double)mb_sim_get_q(&b.s)[i]) && isfinite((double)mb_sim_get_v(&b.s)[i]);
                CHECK(st == MB_ERR_NONFINITE && finite && mb_sim_get_t(&b.s) <= MB_R(0.011),
                      "%s %s: Gamma[%d] = %g from t = 0.01: %s at t = %g (state finite: %d)", m.name,
                      integ ? "dop853" : "rk4", bad_row, (double)bad_value, mb_status_str(st),
                      (double)mb_sim_get_t(&b.s), finite);
                free(b.w);
            }
}

int main(void)
{
    mb_params p;
    simbox b;
    (void)check_close;

    /* status table */
    for (int c = MB_ERR_STATE; c <= MB_EVENT_DONE; c++)
        CHECK(strcmp(mb_status_str(c), "unknown status") != 0, "no message for status %d", c);
    CHECK(strcmp(mb_status_str(99), "unknown status") == 0 && strcmp(mb_status_str(-99), "unknown status") == 0, "unknown codes");
    CHECK(strcmp(mb_status_str(MB_ERR_SINGULAR), mb_status_str(MB_ERR_NOT_SPD)) != 0, "distinct messages");

    /* the explicit Runge-Kutta tables' lists of nonzero stage weights (mb_rk.c, written by hand) */
    CHECK(mbi_rk_nz_check(), "mb_rk.c: an nz table differs from its weight table's nonzeros");

    /* parameters */
    for (int f = 0; f < 4; f++) {
        mb_params_default(&p, f);
        CHECK(mb_params_check(&p, NULL) == MB_OK, "defaults of %s invalid", mb_formulation_name(f));
        CHECK(mb_formulation_parse(mb_formulation_name(f)) == f, "name round trip");
    }
    CHECK(mb_formulation_parse("lagrange") == -1 && mb_integrator_parse("euler") == -1, "unknown names");
    {
        const char *what = NULL;
        mb_params_default(&p, MB_BAUMGARTE); p.h = -1e-3;
        CHECK(mb_params_check(&p, &what) == MB_ERR_PARAM && what && strcmp(what, "h") == 0, "negative h");
        p.h = (mb_real)NAN;
        CHECK(mb_params_check(&p, NULL) == MB_ERR_PARAM, "NaN h");
        mb_params_default(&p, MB_ALF_TRAPEZOID); p.tol = 0;
        CHECK(mb_params_check(&p, NULL) == MB_ERR_PARAM, "zero tol");
        mb_params_default(&p, MB_BAUMGARTE); p.integrator = MB_DOPRI5; p.rtol = 0;
        CHECK(mb_params_check(&p, NULL) == MB_ERR_PARAM, "zero rtol");
        mb_params_default(&p, MB_ALF_EXPLICIT); p.alpha = 0;
        CHECK(mb_params_check(&p, NULL) == MB_ERR_PARAM, "alpha 0 for alf");
        mb_params_default(&p, MB_ALF_TRAPEZOID); p.integrator = MB_RK4;
        CHECK(mb_params_check(&p, NULL) == MB_ERR_PARAM, "alf-trapezoid with rk4");
        mb_params_default(&p, MB_CANONICAL); p.integrator = MB_TRAPEZOID;
        CHECK(mb_params_check(&p, NULL) == MB_ERR_PARAM, "canonical with trapezoid");
        mb_params_default(&p, MB_CANONICAL); p.max_iter = 0;
        CHECK(mb_params_check(&p, NULL) == MB_ERR_PARAM && mb_sim_workspace_size(FX, &p) == 0, "max_iter 0");
        p.max_iter = MB_MAX_ITER_LIMIT;
        CHECK(mb_params_check(&p, NULL) == MB_OK, "max_iter at its limit");
        p.max_iter = MB_MAX_ITER_LIMIT + 1;
        CHECK(mb_params_check(&p, &what) == MB_ERR_PARAM && what && strcmp(what, "max_iter") == 0, "max_iter above its limit");
        mb_params_default(&p, MB_CANONICAL); p.max_steps = 0;
        CHECK(mb_params_check(&p, &what) == MB_ERR_PARAM && what && strcmp(what, "max_steps") == 0, "max_steps 0");
        /* rank_tol in [0, 1): the LDL^T kernels' one rank test d_k > rank_tol d0_k stands for
         * d0_k > 0 too only there (mb_sparse.h); every other value refused, for every formulation */
        static const double bad_rt[] = {1, 1.5, 1e30, -1e-30, -1, NAN, INFINITY, -INFINITY};
        static const double good_rt[] = {0, -0.0, 1e-30, 1e-8, 0.999};
        for (int f = 0; f < 4; f++) {
            for (int k = 0; k < (int)(sizeof bad_rt / sizeof bad_rt[0]); k++) {
                mb_params_default(&p, f);
                p.rank_tol = (mb_real)bad_rt[k];
                what = NULL;
                CHECK(mb_params_check(&p, &what) == MB_ERR_PARAM && what && strcmp(what, "rank_tol") == 0 &&
                      mb_sim_workspace_size(FX, &p) == 0, "%s: rank_tol %g taken", mb_formulation_name(f), bad_rt[k]);
            }
            for (int k = 0; k < (int)(sizeof good_rt / sizeof good_rt[0]); k++) {
                mb_params_default(&p, f);
                p.rank_tol = (mb_real)good_rt[k];
                CHECK(mb_params_check(&p, NULL) == MB_OK, "%s: rank_tol %g refused", mb_formulation_name(f), good_rt[k]);
            }
        }
    }

    /* workspace: size-then-assign, too small, misaligned, bad model */
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    {
        const mb_model *fx = planned(FX);
        size_t ws = mb_sim_workspace_size(fx, &p);
        CHECK(ws > 0, "workspace size");
        char *w = malloc(ws + 16);
        mb_sim s;
        CHECK(mb_sim_init(&s, fx, &p, w, ws - 8) == MB_ERR_WORKSPACE, "too small workspace accepted");
        CHECK(mb_sim_init(&s, fx, &p, w + 1, ws) == MB_ERR_WORKSPACE, "misaligned workspace accepted");
        CHECK(mb_sim_step(&s, 1) == MB_ERR_STATE, "step before init/reset");
        CHECK(mb_sim_init(&s, fx, &p, w, ws) == MB_OK, "init");
        CHECK(mb_sim_init(&s, FX, &p, w, ws) == MB_ERR_MODEL, "a model without a plan accepted");
        CHECK(mb_sim_step(&s, 1) == MB_ERR_STATE, "step before reset");
        mb_model bad = *FX;
        static const int bad_row[2] = {1, 0}, bad_col[2] = {0, 0};
        bad.phi_q_pat.nnz = 2; bad.phi_q_pat.row = bad_row; bad.phi_q_pat.col = bad_col;
        CHECK(mb_sim_init(&s, planned(&bad), &p, w, ws) == MB_ERR_MODEL, "unsorted pattern accepted");
        free(w);
    }

#if MB_POISON_WORK
    /* the poison build poisons: after an alf-trapezoid step (and one of bdf on it) the Newton
     * residual g2's block (mb_layout.h: MB_VIEW_TRAP, MB_VIEW_BDF4: tn[1]; g1's, tn[0], is the
     * monitor's scratch after the step) holds NaN, the state not */
    for (int ig = 0; ig < 2; ig++) {
        simbox b;
        mb_params_default(&p, MB_ALF_TRAPEZOID);
        if (ig) p.integrator = MB_BDF;
        int st = open_sim(&b, FX, &p);
        if (!st) st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
        if (!st) st = mb_sim_step(&b.s, p.h);
        CHECK(st >= 0 && isnan((double)b.s.tn[1][0]) && isfinite((double)b.s.z[0]),
              "poison build, %s: the residual's block after a step: %g (status %d)", ig ? "bdf" : "trapezoid",
              (double)b.s.tn[1][0], st);
        free(b.w);
    }
#endif

    /* model functions vs finite differences, every model */
    const mb_model *models[16];
    mb_model drv, red = redundant_model();
    int nm = all_models(models, &drv);
    for (int k = 0; k < nm; k++) check_model_fd(models[k]);
    check_model_fd(&red);

#ifdef MB_HAVE_double_pendulum
    /* the hand-written fixture and the generated double pendulum are the same model */
    {
        const mb_model *g = &double_pendulum_model;
        CHECK(g->nq == FX->nq && g->nc == FX->nc, "double_pendulum sizes");
        int same_names = 1;
        for (int i = 0; i < g->nq; i++) same_names &= strcmp(g->info->coord_names[i], FX->info->coord_names[i]) == 0;
        CHECK(same_names, "double_pendulum coordinate names differ from the fixture");
        mb_real q[6], v[6], a[64], c[64];
        for (int trial = 0; trial < 5 && same_names; trial++) {
            for (int i = 0; i < 6; i++) { q[i] = (mb_real)(2 * rnd()); v[i] = (mb_real)(3 * rnd()); }
            mb_real t = (mb_real)rnd();
            double d = 0;
            FX->force(FX, t, q, v, a); g->force(g, t, q, v, c); d += relerr(6, a, c);
            FX->energy(FX, t, q, v, a); g->energy(g, t, q, v, c); d += relerr(3, a, c);
            for (int i = 0; i < 6; i++) d += fabs((double)(FX->mass[i] - g->mass[i]));
            /* constraints up to their order: compare |Phi|, |Gamma| and Phi_q^T Phi_q v */
            FX->phi(FX, t, q, a); g->phi(g, t, q, c);
            double na = 0, nc2 = 0;
            for (int r = 0; r < 4; r++) { na += (double)(a[r] * a[r]); nc2 += (double)(c[r] * c[r]); }
            d += fabs(sqrt(na) - sqrt(nc2));
            CHECK(d < 1e-12, "fixture vs generated double pendulum differ by %.3g", d);
        }
    }
#endif

    /* assembly of the fixture from perturbed guesses: locked angles held, constraints met */
    mb_params_default(&p, MB_BAUMGARTE);
    CHECK(open_sim(&b, FX, &p) == MB_OK, "open");
    {
        mb_real q[6], v[6];
        int it;
        memcpy(q, FX->q0, sizeof q); memcpy(v, FX->v0, sizeof v);
        int st = mb_sim_assemble(&b.s, 0, q, v, &it);
        mb_real ph[4];
        FX->phi(FX, 0, q, ph);
        CHECK(st == MB_OK && fabs((double)ph[0]) + fabs((double)ph[1]) + fabs((double)ph[2]) + fabs((double)ph[3]) < 1e-13,
              "fixture assembly: %s after %d iterations", mb_status_str(st), it);
        CHECK(q[2] == FX->q0[2] && q[5] == FX->q0[5], "locked angles moved");
        CHECK(fabs((double)q[0] - 0.5 * cos(0.78539816339744831)) < 1e-13 && fabs((double)q[4] - (sin(0.78539816339744831) + 0.75)) < 1e-13,
              "assembled CoM positions wrong: %.17g %.17g", (double)q[0], (double)q[4]);
        free(b.w);
    }
    /* over-constrained assembly fails clearly: everything locked at inconsistent guesses */
    {
        mb_model lk = *FX;
        static const unsigned char all[6] = {1, 1, 1, 1, 1, 1};
        lk.locked = all;
        CHECK(open_sim(&b, &lk, &p) == MB_OK, "open");
        CHECK(mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_ERR_ASSEMBLY_POS, "impossible assembly not reported");
        free(b.w);
    }
    /* driven fixture: the driver fixes phidot_1 = A w; a conflicting given velocity is an error */
    {
        CHECK(open_sim(&b, &drv, &p) == MB_OK, "open");
        int st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
        CHECK(st == MB_OK && fabs((double)mb_sim_get_v(&b.s)[2] - (double)(DRV_A * DRV_W)) < 1e-13,
              "driven velocity assembly: %s, phidot_1 = %.17g", mb_status_str(st), (double)mb_sim_get_v(&b.s)[2]);
        CHECK(mb_sim_get_monitor(&b.s)->phid_norm < 1e-13, "driven: Phi_q v + Phi_t = %.3g", (double)mb_sim_get_monitor(&b.s)->phid_norm);
        /* energy balance with driver work: W is large, Delta U stays small */
        st = run_to(&b, 1.0);
        const mb_monitor *mo = mb_sim_get_monitor(&b.s);
        CHECK(st == MB_OK && fabs((double)mo->W) > 1 && mo->max_energy_dev < 1e-4,
              "driver work: W = %.6g J, max |dU| = %.3g J", (double)mo->W, (double)mo->max_energy_dev);
        free(b.w);
        mb_model cf = drv;
        static const unsigned char vg[6] = {0, 0, 1, 0, 0, 1};
        cf.v_given = vg;
        CHECK(open_sim(&b, &cf, &p) == MB_OK, "open");
        CHECK(mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_ERR_ASSEMBLY_VEL, "conflicting given velocity not reported");
        free(b.w);
    }
#ifdef MB_HAVE_andrews
    /* Andrews assembles in one call from the model's guesses (positions 0, angles ~0.1 rad) */
    {
        mb_real q[21], v[21], ph[20];
        int it;
        CHECK(open_sim(&b, &andrews_model, &p) == MB_OK, "open");
        memcpy(q, andrews_model.q0, sizeof q); memcpy(v, andrews_model.v0, sizeof v);
        int st = mb_sim_assemble(&b.s, 0, q, v, &it);
        andrews_model.phi(&andrews_model, 0, q, ph);
        double r = 0;
        for (int i = 0; i < 20; i++) if (fabs((double)ph[i]) > r) r = fabs((double)ph[i]);
        CHECK(st == MB_OK && r < 1e-13, "andrews assembly: %s, |Phi| = %.3g, %d iterations", mb_status_str(st), r, it);
        for (int i = 0; i < 21; i++)
            if (andrews_model.locked[i]) CHECK(q[i] == andrews_model.q0[i], "andrews locked coordinate %d moved", i);
        free(b.w);
    }
#endif

    /* rank loss: redundant constraints stop F1/F2 with MB_ERR_SINGULAR at reset; F3/F4 run
     * (M + Phi_q^T alpha Phi_q is SPD) and agree with the fixture without the duplicate */
    for (int f = 0; f < 4; f++) {
        mb_params_default(&p, f);
        CHECK(open_sim(&b, &red, &p) == MB_OK, "open");
        int st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
        if (f <= MB_CANONICAL) {
            CHECK(st == MB_ERR_SINGULAR, "%s on redundant constraints: %s", mb_formulation_name(f), mb_status_str(st));
        } else {
            simbox r;
            CHECK(st == MB_OK && run_to(&b, 0.5) == MB_OK, "%s on redundant constraints failed", mb_formulation_name(f));
            CHECK(open_sim(&r, FX, &p) == MB_OK && mb_sim_reset(&r.s, 0, NULL, NULL, 1) == MB_OK && run_to(&r, 0.5) == MB_OK, "plain run");
            double d = 0;
            for (int i = 0; i < 6; i++) d = fmax(d, fabs((double)(mb_sim_get_q(&b.s)[i] - mb_sim_get_q(&r.s)[i])));
            CHECK(d < 1e-6, "%s: redundant vs plain differ by %.3g", mb_formulation_name(f), d);
            free(r.w);
        }
        free(b.w);
    }

    /* a failing step leaves the last good state: F4 strict Newton with one iteration */
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    p.max_iter = 1; p.strict_newton = 1;
    CHECK(open_sim(&b, FX, &p) == MB_OK && mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_OK, "open");
    {
        mb_real q0[6];
        memcpy(q0, mb_sim_get_q(&b.s), sizeof q0);
        int st = mb_sim_step(&b.s, 1);
        CHECK(st == MB_ERR_NEWTON, "one Newton iteration should not meet tol: %s", mb_status_str(st));
        CHECK(mb_sim_get_t(&b.s) == 0 && memcmp(q0, mb_sim_get_q(&b.s), sizeof q0) == 0, "state changed by a failed step");
        CHECK(mb_sim_step(&b.s, 0) == MB_ERR_PARAM, "t_stop <= t accepted");
    }
    free(b.w);

    /* tol below round-off: Newton stops once its corrections stall at rounding noise and the
     * step counts as converged (also with strict_newton), instead of max_iter iterations */
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    p.tol = MB_EPS * MB_EPS; p.max_iter = MB_MAX_ITER_LIMIT; p.strict_newton = 1;
    CHECK(open_sim(&b, FX, &p) == MB_OK && mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_OK, "open");
    {
        int st = MB_OK;
        for (int k = 0; k < 10 && st == MB_OK; k++) st = mb_sim_step(&b.s, 1);
        const mb_monitor *mo = mb_sim_get_monitor(&b.s);
        CHECK(st == MB_OK && mo->steps == 10 && mo->newton_roundoff == 10 && mo->newton_iters < 10 * 30,
              "round-off stall: %s, %ld steps, %ld at round-off, %ld iterations", mb_status_str(st),
              mo->steps, mo->newton_roundoff, mo->newton_iters);
    }
    free(b.w);

    /* the step limit: the step after max_steps fails and leaves the state as it was */
    mb_params_default(&p, MB_BAUMGARTE);
    p.max_steps = 5;
    CHECK(open_sim(&b, FX, &p) == MB_OK && mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_OK, "open");
    {
        int st = MB_OK, k;
        for (k = 0; k < 5 && st >= 0; k++) st = mb_sim_step(&b.s, 1);
        CHECK(st >= 0 && k == 5, "steps below max_steps: %s", mb_status_str(st));
        mb_real t5 = mb_sim_get_t(&b.s), q5[6];
        memcpy(q5, mb_sim_get_q(&b.s), sizeof q5);
        st = mb_sim_step(&b.s, 1);
        CHECK(st == MB_ERR_MAX_STEPS && mb_sim_get_t(&b.s) == t5 && memcmp(q5, mb_sim_get_q(&b.s), sizeof q5) == 0 &&
              mb_sim_get_monitor(&b.s)->steps == 5, "step past max_steps: %s", mb_status_str(st));
        CHECK(strcmp(mb_status_str(MB_ERR_MAX_STEPS), "step limit reached (max_steps)") == 0, "message");
    }
    free(b.w);

    /* fixed steps: t = t0 + k h without accumulated rounding, no sliver step at the end, a
     * clipped step starts a new grid */
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    p.h = MB_R(1e-4);
    CHECK(open_sim(&b, FX, &p) == MB_OK && mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_OK, "open");
    CHECK(run_to(&b, 0.3) == MB_OK && mb_sim_get_monitor(&b.s)->steps == 3000 && mb_sim_get_t(&b.s) == (mb_real)0.3,
          "0.3 s at h = 1e-4: %ld steps, t = %.17g", mb_sim_get_monitor(&b.s)->steps, (double)mb_sim_get_t(&b.s));
    CHECK(mb_sim_step(&b.s, (mb_real)0.30005) >= 0 && mb_sim_step(&b.s, 1) >= 0 &&
          fabs((double)mb_sim_get_t(&b.s) - 0.30015) < 1e-15, "after a clipped step t = %.17g", (double)mb_sim_get_t(&b.s));
    free(b.w);

    /* dopri5 lands exactly on the requested time */
    mb_params_default(&p, MB_CANONICAL);
    p.integrator = MB_DOPRI5;
    CHECK(open_sim(&b, FX, &p) == MB_OK && mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_OK, "open");
    CHECK(run_to(&b, 0.0123) == MB_OK && mb_sim_get_t(&b.s) == (mb_real)0.0123, "dopri5 end time %.17g", (double)mb_sim_get_t(&b.s));
    free(b.w);

    /* sigma reset (6.3.4): resets happen, the motion and the constraints are unaffected */
    {
        simbox r;
        mb_params_default(&p, MB_ALF_TRAPEZOID);
        CHECK(open_sim(&r, FX, &p) == MB_OK && mb_sim_reset(&r.s, 0, NULL, NULL, 1) == MB_OK && run_to(&r, 1.0) == MB_OK, "no reset run");
        p.sigma_reset = 50;
        CHECK(open_sim(&b, FX, &p) == MB_OK && mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_OK && run_to(&b, 1.0) == MB_OK, "reset run");
        const mb_monitor *a = mb_sim_get_monitor(&b.s), *o = mb_sim_get_monitor(&r.s);
        double d = 0;
        for (int i = 0; i < 6; i++) d = fmax(d, fabs((double)(mb_sim_get_q(&b.s)[i] - mb_sim_get_q(&r.s)[i])));
        CHECK(a->sigma_resets > 0 && a->max_sigma < o->max_sigma, "sigma resets %ld, max sigma %.3g vs %.3g",
              a->sigma_resets, (double)a->max_sigma, (double)o->max_sigma);
        /* the reset shifts p by Phi_q^T sigma, which the trapezoid then integrates with its
         * O(h^3 |sigma|) local error: the motion moves at the discretization-error level (F4's
         * own error here is ~4e-5 m), not more */
        CHECK(d < 1e-4 && a->max_phi < 2 * o->max_phi && a->max_energy_dev < 2 * o->max_energy_dev,
              "reset changed the motion: dq %.3g, phi %.3g/%.3g, dU %.3g/%.3g", d, (double)a->max_phi,
              (double)o->max_phi, (double)a->max_energy_dev, (double)o->max_energy_dev);
        free(r.w); free(b.w);
    }

#if !MB_FLOAT
    check_f3_order(FX);
#ifdef MB_HAVE_double_pendulum
    check_f3_order(&double_pendulum_model);   /* its unrolled kernels (mb_plan.f3) */
#endif
#endif
    check_bad_gamma(FX);
#if MBI_BDF && MBI_EXPLICIT
    check_bdf_energy_undo(FX);
#endif
#if MBI_DENSE && (MBI_F2 || MBI_F3)
    {
        mb_model dv = driven_model();
        check_undo_resume(&dv);
    }
#endif
#if MBI_HAS_KKT && MBI_F2 && MBI_DOPRI5
    {
        mb_model dv = driven_model();
        check_undo_h(&dv);
    }
#endif
#if MBI_HAS_KKT && MBI_F2 && MBI_EVENTS && (MBI_BDF || MBI_DOPRI5) && defined(MB_HAVE_valve_jump)
#if MBI_BDF
    check_cut_undo(MB_BDF);
#endif
#if MBI_DOPRI5
    check_cut_undo(MB_DOPRI5);
#endif
#endif
#if MBI_GE
    check_ge_finish_resets(FX);
#ifdef MB_HAVE_double_pendulum
    check_ge_finish_resets(&double_pendulum_model);
#endif
#endif
#ifdef MB_HAVE_double_pendulum
    check_bad_gamma(&double_pendulum_model);
#endif

    /* the same reset in the explicit canonical formulations (F2: it was ignored before): the
     * reset is an exact change of p (v unchanged), so the motion agrees with the run without it
     * to the integrator's error */
    for (int f = MB_CANONICAL; f <= MB_ALF_EXPLICIT; f++) {
        simbox r;
        mb_params_default(&p, f);
        CHECK(open_sim(&r, FX, &p) == MB_OK && mb_sim_reset(&r.s, 0, NULL, NULL, 1) == MB_OK && run_to(&r, 1.0) == MB_OK, "no reset run");
        p.sigma_reset = 20;
        int st = open_sim(&b, FX, &p), events = 0;
        if (st == MB_OK) st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
        while (st >= 0 && mb_sim_get_t(&b.s) < 1) {
            st = mb_sim_step(&b.s, 1);
            if (st == MB_EVENT_SIGMA_RESET) events++;
        }
        const mb_monitor *a = mb_sim_get_monitor(&b.s), *o = mb_sim_get_monitor(&r.s);
        double d = 0;
        for (int i = 0; i < 6; i++) d = fmax(d, fabs((double)(mb_sim_get_q(&b.s)[i] - mb_sim_get_q(&r.s)[i])));
        CHECK(st >= 0 && events > 0 && events == a->sigma_resets && a->max_sigma <= 20 && o->max_sigma > 40,
              "%s sigma reset: %s, %d events, %ld resets, max sigma %.3g (without: %.3g)", mb_formulation_name(f),
              mb_status_str(st), events, a->sigma_resets, (double)a->max_sigma, (double)o->max_sigma);
        CHECK(d < 1e-7, "%s: the reset moved the motion by %.3g", mb_formulation_name(f), d);
        free(r.w); free(b.w);
    }

    /* warnings through the monitor: a threshold met sets its bit once, with time and value;
     * p.strict turns that step into MB_ERR_SUSPECT */
    {
        mb_params_default(&p, MB_CANONICAL);
        CHECK(p.warn_energy == MB_R(1e-2) && p.warn_phi == MB_R(1e-3) && p.warn_sigma == (sizeof(mb_real) == sizeof(float) ? MB_R(1e3) : MB_R(5e5)) &&
              p.warn_stability == 2 && p.warn_accuracy == MB_WARN_ACCURACY_AUTO && !p.strict, "warning defaults");
        CHECK(open_sim(&b, FX, &p) == MB_OK && mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_OK && run_to(&b, 1.0) == MB_OK, "plain");
        const mb_monitor *o = mb_sim_get_monitor(&b.s);
        CHECK(o->warn == 0 && o->escale > 0 && o->pscale > 0 && fabs((double)o->lscale - sqrt(2.0)) < 1e-6,
              "fixture: warnings %#x, scales E %.3g p %.3g L %.3g (sqrt 2: AB's sqrt(12 J / m))", o->warn, (double)o->escale,
              (double)o->pscale, (double)o->lscale);
        free(b.w);
        p.warn_sigma = MB_R(2.5);   /* reached within the second (3 at t = 1 s): gravity loads the joints */
        CHECK(open_sim(&b, FX, &p) == MB_OK && mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_OK && run_to(&b, 1.0) == MB_OK, "sigma run");
        o = mb_sim_get_monitor(&b.s);
        CHECK(o->warn == MB_WARN_BIT(MB_WARN_SIGMA) && o->warn_t[MB_WARN_SIGMA] > 0 &&
              o->warn_t[MB_WARN_SIGMA] < 1 && o->warn_val[MB_WARN_SIGMA] > MB_R(2.5),
              "sigma warning: bits %#x at t = %.3g, value %.3g", o->warn, (double)o->warn_t[MB_WARN_SIGMA],
              (double)o->warn_val[MB_WARN_SIGMA]);
        double tw = (double)o->warn_t[MB_WARN_SIGMA];
        free(b.w);
        p.strict = 1;
        CHECK(open_sim(&b, FX, &p) == MB_OK && mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_OK, "strict open");
        int st = run_to(&b, 1.0);
        CHECK(st == MB_ERR_SUSPECT && (double)mb_sim_get_t(&b.s) == tw &&
              strcmp(mb_status_str(st), "suspect result (strict)") == 0,
              "strict: %s at t = %.6g (warned at %.6g)", mb_status_str(st), (double)mb_sim_get_t(&b.s), tw);
        free(b.w);
        p.strict = 0;
        p.warn_sigma = 0;   /* off */
        p.h = MB_R(0.3);    /* rk4 far beyond its limit on the stabilization (xi 10, w 1: 20 1/s) */
        CHECK(open_sim(&b, FX, &p) == MB_OK && mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_OK, "coarse open");
        run_to(&b, 0.3);
        o = mb_sim_get_monitor(&b.s);
        CHECK(o->warn & MB_WARN_BIT(MB_WARN_STABILITY) && o->warn_val[MB_WARN_STABILITY] > 2,
              "stability: bits %#x, value %.3g", o->warn, (double)o->warn_val[MB_WARN_STABILITY]);
        free(b.w);
    }

    /* the accuracy warning's threshold through the library (not only the simulator): the
     * default MB_WARN_ACCURACY_AUTO gives each estimator its own (mb_monitor.c, acc_limit: the
     * companions at 2h 10, bdf's signed sum on baumgarte and canonical 15, on alf-trapezoid 30,
     * the step-controlled trapezoid's 30), a value > 0 one for all, 0 none (err_lim 0, no
     * estimate: err_max 0);
     * mb_params_check takes -1 and refuses other negative values */
    {
        static const struct { int f, ig, ad; double w, lim; } A[] = {
            {MB_CANONICAL, MB_DOPRI5, 0, MB_WARN_ACCURACY_AUTO, 10},
            {MB_BAUMGARTE, MB_DOP853, 0, MB_WARN_ACCURACY_AUTO, 10},
            {MB_BAUMGARTE, MB_BDF, 0, MB_WARN_ACCURACY_AUTO, 15},
            {MB_CANONICAL, MB_BDF, 0, MB_WARN_ACCURACY_AUTO, 15},
            {MB_ALF_TRAPEZOID, MB_BDF, 0, MB_WARN_ACCURACY_AUTO, 30},
            {MB_ALF_TRAPEZOID, MB_TRAPEZOID, 1, MB_WARN_ACCURACY_AUTO, 30},
            {MB_ALF_TRAPEZOID, MB_TRAPEZOID, 2, MB_WARN_ACCURACY_AUTO, 10},
            {MB_CANONICAL, MB_BDF, 0, 3, 3},
            {MB_CANONICAL, MB_DOPRI5, 0, 0, 0},
        };
        const char *what = NULL;
        mb_params_default(&p, MB_CANONICAL);
        p.warn_accuracy = -1;
        CHECK(mb_params_check(&p, &what) == 0, "warn_accuracy -1 (auto) refused: %s", what ? what : "");
        p.warn_accuracy = MB_R(-2);
        CHECK(mb_params_check(&p, &what) != 0, "warn_accuracy -2 taken");
        for (size_t k = 0; k < sizeof A / sizeof A[0]; k++) {
            mb_params_default(&p, A[k].f);
            p.integrator = A[k].ig;
            p.adaptive = A[k].ad;
            p.rtol = p.atol = MB_R(1e-6);
            p.h = MB_R(1e-3);
            p.warn_accuracy = (mb_real)A[k].w;
            int st = open_sim(&b, FX, &p);
            if (st == MB_OK) st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
            if (st == MB_OK) st = run_to(&b, 0.5);
            if (st == MB_OK) st = mb_sim_finish(&b.s);
            const mb_monitor *o = mb_sim_get_monitor(&b.s);
            CHECK(st == MB_OK && o->err_lim == (mb_real)A[k].lim && (A[k].lim > 0 ? o->err_max > 0 : o->err_max == 0) &&
                      o->err_max >= o->err_sum && !(o->warn & MB_WARN_BIT(MB_WARN_ACCURACY)) == !(o->err_max > o->err_lim && o->err_lim > 0),
                  "accuracy threshold %s %s adaptive %d warn_accuracy %g: %s, err_lim %g (want %g), err_max %g, err_sum %g, warn %#x",
                  mb_formulation_name(A[k].f), mb_integrator_name(A[k].ig), A[k].ad, A[k].w, mb_status_str(st),
                  (double)o->err_lim, A[k].lim, (double)o->err_max, (double)o->err_sum, o->warn);
            free(b.w);
        }
    }

    /* the explicit integrators' monitor takes Phi of the step's last evaluation (mb_rk.c,
     * accept): after every step, through the velocity projection's and the sigma resets'
     * evaluations again, |Phi| in the monitor is that of Phi(t, q) at the accepted state,
     * bit for bit (the fixture has no fused eval_kin: the same function either way); the
     * previous step's |Phi| differs from it (the check can tell a stale value) */
    {
        static const struct { int f, ig; int proj; double sreset; } K[] = {
            {MB_BAUMGARTE, MB_DOPRI5, 0, 0}, {MB_BAUMGARTE, MB_DOP853, 1, 0}, {MB_BAUMGARTE, MB_RK4, 1, 0},
            {MB_CANONICAL, MB_DOPRI5, 0, 1e-2}, {MB_CANONICAL, MB_RK4, 0, 1e-2}, {MB_ALF_EXPLICIT, MB_DOP853, 0, 1e-2},
        };
        for (size_t k = 0; k < sizeof K / sizeof K[0]; k++) {
            mb_params_default(&p, K[k].f);
            p.integrator = K[k].ig;
            p.rtol = p.atol = MB_R(1e-6);
            p.h = MB_R(1e-2);
            p.project_velocity = K[k].proj;
            p.sigma_reset = (mb_real)K[k].sreset;
            int st = open_sim(&b, FX, &p), steps = 0, same = 0, moved = 0;
            if (st == MB_OK) st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
            const mb_model *m = mb_sim_model(&b.s);
            mb_real ph[8];
            double prev = -1;
            while (st >= 0 && mb_sim_get_t(&b.s) < 1 && m->nc <= 8) {
                st = mb_sim_step(&b.s, 1);
                if (st < 0) break;
                m->phi(m, mb_sim_get_t(&b.s), mb_sim_get_q(&b.s), ph);
                mb_real a2 = 0;
                for (int r = 0; r < m->nc; r++) a2 += ph[r] * ph[r];
                double now = (double)MB_SQRT(a2), mon = (double)mb_sim_get_monitor(&b.s)->phi_norm;
                steps++;
                same += mon == now;
                moved += prev != now;
                prev = now;
            }
            const mb_monitor *o = mb_sim_get_monitor(&b.s);
            CHECK(st >= 0 && m->nc <= 8 && steps > 10 && same == steps && moved > steps / 2 &&
                      (K[k].sreset == 0 || o->sigma_resets > 0),
                  "monitor's |Phi| at the accepted state: %s %s%s: %s, %d steps, %d the same as Phi(t, q), "
                  "%d moved from the previous step's, %ld sigma resets", mb_formulation_name(K[k].f),
                  mb_integrator_name(K[k].ig), K[k].proj ? " projected" : "", mb_status_str(st), steps, same,
                  moved, o->sigma_resets);
            free(b.w);
        }
    }

#ifdef MB_HAVE_fourbar_singular
    /* alf-trapezoid on steps that land exactly on the four-bar's six singular positions
     * (h = 1e-3, t = 0.375 + 0.5 k): all passed, constraint error and energy deviation of the
     * same size as a run whose steps miss them (h = 1.3e-3; measured 1.8e-6 J vs 3.1e-6 J,
     * |Phi| 1.9e-10 vs 3.2e-10 m; kinetic energy 0.14 J). Before the Newton matrix carried
     * h/2 Phidot_q in dc/dq the first of them stopped the run with MB_ERR_NEWTON. */
    {
        simbox r;
        mb_params_default(&p, MB_ALF_TRAPEZOID);
        p.h = MB_R(1.3e-3);
        CHECK(open_sim(&r, &fourbar_singular_model, &p) == MB_OK && mb_sim_reset(&r.s, 0, NULL, NULL, 1) == MB_OK &&
              run_to(&r, 3.0) == MB_OK, "four-bar off the singular grid");
        p.h = MB_R(1e-3);
        int st = open_sim(&b, &fourbar_singular_model, &p);
        if (st == MB_OK) st = mb_sim_reset(&b.s, 0, NULL, NULL, 1);
        if (st == MB_OK) st = run_to(&b, 3.0);
        const mb_monitor *a = mb_sim_get_monitor(&b.s), *o = mb_sim_get_monitor(&r.s);
        CHECK(st == MB_OK && mb_sim_get_t(&b.s) == (mb_real)3.0, "four-bar h = 1e-3: %s at t = %.6g",
              mb_status_str(st), (double)mb_sim_get_t(&b.s));
        CHECK(a->maxiter_events == 0 && a->max_phi < 2 * o->max_phi && a->max_phi < 1e-9 &&
              a->max_energy_dev < 2 * o->max_energy_dev && a->max_energy_dev < 1e-5,
              "four-bar on the singular grid: max |Phi| %.3g (off grid %.3g), max |dU| %.3g J (%.3g), %ld at max_iter",
              (double)a->max_phi, (double)o->max_phi, (double)a->max_energy_dev, (double)o->max_energy_dev,
              a->maxiter_events);
        free(r.w); free(b.w);
    }
#endif

    /* velocity projection (baumgarte remedy) reduces the velocity constraint violation */
    {
        simbox r;
        mb_params_default(&p, MB_BAUMGARTE);
        CHECK(open_sim(&r, FX, &p) == MB_OK && mb_sim_reset(&r.s, 0, NULL, NULL, 1) == MB_OK && run_to(&r, 1.0) == MB_OK, "plain");
        p.project_velocity = 1;
        CHECK(open_sim(&b, FX, &p) == MB_OK && mb_sim_reset(&b.s, 0, NULL, NULL, 1) == MB_OK && run_to(&b, 1.0) == MB_OK, "projected");
        CHECK(mb_sim_get_monitor(&b.s)->max_phid < 1e-3 * mb_sim_get_monitor(&r.s)->max_phid,
              "projection: max |Phidot| %.3g vs %.3g", (double)mb_sim_get_monitor(&b.s)->max_phid,
              (double)mb_sim_get_monitor(&r.s)->max_phid);
        free(r.w); free(b.w);
    }
    return check_report();
}
