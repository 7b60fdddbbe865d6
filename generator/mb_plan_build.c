/* mb_plan_build.c - symbolic analysis of the matrices the formulations factor: the pattern of
 * S = Phi_q W Phi_q^T and of A = M + Phi_q^T (.) Phi_q + dQ/dq + dQ/dv, a fill-reducing order
 * from SuiteSparse AMD, or the planner's multiple minimum degree where that one has no more fill
 * and a shorter elimination tree (or, for comparison, METIS nested dissection when compiled with
 * -DMBP_WITH_METIS, or none), the elimination tree and the pattern of L, the update list of the
 * right-looking elimination and the assembly maps of every product term (mb_plan, mb_model.h).
 * Layer: host side, used by mbgen (emitted as const data) and the generic evaluator (built at
 * initialization); allocates, never prints. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <amd.h>
#ifdef MBP_WITH_METIS
#include <metis.h>
#endif
#include "mb_plan_build.h"
#include "mb_sparse.h"

/* A growable int list. */
typedef struct { int *v; int n, cap; } ilist;
static int push(ilist *l, int x)
{
    if (l->n == l->cap) {
        if (l->cap > INT_MAX / 2) return 0;   /* a plan this large fails instead of overflowing */
        int cap = l->cap ? 2 * l->cap : 16;
        int *v = realloc(l->v, sizeof(int) * (size_t)cap);
        if (!v) return 0;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return 1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Entries of a pattern grouped by row (byrow = 1) or by column: start[rows+1], idx[nnz] holds
 * entry numbers in increasing order within each group. */
static int group(const mb_pattern *p, int ngroups, int byrow, int **start, int **idx)
{
    int *s = calloc((size_t)ngroups + 1, sizeof(int)), *x = malloc(sizeof(int) * (size_t)(p->nnz + 1));
    if (!s || !x) { free(s); free(x); return 0; }
    for (int k = 0; k < p->nnz; k++) s[(byrow ? p->row[k] : p->col[k]) + 1]++;
    for (int g = 0; g < ngroups; g++) s[g + 1] += s[g];
    int *fill = malloc(sizeof(int) * (size_t)(ngroups + 1));
    if (!fill) { free(s); free(x); return 0; }
    memcpy(fill, s, sizeof(int) * (size_t)(ngroups + 1));
    for (int k = 0; k < p->nnz; k++) x[fill[byrow ? p->row[k] : p->col[k]]++] = k;
    free(fill);
    *start = s;
    *idx = x;
    return 1;
}

/* Symmetric adjacency (no diagonal) of n nodes from an edge list, as sorted unique CSC. */
typedef struct { int n; ilist *nb; } graph;
static int graph_init(graph *g, int n)
{
    g->n = n;
    g->nb = calloc((size_t)n + 1, sizeof(ilist));
    return g->nb != NULL;
}
static int edge(graph *g, int i, int j)
{
    if (i == j) return 1;
    return push(&g->nb[i], j) && push(&g->nb[j], i);
}
static void graph_finish(graph *g)
{
    for (int i = 0; i < g->n; i++) {
        ilist *l = &g->nb[i];
        if (l->n > 1) qsort(l->v, (size_t)l->n, sizeof(int), cmp_int);
        int m = 0;
        for (int k = 0; k < l->n; k++)
            if (m == 0 || l->v[k] != l->v[m - 1]) l->v[m++] = l->v[k];
        l->n = m;
    }
}
static void graph_free(graph *g)
{
    if (!g->nb) return;
    for (int i = 0; i < g->n; i++) free(g->nb[i].v);
    free(g->nb);
}

/* The graph's adjacency as one compressed array (Ap[n + 1], Ai[Ap[n]]), malloc'ed. */
static int adjacency(const graph *g, int **Ap_out, int **Ai_out)
{
    int n = g->n, nz = 0;
    for (int i = 0; i < n; i++) nz += g->nb[i].n;
    int *Ap = malloc(sizeof(int) * (size_t)(n + 1)), *Ai = malloc(sizeof(int) * (size_t)(nz + 1));
    if (!Ap || !Ai) { free(Ap); free(Ai); return 0; }
    Ap[0] = 0;
    for (int i = 0; i < n; i++) {
        if (g->nb[i].n > 0) memcpy(Ai + Ap[i], g->nb[i].v, sizeof(int) * (size_t)g->nb[i].n);
        Ap[i + 1] = Ap[i] + g->nb[i].n;
    }
    *Ap_out = Ap;
    *Ai_out = Ai;
    return 1;
}

#ifdef MBP_WITH_METIS
/* METIS_NodeND on the graph (symmetric, no diagonal, 0-based): perm[k] = the vertex eliminated
 * k-th. METIS's own perm/iperm: iperm[v] is the position of vertex v, perm its inverse (checked
 * by tests/test_ordering.c: a valid permutation, and the same fill as AMD where both are
 * optimal). A graph without edges keeps the natural order (nothing to dissect). */
static int order_metis(const graph *g, const int *Ap, const int *Ai, int *perm)
{
    int n = g->n, nz = Ap[n], ok = 0;
    if (nz == 0) {
        for (int i = 0; i < n; i++) perm[i] = i;
        return 1;
    }
    idx_t nv = n, options[METIS_NOPTIONS];
    idx_t *xadj = malloc(sizeof(idx_t) * (size_t)(n + 1)), *adj = malloc(sizeof(idx_t) * (size_t)nz);
    idx_t *mp = malloc(sizeof(idx_t) * (size_t)n), *mip = malloc(sizeof(idx_t) * (size_t)n);
    if (!xadj || !adj || !mp || !mip) goto out;
    for (int i = 0; i <= n; i++) xadj[i] = Ap[i];
    for (int e = 0; e < nz; e++) adj[e] = Ai[e];
    if (METIS_SetDefaultOptions(options) != METIS_OK) goto out;
    options[METIS_OPTION_NUMBERING] = 0;
    if (METIS_NodeND(&nv, xadj, adj, NULL, options, mp, mip) != METIS_OK) goto out;
    /* trust nothing: perm must be a permutation of 0 .. n-1 */
    for (int i = 0; i < n; i++) perm[i] = -1;
    for (int v = 0; v < n; v++) {
        if (mip[v] < 0 || mip[v] >= n || perm[mip[v]] != -1) goto out;
        perm[mip[v]] = v;
    }
    ok = 1;
out:
    free(xadj); free(adj); free(mp); free(mip);
    return ok;
}
#endif

int mbp_ordering_available(int ordering)
{
    switch (ordering) {
    case MBP_ORDER_AMD: case MBP_ORDER_NATURAL: return 1;
#ifdef MBP_WITH_METIS
    case MBP_ORDER_METIS: return 1;
#endif
    default: return 0;
    }
}

const char *mbp_ordering_name(int ordering)
{
    switch (ordering) {
    case MBP_ORDER_AMD: return "amd";
    case MBP_ORDER_NATURAL: return "natural";
    case MBP_ORDER_METIS: return "metis";
    default: return "unknown";
    }
}

/* Multiple minimum degree on the explicit elimination graph (dense bit rows: graphs of up to
 * MMD_MAX vertices): each round takes every vertex of the smallest degree that no vertex taken
 * in the round touches (an independent set, in index order), so the vertices of a round start
 * independent chains of the elimination tree. On a chain of bodies that is both ends at once:
 * two chains of pivots half as long, which the processor overlaps (the LDL^T and its solves
 * are a chain of dependent divisions and products, not a count of operations). symbolic()
 * keeps it only with no more fill or updates than AMD and a shorter elimination tree. */
#define MMD_MAX 4096
static int lowbit(unsigned long long x)   /* the index of the lowest set bit of x != 0 */
{
    int i = 0;
    while (!(x & 1)) { x >>= 1; i++; }
    return i;
}
static int order_mmd(const graph *g, int *perm)
{
    int n = g->n, w = (n + 63) / 64, ok = 0, k = 0;
    if (n > MMD_MAX) return 0;
    unsigned long long *adj = calloc((size_t)n * (size_t)w + 1, sizeof *adj);
    unsigned long long *alive = calloc((size_t)w + 1, sizeof *alive);
    int *deg = malloc(sizeof(int) * (size_t)(n + 1)), *mark = calloc((size_t)n + 1, sizeof(int));
    int *nbr = malloc(sizeof(int) * (size_t)(n + 1));
    if (!adj || !alive || !deg || !mark || !nbr) goto out;
    for (int i = 0; i < n; i++) {
        alive[i / 64] |= 1ULL << (i % 64);
        for (int e = 0; e < g->nb[i].n; e++) {
            int j = g->nb[i].v[e];
            adj[(size_t)i * w + j / 64] |= 1ULL << (j % 64);
        }
        deg[i] = g->nb[i].n;
    }
    for (int round = 1; k < n; round++) {
        int dmin = INT_MAX;
        for (int i = 0; i < n; i++)
            if ((alive[i / 64] >> (i % 64) & 1) && deg[i] < dmin) dmin = deg[i];
        for (int v = 0; v < n; v++) {
            if (!(alive[v / 64] >> (v % 64) & 1) || mark[v] == round || deg[v] != dmin) continue;
            unsigned long long *rv = adj + (size_t)v * w;
            int nn = 0;
            for (int b = 0; b < w; b++)
                for (unsigned long long x = rv[b] & alive[b]; x; x &= x - 1)
                    nbr[nn++] = b * 64 + lowbit(x);
            perm[k++] = v;
            alive[v / 64] &= ~(1ULL << (v % 64));
            for (int a = 0; a < nn; a++) {   /* the neighbours become a clique */
                unsigned long long *ra = adj + (size_t)nbr[a] * w;
                for (int b = 0; b < w; b++) ra[b] |= rv[b];
                ra[nbr[a] / 64] &= ~(1ULL << (nbr[a] % 64));
                mark[nbr[a]] = round;
            }
            for (int a = 0; a < nn; a++) {
                unsigned long long *ra = adj + (size_t)nbr[a] * w;
                int d = 0;
                for (int b = 0; b < w; b++)
                    for (unsigned long long x = ra[b] & alive[b]; x; x &= x - 1) d++;
                deg[nbr[a]] = d;
            }
        }
    }
    ok = 1;
out:
    free(adj); free(alive); free(deg); free(mark); free(nbr);
    return ok;
}

/* The fill-reducing order of the graph: perm[k] = the vertex eliminated k-th. */
static int order(const graph *g, int ordering, int *perm)
{
    int n = g->n, ok = 0, *Ap = NULL, *Ai = NULL;
    if (!mbp_ordering_available(ordering)) return 0;
    if (ordering == MBP_ORDER_NATURAL || n == 0) {
        for (int i = 0; i < n; i++) perm[i] = i;
        return 1;
    }
    if (!adjacency(g, &Ap, &Ai)) return 0;
    if (ordering == MBP_ORDER_AMD) {
        int st = amd_order(n, Ap, Ai, perm, NULL, NULL);
        ok = st == AMD_OK || st == AMD_OK_BUT_JUMBLED;
    }
#ifdef MBP_WITH_METIS
    else if (ordering == MBP_ORDER_METIS) ok = order_metis(g, Ap, Ai, perm);
#endif
    free(Ap);
    free(Ai);
    return ok;
}

/* Symbolic factorization of the graph under the order perm (malloc'ed, taken over) into *sy
 * (arrays malloc'ed); *height: the pivots on the longest path of the elimination tree. */
static int symbolic_of(const graph *g, int *perm, mb_symbolic *sy, int *height)
{
    int n = g->n, ok = 0;
    int *pinv = malloc(sizeof(int) * (size_t)(n + 1));
    int *lp = calloc((size_t)n + 1, sizeof(int)), *mark = malloc(sizeof(int) * (size_t)(n + 1));
    int *head = malloc(sizeof(int) * (size_t)(n + 1)), *next = malloc(sizeof(int) * (size_t)(n + 1));
    int *hgt = malloc(sizeof(int) * (size_t)(n + 1));
    ilist *low = calloc((size_t)n + 1, sizeof(ilist)), *col = calloc((size_t)n + 1, sizeof(ilist));
    int *li = NULL, nl = 0;
    ilist upd = {0};
    *height = 0;
    if (!perm || !pinv || !lp || !mark || !head || !next || !hgt || !low || !col) goto out;
    memset(sy, 0, sizeof *sy);
    for (int k = 0; k < n; k++) pinv[perm[k]] = k;
    /* strict lower triangle of the permuted matrix, by column */
    for (int i = 0; i < n; i++)
        for (int e = 0; e < g->nb[i].n; e++) {
            int pi = pinv[i], pj = pinv[g->nb[i].v[e]];
            if (pi > pj && !push(&low[pj], pi)) goto out;
        }
    /* columns of L in order: the lower part of A joined with the children's columns (less the
     * pivot itself); the parent is the smallest row (elimination tree) */
    for (int k = 0; k < n; k++) { mark[k] = -1; head[k] = -1; }
    for (int k = 0; k < n; k++) {
        ilist *c = &col[k];
        mark[k] = k;
        for (int e = 0; e < low[k].n; e++) {
            int i = low[k].v[e];
            if (mark[i] != k) { mark[i] = k; if (!push(c, i)) goto out; }
        }
        for (int ch = head[k]; ch >= 0; ch = next[ch])
            for (int e = 0; e < col[ch].n; e++) {
                int i = col[ch].v[e];
                if (mark[i] != k) { mark[i] = k; if (!push(c, i)) goto out; }
            }
        if (c->n > 1) qsort(c->v, (size_t)c->n, sizeof(int), cmp_int);
        if (c->n > 0) {                 /* link k under its parent */
            int par = c->v[0];
            next[k] = head[par];
            head[par] = k;
        }
        int hk = 1;                     /* the longest chain of pivots ending at k */
        for (int ch = head[k]; ch >= 0; ch = next[ch])
            if (hgt[ch] + 1 > hk) hk = hgt[ch] + 1;
        hgt[k] = hk;
        if (hk > *height) *height = hk;
        lp[k + 1] = lp[k] + c->n;
    }
    nl = lp[n];
    li = malloc(sizeof(int) * (size_t)(nl + 1));
    if (!li) goto out;
    for (int k = 0; k < n; k++)
        if (col[k].n > 0) memcpy(li + lp[k], col[k].v, sizeof(int) * (size_t)col[k].n);
    /* update targets: entry (li[q], li[p]) of column li[p] */
    mb_symbolic part = {0};
    part.n = n;
    part.nl = nl;
    part.lp = lp;
    part.li = li;
    for (int k = 0; k < n; k++)
        for (int p = lp[k]; p < lp[k + 1]; p++)
            for (int q = p; q < lp[k + 1]; q++) {
                int t = mb_sp_locate(&part, li[q], li[p]);
                if (t < 0 || !push(&upd, t)) goto out;   /* t < 0 cannot happen: L is closed */
            }
    int nupd = upd.n;
    if (!upd.v && !push(&upd, 0)) goto out;    /* never a null array */
    sy->n = n;
    sy->nl = nl;
    sy->nupd = nupd;
    sy->perm = perm;
    sy->pinv = pinv;
    sy->lp = lp;
    sy->li = li;
    sy->upd = upd.v;
    ok = 1;
out:
    if (!ok) { free(perm); free(pinv); free(lp); free(li); free(upd.v); }
    for (int k = 0; low && k < n; k++) free(low[k].v);
    for (int k = 0; col && k < n; k++) free(col[k].v);
    free(low); free(col); free(mark); free(head); free(next); free(hgt);
    return ok;
}

/* Symbolic factorization under an ordering. AMD's order gives way to the multiple minimum
 * degree's (order_mmd) when that one has no more entries in L, no more updates and a shorter
 * elimination tree: the same work in fewer dependent steps. */
static int symbolic(const graph *g, int ordering, mb_symbolic *sy)
{
    int n = g->n, h = 0, h2 = 0;
    int *perm = malloc(sizeof(int) * (size_t)(n + 1));
    if (!perm) return 0;
    if (!order(g, ordering, perm)) { free(perm); return 0; }
    if (!symbolic_of(g, perm, sy, &h)) return 0;
    if (ordering != MBP_ORDER_AMD || n < 3) return 1;
    mb_symbolic alt;
    int *p2 = malloc(sizeof(int) * (size_t)(n + 1));
    if (!p2) return 1;                  /* AMD's plan stands */
    if (!order_mmd(g, p2)) { free(p2); return 1; }
    if (!symbolic_of(g, p2, &alt, &h2)) return 1;
    if (alt.nl <= sy->nl && alt.nupd <= sy->nupd && h2 < h) { mb_symbolic t = *sy; *sy = alt; alt = t; }
    free((void *)alt.perm); free((void *)alt.pinv); free((void *)alt.lp);   /* the other one */
    free((void *)alt.li); free((void *)alt.upd);
    return 1;
}

void mbp_free(mb_plan *p)
{
    if (!p) return;
    const mb_symbolic *sy[2] = {&p->s, &p->a};
    for (int k = 0; k < 2; k++) {
        free((void *)sy[k]->perm); free((void *)sy[k]->pinv); free((void *)sy[k]->lp);
        free((void *)sy[k]->li); free((void *)sy[k]->upd);
    }
    free((void *)p->s_k); free((void *)p->s_l); free((void *)p->s_dst);
    free((void *)p->a_k); free((void *)p->a_l); free((void *)p->a_dst);
    free((void *)p->dqq_dst); free((void *)p->dqv_dst);
    free(p);
}

/* Pairs a <= b of the entries idx[s0 .. s1-1] (one group), oriented so that the first lies in
 * the lower triangle of the permuted matrix: key(k) gives the original index the entry maps to. */
static int pairs(const mb_symbolic *sy, const int *idx, int s0, int s1, const int *key,
                 ilist *K, ilist *Lx, ilist *D)
{
    for (int a = s0; a < s1; a++)
        for (int b = a; b < s1; b++) {
            int ka = idx[a], kb = idx[b];
            int pa = sy->pinv[key[ka]], pb = sy->pinv[key[kb]];
            if (pa < pb) { int t = ka; ka = kb; kb = t; t = pa; pa = pb; pb = t; }
            int d = mb_sp_locate(sy, pa, pb);
            if (d < 0 || !push(K, ka) || !push(Lx, kb) || !push(D, d)) return 0;
        }
    return 1;
}

static int *dst_list(const mb_symbolic *sy, const mb_pattern *p)
{
    int *d = malloc(sizeof(int) * (size_t)(p->nnz + 1));
    if (!d) return NULL;
    for (int k = 0; k < p->nnz; k++) {
        d[k] = mb_sp_locate(sy, sy->pinv[p->row[k]], sy->pinv[p->col[k]]);
        if (d[k] < 0) { free(d); return NULL; }
    }
    return d;
}

mb_plan *mbp_build(int nq, int nc, const mb_pattern *phi_q, const mb_pattern *dq_dq,
                   const mb_pattern *dq_dv, int ordering)
{
    mb_plan *p = calloc(1, sizeof *p);
    int *cs = NULL, *ci = NULL, *rs = NULL, *ri = NULL, ok = 0;
    graph gs = {0, NULL}, ga = {0, NULL};
    ilist sk = {0}, sl = {0}, sd = {0}, ak = {0}, al = {0}, ad = {0};
    if (!p || !group(phi_q, nq, 0, &cs, &ci) || !group(phi_q, nc, 1, &rs, &ri)) goto out;
    /* S: rows sharing a column; A: columns sharing a row, and the force Jacobians */
    if (!graph_init(&gs, nc) || !graph_init(&ga, nq)) goto out;
    for (int c = 0; c < nq; c++)
        for (int a = cs[c]; a < cs[c + 1]; a++)
            for (int b = a + 1; b < cs[c + 1]; b++)
                if (!edge(&gs, phi_q->row[ci[a]], phi_q->row[ci[b]])) goto out;
    for (int r = 0; r < nc; r++)
        for (int a = rs[r]; a < rs[r + 1]; a++)
            for (int b = a + 1; b < rs[r + 1]; b++)
                if (!edge(&ga, phi_q->col[ri[a]], phi_q->col[ri[b]])) goto out;
    for (int k = 0; k < dq_dq->nnz; k++) if (!edge(&ga, dq_dq->row[k], dq_dq->col[k])) goto out;
    for (int k = 0; k < dq_dv->nnz; k++) if (!edge(&ga, dq_dv->row[k], dq_dv->col[k])) goto out;
    graph_finish(&gs);
    graph_finish(&ga);
    if (!symbolic(&gs, ordering, &p->s) || !symbolic(&ga, ordering, &p->a)) goto out;
    /* S terms: pairs of entries in one column of Phi_q, keyed by their rows */
    for (int c = 0; c < nq; c++)
        if (!pairs(&p->s, ci, cs[c], cs[c + 1], phi_q->row, &sk, &sl, &sd)) goto out;
    /* A terms: pairs of entries in one row of Phi_q, keyed by their columns */
    for (int r = 0; r < nc; r++)
        if (!pairs(&p->a, ri, rs[r], rs[r + 1], phi_q->col, &ak, &al, &ad)) goto out;
    p->ns = sk.n;
    p->s_k = sk.v; p->s_l = sl.v; p->s_dst = sd.v;
    p->na = ak.n;
    p->a_k = ak.v; p->a_l = al.v; p->a_dst = ad.v;
    sk.v = sl.v = sd.v = ak.v = al.v = ad.v = NULL;
    p->dqq_dst = dst_list(&p->a, dq_dq);
    p->dqv_dst = dst_list(&p->a, dq_dv);
    ok = p->dqq_dst && p->dqv_dst;
out:
    free(cs); free(ci); free(rs); free(ri);
    graph_free(&gs); graph_free(&ga);
    free(sk.v); free(sl.v); free(sd.v); free(ak.v); free(al.v); free(ad.v);
    if (!ok) { mbp_free(p); return NULL; }
    return p;
}
