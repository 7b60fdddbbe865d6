-- emit.lua - from a validated model table derive every model function symbolically (Phi, Phi_q,
-- Phi_t, d(Phi_q)/dt, Gamma, Q, dQ/dq, dQ/dv, energies, points) and render the C templates.
-- Layer: generator back end; called by main.lua (front end) as emit.generate(M, opts).

local sym = require("sym")
local elements = require("elements")

local emit = {}

local ctext = require("ctext")
local uerr, fill, load_template = ctext.uerr, ctext.fill, ctext.load_template
local cstring, rows, options_text = ctext.cstring, ctext.rows, ctext.options_text
emit.fill = fill

------------------------------------------------------------------ derivation

-- Per-coordinate constant data in coordinate order: names, mass diagonal, guesses q0, initial
-- velocities v0 and the assembly flags (locked, v_given as 0/1).
-- body_q[i] (1-based i, nbody + 1 entries): the 0-based index of body i's first coordinate, nq
-- at the end; a body has 3 coordinates (x, y, phi), a particle 2 (x, y).
local function coordinate_data(M)
    local C = { names = {}, body_names = {}, mass = {}, q0 = {}, v0 = {}, locked = {}, v_given = {},
                body_q = {}, particles = false }
    local lock, vel = M.lock or {}, M.velocity or {}
    local k = 0
    for i, b in ipairs(M.bodies) do
        C.body_names[i] = b.name
        C.body_q[i] = k
        if b.particle then C.particles = true end
        local guess = { b.x or 0, b.y or 0, b.angle or 0 }
        local vel0 = { b.vx or 0, b.vy or 0, b.omega or 0 }
        local J = { b.mass, b.mass, b.inertia }
        for j, suffix in ipairs(b.particle and { "x", "y" } or { "x", "y", "phi" }) do
            k = k + 1
            C.names[k] = b.name .. "." .. suffix
            C.mass[k], C.q0[k] = J[j], guess[j]
            C.v0[k] = vel[k] ~= nil and vel[k] or vel0[j]
            C.locked[k] = lock[k] and 1 or 0
            C.v_given[k] = vel[k] ~= nil and 1 or 0
        end
    end
    C.body_q[#M.bodies + 1] = k
    return C
end

-- Build every expression of the model. Returns a table d with lists of expressions.
local function derive(M)
    local nb = #M.bodies
    local C = coordinate_data(M)
    local nq = C.body_q[nb + 1]
    local coord_body = {}             -- coordinate index (1-based) -> its body
    for i = 1, nb do
        for k = C.body_q[i] + 1, C.body_q[i + 1] do coord_body[k] = M.bodies[i] end
    end
    local q, v = {}, {}
    for k = 1, nq do
        q[k] = sym.var("q[" .. (k - 1) .. "]")
        v[k] = sym.var("v[" .. (k - 1) .. "]")
    end
    local t = sym.var("t")
    local qidx, vidx = {}, {}       -- variable id -> coordinate index
    for k = 1, nq do qidx[q[k].id], vidx[v[k].id] = k, k end
    -- Sorted coordinate indices k such that e depends on q_k (index = qidx) or v_k (vidx):
    -- iterating the dependency set instead of all nq coordinates keeps large models linear.
    local function ks(e, index)
        local list = {}
        for id in pairs(sym.vars(e)) do     -- order fixed by the sort below
            local k = index[id]
            if k then list[#list + 1] = k end
        end
        table.sort(list)
        return list
    end

    local ctx = { q = q, v = v, t = t, name = M.name }
    function ctx.coords(i)
        if i == 0 then return nil end
        local b0 = C.body_q[i]
        if M.bodies[i].particle then return { b0 + 1, b0 + 2 } end
        return { b0 + 1, b0 + 2, b0 + 3 }
    end
    function ctx.angle(i)
        if i == 0 then return sym.num(0) end
        if M.bodies[i].particle then error("particle '" .. M.bodies[i].name .. "' has no angle", 0) end
        return q[C.body_q[i] + 3]
    end
    local poscache = {}
    -- a point coordinate is a number or (tunable) a sym node in the par[i]
    local function pkey(x) return sym.is(x) and ("#" .. x.id) or sym.literal(x) end
    function ctx.pos(ref)
        local sx, sy = ref.s[1], ref.s[2]
        if ref.body == 0 then return sym.lift(sx), sym.lift(sy) end
        local key = ref.body .. ":" .. pkey(sx) .. ":" .. pkey(sy)
        local p = poscache[key]
        if not p then
            local i, b0 = ref.body, C.body_q[ref.body]
            if M.bodies[i].particle then
                p = { q[b0 + 1], q[b0 + 2] }      -- the point is the particle itself
            else
                local c, s = sym.cos(q[b0 + 3]), sym.sin(q[b0 + 3])
                p = { q[b0 + 1] + (c * sx - s * sy), q[b0 + 2] + (s * sx + c * sy) }
            end
            poscache[key] = p
        end
        return p[1], p[2]
    end
    function ctx.rate(e)
        local r = sym.d(e, t)
        for _, k in ipairs(ks(e, qidx)) do r = r + sym.d(e, q[k]) * v[k] end
        return r
    end
    function ctx.tf(f, el)
        if type(f) == "number" then return sym.num(f) end
        if sym.is(f) then return f end
        local ok, r = pcall(f, t)
        if not ok then
            -- a measure's own error (a reaction whose equation was removed) is already placed
            if type(r) == "string" and r:find(": error: ", 1, true) then error(r, 0) end
            uerr(M, el.line, "in the time function of '" .. el.name .. "': " .. tostring(r))
        end
        if type(r) == "number" or sym.is(r) then
            local ok2, n = pcall(sym.lift, r)
            if not ok2 then uerr(M, el.line, "time function of '" .. el.name .. "': " .. n) end
            return n
        end
        uerr(M, el.line, "time function of '" .. el.name .. "' returned a " .. type(r))
    end

    -- measures of the state in loads and sensors (model.lua: pos, vel, angle, rate, length,
    -- lengthrate) as expressions of q and v; a point given by tunables keeps its par[i]
    local model = require("model")
    local mcache = {}
    local lamrow = {}   -- constraint row name -> its multiplier lam[r] (filled below)
    local function measure(n)
        local key = n.kind .. ":" .. n.ref .. ":" .. tostring(n.comp)
        local r = mcache[key]
        if r then return r end
        if n.kind == "reaction" then
            local lv = lamrow[n.row]
            if not lv then
                uerr(M, n.line, (n.sensor and ('sensor "' .. n.sensor .. '": ') or "") .. 'reaction("'
                     .. n.ref .. '").' .. n.comp .. ': its equation ' .. n.row
                     .. ' was removed as redundant (mbgen --redundant): its reaction is not defined')
            end
            r = n.sign * lv
        elseif n.kind == "pos" or n.kind == "vel" then
            local X, Y = ctx.pos(model.param_view(n.point, "sym"))
            r = n.comp == "x" and X or Y
            if n.kind == "vel" then r = ctx.rate(r) end
        elseif n.kind == "gap" or n.kind == "normal" or n.kind == "friction" or n.kind == "slip" then
            r = elements.contact_terms(M.elements[n.contact], ctx)[n.kind]
        elseif n.kind == "angle" or n.kind == "rate" then
            r = sym.lift(ctx.angle(n.b)) - ctx.angle(n.a)
            if n.kind == "rate" then r = ctx.rate(r) end
        else
            local xa, ya = ctx.pos(model.param_view(n.pa, "sym"))
            local xb, yb = ctx.pos(model.param_view(n.pb, "sym"))
            r = sym.hypot(xb - xa, yb - ya)
            if n.kind == "lengthrate" then r = ctx.rate(r) end
        end
        mcache[key] = r
        return r
    end
    model.set_measure_resolver(measure)

    -- element contributions in declaration order
    local phi, phinames, phiwho = {}, {}, {}
    local Vterms, qnc, Vwho = {}, {}, {}
    local function who(x)
        if x.kind then return x.kind .. ' "' .. x.name .. '"' end
        return (x.particle and 'particle "' or 'body "') .. x.name .. '"'
    end
    for k = 1, nq do qnc[k] = sym.num(0) end
    local springs, revolutes = {}, {}
    for _, el in ipairs(M.elements) do
        ctext.at(el.line, who(el))
        local f = elements[el.kind]
        if not f then uerr(M, el.line, "unknown element kind '" .. tostring(el.kind) .. "'") end
        local ok, c = pcall(f, el, ctx)
        if not ok then
            if type(c) == "string" and c:find(": error: ", 1, true) then error(c, 0) end
            uerr(M, el.line, "element '" .. el.name .. "': " .. tostring(c))
        end
        for _, p in ipairs(c.phi or {}) do
          -- M.drop: equations mbgen --redundant remove leaves out (generator/redundant.lua)
          if not (M.drop and M.drop[p.name]) then
            phi[#phi + 1] = p.e
            phinames[#phinames + 1] = p.name
            phiwho[#phi] = el
          end
        end
        if c.V then Vterms[#Vterms + 1], Vwho[#Vterms + 1] = c.V, el end
        for _, f2 in ipairs(c.qnc or {}) do qnc[f2.k] = qnc[f2.k] + f2.e end
        if el.kind == "spring" then springs[#springs + 1] = el end
        if el.kind == "revolute" then revolutes[#revolutes + 1] = el end
    end
    local g = M.gravity or { 0, -9.81 }
    for i, b in ipairs(M.bodies) do
        ctext.at(b.line, who(b))
        Vterms[#Vterms + 1], Vwho[#Vterms + 1] = elements.gravity(b, i, g, ctx), b
    end

    -- Q = -dV/dq + Q_nc, each potential differentiated only where it depends on q_k
    local Q = {}
    for k = 1, nq do Q[k] = sym.num(0) end
    local Vtot = sym.num(0)
    local Pnc, T = sym.num(0), sym.num(0)
    for iv, V in ipairs(Vterms) do
        ctext.at(Vwho[iv].line, who(Vwho[iv]))
        Vtot = Vtot + V
        for _, k in ipairs(ks(V, qidx)) do Q[k] = Q[k] - sym.d(V, q[k]) end
        -- a potential that moves in time (a spring's l0 following an input) puts in dV/dt
        Pnc = Pnc + sym.d(V, t)
    end
    for k = 1, nq do
        local b = coord_body[k]
        ctext.at(b.line, "the forces on " .. who(b))
        Q[k] = Q[k] + qnc[k]
        Pnc = Pnc + qnc[k] * v[k]
    end
    for k = 1, nq do
        T = T + 0.5 * C.mass[k] * (v[k] * v[k])
    end

    -- Phi_q (sparse), Phi_t, d(Phi_q)/dt, Gamma
    local nc = #phi
    local phiq, phiq_dot = {}, {}
    local phit, gamma = {}, {}
    for i = 1, nc do
        ctext.at(phiwho[i].line, who(phiwho[i]))
        local w = sym.num(0)         -- Phi_q v for row i
        for _, k in ipairs(ks(phi[i], qidx)) do
            local e = sym.d(phi[i], q[k])
            if not sym.iszero(e) then
                phiq[#phiq + 1] = { r = i - 1, c = k - 1, e = e }
                phiq_dot[#phiq_dot + 1] = { r = i - 1, c = k - 1, e = ctx.rate(e) }
                w = w + e * v[k]
            end
        end
        phit[i] = sym.d(phi[i], t)
        local wq = sym.num(0)
        for _, k in ipairs(ks(w, qidx)) do wq = wq + sym.d(w, q[k]) * v[k] end
        gamma[i] = -wq - 2 * sym.d(w, t) - sym.d(phit[i], t)
    end

    -- dQ/dq, dQ/dv (sparse)
    local dqdq, dqdv = {}, {}
    for k = 1, nq do
        local b = coord_body[k]
        ctext.at(b.line, "the forces on " .. who(b))
        for _, j in ipairs(ks(Q[k], qidx)) do
            local e = sym.d(Q[k], q[j])
            if not sym.iszero(e) then dqdq[#dqdq + 1] = { r = k - 1, c = j - 1, e = e } end
        end
        for _, j in ipairs(ks(Q[k], vidx)) do
            local e = sym.d(Q[k], v[j])
            if not sym.iszero(e) then dqdv[#dqdv + 1] = { r = k - 1, c = j - 1, e = e } end
        end
    end

    -- named points: bodies' points by name, then ground points by name
    local points, pindex = {}, {}
    local function byname(a, b) return a.name < b.name end
    for i, b in ipairs(M.bodies) do
        local ps = {}
        for _, p in ipairs(b.points or {}) do ps[#ps + 1] = p end
        table.sort(ps, byname)
        for _, p in ipairs(ps) do
            points[#points + 1] = { name = b.name .. "." .. p.name, body = i, s = { p.x, p.y } }
            pindex[i .. "." .. p.name] = #points - 1
        end
    end
    local gps = {}
    for _, p in ipairs(M.ground_points or {}) do gps[#gps + 1] = p end
    table.sort(gps, byname)
    for _, p in ipairs(gps) do
        points[#points + 1] = { name = "ground." .. p.name, body = 0, s = { p.x, p.y } }
        pindex["0." .. p.name] = #points - 1
    end
    local pointpos = {}
    for _, p in ipairs(points) do
        local X, Y = ctx.pos({ body = p.body, s = p.s })
        pointpos[#pointpos + 1] = X
        pointpos[#pointpos + 1] = Y
    end
    -- rods' ends for drawing: a named point, or -1 - b for particle b (0-based)
    local rod_ends = {}
    for _, el in ipairs(M.elements) do
        if el.kind == "rod" then
            for _, ref in ipairs({ el.a, el.b }) do
                local idx
                if ref.body > 0 and M.bodies[ref.body].particle then idx = -ref.body
                else idx = pindex[ref.body .. "." .. tostring(ref.point)] end
                if not idx then uerr(M, el.line, "rod '" .. el.name .. "': end is not a named point") end
                rod_ends[#rod_ends + 1] = idx
            end
        end
    end
    local spring_points = {}
    for _, el in ipairs(springs) do
        -- drawing only: a particle has no named point, so a spring attached to one is not drawn
        local drawn = not ((el.a.body > 0 and M.bodies[el.a.body].particle) or
                           (el.b.body > 0 and M.bodies[el.b.body].particle))
        for _, ref in ipairs(drawn and { el.a, el.b } or {}) do
            local idx = pindex[ref.body .. "." .. tostring(ref.point)]
            if not idx then uerr(M, el.line, "spring '" .. el.name .. "': end is not a named point") end
            spring_points[#spring_points + 1] = idx
        end
    end
    -- revolute joints by their two named points (for drawing; a joint at an unnamed location is
    -- not drawn)
    local joint_points = {}
    for _, el in ipairs(revolutes) do
        local ia = pindex[el.a.body .. "." .. tostring(el.a.point)]
        local ib = pindex[el.b.body .. "." .. tostring(el.b.point)]
        if ia and ib then
            joint_points[#joint_points + 1] = ia
            joint_points[#joint_points + 1] = ib
        end
    end

    -- slots, gears and racks for drawing (docs/model-language.md, "Slots, gears and racks").
    -- A number, or nil when a point coordinate or angle is a tunable (not drawn then: 0 radii).
    local function num(x) return type(x) == "number" and x or nil end
    local function pidx(ref) return pindex[ref.body .. "." .. tostring(ref.point)] end
    local slot_ends, slot_axis, gear_centres, gear_radii, rack_points, rack_geom = {}, {}, {}, {}, {}, {}
    local cam_points, cam_roller, cam_profile = {}, {}, {}
    for _, el in ipairs(M.elements) do
        if el.kind == "slot" then
            local ip, iq = pidx(el.a), nil
            if el.b.body > 0 and M.bodies[el.b.body].particle then iq = -el.b.body else iq = pidx(el.b) end
            if not (ip and iq) then uerr(M, el.line, "slot '" .. el.name .. "': end is not a named point") end
            local l = math.sqrt(el.axis[1] ^ 2 + el.axis[2] ^ 2)
            slot_ends[#slot_ends + 1], slot_ends[#slot_ends + 2] = ip, iq
            slot_axis[#slot_axis + 1], slot_axis[#slot_axis + 2] = el.axis[1] / l, el.axis[2] / l
        elseif el.kind == "gear" then
            -- pitch radii from the centre distance d (both axles on the carrier: constant) and
            -- ratio k = r2 / r1: r1 + r2 = d (external), |r2 - r1| = d (internal); 0 where not
            -- defined (coaxial joints, an internal ratio of 1, a tunable point)
            local c1, c2 = el.centres[1], el.centres[2]
            local i1, i2 = pidx(c1), pidx(c2)
            if not (i1 and i2) then uerr(M, el.line, "gear '" .. el.name .. "': a joint's point is not named") end
            local x1, y1, x2, y2 = num(c1.s[1]), num(c1.s[2]), num(c2.s[1]), num(c2.s[2])
            local r1, r2, k = 0, 0, el.ratio
            if x1 and y1 and x2 and y2 then
                local d = math.sqrt((x2 - x1) ^ 2 + (y2 - y1) ^ 2)
                local den = el.internal and math.abs(k - 1) or (1 + k)
                if d > 0 and den > 0 then r1, r2 = d / den, k * d / den end
            end
            gear_centres[#gear_centres + 1], gear_centres[#gear_centres + 2] = i1, i2
            gear_radii[#gear_radii + 1], gear_radii[#gear_radii + 2] = r1, r2
        elseif el.kind == "rack" then
            local ic, ir = pidx(el.centres[1]), pidx(el.rack_point)
            if not (ic and ir) then uerr(M, el.line, "rack '" .. el.name .. "': a joint's point is not named") end
            local a = num(el.frame_axis_angle) or 0
            local l = math.sqrt(el.axis[1] ^ 2 + el.axis[2] ^ 2)
            local ax, ay = el.axis[1] / l, el.axis[2] / l
            rack_points[#rack_points + 1], rack_points[#rack_points + 2] = ic, ir
            rack_geom[#rack_geom + 1] = el.radius
            rack_geom[#rack_geom + 1] = math.cos(a) * ax - math.sin(a) * ay
            rack_geom[#rack_geom + 1] = math.sin(a) * ax + math.cos(a) * ay
        elseif el.kind == "cam" then
            -- the profile as a closed polyline in the cam body's axes about O (generator/cam.lua)
            local io, ip = pidx(el.a), nil
            if el.b.body > 0 and M.bodies[el.b.body].particle then ip = -el.b.body else ip = pidx(el.b) end
            if not (io and ip) then uerr(M, el.line, "cam '" .. el.name .. "': end is not a named point") end
            cam_points[#cam_points + 1], cam_points[#cam_points + 2] = io, ip
            cam_roller[#cam_roller + 1] = el.roller or 0
            for _, v in ipairs(require("cam").polyline(el.profile)) do
                cam_profile[#cam_profile + 1], cam_profile[#cam_profile + 2] = v[1], v[2]
            end
        end
    end
    -- contacts for drawing: C's point (or -1 - b, a particle), P's point; r, kind (0 line, 1 circle,
    -- 2 inside a ring, 3 segment, 4 profile), the line's direction, R, the segment's vector or
    -- (a profile) its entry in the cams' arrays
    local contact_points, contact_geom = {}, {}
    for _, el in ipairs(M.elements) do
        if el.kind == "contact" then
            local ic
            if M.bodies[el.a.body].particle then ic = -el.a.body else ic = pidx(el.a) end
            local ip
            if el.b.body > 0 and M.bodies[el.b.body].particle then ip = -el.b.body else ip = pidx(el.b) end
            if not (ic and ip) then uerr(M, el.line, "contact '" .. el.name .. "': an end is not a named point") end
            contact_points[#contact_points + 1], contact_points[#contact_points + 2] = ic, ip
            local g = contact_geom
            g[#g + 1] = el.radius
            if el.profile then
                -- a profile: drawn with the cams (kind 4, x its entry there, the follower's
                -- circle drawn by the contact: roller 0)
                g[#g + 1], g[#g + 2], g[#g + 3] = 4, #cam_points // 2, 0
                cam_points[#cam_points + 1], cam_points[#cam_points + 2] = ip, ic
                cam_roller[#cam_roller + 1] = 0
                for _, v in ipairs(require("cam").polyline(el.profile)) do
                    cam_profile[#cam_profile + 1], cam_profile[#cam_profile + 2] = v[1], v[2]
                end
            elseif el.dir then
                g[#g + 1], g[#g + 2], g[#g + 3] = 0, el.dir[1], el.dir[2]
            elseif el.seg then
                g[#g + 1], g[#g + 2], g[#g + 3] = 3, el.seg[1], el.seg[2]
            else
                g[#g + 1], g[#g + 2], g[#g + 3] = el.inside and 2 or 1, el.circle, 0
            end
        end
    end

    -- sensors (model.lua: sensor "y" { value = ... }): y, dy/dq and dy/dv (dense, row-major);
    -- a reaction reads the multiplier lam[r] of its row (mb_model.lam, interface 13)
    local lamv = {}
    for r, nm in ipairs(phinames) do
        lamv[r] = sym.var("lam[" .. (r - 1) .. "]")
        lamrow[nm] = lamv[r]
    end
    local ys, dydq, dydv = {}, {}, {}
    for i, sn in ipairs(M.sensors or {}) do
        ctext.at(sn.line, 'sensor "' .. sn.name .. '"')
        local y = ctx.tf(sn.value, sn)
        ys[i] = y
        for k = 1, nq do
            dydq[(i - 1) * nq + k] = sym.d(y, q[k])
            dydv[(i - 1) * nq + k] = sym.d(y, v[k])
        end
    end
    model.set_measure_resolver(nil)
    local dydlam, uses_lam = {}, false
    for i, y in ipairs(ys) do
        for r = 1, nc do
            local e = sym.d(y, lamv[r])
            dydlam[(i - 1) * nc + r] = e
            if not sym.iszero(e) then uses_lam = true end
        end
    end

    return {
        ys = ys, dydq = dydq, dydv = dydv, dydlam = uses_lam and dydlam or nil,
        nq = nq, nc = nc, nb = nb, phi = phi, phinames = phinames, phiq = phiq,
        phiq_dot = phiq_dot, phit = phit, gamma = gamma, Q = Q, dqdq = dqdq, dqdv = dqdv,
        energy = { T, Vtot, Pnc }, points = points, pointpos = pointpos,
        spring_points = spring_points, joint_points = joint_points, rod_ends = rod_ends, coords = C,
        slot_ends = slot_ends, slot_axis = slot_axis, gear_centres = gear_centres,
        gear_radii = gear_radii, rack_points = rack_points, rack_geom = rack_geom,
        contact_points = contact_points, contact_geom = contact_geom,
        cam_points = cam_points, cam_roller = cam_roller, cam_profile = cam_profile,
    }
end

------------------------------------------------------------------ rendering

local function dense(list)
    local outs = {}
    for i, e in ipairs(list) do outs[i] = { lhs = "out[" .. (i - 1) .. "]", e = e } end
    return outs
end

-- A block the interface gives dense (row-major; runtime/mb_model.h: dy/dq, dy/dv, dy/du, dQ/du,
-- dy/dlambda): arr[k - 1] = es[k]. Returns the statements that clear it (none or one) and the
-- assignments left for sym.emit. A block with at least emit.ZERO_LOOP_MIN structural zeros, and
-- no more nonzeros than zeros, is cleared by one loop and only its nonzero entries follow (1100
-- sensors and 30 inputs: dy/du's 33000 zeros were 33000 assignments); otherwise each zero is an
-- assignment, which is faster on small blocks (gcc -O2 turns the loop into memset or rep stos:
-- 10-12 ns on x86-64 where up to ~200 explicit zeros take 2-17 ns) and at most doubles a block
-- whose nonzeros dominate. Every entry is written either way, with the same value: sym.num
-- interns one zero, +0.0, printed MB_R(0.0) as the loop writes it; the nonzero entries keep
-- their expressions and order.
local function dense_block(arr, es, indent)
    local nz = 0
    for _, e in ipairs(es) do if sym.iszero(e) then nz = nz + 1 end end
    local loop = nz >= emit.ZERO_LOOP_MIN and 2 * nz >= #es
    local outs = {}
    for k, e in ipairs(es) do
        if not (loop and sym.iszero(e)) then outs[#outs + 1] = { lhs = arr .. "[" .. (k - 1) .. "]", e = e } end
    end
    if not loop then return {}, outs end
    return { indent .. "for (int i = 0; i < " .. #es .. "; i++) " .. arr .. "[i] = MB_R(0.0);" }, outs
end

local function sparse(list)
    local outs = {}
    for i, ent in ipairs(list) do outs[i] = { lhs = "out[" .. (i - 1) .. "]", e = ent.e } end
    return outs
end

-- The header's index macros: <U>_Q_<BODY>_X/_Y/_PHI (coordinate k of q and v), <U>_BODY_<BODY>,
-- <U>_POINT_<POINT> (point i of the points output, x at 2 i, y at 2 i + 1; ground points as
-- GROUND_<P>) and <U>_PHI_<CONSTRAINT> (row of Phi), all 0-based. Names are upper-cased and
-- every character outside [A-Za-z0-9_] becomes '_'; a macro that would repeat an earlier one
-- (or a fixed macro of the header, e.g. <U>_PHI_Q_NNZ) gets "_<its index>" appended, then
-- "_2", "_3", ... until it is new. Returns the text and the macros in emission order.
local FIXED_MACROS = { "H", "NQ", "NC", "NBODY", "NPOINT", "PHI_Q_NNZ", "DQ_DQ_NNZ", "DQ_DV_NNZ",
                       "S_NL", "A_NL", "MBGEN_VERSION", "MODEL_INTERFACE", "NPAR", "MASS_TUNABLE",
                       "NIN", "NOUT", "OUT_REACTIONS" }
local function index_macros(uname, D)
    local taken, out, list = {}, {}, {}
    for _, f in ipairs(FIXED_MACROS) do taken[uname .. "_" .. f] = true end
    local function add(kind, name, idx)
        local id = uname .. "_" .. kind .. "_" .. name:gsub("[^A-Za-z0-9_]", "_"):upper()
        if taken[id] then
            local base, n = id .. "_" .. idx, 2
            id = base
            while taken[id] do id = base .. "_" .. n; n = n + 1 end
        end
        taken[id] = true
        list[#list + 1] = id
        out[#out + 1] = "#define " .. id .. " " .. idx
    end
    out[#out + 1] = "/* Coordinates: indices into q and v. */"
    for k, n in ipairs(D.coords.names) do add("Q", n, k - 1) end
    out[#out + 1] = "/* Moving bodies: indices into mb_model_info.body_names. */"
    for i, n in ipairs(D.coords.body_names) do add("BODY", n, i - 1) end
    out[#out + 1] = "/* Named points: indices into the points output (x at 2 i, y at 2 i + 1) and point_names. */"
    for i, p in ipairs(D.points) do add("POINT", p.name, i - 1) end
    out[#out + 1] = "/* Constraint equations: rows of Phi (and of Phi_q), indices into constraint_names. */"
    for i, n in ipairs(D.phinames) do add("PHI", n, i - 1) end
    return table.concat(out, "\n"), list
end
emit.index_macros = index_macros

-- The model's run settings (model.lua: simulate { ... }, M.simulate): the data of
-- mb_model.preset (runtime/mb_model.h: mb_preset, in double; not given: t_end, h 0, alpha, xi,
-- omega, tol -1, max_iter 0) and the header's macros <U>_SIM_T_END, <U>_SIM_H,
-- <U>_SIM_<FORMULATION>_<PARAM> and <U>_SIM_<FORMULATION>_FLOAT_<PARAM> (the given ones only,
-- as MB_R(...) constants; max_iter an integer) for firmware. Numbers only through sym.literal.
-- Returns data text (or nil), the descriptor's value, the macro text.
local SIM_KEYS = { "alpha", "xi", "omega", "tol", "max_iter" }
local function preset(name, uname, sim)
    local none = "/* (the model file has no simulate { ... }: the tools use mb_params_default) */"
    if not sim then return nil, "0", none end
    local function lit(x) return sym.literal(x) end
    local macros = { "/* Run settings: the model file's simulate { ... } (also mb_model.preset): defaults of the\n"
        .. " * tools and of the firmware example (scripts/mcu/fw_params.sh); _FLOAT_: single precision. */" }
    local function mac(id, v)
        local text = math.type(v) == "integer" and tostring(v) or sym.cnum(v)
        macros[#macros + 1] = "#define " .. uname .. "_SIM_" .. id .. " " .. text
    end
    if sim.t_end then mac("T_END", sim.t_end) end
    if sim.h then mac("H", sim.h) end
    local rows = {}
    for i, f in ipairs(sim.forms) do
        local fu = f.name:upper():gsub("-", "_")
        local r = {}
        for _, k in ipairs(SIM_KEYS) do
            local v = f.params[k]
            if k == "max_iter" then r[#r + 1] = tostring(v or 0)
            else r[#r + 1] = v and lit(v) or "-1.0" end
            if v then mac(fu .. "_" .. k:upper(), v) end
        end
        for _, k in ipairs(SIM_KEYS) do
            if f.float[k] then mac(fu .. "_FLOAT_" .. k:upper(), f.float[k]) end
        end
        rows[i] = "        /* " .. f.name .. " */ { " .. table.concat(r, ", ") .. " }"
    end
    local data = "/* Run settings: the model file's simulate { ... } (runtime/mb_model.h: mb_preset); tools\n"
        .. " * only, left out with MB_OMIT_POINTS. */\n#if !MB_OMIT_POINTS\n"
        .. "static const mb_preset " .. name .. "_preset = {\n    " .. lit(sim.t_end or 0) .. ", "
        .. lit(sim.h or 0) .. ",\n    {\n" .. table.concat(rows, ",\n") .. "\n    }\n};\n#endif"
    return data, "&" .. name .. "_preset", table.concat(macros, "\n")
end

-- The version and interface written into the files: digits and dots only (they land in a C
-- string and an #if), else a generator bug.
local function checked_version(opts)
    local v, iface = opts.version or "?", opts.model_interface
    if not tostring(v):find("^%d+%.%d+%.%d+$") then error("emit.generate: bad version " .. tostring(v), 0) end
    if math.type(iface) ~= "integer" or iface < 1 then
        error("emit.generate: opts.model_interface missing or not a positive integer", 0)
    end
    return v, iface
end

-- Contract: emit.generate(M, opts) -> files, stats.
--   opts = { version = "0.1.0", model_interface = 1 (MB_MODEL_INTERFACE of runtime/mb_version.h),
--            options = { "-D N=10", "--name x" } (or options_text = "..."),
--            template_dir = optional dir, templates = optional { [file] = text } }
--   files = { { name = "<name>.h", content = ... }, { name = "<name>.c", content = ... },
--             { name = "<name>_data.c", content = ... } (emit_data.lua: the generic evaluator's) }
--   stats = { { fn = "phi", lines = n, ops = { add=, mul=, div=, call= }, total = n }, ... }
--           one row per generated function in emission order (lines: statements emitted).
-- Raises "file:line: error: msg" for model errors found while deriving (e.g. a bad time function).
function emit.generate(M, opts)
    opts = opts or {}
    local name = M.name
    local version, iface = checked_version(opts)
    -- tunables (docs/model-language.md): the equations see them as the variables par[i] (never
    -- folded, so no pattern depends on their values); the generic evaluator's data and the
    -- descriptor's default mass see their defaults
    local model = require("model")
    local Mnum = model.param_view(M, "num")
    M = model.param_view(M, "sym")
    local npar = #(M.tunables or {})
    local D = ctext.numeric(M, derive, M)
    local uname = name:upper()

    local stats = {}
    local fnt = load_template(opts, "function.c.in")
    local functions, protos = {}, {}
    -- a spline profile's pieces and a roller cam's contact angle: static helpers the
    -- equations call (cam.lua: spline_c, contact_c)
    for _, el in ipairs(M.elements) do
        local what = el.kind .. ' "' .. el.name .. '"'
        if (el.kind == "cam" or el.kind == "contact") and el.profile and el.profile.kind == "spline" then
            functions[#functions + 1] = require("cam").spline_c(el.profile, what)
        end
        if el.contact_spec then
            functions[#functions + 1] = require("cam").contact_c(el.profile, el.contact_spec, what,
                                                                 el.roller or el.radius)
        end
    end
    -- restrict: mb_model.h promises outputs never alias inputs; without it the compiler must
    -- reload q and v after every store to out (slow code, and slow compiles for large models)
    local PQ = "const mb_model *m, mb_real t, const mb_real *restrict q, mb_real *restrict out"
    local PQV = "const mb_model *m, mb_real t, const mb_real *restrict q, const mb_real *restrict v,\n"
                .. "    mb_real *restrict out"
    local OMITTABLE = { gamma = true, points = true }
    -- The body of function id: its statements, or calls of its parts when there are more than
    -- emit.PART_LINES of them. gcc -O2 compiles a long straight-line body in time superlinear
    -- in its length (chain N = 1000, 4 MB of C: 116 s, against 3 s for N = 100), so a long body
    -- becomes functions of at most PART_LINES statements each, called in order; a temporary
    -- used by a later part travels in the caller's array x (its own slot). The parts have
    -- external linkage so that gcc does not inline them back into one body. pnames: the
    -- parameter names, params: their declarations (one string).
    -- generated functions read the tunables from the descriptor (mb_sim's copy: mb_sim_set_param)
    local PAR = npar > 0 and "    const mb_real *restrict par = m->par;\n    (void)par;\n" or ""
    -- inputs (model.lua: input "u"): their holds [value, slope, t_set] read from m->in
    -- (runtime/mb_input.c); nothing for a model without inputs
    local nin, nout = #(M.inputs or {}), #(M.sensors or {})
    if nin > 0 then PAR = PAR .. "    const mb_real *restrict in = m->in;\n    (void)in;\n" end
    -- reactions in sensors (interface 13): the multipliers read from m->lam
    local LAM = D.dydlam and "    const mb_real *restrict lam = m->lam;\n    (void)lam;\n" or ""
    local function body_of(id, params, pnames, lines, pre)
        pre = pre .. PAR
        local head = "    (void)" .. table.concat(pnames, ";\n    (void)") .. ";\n" .. PAR
        if #lines <= emit.PART_LINES then
            return pre .. (#lines > 0 and table.concat(lines, "\n") .. "\n" or ""), 0
        end
        local np = (#lines + emit.PART_LINES - 1) // emit.PART_LINES
        local part_of, def, slot, nslot = {}, {}, {}, 0
        for i, l in ipairs(lines) do
            part_of[i] = (i - 1) // emit.PART_LINES + 1
            local k = l:match("^%s*const mb_real t(%d+) =")
            if k then def[k] = part_of[i] end
        end
        for i, l in ipairs(lines) do
            for k in l:gmatch("%f[%w_]t(%d+)%f[^%w_]") do
                if def[k] and def[k] < part_of[i] and not slot[k] then slot[k], nslot = nslot, nslot + 1 end
            end
        end
        local parts = {}
        for p = 1, np do parts[p] = {} end
        for i, l in ipairs(lines) do
            local p = part_of[i]
            local text = l:gsub("%f[%w_]t(%d+)%f[^%w_]", function(k)
                if def[k] and def[k] < p then return "x[" .. slot[k] .. "]" end
            end)
            local out = parts[p]
            out[#out + 1] = text
            local k = l:match("^%s*const mb_real t(%d+) =")
            if k and slot[k] then out[#out + 1] = "    x[" .. slot[k] .. "] = t" .. k .. ";" end
        end
        local args = table.concat(pnames, ", ") .. ", x"
        local calls = {}
        for p = 1, np do
            local pname = name .. "_" .. id .. "_part" .. p
            local decl = "void " .. pname .. "(" .. params .. ", mb_real *restrict x)"
            functions[#functions + 1] = "/* Part " .. p .. " of " .. np .. " of " .. name .. "_" .. id
                .. " (see its comment). */\n" .. decl .. ";\n" .. decl .. "\n{\n" .. head
                .. "    (void)x;\n" .. table.concat(parts[p], "\n") .. "\n}\n"
            calls[p] = "    " .. pname .. "(" .. args .. ");"
        end
        return "    mb_real x[" .. math.max(nslot, 1) .. "];   /* temporaries shared by the parts */\n"
               .. table.concat(calls, "\n") .. "\n", np
    end
    -- fn's statements: pre (a dense block's clearing loop: dense_block) before the outputs'
    local function fn(id, withv, comment, outs, pre)
        local lines, ops = sym.emit(outs)
        if pre then table.move(lines, 1, #lines, #pre + 1, pre); lines = pre end
        local unused = withv and "    (void)m;\n    (void)t;\n    (void)q;\n    (void)v;\n"
                                or "    (void)m;\n    (void)t;\n    (void)q;\n"
        if #lines == 0 then unused = unused .. "    (void)out;\n" end  -- nothing to write
        local pnames = withv and { "m", "t", "q", "v", "out" } or { "m", "t", "q", "out" }
        local body = body_of(id, withv and PQV or PQ, pnames, lines, unused)
        local text = fill(fnt, {
            COMMENT = comment, NAME = name, FN = id, PARAMS = withv and PQV or PQ, BODY = body,
        }, "function.c.in")
        -- what a firmware may leave out (-DMB_OMIT_GAMMA, -DMB_OMIT_POINTS: docs/embedding.md)
        if OMITTABLE[id] then
            text = "#if !MB_OMIT_" .. id:upper() .. "\n" .. text .. "#endif\n"
        elseif id == "power" then
            text = "#if MB_WITH_STAGE_POWER\n" .. text .. "#endif\n"
        end
        functions[#functions + 1] = text
        protos[#protos + 1] = "void " .. name .. "_" .. id .. "(" .. (withv and PQV or PQ) .. ");"
        stats[#stats + 1] = { fn = id, lines = #lines, ops = ops,
                              total = ops.add + ops.mul + ops.div + ops.call }
    end
    fn("phi", false, "Phi(t, q): constraint residuals [" .. D.nc .. "].", dense(D.phi))
    fn("phi_q", false, "Phi_q values in the order of phi_q_pat [" .. #D.phiq .. "].", sparse(D.phiq))
    fn("phi_t", false, "dPhi/dt at fixed q [" .. D.nc .. "].", dense(D.phit))
    fn("phi_q_dot", true, "d(Phi_q)/dt = (Phi_q)_q v + Phi_qt on phi_q_pat [" .. #D.phiq .. "].",
       sparse(D.phiq_dot))
    fn("gamma", true, "Gamma = -(Phi_q v)_q v - 2 Phi_qt v - Phi_tt [" .. D.nc .. "].", dense(D.gamma))
    fn("force", true, "Generalized forces Q = -dV/dq + Q_nc [" .. D.nq .. "].", dense(D.Q))
    fn("dforce_dq", true, "dQ/dq values in the order of dq_dq_pat [" .. #D.dqdq .. "].", sparse(D.dqdq))
    fn("dforce_dv", true, "dQ/dv values in the order of dq_dv_pat [" .. #D.dqdv .. "].", sparse(D.dqdv))
    fn("energy", true, "Energies [3]: kinetic T, potential V, power of non-conservative loads.",
       dense(D.energy))
    -- energy's third value alone, the same expression (so the same bits): the adaptive Runge-Kutta
    -- integrators' power at every stage, where T and V (a spring's hypot, its sines) are not
    -- needed; compiled where the runtime calls it (runtime/mb_config.h: MB_WITH_STAGE_POWER)
    fn("power", true, "Power of the non-conservative loads P_nc [1] (energy's third value).",
       dense({ D.energy[3] }))
    fn("points", false, "Global positions of the named points [2 * " .. #D.points .. "] (x, y).",
       dense(D.pointpos))
    -- the switches of step{} and heaviside() in the loads and drivers (interface 14; runtime
    -- mb_event.c stops the integrators at them): every step(x) of Q and Phi whose x depends on
    -- time alone (tunables and inputs included), as g = -x, > 0 before the switch and <= 0 from
    -- it on (heaviside(x) is 1 for x >= 0). Found in the expression DAG in a fixed order (a before
    -- b, the lists in order), each argument once (hash-consing). None: no function, nothing in
    -- the descriptor.
    local SWITCHES, nswitch = "0", 0
    do
        local allowed = { [sym.var("t").id] = true }
        for i = 1, npar do allowed[sym.var("par[" .. (i - 1) .. "]").id] = true end
        for i = 1, 3 * nin do allowed[sym.var("in[" .. (i - 1) .. "]").id] = true end
        local function time_only(e)
            for id in pairs(sym.vars(e)) do if not allowed[id] then return false end end
            return true
        end
        local seen, args, outs = {}, {}, {}
        local function walk(e)
            if not sym.is(e) or seen[e] then return end
            seen[e] = true
            if e.op == "step" and time_only(e.a) and not args[e.a] then
                args[e.a] = true
                outs[#outs + 1] = { lhs = "out[" .. #outs .. "]", e = -e.a }
            end
            if e.a then walk(e.a) end
            if e.b then walk(e.b) end
        end
        for _, e in ipairs(D.Q) do walk(e) end
        for _, e in ipairs(D.phi) do walk(e) end
        nswitch = #outs
        if nswitch > 0 then
            fn("switches", false, "The switches of step{} and heaviside() [" .. nswitch .. "]: > 0 "
               .. "before, <= 0 from the switch on; of time only (q is not read).", outs)
            SWITCHES = name .. "_switches"
        end
    end
    -- sensors: y and (when both pointers are given) dy/dq, dy/dv dense row-major [nout x nq]
    local OUTPUTS = "0"
    if nout > 0 then
        local yo, jo = {}, {}
        for i, y in ipairs(D.ys) do
            yo[i] = { lhs = "y[" .. (i - 1) .. "]", e = y }
            jo[i] = yo[i]
        end
        local zq, oq = dense_block("dy_dq", D.dydq, "        ")
        local zv, ov = dense_block("dy_dv", D.dydv, "        ")
        table.move(oq, 1, #oq, #jo + 1, jo)
        table.move(ov, 1, #ov, #jo + 1, jo)
        local l1 = sym.emit(yo, { indent = "        " })
        local l2, ops = sym.emit(jo, { indent = "        " })
        table.move(zv, 1, #zv, #zq + 1, zq)
        if #zq > 0 then table.move(l2, 1, #l2, #zq + 1, zq); l2 = zq end
        local ps = "const mb_model *m, mb_real t, const mb_real *restrict q, const mb_real *restrict v,\n"
                   .. "    mb_real *restrict y, mb_real *restrict dy_dq, mb_real *restrict dy_dv"
        functions[#functions + 1] = "/* Sensors y [" .. nout .. "] and, when dy_dq and dy_dv are both "
            .. "given, dy/dq and dy/dv [" .. nout .. " x " .. D.nq .. "] row-major. */\n"
            .. "void " .. name .. "_outputs(" .. ps .. ")\n{\n    (void)m;\n    (void)t;\n    (void)q;\n    (void)v;\n"
            .. PAR .. LAM .. "    if (!dy_dq || !dy_dv) {\n" .. table.concat(l1, "\n") .. "\n    } else {\n"
            .. table.concat(l2, "\n") .. "\n    }\n}\n"
        protos[#protos + 1] = "void " .. name .. "_outputs(" .. ps .. ");"
        stats[#stats + 1] = { fn = "outputs", lines = #l2, ops = ops,
                              total = ops.add + ops.mul + ops.div + ops.call }
        OUTPUTS = name .. "_outputs"
    end

    -- reactions in sensors (interface 13): dy/dlambda [nout x nc] dense row-major
    local DOUTPUTS_DLAM = "0"
    if nout > 0 and D.dydlam then
        local pre, outs = dense_block("out", D.dydlam, "    ")
        local l, ops = sym.emit(outs, { indent = "    " })
        if #pre > 0 then table.move(l, 1, #l, #pre + 1, pre); l = pre end
        local ps = "const mb_model *m, mb_real t, const mb_real *restrict q, const mb_real *restrict v,\n"
                   .. "    mb_real *restrict out"
        functions[#functions + 1] = "/* dy/dlambda [" .. nout .. " x " .. D.nc .. "] row-major: the "
            .. "sensors' dependence on the multipliers (reactions). */\n"
            .. "void " .. name .. "_doutputs_dlam(" .. ps .. ")\n{\n    (void)m;\n    (void)t;\n    (void)q;\n    (void)v;\n"
            .. PAR .. LAM .. table.concat(l, "\n") .. "\n}\n"
        protos[#protos + 1] = "void " .. name .. "_doutputs_dlam(" .. ps .. ");"
        stats[#stats + 1] = { fn = "doutputs_dlam", lines = #l, ops = ops,
                              total = ops.add + ops.mul + ops.div + ops.call }
        DOUTPUTS_DLAM = name .. "_doutputs_dlam"
    end

    -- inputs (interface 9): dQ/du [nq x nin] and, with sensors, dy/du [nout x nin], dense
    -- row-major, for the linearization (docs/analyses.md). Input i reads in[3i] + in[3i+1]
    -- (t - in[3i+2]) (model.lua: input_sym), so d/du_i is d/d in[3i]. Nothing for a model
    -- without inputs: its per-step code is unchanged.
    local DFORCE_DU, DOUTPUTS_DU = "0", "0"
    if nin > 0 then
        local uv = {}
        for i = 1, nin do uv[i] = sym.var("in[" .. (3 * (i - 1)) .. "]") end
        local function jac(list, nrow)
            local es = {}
            for r = 1, nrow do
                for i = 1, nin do es[#es + 1] = sym.d(list[r], uv[i]) end
            end
            local pre, outs = dense_block("out", es, "    ")
            return outs, pre
        end
        fn("dforce_du", true, "dQ/du [" .. D.nq .. " x " .. nin .. "] row-major: the inputs' generalized forces.",
           jac(D.Q, D.nq))
        DFORCE_DU = name .. "_dforce_du"
        if nout > 0 then
            fn("doutputs_du", true, "dy/du [" .. nout .. " x " .. nin .. "] row-major: the sensors' direct dependence on the inputs.",
               jac(D.ys, nout))
            DOUTPUTS_DU = name .. "_doutputs_du"
        end
    end

    -- The plan (generator/mb_plan_build.c through host.plan) and the linear algebra's form, here
    -- because the form decides the fused evaluations' default below.
    local function pat(list)
        local r, c = {}, {}
        for i, ent in ipairs(list) do r[i], c[i] = ent.r, ent.c end
        return r, c
    end
    local plan_P, plan_form, s_form, a_form
    if opts.plan then
        local r1, c1 = pat(D.phiq)
        local r2, c2 = pat(D.dqdq)
        local r3, c3 = pat(D.dqdv)
        plan_P = opts.plan(D.nq, D.nc, r1, c1, r2, c2, r3, c3)
        -- the form of each side (docs/linear-systems.md): unrolled straight-line code or compact
        -- index arrays. auto: S's side (its LDL^T, assembly, the products with Phi_q, the fused
        -- kinematics) unrolled up to UNROLL_MAX updates of S, A's side (its LDL^T and LU,
        -- assembly, F4's kernels, the fused dynamics) up to UNROLL_MAX updates of S and A
        -- together: the index-1 formulations' right-hand side, which needs S alone, stays
        -- unrolled on models whose Newton matrix is too large for it (the 100-link chain)
        s_form = opts.linalg or "auto"
        a_form = s_form
        if s_form == "auto" then
            s_form = (plan_P.s.nupd <= emit.UNROLL_MAX) and "unrolled" or "compact"
            a_form = (plan_P.s.nupd + plan_P.a.nupd <= emit.UNROLL_MAX) and "unrolled" or "compact"
        end
        plan_form = s_form == a_form and s_form or "mixed"
    end

    -- Fused evaluations: everything one iteration needs at a state, with common subexpressions
    -- (the angles' sines and cosines above all) shared across the outputs. opts.fused: true
    -- (mbgen --fused), false (--no-fused), nil: with the unrolled form only - with the compact
    -- form (large models) they doubled gcc's time (compact chain N = 1000: 36 s against 16 s of
    -- CPU) for 4-5 % of a step (7.45 M against 7.80 M instructions per alf-trapezoid step).
    local vals_fused = { KIN = "0", DYN = "0", GF = "0", FQD = "0" }
    local want_kin, want_dyn = opts.fused, opts.fused
    if want_kin == nil then want_kin, want_dyn = s_form ~= "compact", a_form ~= "compact" end
    local function fused(id, withv, comment, groups, guard)
        local outs, params, unused = {}, { "const mb_model *m", "mb_real t",
                                           "const mb_real *restrict q" }, { "(void)m;", "(void)t;", "(void)q;" }
        if withv then params[#params + 1] = "const mb_real *restrict v"; unused[#unused + 1] = "(void)v;" end
        for _, g in ipairs(groups) do
            params[#params + 1] = "mb_real *restrict " .. g[1]
            if #g[2] == 0 then unused[#unused + 1] = "(void)" .. g[1] .. ";" end
            for i, o in ipairs(g[2]) do outs[#outs + 1] = { lhs = g[1] .. "[" .. (i - 1) .. "]", e = o.e } end
        end
        params[#params + 1] = "mb_real *restrict trig"
        unused[#unused + 1] = "(void)trig;"
        local lines, ops = sym.emit(outs)
        -- the sines and cosines of coordinates through the caller's cache (runtime/mb_trig.h):
        -- mb_sin_near / mb_cos_near evaluate an angle's pair (or find the one the previous
        -- function kept) and keep it; after a statement that makes such a call unconditionally
        -- (one assignment, no ?:, && or ||), the angle's later sines and cosines in this
        -- function read the kept pair (mb_sin_kept, mb_cos_kept: one series per angle per
        -- call, not one per use). Not within that statement: C leaves the order of its
        -- operands' evaluation open.
        local kept = {}
        for i, l in ipairs(lines) do
            local plain = l:match("^%s*const mb_real t%d+ = [^?&|;]*;$")
                          or l:match("^%s*[%w_]+%[%d+%] = [^?&|;]*;$")
            local seen = {}
            lines[i] = l:gsub("MB_([SC][IO][NS])%(q%[(%d+)%]%)", function(f, k)
                if f ~= "SIN" and f ~= "COS" then return nil end
                seen[#seen + 1] = k
                return "mb_" .. f:lower() .. (kept[k] and "_kept" or "_near") .. "(q[" .. k .. "], trig, " .. k .. ")"
            end)
            if plain then for _, k in ipairs(seen) do kept[k] = true end end
        end
        local ps = table.concat(params, ", ")
        local pnames = {}
        for i, pdecl in ipairs(params) do pnames[i] = pdecl:match("([%w_]+)$") end
        local body = body_of(id, ps, pnames, lines, "    " .. table.concat(unused, "\n    ") .. "\n")
        local text = fill(fnt, {
            COMMENT = comment, NAME = name, FN = id, PARAMS = ps, BODY = body,
        }, "function.c.in")
        -- guard: the condition under which the function is compiled (eval_gamma_force)
        if guard then text = "#if " .. guard .. "\n" .. text .. "#endif\n" end
        functions[#functions + 1] = text
        protos[#protos + 1] = "void " .. name .. "_" .. id .. "(" .. ps .. ");"
        stats[#stats + 1] = { fn = id, lines = #lines, ops = ops,
                              total = ops.add + ops.mul + ops.div + ops.call }
    end
    if want_kin then
        fused("eval_kin", false, "Fused: Phi [" .. D.nc .. "], Phi_t [" .. D.nc .. "], Phi_q ["
              .. #D.phiq .. "].",
              { { "phi", dense(D.phi) }, { "phi_t", dense(D.phit) }, { "phi_q", sparse(D.phiq) } })
        vals_fused.KIN = name .. "_eval_kin"
        -- the rest of baumgarte's right-hand side at the (t, q) of eval_kin, whose sine cache
        -- entries it finds filled; left out with gamma (-DMB_OMIT_GAMMA) and without the cache
        -- (the MB_ONLY_* firmware builds: there it would only cost flash, 2.9 KB on the M4F)
        fused("eval_gamma_force", true, "Fused: Gamma [" .. D.nc .. "], Q [" .. D.nq .. "].",
              { { "gamma", dense(D.gamma) }, { "force", dense(D.Q) } },
              "!MB_OMIT_GAMMA && MB_WITH_TRIG_CACHE")
        vals_fused.GF = name .. "_eval_gamma_force"
        -- the rest of canonical's and alf-explicit's right-hand side, at the (t, q) of eval_kin
        -- and the velocity their solve found (as eval_gamma_force: with the cache only)
        fused("eval_force_phi_q_dot", true, "Fused: Q [" .. D.nq .. "], d(Phi_q)/dt ["
              .. #D.phiq .. "].",
              { { "force", dense(D.Q) }, { "phi_q_dot", sparse(D.phiq_dot) } },
              "MB_WITH_TRIG_CACHE")
        vals_fused.FQD = name .. "_eval_force_phi_q_dot"
    end
    if want_dyn then
        fused("eval_kin_dyn", true, "Fused: Phi [" .. D.nc .. "], Phi_t [" .. D.nc .. "], Phi_q ["
              .. #D.phiq .. "], Q [" .. D.nq .. "], d(Phi_q)/dt [" .. #D.phiq .. "], dQ/dq ["
              .. #D.dqdq .. "], dQ/dv [" .. #D.dqdv .. "].",
              { { "phi", dense(D.phi) }, { "phi_t", dense(D.phit) }, { "phi_q", sparse(D.phiq) },
                { "force", dense(D.Q) }, { "phi_q_dot", sparse(D.phiq_dot) },
                { "dq_dq", sparse(D.dqdq) }, { "dq_dv", sparse(D.dqdv) } })
        vals_fused.DYN = name .. "_eval_kin_dyn"
    end

    -- constant data; empty arrays become null pointers (C99 has no zero-length arrays)
    -- (shared: external linkage, for <name>_data.c, which declares them: emit_data.shared). The
    -- descriptor's arrays come first (desc), the plan's and the rest after (data): the template
    -- lets -DMB_DESCRIPTOR_ONLY compile the first part alone.
    local desc, data, max_index = {}, {}, 0
    local out = desc
    local function array(ctype, id, items, per, fmt, shared)
        if #items == 0 then return "0" end
        if ctype == "mb_index" then
            for _, x in ipairs(items) do if x > max_index then max_index = x end end
        end
        local strs = {}
        for i, x in ipairs(items) do strs[i] = fmt and fmt(x) or tostring(x) end
        out[#out + 1] = (shared and "" or "static ") .. "const " .. ctype .. " " .. name .. "_" .. id
                          .. "[" .. #items .. "] = {\n" .. rows(strs, per) .. "\n};"
        return name .. "_" .. id
    end
    local C = D.coords
    local coord_names, body_names, mass, q0, v0 = C.names, C.body_names, C.mass, C.q0, C.v0
    local locked, vgiven = C.locked, C.v_given
    local point_names, point_body = {}, {}
    for i, p in ipairs(D.points) do
        point_names[i] = p.name
        point_body[i] = p.body - 1
    end
    local vals = {
        NAME = name, VERSION = version, FILE = M.file or "?",
        OPTIONS = options_text(opts),
        NQ = D.nq, NC = D.nc, NBODY = D.nb, NPOINT = #D.points, NSPRING = #D.spring_points // 2,
        PHI_Q_NNZ = #D.phiq, DQ_DQ_NNZ = #D.dqdq, DQ_DV_NNZ = #D.dqdv,
        EVAL_KIN = vals_fused.KIN, EVAL_DYN = vals_fused.DYN, EVAL_GF = vals_fused.GF,
        EVAL_FQD = vals_fused.FQD,
    }
    vals.COORD_NAMES = array("char *const", "coord_names", coord_names, 4, cstring)
    vals.BODY_NAMES = array("char *const", "body_names", body_names, 4, cstring)
    vals.POINT_NAMES = array("char *const", "point_names", point_names, 4, cstring)
    vals.POINT_BODY = array("int", "point_body", point_body, 16, nil, true)
    vals.CONSTRAINT_NAMES = array("char *const", "constraint_names", D.phinames, 4, cstring)
    vals.SPRING_POINTS = array("int", "spring_points", D.spring_points, 16)
    vals.NJOINT = #D.joint_points // 2
    vals.JOINT_POINTS = array("int", "joint_points", D.joint_points, 16)
    vals.NROD = #D.rod_ends // 2
    vals.ROD_ENDS = array("int", "rod_ends", D.rod_ends, 16)
    local function num17(x) return string.format("%.17g", x) end   -- the drawing's doubles
    vals.NSLOT = #D.slot_ends // 2
    vals.SLOT_ENDS = array("int", "slot_ends", D.slot_ends, 16)
    vals.SLOT_AXIS = array("double", "slot_axis", D.slot_axis, 4, num17)
    vals.NGEAR = #D.gear_centres // 2
    vals.GEAR_CENTRES = array("int", "gear_centres", D.gear_centres, 16)
    vals.GEAR_RADII = array("double", "gear_radii", D.gear_radii, 4, num17)
    vals.NRACK = #D.rack_points // 2
    vals.RACK_POINTS = array("int", "rack_points", D.rack_points, 16)
    vals.RACK_GEOM = array("double", "rack_geom", D.rack_geom, 3, num17)
    vals.NCONTACT = #D.contact_points // 2
    vals.CONTACT_POINTS = array("int", "contact_points", D.contact_points, 16)
    vals.CONTACT_GEOM = array("double", "contact_geom", D.contact_geom, 4, num17)
    vals.NCAM = #D.cam_points // 2
    vals.CAM_POINTS = array("int", "cam_points", D.cam_points, 16)
    vals.CAM_ROLLER = array("double", "cam_roller", D.cam_roller, 4, num17)
    vals.CAM_PROFILE = array("double", "cam_profile", D.cam_profile, 4, num17)
    -- the units (model.lua has checked them: unit expressions only); NULL when none is given
    local function units(id, items)
        local us, any = {}, false
        for i, x in ipairs(items or {}) do
            us[i] = x.unit or ""
            any = any or x.unit ~= nil
        end
        return any and array("char *const", id, us, 8, cstring) or "0"
    end
    vals.IN_UNITS = units("in_units", M.inputs)
    vals.OUT_UNITS = units("out_units", M.sensors)
    vals.PAR_UNITS = units("par_units", M.tunables)
    local mass_default, mass_sym = coordinate_data(Mnum).mass, false
    for _, x in ipairs(mass) do if sym.is(x) and x.op ~= "num" then mass_sym = true end end
    vals.MASS = array("mb_real", "mass", mass_default, 3, sym.cnum, true)
    -- the tunables' arrays are the generated code's alone (the generic evaluator's descriptor
    -- has npar 0): after the part -DMB_DESCRIPTOR_ONLY compiles
    out = data
    vals.PAR = emit.params(name, M, D, mass_sym and mass, data, functions, protos, array)
    -- inputs and sensors: the generated code's alone (the generic evaluator refuses them)
    if nin > 0 then
        local names, defaults = {}, {}
        for i, u in ipairs(M.inputs) do
            names[i] = u.name
            defaults[3 * i - 2], defaults[3 * i - 1], defaults[3 * i] = u.default, 0, 0
        end
        vals.PAR = vals.PAR .. string.format("    .nin = %d,\n    .in_names = %s,\n    .in = %s,\n", nin,
            array("char *const", "in_names", names, 4, ctext.cstring),
            array("mb_real", "in_default", defaults, 3, sym.cnum))
        vals.PAR = vals.PAR .. string.format("    .dforce_du = %s,\n", DFORCE_DU)
    end
    if nout > 0 then
        local names = {}
        for i, sn in ipairs(M.sensors) do names[i] = sn.name end
        vals.PAR = vals.PAR .. string.format("    .nout = %d,\n    .out_names = %s,\n    .outputs = %s,\n",
            nout, array("char *const", "out_names", names, 4, ctext.cstring), OUTPUTS)
        if nin > 0 then vals.PAR = vals.PAR .. string.format("    .doutputs_du = %s,\n", DOUTPUTS_DU) end
        if D.dydlam then
            local zeros = {}
            for r = 1, D.nc do zeros[r] = 0 end
            vals.PAR = vals.PAR .. string.format("    .lam = %s,\n    .doutputs_dlam = %s,\n",
                array("mb_real", "lam_zero", zeros, 8, sym.cnum), DOUTPUTS_DLAM)
        end
    end
    if nswitch > 0 then
        vals.PAR = vals.PAR .. string.format("    .nswitch = %d,\n    .switches = %s,\n", nswitch, SWITCHES)
    end
    out = desc
    vals.Q0 = array("mb_real", "q0", q0, 3, sym.cnum, true)
    vals.V0 = array("mb_real", "v0", v0, 3, sym.cnum, true)
    vals.LOCKED = array("unsigned char", "locked", locked, 24, nil, true)
    vals.V_GIVEN = array("unsigned char", "v_given", vgiven, 24, nil, true)
    -- only with particles (NULL: 3 coordinates per body, runtime/mb_model.h)
    vals.BODY_Q = C.particles and array("int", "body_q", C.body_q, 16, nil, true) or "0"
    local pats, S_NL, A_NL, linalg_form = {}, 0, 0, "none"
    local r, c = pat(D.phiq)
    pats.phi_q = { r, c }
    vals.PHI_Q_ROW = array("mb_index", "phi_q_row", r, 16, nil, true)
    vals.PHI_Q_COL = array("mb_index", "phi_q_col", c, 16, nil, true)
    r, c = pat(D.dqdq)
    pats.dq_dq = { r, c }
    vals.DQ_DQ_ROW = array("mb_index", "dq_dq_row", r, 16, nil, true)
    vals.DQ_DQ_COL = array("mb_index", "dq_dq_col", c, 16, nil, true)
    r, c = pat(D.dqdv)
    pats.dq_dv = { r, c }
    vals.DQ_DV_ROW = array("mb_index", "dq_dv_row", r, 16, nil, true)
    vals.DQ_DV_COL = array("mb_index", "dq_dv_col", c, 16, nil, true)
    out = data
    -- the symbolic factorizations and assembly maps (generator/mb_plan_build.c through
    -- host.plan): const index arrays read by the runtime's compact kernels (runtime/mb_sparse.c)
    if opts.plan then
        local P, form = plan_P, plan_form   -- (computed above)
        linalg_form = form
        local function sy(tag, S, lu)
            local fns = "0, 0, 0, 0"
            if (tag == "s" and s_form or a_form) == "unrolled" then
                data[#data + 1] = require("emit_linalg").functions(name, tag, S, lu)
                local pre = name .. "_" .. tag
                fns = pre .. "_ldl, " .. pre .. "_ldl_solve, "
                      .. (lu and (pre .. "_lu, " .. pre .. "_lu_solve") or "0, 0")
            end
            return string.format("{ %d, %d, %d, %s, %s, %s, %s, %s,\n      %s }", S.n, S.nl, S.nupd,
                array("mb_index", tag .. "_perm", S.perm, 16), array("mb_index", tag .. "_pinv", S.pinv, 16),
                array("mb_index", tag .. "_lp", S.lp, 16), array("mb_index", tag .. "_li", S.li, 16),
                array("mb_index", tag .. "_upd", S.upd, 16), fns)
        end
        local ssy, asy = sy("s", P.s, false), sy("a", P.a, true)
        local EL = require("emit_linalg")
        local s_unr, a_unr = s_form == "unrolled", a_form == "unrolled"
        local unit = {}   -- Phi_q's entries that are the constant 1 or -1
        for i, ent in ipairs(D.phiq) do
            if ent.e.op == "num" and (ent.e.v == 1 or ent.e.v == -1) then unit[i] = ent.e.v end
        end
        -- each entry's first entry of the same expression (0-based): the interned node is
        -- one temporary in every function that evaluates Phi_q, so the two hold the same bits
        local same, first_of = {}, {}
        for i, ent in ipairs(D.phiq) do
            if first_of[ent.e] == nil then first_of[ent.e] = i - 1 end
            same[i] = first_of[ent.e]
        end
        if s_unr then
            data[#data + 1] = EL.assembly_s(name, P, pats.phi_q[2], unit, same)
            data[#data + 1] = "#if MB_WITH_S_FACTOR\n" .. EL.s_factor(name, P, pats.phi_q[2], unit, same) .. "\n\n"
                .. EL.kkt_bv(name, pats.phi_q[1], pats.phi_q[2], D.nc, unit, same) .. "\n#endif"
        end
        if a_unr then data[#data + 1] = EL.assembly_a(name, P) end
        local asm_fns = (s_unr and name .. "_s_assemble" or "0") .. ", " .. (a_unr and name .. "_a_assemble" or "0")
        if s_unr then
            -- the products with Phi_q, and for Phi_q's own values its +-1 entries as such
            data[#data + 1] = EL.products(name, pats.phi_q[1], pats.phi_q[2], D.nc)
            local phiq = EL.phiq_products(name, pats.phi_q[1], pats.phi_q[2], D.nc, D.nq, unit, same)
            if phiq then data[#data + 1] = phiq end
            data[#data + 1] = "static const mb_pq_products " .. name .. "_pq = {\n    " .. name .. "_pq_mv, "
                .. name .. "_pq_mtv,\n" .. (phiq and ("#if MB_WITH_PHIQ_PRODUCTS\n    " .. name .. "_phiq_mv, "
                .. name .. "_phiq_x,\n#else\n    0, 0,\n#endif\n") or "    0, 0,\n")
                .. "#if MB_WITH_S_FACTOR\n    " .. name .. "_s_factor, " .. name .. "_kkt_bv, " .. name .. "_kkt_bi\n#else\n    0, 0, 0\n#endif\n};"
            asm_fns = asm_fns .. ",\n    &" .. name .. "_pq"
        else
            asm_fns = asm_fns .. ",\n    0"
        end
        if a_unr then
            data[#data + 1] = EL.f4(name, P, pats.phi_q[1], pats.phi_q[2], D.nc, D.nq, pats.dq_dq, pats.dq_dv)
            asm_fns = asm_fns .. ",\n#if MB_WITH_F4_KERNELS\n    &" .. name .. "_f4,\n#else\n    0,\n#endif"
            data[#data + 1] = EL.alf(name, P, pats.phi_q[1], pats.phi_q[2], D.nc)
            asm_fns = asm_fns .. "\n#if MB_WITH_F3_KERNEL\n    &" .. name .. "_f3\n#else\n    0\n#endif"
        else
            asm_fns = asm_fns .. ",\n    0,\n    0"
        end
        local body = string.format(
            "/* Symbolic factorizations of S = Phi_q W Phi_q^T (%d x %d, %d in L) and of the\n"
            .. " * Newton matrix A (%d x %d, %d in L); AMD or minimum-degree order, " .. form .. " form (runtime/mb_model.h:\n"
            .. " * mb_plan" .. (form == "mixed" and "; S's side unrolled, A's compact" or "") .. "). */\n"
            .. "static const mb_plan %s_plan = {\n    %s,\n    %d, %s, %s, %s,\n    %s,\n"
            .. "    %d, %s, %s, %s,\n    %s, %s,\n    %s\n};",
            P.s.n, P.s.n, P.s.nl, P.a.n, P.a.n, P.a.nl, name, ssy, P.ns,
            array("mb_index", "s_k", P.s_k, 16), array("mb_index", "s_l", P.s_l, 16),
            array("mb_index", "s_dst", P.s_dst, 16), asy, P.na,
            array("mb_index", "a_k", P.a_k, 16), array("mb_index", "a_l", P.a_l, 16),
            array("mb_index", "a_dst", P.a_dst, 16),
            array("mb_index", "dqq_dst", P.dqq_dst, 16), array("mb_index", "dqv_dst", P.dqv_dst, 16),
            asm_fns)
        data[#data + 1] = body
        vals.PLAN = "&" .. name .. "_plan"
        S_NL, A_NL = P.s.nl, P.a.nl
    else
        vals.PLAN = "0"
    end
    -- a 16-bit or 8-bit mb_index (runtime/mb_config.h: MB_INDEX16, MB_INDEX8) must hold every index
    for _, w in ipairs({ { 16, 65535 }, { 8, 255 } }) do
        if max_index > w[2] then
            table.insert(desc, 1, "#if MB_INDEX" .. w[1] .. "\n#error \"" .. name .. ": an index ("
                         .. max_index .. ") does not fit the " .. w[1] .. "-bit mb_index of MB_INDEX"
                         .. w[1] .. "\"\n#endif")
        end
    end
    -- "const char *const" arrays: the element type above already carries the const
    for i, s in ipairs(desc) do desc[i] = s:gsub("^static const char %*const", "static const char *const") end
    local pdata, pval, pmacros = preset(name, uname, M.simulate)
    if pdata then data[#data + 1] = pdata end
    vals.PRESET = pval
    local scleronomic = 1   -- every entry of Phi_t symbolically 0 (runtime/mb_model.h)
    for i = 1, D.nc do if not sym.iszero(D.phit[i]) then scleronomic = 0 end end
    vals.SCLERONOMIC = scleronomic
    vals.DESC = table.concat(desc, "\n\n")
    vals.DATA = table.concat(data, "\n\n")
    vals.FUNCTIONS = table.concat(functions, "\n")

    local hvals = {
        NAME = name, UNAME = uname, VERSION = vals.VERSION, FILE = vals.FILE, OPTIONS = vals.OPTIONS,
        IFACE = iface, INDEX_MACROS = (index_macros(uname, D)),
        NQ = D.nq, NC = D.nc, NBODY = D.nb, NPOINT = #D.points,
        PHI_Q_NNZ = #D.phiq, DQ_DQ_NNZ = #D.dqdq, DQ_DV_NNZ = #D.dqdv,
        S_NL = S_NL, A_NL = A_NL, PRESET_MACROS = pmacros,
        NPAR = npar, PAR_MASS = mass_sym and 1 or 0, PAR_MACROS = emit.par_macros(uname, M),
        NIN = nin, NOUT = nout, OUT_REACTIONS = (nout > 0 and D.dydlam) and 1 or 0, IO_MACROS = emit.io_macros(uname, M),
        PROTOTYPES = table.concat(protos, "\n"),
    }
    local h = fill(load_template(opts, "model.h.in"), hvals, "model.h.in")
    local cfile = fill(load_template(opts, "model.c.in"), vals, "model.c.in")
    local files = { { name = name .. ".h", content = h }, { name = name .. ".c", content = cfile } }
    -- the same model as data for the generic evaluator (generator/emit_data.lua, same derivation
    -- so that patterns, names and point order agree): <name>_data.c
    local dopts = {}
    for k, x in pairs(opts) do dopts[k] = x end        -- a copy; order irrelevant
    dopts.derived = {}
    for k, x in pairs(D) do dopts.derived[k] = x end   -- a copy; order irrelevant
    dopts.derived.coords = coordinate_data(Mnum)         -- the masses at the defaults
    if npar > 0 then                                      -- the points' offsets at the defaults
        local pts, at = {}, {}
        for i, b in ipairs(Mnum.bodies) do
            for _, p in ipairs(b.points or {}) do at[i .. "." .. p.name] = { p.x, p.y } end
        end
        for _, p in ipairs(Mnum.ground_points or {}) do at["0." .. p.name] = { p.x, p.y } end
        for i, p in ipairs(D.points) do
            pts[i] = { name = p.name, body = p.body, s = at[p.body .. "." .. p.name:match("[^.]*$")] }
        end
        dopts.derived.points = pts
    end
    for _, f in ipairs(ctext.numeric(Mnum, require("emit_data").generate, Mnum, dopts)) do
        files[#files + 1] = f
    end
    return files, stats
end

-- The tunables' part of the descriptor (runtime/mb_model.h): names and defaults, the rules
-- that <name>_par_check tests (a value must keep every mass and inertia > 0, every spring
-- constant >= 0, every parametric number finite, and each of them 0 or normal) and, when a mass or inertia is tunable,
-- <name>_par_mass (the diagonal of M from par). Appends to data, functions and protos; returns
-- the descriptor's initializer text (all zero without tunables).
-- Every rule asks for a normal number too (0 aside): a subnormal mass, inertia or constant keeps
-- too few digits and its reciprocal overflows (MB_REAL_MIN, runtime/mb_config.h).
local RULE_TEXT = { [">0"] = "> 0, normal", [">=0"] = ">= 0, 0 or normal", finite = "finite, 0 or normal" }
function emit.params(name, M, D, mass, data, functions, protos, array)
    local tun, rules = M.tunables or {}, M.rules or {}
    if #tun == 0 then return "" end
    local names, defaults, texts = {}, {}, {}
    for i, tu in ipairs(tun) do names[i], defaults[i] = tu.name, tu.default end
    local outs, kinds = {}, {}
    for i, r in ipairs(rules) do
        texts[i] = r.what .. " " .. RULE_TEXT[r.kind] .. " (line " .. r.line .. ")"
        outs[i] = { lhs = "c[" .. (i - 1) .. "]", e = r.value }
        kinds[i] = r.kind == ">0" and 1 or r.kind == ">=0" and 2 or 0
    end
    local par_names = array("char *const", "par_names", names, 4, ctext.cstring)
    local par_default = array("mb_real", "par_default", defaults, 3, sym.cnum)
    local par_rules = array("char *const", "par_rules", texts, 1, ctext.cstring)
    local check = name .. "_par_check"
    local lines = #outs > 0 and sym.emit(outs) or {}
    local body = { "int " .. check .. "(const mb_real *restrict par)", "{" }
    body[#body + 1] = "    (void)par;"
    if #outs > 0 then
        local kd = {}
        for i, k in ipairs(kinds) do kd[i] = tostring(k) end
        body[#body + 1] = "    /* rule kinds: 0 finite, 1 > 0, 2 >= 0 */"
        body[#body + 1] = "    static const unsigned char kind[" .. #kinds .. "] = { " .. table.concat(kd, ", ") .. " };"
        body[#body + 1] = "    mb_real c[" .. #outs .. "];"
        for _, l in ipairs(lines) do body[#body + 1] = l end
        body[#body + 1] = "    for (int i = 0; i < " .. #outs .. "; i++) {"
        body[#body + 1] = "        if (!(c[i] - c[i] == 0)) return i;   /* NaN or infinite */"
        body[#body + 1] = "        if ((kind[i] == 1 && !(c[i] > 0)) || (kind[i] == 2 && !(c[i] >= 0))) return i;"
        body[#body + 1] = "        if (c[i] != 0 && !(c[i] >= MB_REAL_MIN || -c[i] >= MB_REAL_MIN)) return i;   /* subnormal */"
        body[#body + 1] = "    }"
    end
    body[#body + 1] = "    return -1;"
    body[#body + 1] = "}"
    functions[#functions + 1] = "/* -1 when the tunables par satisfy every rule of " .. name
        .. "_par_rules, else the first rule broken. */\n" .. table.concat(body, "\n") .. "\n"
    protos[#protos + 1] = "int " .. check .. "(const mb_real *restrict par);"
    local massfn = "0"
    if mass then
        local mouts = {}
        for i, x in ipairs(mass) do mouts[i] = { lhs = "out[" .. (i - 1) .. "]", e = x } end
        local ml = sym.emit(mouts)
        massfn = name .. "_par_mass"
        functions[#functions + 1] = "/* The diagonal of M [" .. #mass .. "] at the tunables m->par. */\n"
            .. "void " .. massfn .. "(const mb_model *m, mb_real *restrict out)\n{\n"
            .. "    const mb_real *restrict par = m->par;\n" .. table.concat(ml, "\n") .. "\n}\n"
        protos[#protos + 1] = "void " .. massfn .. "(const mb_model *m, mb_real *restrict out);"
    end
    return string.format("    .npar = %d,\n    .par_names = %s,\n    .par = %s,\n    .par_mass = %s,\n"
                         .. "    .nrule = %d,\n    .par_check = %s,\n    .par_rules = %s,\n",
                         #tun, par_names, par_default, massfn, #rules, check, par_rules)
end

-- The header's tunable macros: <U>_NPAR and <U>_PAR_<NAME> (index into mb_model.par).
function emit.par_macros(uname, M)
    local out = {}
    for i, tu in ipairs(M.tunables or {}) do
        out[i] = "#define " .. uname .. "_PAR_" .. tu.name:upper() .. " " .. (i - 1)
    end
    if #out == 0 then return "/* (no tunables) */" end
    return table.concat(out, "\n")
end

-- The header's input and sensor macros: <U>_IN_<NAME> (index for mb_sim_set_input),
-- <U>_OUT_<NAME> (index into the outputs y).
function emit.io_macros(uname, M)
    local out = {}
    for i, u in ipairs(M.inputs or {}) do
        out[#out + 1] = "#define " .. uname .. "_IN_" .. u.name:upper() .. " " .. (i - 1)
    end
    for i, sn in ipairs(M.sensors or {}) do
        -- (a contact's sensors are named "K.gap" ...: <U>_OUT_K_GAP)
        out[#out + 1] = "#define " .. uname .. "_OUT_" .. sn.name:gsub("[^A-Za-z0-9_]", "_"):upper() .. " " .. (i - 1)
    end
    if #out == 0 then return "/* (no inputs, no sensors) */" end
    return table.concat(out, "\n")
end

-- auto form: S's side unrolled up to this many elimination updates of S, A's side up to this many
-- of S and A together (Andrews: 138 + 136; the 100-link chain: 892 + 2562, S's side unrolled
-- only), compact above (docs/linear-systems.md)
emit.UNROLL_MAX = 3000
-- statements per function body before it is split into parts (see body_of)
emit.PART_LINES = 300
-- structural zeros from which a dense block is cleared by a loop (dense_block)
emit.ZERO_LOOP_MIN = 256

emit.derive = derive
return emit
