/* mbgen_plan.c - the planner (mb_plan_build.c) as the Lua host function host.plan, so that the
 * generator's emitter can write the symbolic factorizations out as const data.
 * Layer: generator host (C side of mbgen). */
#include <stdlib.h>
#include <lua.h>
#include <lauxlib.h>
#include "mb_plan_build.h"

/* Table at stack index idx, 0-based ints of length n -> malloc'ed array (n + 1 slots). */
static int *int_array(lua_State *L, int idx, int n)
{
    luaL_checktype(L, idx, LUA_TTABLE);
    int *a = malloc(sizeof(int) * (size_t)(n + 1));
    if (!a) luaL_error(L, "out of memory");
    for (int k = 0; k < n; k++) {
        lua_geti(L, idx, k + 1);
        a[k] = (int)luaL_checkinteger(L, -1);
        lua_pop(L, 1);
    }
    return a;
}

static void push_array(lua_State *L, const int *a, int n, const char *field)
{
    lua_createtable(L, n, 0);
    for (int k = 0; k < n; k++) {
        lua_pushinteger(L, a[k]);
        lua_seti(L, -2, k + 1);
    }
    lua_setfield(L, -2, field);
}

static void push_symbolic(lua_State *L, const mb_symbolic *sy, const char *field)
{
    lua_createtable(L, 0, 8);
    lua_pushinteger(L, sy->n); lua_setfield(L, -2, "n");
    lua_pushinteger(L, sy->nl); lua_setfield(L, -2, "nl");
    lua_pushinteger(L, sy->nupd); lua_setfield(L, -2, "nupd");
    push_array(L, sy->perm, sy->n, "perm");
    push_array(L, sy->pinv, sy->n, "pinv");
    push_array(L, sy->lp, sy->n + 1, "lp");
    push_array(L, sy->li, sy->nl, "li");
    push_array(L, sy->upd, sy->nupd, "upd");
    lua_setfield(L, -2, field);
}

/* host.plan(nq, nc, {pq rows}, {pq cols}, {dqq rows}, {dqq cols}, {dqv rows}, {dqv cols}
 *           [, "amd" | "natural"]) -> plan table (fields as mb_plan, arrays 0-based values) */
int mbgen_plan(lua_State *L)
{
    int nq = (int)luaL_checkinteger(L, 1), nc = (int)luaL_checkinteger(L, 2);
    int npq = (int)luaL_len(L, 3), ndq = (int)luaL_len(L, 5), ndv = (int)luaL_len(L, 7);
    const char *ord = luaL_optstring(L, 9, "amd");
    int *a[6] = {int_array(L, 3, npq), int_array(L, 4, npq), int_array(L, 5, ndq),
                 int_array(L, 6, ndq), int_array(L, 7, ndv), int_array(L, 8, ndv)};
    mb_pattern pq = {npq, a[0], a[1]}, dq = {ndq, a[2], a[3]}, dv = {ndv, a[4], a[5]};
    mb_plan *P = mbp_build(nq, nc, &pq, &dq, &dv,
                           ord[0] == 'n' ? MBP_ORDER_NATURAL : MBP_ORDER_AMD);
    for (int k = 0; k < 6; k++) free(a[k]);
    if (!P) return luaL_error(L, "the sparse planner failed (out of memory or AMD error)");
    lua_createtable(L, 0, 12);
    push_symbolic(L, &P->s, "s");
    push_symbolic(L, &P->a, "a");
    lua_pushinteger(L, P->ns); lua_setfield(L, -2, "ns");
    lua_pushinteger(L, P->na); lua_setfield(L, -2, "na");
    push_array(L, P->s_k, P->ns, "s_k");
    push_array(L, P->s_l, P->ns, "s_l");
    push_array(L, P->s_dst, P->ns, "s_dst");
    push_array(L, P->a_k, P->na, "a_k");
    push_array(L, P->a_l, P->na, "a_l");
    push_array(L, P->a_dst, P->na, "a_dst");
    push_array(L, P->dqq_dst, ndq, "dqq_dst");
    push_array(L, P->dqv_dst, ndv, "dqv_dst");
    mbp_free(P);
    return 1;
}
