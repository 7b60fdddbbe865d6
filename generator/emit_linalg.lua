-- emit_linalg.lua - the unrolled form of the generated linear algebra: straight-line C for the
-- numeric LDL^T / LU factorizations and the solves of a symbolic plan (generator/mb_plan_build.c
-- via host.plan), with every storage index a literal. The arithmetic and its order are those of
-- the compact kernels (runtime/mb_sparse.c), so both forms give bit-identical results.
-- Layer: generator back end, called by emit.lua.

local M = {}

-- Phi_q's entries above which the products with Phi_q are compiled without GCC's SLP
-- vectorizer (MB_NO_SLP; the measurements at M.products)
local NO_SLP_ENTRIES = 256

-- The substitutions with the factors F = [D | L] of plan S on locals, the one order both the
-- ldl solve and alf-explicit's pass use (so they cannot drift apart): forward by rows,
-- x_i = input(perm i) - sum over the entries l_ik of row i, k ascending (the order in which the
-- compact kernel's column sweep subtracts them: the same arithmetic); backward by rows of L^T,
-- y_k = x_k / d_k - sum l_pk y_p, MB_LDL_DIV(x_k, D_k): with MB_LDL_RECIPROCAL (runtime/mb_config.h)
-- D holds 1 / d_k and this is a product, not a division.
-- input(j) names b's entry j (original order).
local function forward(w, S, input)
    local n, lp, li, perm = S.n, S.lp, S.li, S.perm
    local rowsL = {}
    for i = 0, n - 1 do rowsL[i] = {} end
    for k = 0, n - 1 do
        for p = lp[k + 1], lp[k + 2] - 1 do table.insert(rowsL[li[p + 1]], { p = p, k = k }) end
    end
    for i = 0, n - 1 do
        local e = input(perm[i + 1])
        for _, t in ipairs(rowsL[i]) do e = e .. string.format(" - F[%d] * x%d", n + t.p, t.k) end
        w(string.format("    const mb_real x%d = %s;", i, e))
    end
end
local function backward_row(w, S, k)
    local n, lp, li = S.n, S.lp, S.li
    local e = string.format("MB_LDL_DIV(x%d, F[%d])", k, k)
    for p = lp[k + 1], lp[k + 2] - 1 do e = e .. string.format(" - F[%d] * y%d", n + p, li[p + 1]) end
    w(string.format("    const mb_real y%d = %s;", k, e))
end
local function backward(w, S, after)   -- after(k): called once y_k is written (may be nil)
    for k = S.n - 1, 0, -1 do
        backward_row(w, S, k)
        if after then after(k) end
    end
end
local function from_b(j) return string.format("b[%d]", j) end

-- The LU's elimination terms of plan S, by storage index t of F = [D | L | U]: left-looking,
-- each entry of the factors is one expression, its initial value minus the products l_ik u_kj
-- of the earlier pivots k in ascending k, which is the order in which the compact kernel's
-- right-looking sweep subtracts them, with the same operands (l scaled by 1/d_k, u unscaled):
-- the same arithmetic, every factor value a local (NAME_a_lu and NAME_f4_factor).
local function lu_terms(S, L, U)   -- L(p), U(p): how a term names l_p and u_p
    local n, nl, lp, upd = S.n, S.nl, S.lp, S.upd
    local terms = {}
    local function add(t, l, u) terms[t] = terms[t] or {}; table.insert(terms[t], L(l) .. " * " .. U(u)) end
    local u = 1
    for k = 0, n - 1 do
        local p0, p1 = lp[k + 1], lp[k + 2] - 1
        for p = p0, p1 do
            add(upd[u], p, p)
            u = u + 1
            for q = p + 1, p1 do
                local t = upd[u]
                u = u + 1
                add(t, q, p)
                add(t + nl, p, q)
            end
        end
    end
    return terms
end

-- Every entry F[0 .. len-1] of A's plan storage set first: M's diagonal where the plan puts
-- it (mbi_assemble_a's zeroing and scatter), 0 elsewhere (F4's and F3's matrix kernels).
local function mass_first(w, S, len)
    local init = {}
    for i = 0, S.n - 1 do init[S.pinv[i + 1]] = "mass[" .. i .. "]" end
    for j = 0, len - 1 do w(string.format("    F[%d] = %s;", j, init[j] or "0")) end
end

-- Lines of C: NAME_<tag>_ldl, _ldl_solve (symmetric) and, with lu, NAME_<tag>_lu, _lu_solve.
-- S is a plan table (n, nl, perm, lp, li, upd; arrays 1-based holding 0-based values).
function M.functions(name, tag, S, lu)
    local n, nl = S.n, S.nl
    local out = {}
    local function w(s) out[#out + 1] = s end
    local lp, li, upd, perm = S.lp, S.li, S.upd, S.perm
    local function col(k) return lp[k + 1], lp[k + 2] - 1 end   -- 0-based p range of column k
    local pre = name .. "_" .. tag

    -- LDL^T: returns -1 or the pivot that failed (rank test d_k > tol d0_k; for 0 <= tol <= 1,
    -- the caller's range, it implies d0_k > 0: every update of a diagonal subtracts u (u / d_j)
    -- >= 0, so d_k <= d0_k, and d0_k <= 0 gives d_k <= d0_k <= tol d0_k).
    -- Left-looking, as the LU below: each entry of the factors is one expression, its value in
    -- S minus the products u_jk l_ik of the earlier pivots k in ascending k, the order and the
    -- operands (u unscaled, l = u / d_k as u * (1 / d_k)) of the compact kernel's right-looking
    -- sweep (runtime/mb_sparse.c): the same arithmetic, every value a local, one load and one
    -- store an entry instead of a load, product, subtraction and store an update. D receives
    -- MB_LDL_D(d_k, 1 / d_k) for a pivot that passes (1 / d_k with MB_LDL_RECIPROCAL, as the
    -- compact kernel), d_k for the one that fails.
    local lterms = {}
    local u = 1
    for k = 0, n - 1 do
        local p0, p1 = col(k)
        for p = p0, p1 do
            for q = p, p1 do
                local t = upd[u]
                u = u + 1
                lterms[t] = lterms[t] or {}
                table.insert(lterms[t], string.format("u%d * l%d", q, p))
            end
        end
    end
    local function lentry(t, first)
        local e = first or string.format("F[%d]", t)
        for _, x in ipairs(lterms[t] or {}) do e = e .. " - " .. x end
        return e
    end
    -- The largest quotient d0_k / d_k of the pivots that passed, as d0_k (1 / d_k) (the runtime's
    -- pivot ratio is its reciprocal, mb_sp_ldl), in two chains (even and odd k) of maxima started
    -- at 1: the values are finite or +Inf, never NaN, so their largest is the same value in any
    -- order.
    w("/* Unrolled LDL^T of the plan storage F = [D | L] (" .. n .. " x " .. n .. ", " .. nl
      .. " in L, " .. S.nupd .. " updates), left-looking")
    w(" * on locals; D the pivots' reciprocals (MB_LDL_D); d0 receives the diagonal before elimination;")
    w(" * *qmax the largest of 1 and d0_k (1 / d_k) over the pivots that passed. 0 <= tol <= 1. Returns")
    w(" * -1, or the pivot k (permuted) with d_k <= tol d0_k (F and d0 then written up to k, F[k] = d_k).")
    w(" * MB_NO_SLP: as the LU's. */")
    w("static MB_NO_SLP int " .. pre .. "_ldl(mb_real *restrict F, mb_real *restrict d0, mb_real tol, mb_real *restrict qmax)")
    w("{")
    if n > 0 then w("    mb_real inv, m0 = 1, m1 = 1;") end
    w("    (void)F;")
    w("    (void)d0;")
    w("    (void)tol;")
    for k = 0, n - 1 do
        local m = k % 2 == 0 and "m0" or "m1"
        w(string.format("    const mb_real o%d = F[%d];", k, k))
        w(string.format("    d0[%d] = o%d;", k, k))
        w(string.format("    const mb_real p%d = %s;", k, lentry(k, "o" .. k)))
        w(string.format("    if (!(p%d > tol * o%d)) {", k, k))
        w(string.format("        F[%d] = p%d;", k, k))
        w("        *qmax = m1 > m0 ? m1 : m0;")
        w(string.format("        return %d;", k))
        w("    }")
        w(string.format("    inv = 1 / p%d;", k))
        w(string.format("    F[%d] = MB_LDL_D(p%d, inv);", k, k))
        w(string.format("    const mb_real q%d = o%d * inv;", k, k))
        w(string.format("    %s = q%d > %s ? q%d : %s;", m, k, m, k, m))
        local p0, p1 = col(k)
        if p1 >= p0 then
            for p = p0, p1 do
                w(string.format("    const mb_real u%d = %s;", p, lentry(n + p)))
                w(string.format("    const mb_real l%d = u%d * inv;", p, p))
                w(string.format("    F[%d] = l%d;", n + p, p))
            end
        end
    end
    w(n > 0 and "    *qmax = m1 > m0 ? m1 : m0;" or "    *qmax = 1;")
    w("    return -1;")
    w("}")
    w("")

    -- The solves on locals (forward, backward above; the LU's backward by rows of U), every
    -- value a local: no read-modify-write of a scratch array. y (the compact kernels' scratch)
    -- is not used.
    w("/* Solve with the factors of " .. pre .. "_ldl: b (original order) is overwritten. */")
    w("static void " .. pre .. "_ldl_solve(const mb_real *restrict F, mb_real *restrict b, mb_real *restrict y)")
    w("{")
    w("    (void)F;")
    w("    (void)b;")
    w("    (void)y;")
    forward(w, S, from_b)
    backward(w, S)
    for k = 0, n - 1 do w(string.format("    b[%d] = y%d;", perm[k + 1], k)) end
    w("}")

    if lu then
        w("")
        local terms = lu_terms(S, function(p) return "l" .. p end, function(p) return "u" .. p end)
        local function entry(t)
            local e = string.format("F[%d]", t)
            for _, x in ipairs(terms[t] or {}) do e = e .. " - " .. x end
            return e
        end
        w("/* Unrolled LU without pivoting on the symmetric pattern, F = [D | L | U] (U transposed")
        w(" * on L's pattern; D the pivots' reciprocals), left-looking on locals. Returns -1, or the")
        w(" * pivot k (permuted) that is exactly zero (F is then partly written). MB_NO_SLP")
        w(" * (mb_config.h): packing its scalars into vectors costs more shuffles than it saves. */")
        w("static MB_NO_SLP int " .. pre .. "_lu(mb_real *restrict F)")
        w("{")
        w("    mb_real inv;")
        w("    (void)F;")
        for k = 0, n - 1 do
            w(string.format("    const mb_real d%d = %s;", k, entry(k)))
            w(string.format("    if (d%d == 0) return %d;", k, k))
            w(string.format("    inv = 1 / d%d;", k))
            w(string.format("    F[%d] = inv;", k))
            local p0, p1 = col(k)
            if p1 >= p0 then
                for p = p0, p1 do
                    w(string.format("    const mb_real l%d = (%s) * inv;", p, entry(n + p)))
                    w(string.format("    F[%d] = l%d;", n + p, p))
                    w(string.format("    const mb_real u%d = %s;", p, entry(n + nl + p)))
                    w(string.format("    F[%d] = u%d;", n + nl + p, p))
                end
            end
        end
        w("    return -1;")
        w("}")
        w("")
        w("/* Solve with the factors of " .. pre .. "_lu: b (original order) is overwritten. */")
        w("static void " .. pre .. "_lu_solve(const mb_real *restrict F, mb_real *restrict b, mb_real *restrict y)")
        w("{")
        w("    (void)F;")
        w("    (void)b;")
        w("    (void)y;")
        forward(w, S, from_b)
        for k = n - 1, 0, -1 do   -- the rows descending, as the compact kernel's (mb_sparse.c)
            local p0, p1 = col(k)
            local e = string.format("x%d", k)
            for p = p1, p0, -1 do e = e .. string.format(" - F[%d] * y%d", n + nl + p, li[p + 1]) end
            if p1 >= p0 then e = "(" .. e .. ")" end
            w(string.format("    const mb_real y%d = %s * F[%d];", k, e, k))
        end
        for k = 0, n - 1 do w(string.format("    b[%d] = y%d;", perm[k + 1], k)) end
        w("}")
    end
    return table.concat(out, "\n")
end

-- The unrolled assembly of a plan's product terms (same terms, same order as the runtime's loops
-- in mb_linsys.c / mb_f3_alf.c / mb_f4_trapezoid.c): NAME_s_assemble (F += w[c] Pq[k] Pq[l]) here,
-- NAME_a_assemble (F += E[k] D[l], and with unsym the transposed term nl further) in assembly_a
-- (the auto form may unroll S's side alone). pq_col: the columns of Phi_q's entries (1-based
-- table of 0-based values); pq_unit (optional, 1-based): 1 or -1 where Phi_q's entry is that
-- constant (a joint's translational columns), else nil. A term of two such entries is +-w[c]:
-- w * (+-1) * (+-1) rounds to the same bits, so the loads and products are left out (chain100:
-- 596 of 1589 terms). pq_same (optional, 1-based): the 0-based index of the first entry of
-- Phi_q with the same expression (the generator's interned node), read in its place: the same
-- bits, so a term w[c] Pq[k] Pq[l] repeated with equal entries is one product for the compiler
-- (Andrews: body 2's column holds three pairs of equal entries, 36 of its 152 terms). Pq must
-- hold Phi_q's values then (mb_sp_assemble_s; mb_sp_assemble_s_maps for other values on the
-- pattern).
function M.assembly_s(name, P, pq_col, pq_unit, pq_same)
    pq_unit = pq_unit or {}
    local function pq(k) return pq_same and pq_same[k + 1] or k end
    local out = {}
    local function w(s) out[#out + 1] = s end
    -- write-once: an entry's first term is stored (=), the rest added; the entries no term
    -- reaches (L's fill) are set to 0, so the caller zeroes nothing (0 + x and x are the same
    -- value; only a -0 term would differ, in the sign of a zero)
    local first = {}
    for t = 1, P.ns do
        if first[P.s_dst[t]] == nil then first[P.s_dst[t]] = t end
    end
    w("/* Unrolled assembly of S = Phi_q W Phi_q^T into its plan storage (" .. P.ns .. " terms;")
    w(" * every entry written: the first term of an entry stored, L's fill set to 0;")
    w(" * MB_NO_SLP: as the LU's). */")
    w("static MB_NO_SLP void " .. name .. "_s_assemble(mb_real *restrict F, const mb_real *restrict Pq, const mb_real *restrict w)")
    w("{")
    w("    (void)F;")
    w("    (void)Pq;")
    w("    (void)w;")
    for d = 0, P.s.n + P.s.nl - 1 do
        if first[d] == nil then w(string.format("    F[%d] = 0;", d)) end
    end
    for t = 1, P.ns do
        local k, l, d = P.s_k[t], P.s_l[t], P.s_dst[t]
        local uk, ul = pq_unit[k + 1], pq_unit[l + 1]
        if uk and ul then   -- +-w[c]: the first term stored as w or -w, the rest added or subtracted
            local neg = uk * ul < 0
            if first[d] == t then
                w(string.format("    F[%d] = %sw[%d];", d, neg and "-" or "", pq_col[k + 1]))
            else
                w(string.format("    F[%d] %s w[%d];", d, neg and "-=" or "+=", pq_col[k + 1]))
            end
        else
            w(string.format("    F[%d] %s w[%d] * Pq[%d] * Pq[%d];", d, first[d] == t and "=" or "+=",
                            pq_col[k + 1], pq(k), pq(l)))
        end
    end
    w("}")
    return table.concat(out, "\n")
end

-- S's assembly and its LDL^T in one kernel, NAME_s_factor (mb_plan.s_factor): NAME_s_assemble
-- and NAME_s_ldl on locals, the same arithmetic. Every entry is one expression: its value in S
-- as s_assemble forms it (its terms in the plan's order: the first as it is stored, w Pq Pq or
-- +-w for two +-1 entries, the others added or subtracted in turn; 0 for L's fill), then minus
-- the elimination's terms as s_ldl subtracts them (left to right: the sum first, as the stored
-- value is). So F and d0 come out as s_assemble then s_ldl leave them, without S's stores and
-- loads in between; at a pivot that fails F is written up to it (the entries after it are not
-- S's).
function M.s_factor(name, P, pq_col, pq_unit, pq_same)
    pq_unit = pq_unit or {}
    local S = P.s
    local n, lp, upd = S.n, S.lp, S.upd
    local function pq(k) return pq_same and pq_same[k + 1] or k end
    local sum = {}   -- storage index -> S's value as an expression
    for t = 1, P.ns do
        local k, l, d = P.s_k[t], P.s_l[t], P.s_dst[t]
        local uk, ul = pq_unit[k + 1], pq_unit[l + 1]
        if uk and ul then
            local neg = uk * ul < 0
            if sum[d] == nil then sum[d] = string.format("%sw[%d]", neg and "-" or "", pq_col[k + 1])
            else sum[d] = sum[d] .. string.format(" %s w[%d]", neg and "-" or "+", pq_col[k + 1]) end
        else
            local term = string.format("w[%d] * Pq[%d] * Pq[%d]", pq_col[k + 1], pq(k), pq(l))
            sum[d] = sum[d] == nil and term or (sum[d] .. " + " .. term)
        end
    end
    local elim = {}
    local u = 1
    for k = 0, n - 1 do
        for p = lp[k + 1], lp[k + 2] - 1 do
            for q = p, lp[k + 2] - 1 do
                local t = upd[u]
                u = u + 1
                elim[t] = elim[t] or {}
                table.insert(elim[t], string.format("u%d * F[%d]", q, n + p))
            end
        end
    end
    local function entry(d, first)
        local e = first or sum[d] or "0"
        for _, x in ipairs(elim[d] or {}) do e = e .. " - " .. x end
        return e
    end
    local out = {}
    local function w(x) out[#out + 1] = x end
    w("/* S = Phi_q W Phi_q^T assembled and factored in one, F = [D | L] (" .. n .. " x " .. n .. ", "
      .. S.nl .. " in L):")
    w(" * " .. name .. "_s_assemble and " .. name .. "_s_ldl on locals, the same values; d0, *qmax, tol and")
    w(" * the result as the ldl's (F written up to the pivot that fails). MB_NO_SLP: as the LU's. */")
    w("static MB_NO_SLP int " .. name .. "_s_factor(mb_real *restrict F, mb_real *restrict d0, mb_real tol,")
    w("    mb_real *restrict qmax, const mb_real *restrict Pq, const mb_real *restrict w)")
    w("{")
    if n > 0 then w("    mb_real inv, m0 = 1, m1 = 1;") end
    w("    (void)F;")
    w("    (void)d0;")
    w("    (void)tol;")
    w("    (void)Pq;")
    w("    (void)w;")
    for k = 0, n - 1 do
        local m = k % 2 == 0 and "m0" or "m1"
        w(string.format("    const mb_real o%d = %s;", k, sum[k] or "0"))
        w(string.format("    d0[%d] = o%d;", k, k))
        w(string.format("    const mb_real p%d = %s;", k, entry(k, "o" .. k)))
        w(string.format("    if (!(p%d > tol * o%d)) {", k, k))
        w(string.format("        F[%d] = p%d;", k, k))
        w("        *qmax = m1 > m0 ? m1 : m0;")
        w(string.format("        return %d;", k))
        w("    }")
        w(string.format("    inv = 1 / p%d;", k))
        w(string.format("    F[%d] = MB_LDL_D(p%d, inv);", k, k))
        w(string.format("    const mb_real q%d = o%d * inv;", k, k))
        w(string.format("    %s = q%d > %s ? q%d : %s;", m, k, m, k, m))
        for p = lp[k + 1], lp[k + 2] - 1 do
            w(string.format("    const mb_real u%d = %s;", p, entry(n + p)))
            w(string.format("    const mb_real l%d = u%d * inv;", p, p))
            w(string.format("    F[%d] = l%d;", n + p, p))
        end
    end
    w(n > 0 and "    *qmax = m1 > m0 ? m1 : m0;" or "    *qmax = 1;")
    w("    return -1;")
    w("}")
    return table.concat(out, "\n")
end

-- The baumgarte KKT solve's right-hand side of S y = ... in one pass, NAME_kkt_bv
-- (mb_pq_products.kkt_bv; runtime/mb_kkt.c, mbi_kkt_solve_v): x = mi b + cv v (each column's a
-- local, as scaled_rhs forms it), y = Phi_q x as phiq_mv sums it (pq_unit, pq_same as there), then
-- y - (ga - (c1 pt + c2 ph)) as sub_vec subtracts it: the same bits, without x's and y's stores
-- and loads in between. prow, pcol: Phi_q's pattern (1-based tables of 0-based values).
-- F2 (canonical, mbi_kkt_solve_f2): NAME_kkt_bi, x = mi b, y = Phi_q x - (-pt - c1 ph - c2 I),
-- the same way.
function M.kkt_bv(name, prow, pcol, nc, pq_unit, pq_same)
    return M.kkt_rhs(name, prow, pcol, nc, pq_unit, pq_same, false) .. "\n\n"
        .. M.kkt_rhs(name, prow, pcol, nc, pq_unit, pq_same, true)
end
function M.kkt_rhs(name, prow, pcol, nc, pq_unit, pq_same, f2)
    pq_unit = pq_unit or {}
    local out = {}
    local function w(s) out[#out + 1] = s end
    local rows, used, order = {}, {}, {}
    for r = 0, nc - 1 do rows[r] = "0" end
    for k = 1, #prow do
        local r, c, u = prow[k], pcol[k], pq_unit[k]
        if not used[c] then used[c] = true; order[#order + 1] = c end
        if u == 1 then rows[r] = rows[r] .. string.format(" + x%d", c)
        elseif u == -1 then rows[r] = rows[r] .. string.format(" - x%d", c)
        else rows[r] = rows[r] .. string.format(" + Pq[%d] * x%d", pq_same and pq_same[k] or k - 1, c) end
    end
    table.sort(order)
    local attr = #prow > NO_SLP_ENTRIES and "MB_NO_SLP " or ""
    if f2 then
        w("/* y = Phi_q (mi b) - (-pt - c1 ph - c2 I) for Phi_q's own values (its constant +-1 entries as")
        w(" * such): the canonical KKT solve's scaled_rhs, phiq_mv and sub_vec in one pass. */")
        w("static " .. attr .. "void " .. name .. "_kkt_bi(const mb_real *restrict Pq, const mb_real *restrict mi,")
        w("    const mb_real *restrict b, const mb_real *restrict pt, const mb_real *restrict ph,")
        w("    const mb_real *restrict I, mb_real c1, mb_real c2, mb_real *restrict y)")
    else
        w("/* y = Phi_q (mi b + cv v) - (ga - (c1 pt + c2 ph)) for Phi_q's own values (its constant +-1")
        w(" * entries as such): the KKT solve's scaled_rhs, phiq_mv and sub_vec in one pass (MB_NO_SLP on")
        w(" * a large pattern only, as the products'). */")
        w("static " .. attr .. "void " .. name .. "_kkt_bv(const mb_real *restrict Pq, const mb_real *restrict mi,")
        w("    const mb_real *restrict b, const mb_real *restrict v, mb_real cv, const mb_real *restrict ga,")
        w("    const mb_real *restrict pt, const mb_real *restrict ph, mb_real c1, mb_real c2, mb_real *restrict y)")
    end
    w("{")
    local args = f2 and { "Pq", "mi", "b", "pt", "ph", "I", "c1", "c2", "y" }
                    or { "Pq", "mi", "b", "v", "cv", "ga", "pt", "ph", "c1", "c2", "y" }
    for _, x in ipairs(args) do w("    (void)" .. x .. ";") end
    for _, c in ipairs(order) do
        if f2 then w(string.format("    const mb_real x%d = mi[%d] * b[%d];", c, c, c))
        else w(string.format("    const mb_real x%d = mi[%d] * b[%d] + cv * v[%d];", c, c, c, c)) end
    end
    for r = 0, nc - 1 do
        if f2 then
            w(string.format("    y[%d] = (%s) - (-pt[%d] - c1 * ph[%d] - c2 * I[%d]);", r, rows[r], r, r, r))
        else
            w(string.format("    y[%d] = (%s) - (ga[%d] - (c1 * pt[%d] + c2 * ph[%d]));", r, rows[r], r, r, r))
        end
    end
    w("}")
    return table.concat(out, "\n")
end

-- The unrolled assembly of A: NAME_a_assemble.
function M.assembly_a(name, P)
    local out = {}
    local function w(s) out[#out + 1] = s end
    local n, nl = P.a.n, P.a.nl
    w("/* Unrolled assembly of the pairs of Phi_q^T (.) Phi_q into the plan storage of A (" .. P.na
      .. " terms); unsym: also the transposed terms (F4's Newton matrix). */")
    w("static void " .. name .. "_a_assemble(mb_real *restrict F, const mb_real *restrict E, const mb_real *restrict D, int unsym)")
    w("{")
    w("    (void)F;")
    w("    (void)E;")
    w("    (void)D;")
    local sym, uns = {}, {}
    for t = 1, P.na do
        local k, l, d = P.a_k[t], P.a_l[t], P.a_dst[t]
        sym[#sym + 1] = string.format("        F[%d] += E[%d] * D[%d];", d, k, l)
        uns[#uns + 1] = sym[#sym]
        if d >= n then uns[#uns + 1] = string.format("        F[%d] += E[%d] * D[%d];", d + nl, l, k) end
    end
    w("    if (unsym) {")
    for _, x in ipairs(uns) do w(x) end
    w("    } else {")
    for _, x in ipairs(sym) do w(x) end
    w("    }")
    w("}")
    return table.concat(out, "\n")
end

-- The products with Phi_q's own values (mb_pq_products: phiq_mv, phiq_x; runtime/mb_kkt.c):
-- Phi_q x as pq_mv below, and the KKT solve's x = w (b - Phi_q^T y) (b copied, pq_mtv with
-- a = -1, the product with w), with the entries that are the constant 1 or -1 in the model's
-- Phi_q (pq_unit, 1-based, as in assembly_s) taken as such: +-x[c] for 1 * x[c], and
-- (-1 * (+-1)) y[r] as -+y[r], the same bits (a product with +-1 is exact), without the loads
-- and products (chain100: 398 of 796 entries). Each output one expression, its terms in the
-- order of the loops (a row of Phi_q x from 0, a column of x from b). Nil when Phi_q has no
-- such entry. pq_same (optional): as in assembly_s, so Phi_q x's equal products (an entry and
-- another of the same expression in the same column) are one. Guarded by
-- MB_WITH_PHIQ_PRODUCTS (runtime/mb_config.h).
function M.phiq_products(name, prow, pcol, nc, nq, pq_unit, pq_same)
    local any = false
    for k = 1, #prow do if pq_unit[k] then any = true end end
    if not any then return nil end
    local out = {}
    local function w(s) out[#out + 1] = s end
    local rows, cols = {}, {}
    for r = 0, nc - 1 do rows[r] = "0" end
    for k = 1, #prow do
        local r, c, u = prow[k], pcol[k], pq_unit[k]
        if u == 1 then rows[r] = rows[r] .. string.format(" + x[%d]", c)
        elseif u == -1 then rows[r] = rows[r] .. string.format(" - x[%d]", c)
        else rows[r] = rows[r] .. string.format(" + Pq[%d] * x[%d]", pq_same and pq_same[k] or k - 1, c) end
        -- b[c] + (-1 * Pq[k]) y[r] is b[c] - Pq[k] y[r] (negation is exact)
        if not cols[c] then cols[c] = string.format("b[%d]", c) end
        if u == 1 then cols[c] = cols[c] .. string.format(" - y[%d]", r)
        elseif u == -1 then cols[c] = cols[c] .. string.format(" + y[%d]", r)
        else cols[c] = cols[c] .. string.format(" - Pq[%d] * y[%d]", k - 1, r) end
    end
    w("#if MB_WITH_PHIQ_PRODUCTS")
    w("/* out = Phi_q x for Phi_q's own values (its constant +-1 entries as such). */")
    w("static MB_NO_SLP void " .. name .. "_phiq_mv(const mb_real *restrict Pq, const mb_real *restrict x, mb_real *restrict out)")
    w("{")
    w("    (void)Pq;")
    w("    (void)x;")
    for r = 0, nc - 1 do w(string.format("    out[%d] = %s;", r, rows[r])) end
    w("}")
    w("")
    w("/* x = w (b - Phi_q^T y) for Phi_q's own values (its constant +-1 entries as such). */")
    w("static MB_NO_SLP void " .. name .. "_phiq_x(const mb_real *restrict Pq, const mb_real *restrict y, const mb_real *restrict b,")
    w("    const mb_real *restrict w, mb_real *restrict x)")
    w("{")
    w("    (void)Pq;")
    w("    (void)y;")
    for c = 0, nq - 1 do
        if cols[c] then w(string.format("    x[%d] = (%s) * w[%d];", c, cols[c], c))
        else w(string.format("    x[%d] = b[%d] * w[%d];", c, c, c)) end
    end
    w("}")
    w("#endif")
    return table.concat(out, "\n")
end

-- The unrolled products with Phi_q (same arithmetic, same order as runtime/mb_vec.h's loops over
-- the pattern, so results are bit-identical to the compact form): NAME_pq_mv (out = Phi_q x, every
-- row zeroed first) and NAME_pq_mtv (out += a Phi_q^T y). prow, pcol: the pattern's rows and
-- columns (1-based tables of 0-based values); nc: its rows. MB_NO_SLP on a large pattern: there
-- GCC's SLP vectorizer packs the scattered entries into pairs through a stack of shuffled spills
-- (chain100, 796 entries: 8.8 KB of stack, 3.85 k instructions per Phi_q x against 2.6 k without
-- it), while on a small one it gains (Andrews, 64 entries: 237 against 288); the same arithmetic
-- either way. The threshold lies between the two measured sizes.
function M.products(name, prow, pcol, nc)
    local out = {}
    local function w(s) out[#out + 1] = s end
    local attr = #prow > NO_SLP_ENTRIES and "MB_NO_SLP " or ""
    w("/* Unrolled out = Phi_q x (" .. #prow .. " entries). */")
    w("static " .. attr .. "void " .. name .. "_pq_mv(const mb_real *restrict Pq, const mb_real *restrict x, mb_real *restrict out)")
    w("{")
    w("    (void)Pq;")
    w("    (void)x;")
    w("    (void)out;")
    for r = 0, nc - 1 do w(string.format("    out[%d] = 0;", r)) end
    for k = 1, #prow do w(string.format("    out[%d] += Pq[%d] * x[%d];", prow[k], k - 1, pcol[k])) end
    w("}")
    w("")
    w("/* Unrolled out += a Phi_q^T y (" .. #prow .. " entries). */")
    w("static " .. attr .. "void " .. name .. "_pq_mtv(const mb_real *restrict Pq, const mb_real *restrict y, mb_real a, mb_real *restrict out)")
    w("{")
    w("    (void)Pq;")
    w("    (void)y;")
    w("    (void)a;")
    w("    (void)out;")
    for k = 1, #prow do w(string.format("    out[%d] += a * Pq[%d] * y[%d];", pcol[k], k - 1, prow[k])) end
    w("}")
    return table.concat(out, "\n")
end

-- F4's Newton matrix and its LU in one kernel, NAME_f4_factor (mb_f4_kernels.factor), on
-- locals: every entry of A is one expression, its value before elimination (f4_matrix's: its
-- mass, then its product terms e_k d_l in the plan's order, then its dQ/dq and dQ/dv terms; an
-- entry without a mass starts from its first product term, where f4_matrix adds it to 0: the
-- same value but for the sign of a zero, as alf_factor's) minus the elimination's terms in
-- NAME_a_lu's order (lu_terms): F = [D | L | U] and D come out as f4_matrix and NAME_a_lu leave
-- them, each value stored once and never read back. Returns NAME_a_lu's result (-1, or the
-- pivot that is exactly zero). e_k and d_k are formed once each, in a first pass (D[k] = d_k
-- stored there, for 5.53); MB_RELOAD after it and after each pivot: the entries then read e_k's
-- factors and D afresh from memory instead of keeping 2 nnz values live across the
-- elimination, which gcc spills. MB_NO_SLP: as the LU's.
local function f4_factor(w, name, P, nnz, nqq, nqv)
    local S = P.a
    local n, nl, lp = S.n, S.nl, S.lp
    local init, mat = {}, {}
    for i = 0, n - 1 do init[S.pinv[i + 1]] = "mass[" .. i .. "]" end
    local function add(d, e, neg)
        mat[d] = mat[d] or {}
        table.insert(mat[d], { e = e, neg = neg })
    end
    for t = 1, P.na do
        local k, l, d = P.a_k[t], P.a_l[t], P.a_dst[t]
        add(d, string.format("e%d * D[%d]", k, l))
        if d >= n then add(d + nl, string.format("e%d * D[%d]", l, k)) end
    end
    for k = 1, nqq do add(P.dqq_dst[k], string.format("hq * dQq[%d]", k - 1), true) end
    for k = 1, nqv do add(P.dqv_dst[k], string.format("h2 * dQv[%d]", k - 1), true) end
    local elim = lu_terms(S, function(p) return "F[" .. (n + p) .. "]" end,
                          function(p) return "F[" .. (n + nl + p) .. "]" end)
    local function entry(t)
        local e = init[t]
        for _, x in ipairs(mat[t] or {}) do
            if e == nil then e = x.neg and ("0 - " .. x.e) or x.e
            else e = e .. (x.neg and " - " or " + ") .. x.e end
        end
        e = e or "0"
        for _, x in ipairs(elim[t] or {}) do e = e .. " - " .. x end
        return e
    end
    w("/* F4's Newton matrix factored, F = [D | L | U] (" .. n .. " x " .. n .. "): " .. name
      .. "_f4_matrix and " .. name .. "_a_lu in one, on")
    w(" * locals; D[k] = d_k for 5.53. Returns -1, or the pivot k (permuted) that is exactly zero. */")
    w("static MB_NO_SLP int " .. name .. "_f4_factor(mb_real *restrict F, mb_real *restrict D,")
    w("    const mb_real *restrict mass, const mb_real *restrict Pq, const mb_real *restrict Pqd,")
    w("    const mb_real *restrict dQq, const mb_real *restrict dQv, mb_real a, mb_real c1, mb_real h)")
    w("{")
    w("    const mb_real h2 = h / 2, hq = h * h / 4;")
    for _, v in ipairs({ "F", "D", "mass", "Pq", "Pqd", "dQq", "dQv", "a", "c1", "h2", "hq" }) do
        w("    (void)" .. v .. ";")
    end
    for k = 0, nnz - 1 do
        w(string.format("    const mb_real e%d = a * (Pq[%d] - h2 * Pqd[%d]);", k, k, k))
        w(string.format("    D[%d] = c1 * Pq[%d] + h2 * Pqd[%d];", k, k, k))
    end
    w("    MB_RELOAD();")
    for k = 0, n - 1 do
        w(string.format("    const mb_real d%d = %s;", k, entry(k)))
        w(string.format("    if (d%d == 0) return %d;", k, k))
        w(string.format("    const mb_real i%d = 1 / d%d;", k, k))
        w(string.format("    F[%d] = i%d;", k, k))
        for p = lp[k + 1], lp[k + 2] - 1 do
            w(string.format("    const mb_real l%d = (%s) * i%d;", p, entry(n + p), k))
            w(string.format("    F[%d] = l%d;", n + p, p))
            w(string.format("    const mb_real u%d = %s;", p, entry(n + nl + p)))
            w(string.format("    F[%d] = u%d;", n + nl + p, p))
        end
        w("    MB_RELOAD();")
    end
    w("    return -1;")
    w("}")
end

-- The unrolled kernels of F4's Newton iteration (runtime/mb_model.h: mb_f4_kernels), each the
-- arithmetic of its loop in runtime/mb_f4_trapezoid.c in the same order (so both forms give the
-- same numbers): every sum over a pattern is written as one expression whose terms come in the
-- order in which the loop adds them, starting from the value the loop starts from.
-- P: the plan (a_*, dqq_dst, dqv_dst, a.n, a.nl, a.pinv); prow, pcol: Phi_q's pattern; nc, nq;
-- qq, qv: the patterns of dQ/dq, dQ/dv as { rows, cols } (1-based tables of 0-based values).
function M.f4(name, P, prow, pcol, nc, nq, qq, qv)
    local out = {}
    local function w(s) out[#out + 1] = s end
    -- left out where the runtime does not call them (runtime/mb_config.h: MB_WITH_F4_KERNELS)
    w("#if MB_WITH_F4_KERNELS")
    local nnz = #prow
    local function sum(init, terms)     -- init, then the terms in order; "0" when there are none
        local s = init
        for _, t in ipairs(terms) do
            if s == nil then s = t.neg and ("0 - " .. t.e) or t.e
            else s = s .. (t.neg and " - " or " + ") .. t.e end
        end
        return s or "0"
    end
    local function sp_args(...)          -- (void) every argument: a model may use none of them
        for _, a in ipairs({ ... }) do w("    (void)" .. a .. ";") end
    end

    -- f4_matrix: FA = M + sum E[k] D[l] (unsym) - h^2/4 dQ/dq - h/2 dQ/dv, every entry written.
    -- The product terms come a constraint row at a time (the plan's order: pairs of entries of
    -- one row of Phi_q), each row's e_k and D[k] computed just before its terms and added into F
    -- in place: only that row's few values are live. Written as one sum per entry instead, every
    -- e_k would be live from the diagonal's sums (which use them all) to its last off-diagonal
    -- term, and gcc spills them: 820 of the 1680 instructions of Andrews' matrix are moves. Each entry
    -- still receives its terms in the same order (mass, products in plan order, dQ/dq, dQ/dv).
    local n, nl = P.a.n, P.a.nl
    local have = {}                      -- entries whose e_k, d_k are emitted
    w("/* F4's Newton matrix into the plan storage F of A (" .. n .. " x " .. n .. ", " .. (n + 2 * nl)
      .. " entries, " .. P.na .. " product terms): mbi_newton_matrix's loops, unrolled, a")
    w(" * constraint row's terms at a time. */")
    w("static void " .. name .. "_f4_matrix(mb_real *restrict F, mb_real *restrict D, const mb_real *restrict mass,")
    w("    const mb_real *restrict Pq, const mb_real *restrict Pqd, const mb_real *restrict dQq,")
    w("    const mb_real *restrict dQv, mb_real a, mb_real c1, mb_real h)")
    w("{")
    w("    const mb_real h2 = h / 2, hq = h * h / 4;")
    sp_args("F", "D", "mass", "Pq", "Pqd", "dQq", "dQv", "a", "c1", "h2", "hq")
    mass_first(w, P.a, n + 2 * nl)
    local function need(k)               -- e_k and d_k (and D[k]) before their first term
        if have[k] then return end
        have[k] = true
        w(string.format("    const mb_real e%d = a * (Pq[%d] - h2 * Pqd[%d]);", k, k, k))
        w(string.format("    const mb_real d%d = c1 * Pq[%d] + h2 * Pqd[%d];", k, k, k))
        w(string.format("    D[%d] = d%d;", k, k))
    end
    for t = 1, P.na do
        local k, l, d = P.a_k[t], P.a_l[t], P.a_dst[t]
        need(k)
        need(l)
        w(string.format("    F[%d] += e%d * d%d;", d, k, l))
        if d >= n then w(string.format("    F[%d] += e%d * d%d;", d + nl, l, k)) end
    end
    for k = 0, nnz - 1 do   -- an entry in no term (none today: each row pairs an entry with itself)
        if not have[k] then w(string.format("    D[%d] = c1 * Pq[%d] + h2 * Pqd[%d];", k, k, k)) end
    end
    for k = 1, #qq[1] do w(string.format("    F[%d] -= hq * dQq[%d];", P.dqq_dst[k], k - 1)) end
    for k = 1, #qv[1] do w(string.format("    F[%d] -= h2 * dQv[%d];", P.dqv_dst[k], k - 1)) end
    w("}")
    w("")
    f4_factor(w, name, P, nnz, #qq[1], #qv[1])
    w("")

    -- rows and columns of Phi_q: the entries k of each, in ascending k (the loops' order)
    local rows, cols = {}, {}
    for r = 0, nc - 1 do rows[r] = {} end
    for i = 0, nq - 1 do cols[i] = {} end
    for k = 1, nnz do
        table.insert(rows[prow[k]], k - 1)
        table.insert(cols[pcol[k]], k - 1)
    end
    -- The sums every kernel below writes, one builder each, so the separate kernels and the
    -- iteration's pass (NAME_f4_newton_rhs) cannot drift apart. P_(i), S(r), X(j): the names
    -- of p's entry i, s = sig + a c's, and the vector that multiplies dQ/dq, dQ/dv, D (dq).
    local function g_exprs(i, P_, S)   -- g1_i, g2_i without the factor g; P_(i): p's entry i
        local t1, t2 = {}, {}
        for _, k in ipairs(cols[i]) do
            t1[#t1 + 1] = { e = "Pq[" .. k .. "] * " .. S(prow[k + 1]) }
            t2[#t2 + 1] = { e = "Pqd[" .. k .. "] * " .. S(prow[k + 1]), neg = true }
        end
        return sum("mass[" .. i .. "] * v[" .. i .. "] - " .. P_(i), t1), sum("pd[" .. i .. "] - Q[" .. i .. "]", t2)
    end
    local function dg2_rows(X)     -- m_r = (D dq)_r a, for the rows with entries
        for r = 0, nc - 1 do
            if #rows[r] > 0 then
                local t = {}
                for _, k in ipairs(rows[r]) do t[#t + 1] = { e = "D[" .. k .. "] * " .. X(pcol[k + 1]) } end
                w(string.format("    const mb_real m%d = (%s) * a;", r, sum(nil, t)))
            end
        end
    end
    local function dg2_expr(X)     -- out_i = g dQ/dq dq + dQ/dv dq + Phidot_q^T m, each in order
        local acc = {}
        for i = 0, nq - 1 do acc[i] = {} end
        for k = 1, #qq[1] do table.insert(acc[qq[1][k]], { e = "g * dQq[" .. (k - 1) .. "] * " .. X(qq[2][k]) }) end
        for k = 1, #qv[1] do table.insert(acc[qv[1][k]], { e = "dQv[" .. (k - 1) .. "] * " .. X(qv[2][k]) }) end
        for k = 1, nnz do table.insert(acc[pcol[k]], { e = "Pqd[" .. (k - 1) .. "] * m" .. prow[k] }) end
        return function(i) return sum(nil, acc[i]) end
    end
    local function arr(a) return function(j) return a .. "[" .. j .. "]" end end
    local function loc(a) return function(j) return a .. j end end

    w("/* F4's constraint c = Phi_q v + Phi_t + k1 Phi + k2 I and the update sig += a c (sig not")
    w(" * NULL): mbi_f4_constraint's loops, unrolled. */")
    w("static void " .. name .. "_f4_constraint(mb_real *restrict c, mb_real *restrict sig, const mb_real *restrict Pq,")
    w("    const mb_real *restrict v, const mb_real *restrict Phit, const mb_real *restrict Phi,")
    w("    const mb_real *restrict I, mb_real k1, mb_real k2, mb_real a)")
    w("{")
    sp_args("c", "sig", "Pq", "v", "Phit", "Phi", "I", "k1", "k2", "a")
    for r = 0, nc - 1 do
        local t = {}
        for _, k in ipairs(rows[r]) do t[#t + 1] = { e = "Pq[" .. k .. "] * v[" .. pcol[k + 1] .. "]" } end
        local pre = #t > 0 and sum(nil, t) or "0"
        w(string.format("    c[%d] = %s + (Phit[%d] + k1 * Phi[%d] + k2 * I[%d]);", r, pre, r, r, r))
    end
    if nc > 0 then
        w("    if (sig) {")
        for r = 0, nc - 1 do w(string.format("        sig[%d] += a * c[%d];", r, r)) end
        w("    }")
    end
    w("}")
    w("")

    w("/* F4's residuals: sv = sig + a c, g1 = g (M v - p + Phi_q^T sv), g2 = g (pd - Q - Phidot_q^T sv):")
    w(" * mbi_f4_residual's loops, unrolled (MB_NO_SLP: as the LU's). */")
    w("static MB_NO_SLP void " .. name .. "_f4_residual(mb_real *restrict sv, mb_real *restrict g1, mb_real *restrict g2,")
    w("    const mb_real *restrict sig, const mb_real *restrict c, const mb_real *restrict mass,")
    w("    const mb_real *restrict v, const mb_real *restrict p, const mb_real *restrict pd,")
    w("    const mb_real *restrict Q, const mb_real *restrict Pq, const mb_real *restrict Pqd, mb_real a, mb_real g)")
    w("{")
    sp_args("sv", "g1", "g2", "sig", "c", "mass", "v", "p", "pd", "Q", "Pq", "Pqd", "a", "g")
    for r = 0, nc - 1 do
        w(string.format("    const mb_real s%d = sig[%d] + a * c[%d];", r, r, r))
        w(string.format("    sv[%d] = s%d;", r, r))
    end
    for i = 0, nq - 1 do
        local e1, e2 = g_exprs(i, arr("p"), loc("s"))
        w(string.format("    g1[%d] = (%s) * g;", i, e1))
        w(string.format("    g2[%d] = (%s) * g;", i, e2))
    end
    w("}")
    w("")

    w("/* F4's 5.53 product out = g dQ/dq dq + dQ/dv dq + Phidot_q^T (a D dq): mbi_f4_dg2's loops,")
    w(" * unrolled. */")
    w("static void " .. name .. "_f4_dg2(mb_real *restrict out, const mb_real *restrict dq, const mb_real *restrict dQq,")
    w("    const mb_real *restrict dQv, const mb_real *restrict D, const mb_real *restrict Pqd, mb_real a, mb_real g)")
    w("{")
    sp_args("out", "dq", "dQq", "dQv", "D", "Pqd", "a", "g")
    dg2_rows(arr("dq"))
    local out_i = dg2_expr(arr("dq"))
    for i = 0, nq - 1 do w(string.format("    out[%d] = %s;", i, out_i(i))) end
    w("}")
    w("")

    -- The trapezoid's Newton iteration (mb_trapezoid.c, trap_step, after the constraint at the
    -- iterate and the matrix's factorization) up to A's LU solve: the residuals and the solve's
    -- right-hand side -g1 - g g2 (g1 and s never stored), the same arithmetic in the same order
    -- as the residual kernel and the loop it replaces. No more in one pass: with the constraint
    -- inside gcc keeps c, s and Phi_q's entries (read twice) live and spills them (Andrews: 1310
    -- instructions an iteration against 1170 apart); with the solve and the update too, 3040
    -- against 2600; and an unrolled update after the solve (5.53, [q; p] and 5.59's derivatives,
    -- the norms) saved 1 % of the instructions but cost 5-10 % of the time: 5 KB more straight
    -- code each iteration in place of the runtime's short loop (the step's code already
    -- overflows a 32 KB instruction cache).
    w("/* The trapezoid's Newton iteration before the solve: s = sig + a c, g2 = g (pd - Q -")
    w(" * Phidot_q^T s) and the solve's right-hand side b = -g1 - g g2 with g1 = g (M v - p +")
    w(" * Phi_q^T s); p in z = [q; p; I] (MB_NO_SLP: as the LU's). */")
    w("static MB_NO_SLP void " .. name .. "_f4_newton_rhs(mb_real *restrict b, mb_real *restrict g2,")
    w("    const mb_real *restrict sig, const mb_real *restrict c, const mb_real *restrict z,")
    w("    const mb_real *restrict v, const mb_real *restrict pd, const mb_real *restrict mass,")
    w("    const mb_real *restrict Pq, const mb_real *restrict Pqd, const mb_real *restrict Q,")
    w("    mb_real a, mb_real g)")
    w("{")
    sp_args("b", "g2", "sig", "c", "z", "v", "pd", "mass", "Pq", "Pqd", "Q", "a", "g")
    local function Pz(i) return "z[" .. (nq + i) .. "]" end
    for r = 0, nc - 1 do w(string.format("    const mb_real s%d = sig[%d] + a * c[%d];", r, r, r)) end
    for i = 0, nq - 1 do
        local e1, e2 = g_exprs(i, Pz, loc("s"))
        w(string.format("    const mb_real gb%d = (%s) * g;", i, e2))
        w(string.format("    g2[%d] = gb%d;", i, i))
        w(string.format("    b[%d] = -((%s) * g) - g * gb%d;", i, e1, i))
    end
    w("}")
    w("")
    w("static const mb_f4_kernels " .. name .. "_f4 = {")
    w("    " .. name .. "_f4_matrix, " .. name .. "_f4_constraint, " .. name .. "_f4_residual, " .. name .. "_f4_dg2,")
    w("    " .. name .. "_f4_newton_rhs, " .. name .. "_f4_factor")
    w("};")
    w("#endif")
    return table.concat(out, "\n")
end

-- the opening of alf-explicit's matrix kernels (f3_matrix, f3_factor): DECL(F, mass, Pq, a), each
-- argument marked used (a model without constraints or masses reads none)
local function f3_open(w, decl)
    w(decl .. "(mb_real *restrict F, const mb_real *restrict mass,")
    w("    const mb_real *restrict Pq, mb_real a)")
    w("{")
    for _, v in ipairs({"F", "mass", "Pq", "a"}) do w("    (void)" .. v .. ";") end
end

-- alf-explicit's matrix and its LDL^T in one kernel, NAME_f3_factor (mb_f3_kernels.factor), on
-- locals: every entry of A is one expression, its value before elimination (f3_matrix's: its
-- mass, then its product terms (a Pq[k]) Pq[l] in the plan's order; an entry without a mass
-- starts from its first term, where f3_matrix adds it to 0: the same value but for the sign of
-- a zero, as in assembly_s) minus the elimination's terms u_q l_p in ascending pivot order, which
-- is the order in which NAME_a_ldl's right-looking sweep subtracts them, with the same operands
-- (u: a column's entries before scaling; l = u (1 / d_k), its y): F = [D | L] comes out as
-- f3_matrix and NAME_a_ldl leave it (D: MB_LDL_D, the failing pivot's d_k),
-- each value stored once; a later pivot's term reads l_p back from F (its store: the same
-- value; after MB_RELOAD a load, where a local l_p was spilled to the stack: Andrews 1428 ->
-- 1390 instructions). The rank test
-- is NAME_a_ldl's at tol = 0 (d_k > 0; d_k <= A's diagonal entry, so that entry's own test is
-- implied) with finiteness (mb_sp_ldl's test after the sweep); the pivot that fails is stored.
-- MB_RELOAD after each pivot: Phi_q's entries are loaded again, not spilled (Andrews: 1683 ->
-- 1637 instructions); MB_NO_SLP: as the LU's (2038 -> 1683).
local function alf_factor(w, name, P)
    local S = P.a
    local n, lp, upd = S.n, S.lp, S.upd
    local init, prods, elim = {}, {}, {}
    for i = 0, n - 1 do init[S.pinv[i + 1]] = "mass[" .. i .. "]" end
    for t = 1, P.na do
        local d = P.a_dst[t]
        prods[d] = prods[d] or {}
        table.insert(prods[d], { k = P.a_k[t], l = P.a_l[t] })
    end
    local u = 1
    for k = 0, n - 1 do
        for p = lp[k + 1], lp[k + 2] - 1 do
            for q = p, lp[k + 2] - 1 do
                local t = upd[u]
                u = u + 1
                elim[t] = elim[t] or {}
                table.insert(elim[t], string.format("u%d * F[%d]", q, n + p))
            end
        end
    end
    local have = {}
    local function entry(d)   -- (emits the e_k it needs first)
        local e = init[d]
        for _, x in ipairs(prods[d] or {}) do
            if not have[x.k] then
                have[x.k] = true
                w(string.format("    const mb_real e%d = a * Pq[%d];", x.k, x.k))
            end
            local term = string.format("e%d * Pq[%d]", x.k, x.l)
            e = e and (e .. " + " .. term) or term
        end
        e = e or "0"
        for _, x in ipairs(elim[d] or {}) do e = e .. " - " .. x end
        return e
    end
    w("/* alf-explicit's matrix M + (a Phi_q)^T Phi_q factored, F = [D | L] (" .. n .. " x " .. n .. ", "
      .. S.nl .. " in L): " .. name .. "_f3_matrix and " .. name .. "_a_ldl in one, on locals.")
    w(" * D the pivots' reciprocals (MB_LDL_D). Returns -1, or the pivot k (permuted, F[k] = d_k) with !(d_k > 0)")
    w(" * or d_k not finite. */")
    f3_open(w, "static MB_NO_SLP int " .. name .. "_f3_factor")
    for k = 0, n - 1 do
        w(string.format("    const mb_real d%d = %s;", k, entry(k)))
        w(string.format("    if (!(d%d > 0 && d%d <= MB_REAL_MAX)) {", k, k))
        w(string.format("        F[%d] = d%d;", k, k))
        w(string.format("        return %d;", k))
        w("    }")
        w(string.format("    const mb_real i%d = 1 / d%d;", k, k))
        w(string.format("    F[%d] = MB_LDL_D(d%d, i%d);", k, k, k))
        w("    MB_RELOAD();")
        for p = lp[k + 1], lp[k + 2] - 1 do
            w(string.format("    const mb_real u%d = %s;", p, entry(n + p)))
            w(string.format("    const mb_real l%d = u%d * i%d;", p, p, k))
            w(string.format("    F[%d] = l%d;", n + p, p))
        end
    end
    w("    return -1;")
    w("}")
end

-- alf-explicit's unrolled kernels (runtime/mb_model.h: mb_f3_kernels): its matrix, and a pass of
-- its sigma iteration,
-- the loops of runtime/mb_f3_alf.c (the host's) and the kernels they call, in the same order:
-- sb = a b + sigma~, the right-hand side p + (-1) Phi_q^T sb as pq_mtv forms it (a term
-- (-1 Pq) sb is -(Pq sb) exactly, added it is a subtraction: the same value), the solve with
-- A's factors as NAME_a_ldl_solve's, c = Phi_q v + b as pq_mv's sum plus b, sigma~ += a c and
-- |v - v_old|^2 summed in index order; every intermediate a local, each emitted where it is
-- first needed (Andrews: 1157 -> 1116 instructions a pass, the stack spills 130 -> 98). S: A's
-- symbolic plan.
function M.alf(name, P, prow, pcol, nc)
    local out = {}
    local function w(s) out[#out + 1] = s end
    local S = P.a
    local n, perm = S.n, S.perm
    local rows, cols = {}, {}
    for r = 0, nc - 1 do rows[r] = {} end
    for i = 0, n - 1 do cols[i] = {} end
    for k = 1, #prow do
        table.insert(rows[prow[k]], k - 1)
        table.insert(cols[pcol[k]], k - 1)
    end
    w("#if MB_WITH_F3_KERNEL")
    -- the matrix: every entry set (its mass or 0, as mbi_assemble_a's zeroing and scatter), then
    -- the pairs (a Pq[k]) Pq[l] in the plan's order, each e_k = a Pq[k] just before its first
    -- term (as the F4 matrix's rows: few values live)
    w("/* alf-explicit's matrix M + (a Phi_q)^T Phi_q into the plan storage F of A (" .. P.na .. " product")
    w(" * terms): mbi_alf_velocity's E = a Phi_q and mbi_assemble_a, unrolled. */")
    f3_open(w, "static void " .. name .. "_f3_matrix")
    mass_first(w, S, n + S.nl)
    local have = {}
    for t = 1, P.na do
        local k, l, d = P.a_k[t], P.a_l[t], P.a_dst[t]
        if not have[k] then
            have[k] = true
            w(string.format("    const mb_real e%d = a * Pq[%d];", k, k))
        end
        w(string.format("    F[%d] += e%d * Pq[%d];", d, k, l))
    end
    w("}")
    w("")
    alf_factor(w, name, P)
    w("")
    w("/* One pass of alf-explicit's sigma iteration on A's factors F (mbi_alf_velocity's loops and")
    w(" * kernels unrolled, the same arithmetic in the same order): v = A^-1 (p - Phi_q^T (a b + sig)),")
    w(" * sig += a (Phi_q v + b); returns |v - vold|^2 and leaves v in vold. */")
    w("static mb_real " .. name .. "_f3_iter(const mb_real *restrict F, const mb_real *restrict Pq,")
    w("    const mb_real *restrict p, const mb_real *restrict b, mb_real *restrict sig, mb_real *restrict vold,")
    w("    mb_real a)")
    w("{")
    w("    (void)F;")
    w("    (void)Pq;")
    w("    (void)p;")
    w("    (void)b;")
    w("    (void)sig;")
    w("    (void)vold;")
    w("    (void)a;")
    -- s = a b + sig and r = p - Phi_q^T s, each value just before its first use by the forward
    -- substitution (fewer values live at a time; the same operations on the same operands)
    local have_s = {}
    local function r_of(i)
        local e = string.format("p[%d]", i)
        for _, k in ipairs(cols[i]) do
            local r = prow[k + 1]
            if not have_s[r] then
                have_s[r] = true
                w(string.format("    const mb_real s%d = a * b[%d] + sig[%d];", r, r, r))
            end
            e = e .. string.format(" - Pq[%d] * s%d", k, r)
        end
        w(string.format("    const mb_real r%d = %s;", i, e))
        return string.format("r%d", i)
    end
    -- the substitutions of NAME_a_ldl_solve (forward, backward above) on r, each pass reading
    -- F, Phi_q and b afresh (MB_RELOAD, runtime/mb_config.h)
    forward(w, S, r_of)
    w("    MB_RELOAD();")
    local pinv = {}
    for k = 0, n - 1 do pinv[perm[k + 1]] = k end
    -- c = Phi_q v + b, then sigma~: each row as soon as the backward substitution has written
    -- the last y it reads (fewer values live at a time). pq_mv's rows sum from 0; 0 + x is x but
    -- for x = -0, and that moves sigma~ + a (c + b) only where sigma~ itself is -0 (the runtime
    -- starts it from +0, and a sum is -0 only of two -0): the same sigma~ without the addition
    local need, waiting = {}, {}
    for r = 0, nc - 1 do
        need[r] = 0
        for _, k in ipairs(rows[r]) do
            local y = pinv[pcol[k + 1]]
            waiting[y] = waiting[y] or {}
            table.insert(waiting[y], r)
            need[r] = need[r] + 1
        end
    end
    local function sig_row(r)
        local e
        for _, k in ipairs(rows[r]) do
            e = (e and e .. " + " or "") .. string.format("Pq[%d] * y%d", k, pinv[pcol[k + 1]])
        end
        w(string.format("    sig[%d] = sig[%d] + a * ((%s) + b[%d]);", r, r, e or "0", r))
    end
    for r = 0, nc - 1 do if need[r] == 0 then sig_row(r) end end
    -- the backward substitution's rows, each row's arithmetic as in backward, in the order in
    -- which |v - vold|^2 sums them from 0 in index order: before v_i's row the rows it reads,
    -- then v_i's term added at once (0 + e0 e0 is e0 e0: the same sum, no e kept live to the end)
    local done = {}
    local function emit_y(k)
        if done[k] then return end
        for p = S.lp[k + 1], S.lp[k + 2] - 1 do emit_y(S.li[p + 1]) end
        done[k] = true
        backward_row(w, S, k)
        w(string.format("    const mb_real e%d = y%d - vold[%d];", perm[k + 1], k, perm[k + 1]))
        w(string.format("    vold[%d] = y%d;", perm[k + 1], k))
        for _, r in ipairs(waiting[k] or {}) do
            need[r] = need[r] - 1
            if need[r] == 0 then sig_row(r) end
        end
    end
    if n == 0 then w("    mb_real dv = 0;") end
    for i = 0, n - 1 do
        emit_y(pinv[i])
        w(string.format(i == 0 and "    mb_real dv = e%d * e%d;" or "    dv += e%d * e%d;", i, i))
    end
    w("    return dv;")
    w("}")
    w("")
    w("static const mb_f3_kernels " .. name .. "_f3 = { " .. name .. "_f3_matrix, " .. name .. "_f3_iter, "
      .. name .. "_f3_factor };")
    w("#endif")
    return table.concat(out, "\n")
end

return M
