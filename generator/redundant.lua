-- redundant.lua - dependent (redundant) constraint equations at the initial configuration, named
-- by element: mbgen --check reports them, mbgen --redundant remove generates the model without
-- them (docs/generator.md, "Redundant constraints").
-- Layer: generator back end, on the derived expressions of emit.derive (numbers only, no C).
--
-- Method: the configuration is assembled first (Gauss-Newton, minimum-norm steps, locked
-- coordinates held, at t = 0), because a redundancy of a closed loop (a parallelogram's extra
-- link) exists only on the loop's configurations. Then Householder QR with scaled column
-- pivoting of J = Phi_q^T (nq x nc, one column per equation), the algorithm of the runtime's
-- mb_anl (runtime/mb_analysis.c, qr_pivoted): the next column is the one whose remaining part
-- is largest relative to its own norm (ties: the one declared first), and the factorization
-- stops when that ratio, sin^2 of the angle between the column and the span of the columns
-- before it, is at most RANK_TOL. The columns left over are the dependent equations; each is
-- R11^-1 R12 times the pivot columns, whose non-zero coefficients name what it repeats.

local sym = require("sym")

local R = {}

R.RANK_TOL = 1e-8        -- as mb_anl_params' rank_tol in double
R.MAX_WORK = 2e7         -- nq * nc * min(nq, nc): above it the dense check is skipped
local ASM_TOL, ASM_ITER = 1e-10, 50

-- Values of the derived Phi and Phi_q (dense, J[c][k] = dPhi_c/dq_k) at (t, q).
local function evaluate(D, t, q)
    local env = { t = t }
    for k = 1, D.nq do env["q[" .. (k - 1) .. "]"] = q[k] end
    local memo = {}
    local phi, J = {}, {}
    for c = 1, D.nc do
        phi[c] = sym.eval(D.phi[c], env, memo)
        J[c] = {}
        for k = 1, D.nq do J[c][k] = 0.0 end
    end
    for _, ent in ipairs(D.phiq) do J[ent.r + 1][ent.c + 1] = sym.eval(ent.e, env, memo) end
    return phi, J
end

-- In place QR of the columns A[1..nc] (each of length n) with scaled pivoting; returns the rank,
-- the pivot order piv (piv[j] = original column at position j), tau and the original norms.
local function qr_pivoted(A, n, nc, tol)
    local piv, orig, rem, tau = {}, {}, {}, {}
    for c = 1, nc do
        piv[c] = c
        local s = 0.0
        for i = 1, n do s = s + A[c][i] * A[c][i] end
        orig[c], rem[c] = s, s
    end
    local kmax = math.min(n, nc)
    local k = 1
    while k <= kmax do
        local best, br = nil, 0.0
        for c = k, nc do
            local r = orig[c] > 0 and rem[c] / orig[c] or 0.0
            if r > br then best, br = c, r end
        end
        if not best or not (br > tol) then break end
        A[k], A[best] = A[best], A[k]
        piv[k], piv[best] = piv[best], piv[k]
        orig[k], orig[best] = orig[best], orig[k]
        rem[k], rem[best] = rem[best], rem[k]
        local x = A[k]
        local nx = 0.0
        for i = k, n do nx = nx + x[i] * x[i] end
        nx = math.sqrt(nx)
        local alpha = x[k] > 0 and -nx or nx
        local u0 = x[k] - alpha
        local vv = 1.0
        for i = k + 1, n do x[i] = x[i] / u0; vv = vv + x[i] * x[i] end
        local tk = 2 / vv
        tau[k] = tk
        x[k] = alpha
        for c = k + 1, nc do
            local y = A[c]
            local s = y[k]
            for i = k + 1, n do s = s + x[i] * y[i] end
            s = s * tk
            y[k] = y[k] - s
            local rr = 0.0
            for i = k + 1, n do
                y[i] = y[i] - s * x[i]
                rr = rr + y[i] * y[i]
            end
            rem[c] = rr
        end
        k = k + 1
    end
    return k - 1, piv, tau, orig
end

