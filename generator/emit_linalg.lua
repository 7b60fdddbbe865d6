-- emit_linalg.lua - the unrolled form of the generated linear algebra: straight-line C for the
-- numeric LDL^T / LU factorizations and the solves of a symbolic plan (generator/mb_plan_build.c
-- via host.plan), with every storage index a literal. The arithmetic and its order are those of
-- the compact kernels (runtime/mb_sparse.c), so both forms give bit-identical results.
-- Layer: generator back end, called by emit.lua.

local M = {}

-- Lines of C: NAME_<tag>_ldl, _ldl_solve (symmetric) and, with lu, NAME_<tag>_lu, _lu_solve.
-- S is a plan table (n, nl, perm, lp, li, upd; arrays 1-based holding 0-based values).
function M.functions(name, tag, S, lu)
    local n, nl = S.n, S.nl
    local out = {}
    local function w(s) out[#out + 1] = s end
    local lp, li, upd, perm = S.lp, S.li, S.upd, S.perm
    local function col(k) return lp[k + 1], lp[k + 2] - 1 end   -- 0-based p range of column k
    local pre = name .. "_" .. tag

    -- LDL^T: returns -1 or the pivot that failed (rank test d_k > tol d0_k, d0_k > 0)
    w("/* Unrolled LDL^T of the plan storage F = [D | L] (" .. n .. " x " .. n .. ", " .. nl
      .. " in L, " .. S.nupd .. " updates); d0 receives the diagonal before elimination.")
    w(" * Returns -1, or the pivot k (permuted) with d_k <= tol d0_k. */")
    w("static int " .. pre .. "_ldl(mb_real *restrict F, mb_real *restrict d0, mb_real tol)")
    w("{")
    w("    int i;")
    if nl > 0 then w("    mb_real inv, y;") end
    w("    (void)F;")
    w("    (void)d0;")
    w("    (void)tol;")
    w("    for (i = 0; i < " .. n .. "; i++) d0[i] = F[i];")
    local u = 1
    for k = 0, n - 1 do
        w(string.format("    if (!(F[%d] > tol * d0[%d]) || !(d0[%d] > 0)) return %d;", k, k, k, k))
        local p0, p1 = col(k)
        if p1 >= p0 then
            w(string.format("    inv = 1 / F[%d];", k))
            for p = p0, p1 do
                w(string.format("    y = F[%d] * inv;", n + p))
                for q = p, p1 do
                    w(string.format("    F[%d] -= F[%d] * y;", upd[u], n + q))
                    u = u + 1
                end
            end
            for p = p0, p1 do w(string.format("    F[%d] *= inv;", n + p)) end
        end
    end
    w("    return -1;")
    w("}")
    w("")

    local function forward()
        for k = 0, n - 1 do
            w(string.format("    y[%d] = b[%d];", k, perm[k + 1]))
        end
        for k = 0, n - 1 do
            local p0, p1 = col(k)
            for p = p0, p1 do w(string.format("    y[%d] -= F[%d] * y[%d];", li[p + 1], n + p, k)) end
        end
    end
    w("/* Solve with the factors of " .. pre .. "_ldl: b (original order) is overwritten. */")
    w("static void " .. pre .. "_ldl_solve(const mb_real *restrict F, mb_real *restrict b, mb_real *restrict y)")
    w("{")
    w("    (void)F;")
    w("    (void)b;")
    w("    (void)y;")
    forward()
    for k = n - 1, 0, -1 do
        local p0, p1 = col(k)
        local s = string.format("y[%d] / F[%d]", k, k)
        for p = p0, p1 do s = s .. string.format(" - F[%d] * y[%d]", n + p, li[p + 1]) end
        w(string.format("    y[%d] = %s;", k, s))
    end
    for k = 0, n - 1 do w(string.format("    b[%d] = y[%d];", perm[k + 1], k)) end
    w("}")

    if lu then
        w("")
        w("/* Unrolled LU without pivoting on the symmetric pattern, F = [D | L | U] (U transposed")
        w(" * on L's pattern). Returns -1, or the pivot k (permuted) that is exactly zero. */")
        w("static int " .. pre .. "_lu(mb_real *restrict F)")
        w("{")
        if nl > 0 then w("    mb_real inv, lpk, up;") end
        w("    (void)F;")
        u = 1
        for k = 0, n - 1 do
            w(string.format("    if (F[%d] == 0) return %d;", k, k))
            local p0, p1 = col(k)
            if p1 >= p0 then
                w(string.format("    inv = 1 / F[%d];", k))
                for p = p0, p1 do
                    w(string.format("    lpk = F[%d] * inv;", n + p))
                    w(string.format("    up = F[%d];", n + nl + p))
                    w(string.format("    F[%d] -= lpk * up;", upd[u]))
                    u = u + 1
                    for q = p + 1, p1 do
                        local t = upd[u]
                        u = u + 1
                        w(string.format("    F[%d] -= F[%d] * inv * up;", t, n + q))
                        w(string.format("    F[%d] -= lpk * F[%d];", t + nl, n + nl + q))
                    end
                end
                for p = p0, p1 do w(string.format("    F[%d] *= inv;", n + p)) end
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
        forward()
        for k = n - 1, 0, -1 do
            local p0, p1 = col(k)
            local s = string.format("y[%d]", k)
            for p = p0, p1 do s = s .. string.format(" - F[%d] * y[%d]", n + nl + p, li[p + 1]) end
            if p1 >= p0 then s = "(" .. s .. ")" end
            w(string.format("    y[%d] = %s / F[%d];", k, s, k))
        end
        for k = 0, n - 1 do w(string.format("    b[%d] = y[%d];", perm[k + 1], k)) end
        w("}")
    end
    return table.concat(out, "\n")
end

-- The unrolled assembly of a plan's product terms (same terms, same order as the runtime's loops
-- in mb_linsys.c / mb_f3_alf.c / mb_f4_trapezoid.c): NAME_s_assemble (F += w[c] Pq[k] Pq[l]) and
-- NAME_a_assemble (F += E[k] D[l], and with unsym the transposed term nl further).
-- pq_col: the columns of Phi_q's entries (1-based table of 0-based values).
function M.assembly(name, P, pq_col)
    local out = {}
    local function w(s) out[#out + 1] = s end
    w("/* Unrolled assembly of S = Phi_q W Phi_q^T into its plan storage (" .. P.ns .. " terms). */")
    w("static void " .. name .. "_s_assemble(mb_real *restrict F, const mb_real *restrict Pq, const mb_real *restrict w)")
    w("{")
    w("    (void)F;")
    w("    (void)Pq;")
    w("    (void)w;")
    for t = 1, P.ns do
        local k, l = P.s_k[t], P.s_l[t]
        w(string.format("    F[%d] += w[%d] * Pq[%d] * Pq[%d];", P.s_dst[t], pq_col[k + 1], k, l))
    end
    w("}")
    w("")
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

-- The unrolled products with Phi_q (same arithmetic, same order as runtime/mb_vec.h's loops over
-- the pattern, so results are bit-identical to the compact form): NAME_pq_mv (out = Phi_q x, every
-- row zeroed first) and NAME_pq_mtv (out += a Phi_q^T y). prow, pcol: the pattern's rows and
-- columns (1-based tables of 0-based values); nc: its rows.
function M.products(name, prow, pcol, nc)
    local out = {}
    local function w(s) out[#out + 1] = s end
    w("/* Unrolled out = Phi_q x (" .. #prow .. " entries). */")
    w("static void " .. name .. "_pq_mv(const mb_real *restrict Pq, const mb_real *restrict x, mb_real *restrict out)")
    w("{")
    w("    (void)Pq;")
    w("    (void)x;")
    w("    (void)out;")
    for r = 0, nc - 1 do w(string.format("    out[%d] = 0;", r)) end
    for k = 1, #prow do w(string.format("    out[%d] += Pq[%d] * x[%d];", prow[k], k - 1, pcol[k])) end
    w("}")
    w("")
    w("/* Unrolled out += a Phi_q^T y (" .. #prow .. " entries). */")
    w("static void " .. name .. "_pq_mtv(const mb_real *restrict Pq, const mb_real *restrict y, mb_real a, mb_real *restrict out)")
    w("{")
    w("    (void)Pq;")
    w("    (void)y;")
    w("    (void)a;")
    w("    (void)out;")
    for k = 1, #prow do w(string.format("    out[%d] += a * Pq[%d] * y[%d];", pcol[k], k - 1, prow[k])) end
    w("}")
    return table.concat(out, "\n")
end

return M
