/* kernel_test.c - the numerical kernels alone, host versus Cortex-M: our LU and Cholesky
 * (runtime/mb_linalg.c with MB_NO_LAPACKE) and, with -DMCU_MODEL=<name>, every function of a
 * generated model. Layer: MCU test program; prints "V" lines (bits) and "M" lines (ticks). */
#include <stddef.h>

#include "mb_linalg.h"
#include "mb_status.h"
#include "mcu_port.h"

#ifdef MCU_MODEL
#include "mb_model.h"
#define MCU_CAT2(a, b) a##b
#define MCU_CAT(a, b) MCU_CAT2(a, b)
extern const mb_model MCU_CAT(MCU_MODEL, _model);
#endif

#define NMAX 64                          /* largest matrix the kernel test builds */

static unsigned long long rng = 88172645463325252ull;

/* xorshift64 in integers, mapped to [-1, 1): identical on every machine. */
static mb_real rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (mb_real)((double)(rng >> 11) * (2.0 / 9007199254740992.0) - 1.0);
}

static void put(const char *name, int i, mb_real x)
{
#if MB_FLOAT
    mcu_put_f32(name, i, x);
#else
    mcu_put_f64(name, i, x);
#endif
}

static void put_vec(const char *name, int n, const mb_real *x)
{
    int i;
    for (i = 0; i < n; i++) put(name, i, x[i]);
}

static mb_real a[NMAX * NMAX], f[NMAX * NMAX], b[NMAX];
static int piv[NMAX];

/* Cholesky and LU of n x n matrices shaped like the formulations' systems: an SPD
 * D + alpha B^T B (as M + alpha Phi_q^T Phi_q) and a general matrix with a strong diagonal. */
static int linalg(int n)
{
    static mb_real bt[NMAX * NMAX];
    const mb_real alpha = MB_R(1e4);
    int i, j, k, st, fails = 0;
    unsigned long long t0;

    for (k = 0; k < n * n; k++) bt[k] = rnd();
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) {
            mb_real s = 0;
            for (k = 0; k < n; k++) s += bt[k + i * n] * bt[k + j * n];
            a[i + j * n] = alpha * s + (i == j ? MB_R(1.0) + MB_R(0.5) * (mb_real)i : 0);
        }
    for (k = 0; k < n * n; k++) f[k] = a[k];
    for (i = 0; i < n; i++) b[i] = rnd();
    t0 = mcu_ticks();
    st = mb_chol_factor(n, f, 0, NULL);
    mb_chol_solve(n, f, b);
    mcu_put_u("ticks_chol", mcu_ticks() - t0);
    if (st != MB_OK) fails++;
    put_vec("chol_x", n, b);

    for (k = 0; k < n * n; k++) f[k] = rnd() + ((k % (n + 1)) == 0 ? MB_R(4.0) : 0);
    for (i = 0; i < n; i++) b[i] = rnd();
    t0 = mcu_ticks();
    st = mb_lu_factor(n, f, piv, 0, NULL);
    mb_lu_solve(n, f, piv, b);
    mcu_put_u("ticks_lu", mcu_ticks() - t0);
    if (st != MB_OK) fails++;
    put_vec("lu_x", n, b);
    return fails;
}

#ifdef MCU_MODEL
/* Every model function at a state off the constraint manifold (q0 perturbed, random v). */
static int model_functions(const mb_model *m)
{
    static mb_real q[NMAX], v[NMAX], out[NMAX * NMAX];
    const mb_real t = MB_R(0.125);
    int i;
    unsigned long long t0;

    if (m->nq > NMAX || m->nc > NMAX || 2 * m->npoint > NMAX * NMAX) return 1;
    for (i = 0; i < m->nq; i++) {
        q[i] = m->q0[i] + MB_R(0.01) * rnd();
        v[i] = rnd();
    }
    t0 = mcu_ticks();
    m->phi(m, t, q, out);
    mcu_put_u("ticks_phi", mcu_ticks() - t0);
    put_vec("phi", m->nc, out);
    t0 = mcu_ticks();
    m->phi_q(m, t, q, out);
    mcu_put_u("ticks_phi_q", mcu_ticks() - t0);
    put_vec("phi_q", m->phi_q_pat.nnz, out);
    m->phi_t(m, t, q, out);
    put_vec("phi_t", m->nc, out);
    m->phi_q_dot(m, t, q, v, out);
    put_vec("phi_q_dot", m->phi_q_pat.nnz, out);
    m->gamma(m, t, q, v, out);
    put_vec("gamma", m->nc, out);
    t0 = mcu_ticks();
    m->force(m, t, q, v, out);
    mcu_put_u("ticks_force", mcu_ticks() - t0);
    put_vec("force", m->nq, out);
    m->dforce_dq(m, t, q, v, out);
    put_vec("dforce_dq", m->dq_dq_pat.nnz, out);
    m->dforce_dv(m, t, q, v, out);
    put_vec("dforce_dv", m->dq_dv_pat.nnz, out);
    m->energy(m, t, q, v, out);
    put_vec("energy", 3, out);
    m->points(m, t, q, out);
    put_vec("points", 2 * m->npoint, out);
    return 0;
}
#endif

int main(void)
{
    int fails = 0;
    mcu_puts("# kernel_test on ");
    mcu_puts(mcu_target());
    mcu_puts("\n");
    mcu_ticks_reset();
    fails += linalg(21);                 /* Andrews' n */
#ifdef MCU_MODEL
    fails += model_functions(&MCU_CAT(MCU_MODEL, _model));
#endif
    mcu_put_u("stack_bytes", mcu_stack_high_water());
    mcu_put_u("failures", (unsigned long long)fails);
    return fails ? 1 : 0;
}
