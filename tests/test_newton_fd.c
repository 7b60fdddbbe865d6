/* test_newton_fd.c - F4's reduced Newton matrix (5.52) as assembled into the plan storage, against
 * central differences of the reduced residual r(q) = g1 + h/2 g2 (5.41, 5.42) at fixed p and
 * sigma~, on every model: with full_jacobian the assembled matrix (plus its second-derivative
 * terms) is the whole Jacobian (omega != 0: the matrix has no Int Phi_q term, the integral is
 * held fixed within a step, so it is exact with the 2 xi omega Phi term too). Negative
 * control: without the second-derivative terms the difference must show (sigma~ != 0).
 * NFD_VERBOSE=1 in the environment prints the largest difference of each model and pass. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "mb_sim_impl.h"
#include "test_physics_models.h"
#include "test_plan.h"

typedef struct {
    const mb_model *m;
    int n, nc;
    double h, a, xi, omega, t1;
    const double *qk, *pk, *vk, *pdk, *p, *I, *sig;
} rctx;

/* r(q) = g1 + h/2 g2 with v, pd from the trapezoid rule and s = sigma~ + a c(q) */
static void residual(const rctx *c, const double *q, double *r, double *work)
{
    const mb_model *m = c->m;
    int n = c->n, nc = c->nc, nnz = m->phi_q_pat.nnz;
    double *v = work, *pd = v + n, *Q = pd + n, *Phi = Q + n, *Phit = Phi + nc, *cc = Phit + nc;
    double *Pq = cc + nc, *Pqd = Pq + nnz;
    for (int i = 0; i < n; i++) {
        v[i] = 2 / c->h * (q[i] - c->qk[i]) - c->vk[i];
        pd[i] = 2 / c->h * (c->p[i] - c->pk[i]) - c->pdk[i];
    }
    m->phi(m, c->t1, q, Phi);
    m->phi_t(m, c->t1, q, Phit);
    m->phi_q(m, c->t1, q, Pq);
    m->phi_q_dot(m, c->t1, q, v, Pqd);
    m->force(m, c->t1, q, v, Q);
    for (int r2 = 0; r2 < nc; r2++) cc[r2] = Phit[r2] + 2 * c->xi * c->omega * Phi[r2];
    for (int k = 0; k < nnz; k++) cc[m->phi_q_pat.row[k]] += Pq[k] * v[m->phi_q_pat.col[k]];
    for (int r2 = 0; r2 < nc; r2++) cc[r2] = c->sig[r2] + c->a * cc[r2];        /* s */
    for (int i = 0; i < n; i++)
        r[i] = c->h / 2 * (m->mass[i] * v[i] - c->p[i]) + c->h * c->h / 4 * (pd[i] - Q[i]);
    for (int k = 0; k < nnz; k++) {
        int row = m->phi_q_pat.row[k], col = m->phi_q_pat.col[k];
        r[col] += c->h / 2 * Pq[k] * cc[row] - c->h * c->h / 4 * Pqd[k] * cc[row];
    }
}

/* FA (plan storage, unsymmetric) -> dense column-major n x n in the original order */
static void scatter(const mb_symbolic *sy, const double *F, double *A)
{
    int n = sy->n, nl = sy->nl;
    memset(A, 0, sizeof(double) * (size_t)n * n);
    for (int j = 0; j < n; j++) {
        int oj = sy->perm[j];
        A[oj + (size_t)oj * n] = F[j];
        for (int p = sy->lp[j]; p < sy->lp[j + 1]; p++) {
            int oi = sy->perm[sy->li[p]];
            A[oi + (size_t)oj * n] = F[n + p];
            A[oj + (size_t)oi * n] = F[n + nl + p];
        }
    }
}