-- x <- H_kk x, the kk-th reflector of qr_pivoted (its vector in A[kk], below the diagonal) on an
-- n-vector.
local function reflect(A, tau, kk, x, n)
    local h = A[kk]
    local s = x[kk]
    for i = kk + 1, n do s = s + h[i] * x[i] end
    s = s * tau[kk]
    x[kk] = x[kk] - s
    for i = kk + 1, n do x[i] = x[i] - s * h[i] end
end

-- x <- (I - Q1 Q1^T) x: its component in the span of the first r columns of Q removed (Q^T x,
-- the first r entries zeroed, Q back).
local function project_out(A, tau, r, x, n)
    for kk = 1, r do reflect(A, tau, kk, x, n) end
    for i = 1, r do x[i] = 0.0 end
    for kk = r, 1, -1 do reflect(A, tau, kk, x, n) end
end

-- Solve R11 x = b (upper triangular, R11[i][j] = A[j][i] for i <= j <= r).
local function back(A, r, b)
    local x = {}
    for i = r, 1, -1 do
        local s = b[i]
        for j = i + 1, r do s = s - A[j][i] * x[j] end
        x[i] = s / A[i][i]
    end
    return x
end

-- Transposed copy of J (nc rows) with the locked coordinates' entries zeroed: the columns of QR.
local function columns(J, nq, nc, locked)
    local A = {}
    for c = 1, nc do
        local col = {}
        for k = 1, nq do col[k] = locked[k] == 1 and 0.0 or J[c][k] end
        A[c] = col
    end
    return A
end

local function norminf(v)
    local m = 0.0
    for _, x in ipairs(v) do
        local a = math.abs(x)
        if not (a <= m) then m = a end
    end
    return m
end

-- The rows `rows` (a list of row numbers, nil: every row) of phi and J.
local function pick(phi, J, rows)
    if not rows then return phi, J end
    local p, K = {}, {}
    for i, c in ipairs(rows) do p[i], K[i] = phi[c], J[c] end
    return p, K
end

-- Position assembly: Gauss-Newton with the minimum-norm step dq = -J^+ Phi over the free
-- coordinates (from the pivoted QR of J^T: R11^T y = -Phi_p, dq = Q1 y), halving on no decrease,
-- on the rows `rows` (nil: all) at time t from q0, until |Phi| <= tol (or no decrease).
-- Returns q, |Phi|_inf over those rows, the full J at q.
local function project(D, t, q0, rows, tol)
    local nq, locked = D.nq, D.coords.locked
    local q = {}
    for k = 1, nq do q[k] = q0[k] end
    local phiall, Jall = evaluate(D, t, q)
    local phi, J = pick(phiall, Jall, rows)
    local nc = #phi
    local res = norminf(phi)
    for _ = 1, ASM_ITER do
        if res <= tol then break end
        local A = columns(J, nq, nc, locked)
        local r, piv, tau = qr_pivoted(A, nq, nc, R.RANK_TOL)
        if r == 0 then break end
        -- R11^T y = -Phi(piv): forward substitution
        local y = {}
        for i = 1, r do
            local s = -phi[piv[i]]
            for j = 1, i - 1 do s = s - A[i][j] * y[j] end
            y[i] = s / A[i][i]
        end
        local dq = {}
        for i = 1, nq do dq[i] = i <= r and y[i] or 0.0 end
        for kk = r, 1, -1 do reflect(A, tau, kk, dq, nq) end   -- dq = H_1 ... H_r [y; 0]
        local lam, qt, pt, Jt, pa, Ja, rt = 1.0
        for _ = 1, 20 do
            qt = {}
            for k = 1, nq do qt[k] = q[k] + lam * dq[k] end
            pa, Ja = evaluate(D, t, qt)
            pt, Jt = pick(pa, Ja, rows)
            rt = norminf(pt)
            if rt < res then break end
            lam = lam / 2
        end
        if not (rt < res) then break end
        q, phi, J, res, Jall = qt, pt, Jt, rt, Ja
    end
    return q, res, Jall
end

local function coord_scale(q)
    local scale = 1.0
    for k = 1, #q do scale = math.max(scale, math.abs(q[k])) end
    return scale
end

-- Returns q, |Phi|_inf, J at q, the coordinates' scale: the assembled initial configuration.
local function assemble(D)
    local scale = coord_scale(D.coords.q0)
    local q, res, J = project(D, 0.0, D.coords.q0, nil, ASM_TOL * scale)
    return q, res, J, scale