static void check_model(const mb_model *m0)
{
    const mb_model *m = planned(m0);
    if (!m->dforce_dq || !m->dforce_dv || !m->force || m->nc == 0) return;
    mb_params p;
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    p.alpha = 1e4; p.xi = 10; p.omega = 2; p.h = 1e-2; p.full_jacobian = 1;
    size_t ws = mb_sim_workspace_size(m, &p);
    void *w = malloc(ws);
    mb_sim s;
    int st = mb_sim_init(&s, m, &p, w, ws);
    if (st == MB_OK) st = mb_sim_reset(&s, 0, NULL, NULL, 1);
    CHECK(st == MB_OK, "%s: start: %s", m->name, mb_status_str(st));
    if (st != MB_OK) { free(w); return; }
    int n = s.n, nc = s.nc;
    double *qk = malloc(sizeof(double) * 2 * n), *pk = qk + n, *q = malloc(sizeof(double) * n);
    double *pp = malloc(sizeof(double) * n), *sig = malloc(sizeof(double) * (nc + 1));
    double *work = malloc(sizeof(double) * (size_t)(6 * n + 3 * nc + 2 * m->phi_q_pat.nnz + 8));
    double *rp = malloc(sizeof(double) * n), *rm = malloc(sizeof(double) * n);
    double *A = malloc(sizeof(double) * (size_t)n * n), *Afd = malloc(sizeof(double) * (size_t)n * n);
    double *vk = malloc(sizeof(double) * 2 * n), *pdk = vk + n;   /* copies: s.v is reused below */
    memcpy(qk, s.z, sizeof(double) * 2 * n);
    memcpy(vk, s.v, sizeof(double) * n);
    memcpy(pdk, s.pd, sizeof(double) * n);
    rctx c = {m, n, nc, p.h, p.alpha, p.xi, p.omega, p.h, qk, pk, vk, pdk, pp, s.z + 2 * n, sig};
    for (int i = 0; i < n; i++) {   /* an iterate near the predictor, sigma~ away from 0 */
        q[i] = qk[i] + p.h * s.v[i] + 1e-3 * ((i % 3) - 1);
        pp[i] = pk[i] + p.h * s.pd[i];
    }
    for (int r = 0; r < nc; r++) sig[r] = 0.5 + 0.1 * r;
    for (int j = 0; j < n; j++) {   /* central differences, column j */
        double qj = q[j], e = 1e-6 * (1 + fabs(qj));   /* (1e-4 .. 1e-7 agree) */
        q[j] = qj + e; residual(&c, q, rp, work);
        q[j] = qj - e; residual(&c, q, rm, work);
        q[j] = qj;
        for (int i = 0; i < n; i++) Afd[i + (size_t)j * n] = (rp[i] - rm[i]) / (2 * e);
    }
    /* the runtime's matrix at the same iterate */
    for (int i = 0; i < n; i++) s.v[i] = 2 / p.h * (q[i] - qk[i]) - c.vk[i];
    mb_real *vsave = malloc(sizeof(double) * n);
    memcpy(vsave, s.v, sizeof(double) * n);
    m->phi_q(m, c.t1, q, s.Pq);
    m->phi_q_dot(m, c.t1, q, s.v, s.Pqd);
    m->dforce_dq(m, c.t1, q, s.v, s.dQq);
    m->dforce_dv(m, c.t1, q, s.v, s.dQv);
    residual(&c, q, rp, work);                      /* s = sigma~ + a c(q), in work */
    double *sv = work + 3 * n + 2 * nc;
    double d0max = 0;
    memcpy(s.sig, sv, sizeof(double) * nc);   /* the geometric terms' multipliers: s here */
    for (int pass = 0; pass < 2; pass++) {
        /* F4's row: the matrix of the trapezoid's g = h/2, with the geometric terms on pass 0 */
        mbi_forms[MB_ALF_TRAPEZOID]->matrix(&s, c.t1, q, p.h / 2, 0, pass == 0);
        scatter(&m->plan->a, s.FA, A);
        if (getenv("NFD_VERBOSE")) {
            double sm = 0; for (int r = 0; r < nc; r++) if (fabs(sv[r]) > sm) sm = fabs(sv[r]);
            fprintf(stderr, "%s pass %d: |s|max %.3g A(2,2) %.10g A(0,2) %.10g fd(0,2) %.10g\n", m->name, pass, sm,
                    A[2 + 2 * (size_t)n], A[0 + 2 * (size_t)n], Afd[0 + 2 * (size_t)n]);
        }
        double amax = 0, dmax = 0;
        size_t kmax = 0;
        for (size_t k = 0; k < (size_t)n * n; k++) {
            if (fabs(Afd[k]) > amax) amax = fabs(Afd[k]);
            if (fabs(A[k] - Afd[k]) > dmax) { dmax = fabs(A[k] - Afd[k]); kmax = k; }
        }
        if (getenv("NFD_VERBOSE"))
            fprintf(stderr, "%s pass %d: max diff %.3g at (%zu, %zu): %.10g vs fd %.10g\n", m->name, pass,
                    dmax, kmax % n, kmax / n, A[kmax], Afd[kmax]);
        if (pass == 0) {
            d0max = dmax;
            CHECK(dmax <= 1e-9 * amax, "%s: Newton matrix vs central differences: max diff %.3g of max %.3g",
                  m->name, dmax, amax);
        } else {   /* negative control: the test sees the second-derivative terms (none when
                    * Phi_q is constant: then both passes agree at round-off) */
            CHECK(dmax > 100 * d0max || dmax <= 1e-12 * amax,
                  "%s: without the second-derivative terms the difference is only %.3g (with: %.3g)",
                  m->name, dmax, d0max);
        }
    }
    free(vsave); free(vk); free(qk); free(q); free(pp); free(sig); free(work); free(rp); free(rm); free(A); free(Afd);
    free(w);
}

int main(void)
{
    (void)check_close;
    const mb_model *models[16];
    mb_model drv;
    int nm = all_models(models, &drv);
    for (int i = 0; i < nm; i++) check_model(models[i]);
    return check_report();
}