end

-- Is each dependent row implied by the kept rows near the assembled q (not only at q)? A rank
-- loss at a singular position (a chain stretched straight between two ground points) is no
-- redundancy: the equation's gradient lies in the others' span there only, and without it the
-- mechanism could move off it (tear the joint). The test: step from q along two fixed
-- directions of the kept rows' tangent space (free coordinates), NEAR_STEP long (the largest
-- angle change NEAR_STEP rad, the largest translation NEAR_STEP x the length scale L), and in
-- time by at most NEAR_STEP s (drivers move), project back onto the kept rows, and evaluate
-- the dependent rows there. Implied rows stay at round-off; at a singular position they grow
-- with the step squared (NEAR_STEP^2 L for a curvature 1 / L). L: the largest lever arm
-- |dPhi/dphi| at q (the mechanism's size), else the coordinates' scale (no angles).
-- Returns worst = { [row] = |phi_row| at the worst probe }, tol (the limit of round-off: above
-- it a row is not implied), or nil, why (a projection failed).
R.NEAR_STEP, R.NEAR_TOL = 1e-3, 1e-9

-- The mechanism's length scale L at J = Phi_q: its largest lever arm |dPhi/dphi|, else (no
-- angles) the coordinates' scale.
local function length_scale(D, J, scale)
    local names, L = D.coords.names, 0.0
    for k = 1, D.nq do
        if names and names[k] and names[k]:sub(-4) == ".phi" then
            for c = 1, D.nc do L = math.max(L, math.abs(J[c][k])) end
        end
    end
    if not (L > 0 and L < math.huge) then L = scale end
    return L
end

function R.nearby(D, q, dependent, scale)
    local nq, locked, names = D.nq, D.coords.locked, D.coords.names
    local isdep, kept = {}, {}
    for _, c in ipairs(dependent) do isdep[c] = true end
    for c = 1, D.nc do if not isdep[c] then kept[#kept + 1] = c end end
    local phi, J = evaluate(D, 0.0, q)
    local angle, L = {}, length_scale(D, J, scale)
    for k = 1, nq do angle[k] = names and names[k] and names[k]:sub(-4) == ".phi" end
    local tol = R.NEAR_TOL * L + 1e-12 * scale
    local _, Jk = pick(phi, J, kept)
    local A = columns(Jk, nq, #kept, locked)
    local r, _, tau = qr_pivoted(A, nq, #kept, R.RANK_TOL)
    local worst = {}
    for _, c in ipairs(dependent) do worst[c] = 0.0 end
    -- the time step: NEAR_STEP, halved until the drivers move the equations by at most
    -- NEAR_STEP L (a fast driver would otherwise carry the probe far off, perhaps onto another
    -- assembly branch)
    local dt = R.NEAR_STEP
    for _ = 1, 40 do
        if norminf((evaluate(D, dt, q))) <= R.NEAR_STEP * L then break end
        dt = dt / 2
    end
    for probe = 1, 2 do
        -- a fixed direction over the free coordinates, its component in the kept rows' span removed
        local v = {}
        for k = 1, nq do
            local w = (k * 0.6180339887498949 + probe * 0.4142135623730950) % 1.0 + 0.25
            v[k] = locked[k] == 1 and 0.0 or (probe == 2 and k % 2 == 0 and -w or w)
        end
        project_out(A, tau, r, v, nq)
        -- its size: the largest angle change NEAR_STEP rad, translation NEAR_STEP L
        local big, nv = 0.0, 0.0
        for k = 1, nq do
            big = math.max(big, math.abs(v[k]) / (angle[k] and 1.0 or L))
            nv = math.max(nv, math.abs(v[k]))
        end
        local q1 = {}
        for k = 1, nq do
            q1[k] = q[k] + (nv > 1e-12 and big > 0 and R.NEAR_STEP * v[k] / big or 0.0)
        end
        local qp, res = project(D, dt, q1, kept, 1e-14 * scale)
        if not (res <= 1e-12 * scale) then
            return nil, string.format("the projection onto the other equations did not converge (|Phi| = %.3g)", res)
        end
        local pd = evaluate(D, dt, qp)
        for _, c in ipairs(dependent) do
            local a = math.abs(pd[c])
            if not (a <= worst[c]) then worst[c] = a end
        end
    end
    return worst, tol
end

-- Do the dependent rows stay implied over time? A row whose gradient repeats others' at t = 0
-- (a second driver of the same coordinate) is redundant only when its time function is
-- consistent with theirs at every t: phi = t and phi = t + t^3 agree to second order at t = 0
-- (the nearby check's short step cannot tell them apart), phi = t and phi = 2 t at first order
-- (that one looks like a singular position there). The test: follow the other equations in time
-- (continuation: from the assembled q, steps in t whose drivers move the equations by at most
-- OVER_STEP L, each projected back onto the other equations), up to OVER_T s, and evaluate the
-- dependent rows on the way; a consistent row stays at round-off (also when it relates to the
-- others nonlinearly: a driver of a pendulum's y with f = 0.5 sin t beside one of its angle with
-- f = t), one whose time function differs grows. Only `rows` (the dependent rows of groups with a
-- time-dependent equation) are followed: a purely geometric redundancy has nothing in time to
-- contradict. Returns { [row] = { t =, value = } } for the rows above OVER_TOL L (the first time
-- each exceeds it), the time reached (OVER_T unless a projection failed first), and the reason it
-- stopped early (nil: it did not).
R.OVER_T, R.OVER_STEP, R.OVER_TOL, R.OVER_MAXSTEPS = 10.0, 0.05, 1e-6, 4000
function R.over_time(D, q, dependent, rows, scale, L)
    local isdep, kept = {}, {}
    for _, c in ipairs(dependent) do isdep[c] = true end
    for c = 1, D.nc do if not isdep[c] then kept[#kept + 1] = c end end
    local tol = R.OVER_TOL * L + 1e-12 * scale
    local found = {}
    local t, dt, steps = 0.0, R.OVER_STEP, 0
    local why
    while t < R.OVER_T do
        steps = steps + 1
        if steps > R.OVER_MAXSTEPS then
            why = string.format("%d steps taken", R.OVER_MAXSTEPS)
            break
        end
        local t1 = math.min(t + dt, R.OVER_T)
        -- the drivers' move at fixed q: at most OVER_STEP L per step
        local moved = norminf((pick((evaluate(D, t1, q)), {}, kept)))
        local qp, res
        if moved <= R.OVER_STEP * L then qp, res = project(D, t1, q, kept, 1e-13 * scale) end
        if qp and res <= 1e-11 * scale then
            local pd = evaluate(D, t1, qp)
            for _, c in ipairs(rows) do
                local a = math.abs(pd[c])
                if not found[c] and not (a <= tol) then found[c] = { t = t1, value = a } end
            end
            t, q = t1, qp
            if moved <= 0.25 * R.OVER_STEP * L then dt = math.min(2 * dt, 1.0) end
        else
            dt = dt / 2
            if dt < 1e-9 then
                why = string.format("the projection onto the other equations did not converge at t = %.6g s", t1)
                break
            end
        end
    end
    return found, t, why
end

-- R.velocities(D, q) -> nil when the given initial velocities (a body's or particle's
-- `velocity`, assembly { velocity = ... }) and the drivers agree with the velocity constraints
-- at the assembled q, else { residual = |Phi_q v + Phi_t|_inf, row = the constraint's name,
-- given = { "crank.phi = 3", ... } }. The velocity assembly solves Phi_q v = -Phi_t with the
-- given components held (runtime/mb_assembly.c); it is linear, so whether it can succeed is a
-- least-squares residual: the pivoted QR of the free coordinates' columns of Phi_q.
function R.velocities(D, q)
    local nq, nc, C = D.nq, D.nc, D.coords
    if nc == 0 then return nil end
    local env = { t = 0.0 }
    for k = 1, nq do env["q[" .. (k - 1) .. "]"] = q[k] end
    local memo = {}
    local _, J = evaluate(D, 0.0, q)
    local b, big, given, free = {}, 1.0, {}, {}
    for c = 1, nc do
        local s = -sym.eval(D.phit[c], env, memo)
        for k = 1, nq do
            if C.v_given[k] == 1 then s = s - J[c][k] * C.v0[k] end
            big = math.max(big, math.abs(J[c][k]))
        end
        b[c] = s
        big = math.max(big, math.abs(s))
    end
    for k = 1, nq do
        if C.v_given[k] == 1 then
            given[#given + 1] = string.format("%s = %.6g", C.names[k], C.v0[k])
            big = math.max(big, math.abs(C.v0[k]))
        else
            local col = {}
            for c = 1, nc do col[c] = J[c][k] end
            free[#free + 1] = col
        end
    end
    -- residual r = (I - Q1 Q1^T) b: Q^T b, its first `rank` entries zeroed, Q back
    local r, _, tau = qr_pivoted(free, nc, #free, R.RANK_TOL)
    project_out(free, tau, r, b, nc)
    local worst, res = 1, 0.0
    for c = 1, nc do
        if not (math.abs(b[c]) <= res) then worst, res = c, math.abs(b[c]) end
    end
    if res <= 1e-9 * big then return nil end
    return { residual = res, row = D.phinames[worst], given = given }
end

-- R.rank_at(D, q) -> the rank of Phi_q(0, q) by the same test (no assembly): for tests, which
-- show that a loop's redundancy needs the assembled configuration.
function R.rank_at(D, q)
    local _, J = evaluate(D, 0.0, q)
    local r = qr_pivoted(columns(J, D.nq, D.nc, {}), D.nq, D.nc, R.RANK_TOL)
    return r
end

-- The element a constraint row belongs to: its name up to the first '.' (element names hold
-- none; a driver's row is the element's name).
local function element_of(name) return (name:match("^([^.]+)")) end

local WORD = { revolute = "joint", prismatic = "joint", slot = "joint", rod = "rod", driver = "driver",
               gear = "gear", rack = "rack", cam = "cam" }

-- R.analyse(M, D) -> report or nil, why (too large, nothing to check). report = {
--   rank =, nc =, residual = |Phi| after assembly, assembled = bool (when false: no rank, nothing
--   dependent: a rank where the assembly stopped is no verdict),
--   dependent = { row numbers (1-based, declaration order) },
--   groups = { { element =, kind =, rows = { { row =, name =, near = |phi| near q, timed = a
--                time-dependent equation in its relation } }, by = { names },
--                singular = true when a row is not implied nearby (R.nearby),
--                conflict = { t =, value =, name = } when a row is not implied over time
--                (R.over_time: contradicting time functions) } },
--   singular = true when any group is, near_why = why R.nearby could not tell (nil: it could),
--   conflict = true when any group is, time_reached = how far in t R.over_time followed the
--   others (nil: nothing timed to follow), time_why = why it stopped before R.OVER_T,
--   lines = { "joint \"A2\" (A2.x, A2.y) duplicates joint \"A1\"", ... },
--   velocities = R.velocities at the assembled configuration (nil: consistent) }
function R.analyse(M, D)
    local nq, nc = D.nq, D.nc
    if nc == 0 then return nil, "no constraint equations" end
    local work = nq * nc * math.min(nq, nc)
    if work > R.MAX_WORK then
        return nil, string.format("Phi_q is %d x %d, above the dense check's limit (nq nc min(nq, nc) <= %.0e)",
                                  nc, nq, R.MAX_WORK)
    end
    local q, res, J, scale = assemble(D)
    if not (res <= ASM_TOL * scale) then
        -- a rank found where the assembly stopped says nothing about the mechanism: no verdict
        return { nc = nc, residual = res, assembled = false, dependent = {}, groups = {}, lines = {} }
    end
    local vel = R.velocities(D, q)
    local A = columns(J, nq, nc, {})   -- every coordinate: a locked one still moves the mechanism's equations
    local r, piv, _, orig = qr_pivoted(A, nq, nc, R.RANK_TOL)
    local kind = {}
    for _, el in ipairs(M.elements) do kind[el.name] = el.kind end
    local rep = { rank = r, nc = nc, residual = res, assembled = res <= ASM_TOL * scale,
                  dependent = {}, groups = {}, lines = {}, velocities = vel }
    local gindex = {}
    for j = r + 1, nc do
        local c = piv[j]
        rep.dependent[#rep.dependent + 1] = c
        local b = {}
        for i = 1, r do b[i] = A[j][i] end
        local x = back(A, r, b)
        local el = element_of(D.phinames[c])
        local g = gindex[el]
        if not g then
            g = { element = el, kind = kind[el] or "?", rows = {}, first = c, by = {}, byset = {} }
            gindex[el] = g
            rep.groups[#rep.groups + 1] = g
        end
        local rw = { row = c, name = D.phinames[c], timed = not sym.iszero(D.phit[c]) }
        g.rows[#g.rows + 1] = rw
        local ncol = math.sqrt(orig[j])
        for i = 1, r do
            local pc = piv[i]
            -- a coefficient that matters: its share of the column's norm above round-off
            if math.abs(x[i]) * math.sqrt(orig[i]) > 1e-6 * ncol then
                if not sym.iszero(D.phit[pc]) then rw.timed = true end
                local e2 = element_of(D.phinames[pc])
                if e2 ~= el and not g.byset[e2] then
                    g.byset[e2] = pc
                    g.by[#g.by + 1] = e2
                end
            end
        end
    end
    table.sort(rep.dependent)
    table.sort(rep.groups, function(a, b) return a.first < b.first end)
    -- implied nearby too, or only at this (singular) position?
    if #rep.dependent > 0 then
        local worst, tol = R.nearby(D, q, rep.dependent, scale)
        rep.near_why = not worst and tol or nil
        for _, g in ipairs(rep.groups) do
            for _, rw in ipairs(g.rows) do
                rw.near = worst and worst[rw.row]
                if worst and not (rw.near <= tol) then g.singular = true; rep.singular = true end
            end
        end
        -- consistent over time too? (the rows with a time-dependent equation in their relation)
        local timed = {}
        for _, g in ipairs(rep.groups) do
            for _, rw in ipairs(g.rows) do if rw.timed then timed[#timed + 1] = rw.row end end
        end
        if #timed > 0 then
            local found, reached, why = R.over_time(D, q, rep.dependent, timed, scale, length_scale(D, J, scale))
            rep.time_reached, rep.time_why = reached, why
            for _, g in ipairs(rep.groups) do
                for _, rw in ipairs(g.rows) do
                    local f = found[rw.row]
                    if f and (not g.conflict or f.t < g.conflict.t) then
                        g.conflict = { t = f.t, value = f.value, name = rw.name }
                        rep.conflict = true
                    end
                end
            end
        end
    end
    local function who(e) return (WORD[kind[e]] or kind[e] or "element") .. ' "' .. e .. '"' end
    for _, g in ipairs(rep.groups) do
        table.sort(g.rows, function(a, b) return a.row < b.row end)
        table.sort(g.by, function(a, b) return g.byset[a] < g.byset[b] end)
        local names = {}
        for i, rw in ipairs(g.rows) do names[i] = rw.name end
        local by = {}
        for i, e in ipairs(g.by) do by[i] = who(e) end
        local text = who(g.element) .. " (" .. table.concat(names, ", ") .. ")"
        local by_text = #by == 0 and "its own equations" or #by == 1 and by[1]
            or table.concat(by, ", ", 1, #by - 1) .. " and " .. by[#by]
        if g.conflict then
            -- the gradients repeat the others', the time functions do not: a contradiction
            text = string.format("%s contradicts %s: their time functions differ (they agree at the "
                .. "initial configuration, but with the other equations held |Phi| of %s reaches %.3g "
                .. "at t = %.6g s)", text, by_text, g.conflict.name, g.conflict.value, g.conflict.t)
        elseif g.singular then
            -- the gradients line up here only: a singular position, not a redundancy
            local big = 0.0
            for _, rw in ipairs(g.rows) do if rw.near > big then big = rw.near end end
            text = string.format("%s depends on %s only at this position, not near it (a singular "
                .. "position: |Phi| of its equations grows to %.3g after a step of %.0e rad along "
                .. "the others' motions)", text, by_text, big, R.NEAR_STEP)
        elseif #by == 0 then
            text = text .. " is dependent on its own equations"
        elseif #by == 1 then
            text = text .. " duplicates " .. by[1]
        else
            text = text .. " is implied by " .. table.concat(by, ", ", 1, #by - 1) .. " and " .. by[#by]
        end
        rep.lines[#rep.lines + 1] = text
    end
    return rep
end

return R
