-- emit_data.lua - emit a model as plain const data for the generic evaluator (evaluator/mb_generic.c):
-- bodies, points, elements with their parameters, time functions as postfix programs, and the same
-- sparsity patterns, names and initial data as the generated code, whose arrays it shares (declared
-- extern, defined once in <name>.c). Layer: generator back end.

local sym = require("sym")

local emit_data = {}

local ctext = require("ctext")
local uerr, rows = ctext.uerr, ctext.rows

------------------------------------------------------------------ time functions

-- Opcodes: keep in step with the MB_TF_* enum of evaluator/mb_generic.h.
local OP = { const = 0, t = 1, add = 2, sub = 3, mul = 4, div = 5, pow = 6, neg = 7, sin = 8,
             cos = 9, tan = 10, exp = 11, log = 12, sqrt = 13, abs = 14, step = 15 }
local STACK = 32        -- MB_TF_STACK
local MAXCODE = 100000  -- a shared DAG expanded into a tree must stay reasonable

-- Collects programs and a constant pool shared by all of them.
local function tf_table()
    return { start = {}, len = {}, code = {}, const = {}, cindex = {}, steps = {}, seen = {} }
end

local function const_index(T, x)
    local key = sym.literal(x)
    local k = T.cindex[key]
    if not k then
        T.const[#T.const + 1] = x
        k = #T.const - 1
        T.cindex[key] = k
    end
    return k
end

-- Append the postfix program of expression e (node or number); returns its index (0-based).
local function tf_add(T, M, el, e, what)
    local tvar = sym.var("t")
    local code, depth = {}, {}
    local function gen(x)           -- returns the stack depth the subtree needs
        if type(x) == "number" or x.op == "num" then
            local v = type(x) == "number" and x or x.v
            code[#code + 1] = OP.const
            code[#code + 1] = const_index(T, v)
            return 1
        end
        if #code > MAXCODE then uerr(M, el.line, what .. " of '" .. el.name .. "' is too large") end
        if x.op == "var" then
            if x ~= tvar then
                uerr(M, el.line, what .. " of '" .. el.name .. "' depends on '" .. x.name .. "'")
            end
            code[#code + 1] = OP.t
            return 1
        end
        local op = x.op == "powv" and "pow" or x.op
        if not OP[op] then uerr(M, el.line, "unsupported operation '" .. x.op .. "' in " .. what) end
        -- a step's argument (of time alone, as everything here): a switch (emit_data below),
        -- each argument once (hash-consing: the same node)
        if op == "step" and T.steps and not T.seen[x.a] then
            T.seen[x.a] = true
            T.steps[#T.steps + 1] = { el = el, arg = x.a }
        end
        local da = gen(x.a)
        local d = da
        if x.b then d = math.max(da, gen(x.b) + 1) end
        code[#code + 1] = OP[op]
        return d
    end
    local d = gen(e)
    if d > STACK then uerr(M, el.line, what .. " of '" .. el.name .. "' nests too deeply") end
    T.start[#T.start + 1] = #T.code
    T.len[#T.len + 1] = #code
    for _, c in ipairs(code) do T.code[#T.code + 1] = c end
    return #T.start - 1
end

-- A model time function (number or Lua function of t) as an expression in sym.var "t".
local function tf_expr(M, el, f)
    if type(f) == "number" then return sym.num(f) end
    if sym.is(f) then return f end
    local ok, r = pcall(f, sym.var("t"))
    if not ok then uerr(M, el.line, "in the time function of '" .. el.name .. "': " .. tostring(r)) end
    if type(r) == "number" or sym.is(r) then return sym.lift(r) end
    uerr(M, el.line, "time function of '" .. el.name .. "' returned a " .. type(r))
end

------------------------------------------------------------------ elements

local KIND = { revolute = 1, prismatic = 2, spring = 3, rotspring = 4, force = 5, torque = 6,
               driver_coord = 7, driver_joint = 8, rod = 9, slot = 10, gear = 11, rack = 12,
               cam = 13 }

-- A gear's or rack's constant (generator/elements.lua) as a number: the model is the generic
-- data's, its tunables at their defaults.
local function mesh_offset(el)
    local c = require("elements").mesh_offset(el)
    if sym.is(c) then c = sym.eval(c, {}) end
    return c
end

-- Build the element records and the slot table from the model and the derived patterns.
local function elements(M, D, T)
    local nq = D.nq
    local function coords(body)   -- 0-based global indices of body (1-based; 0 = ground)
        if body == 0 then return -1, -1, -1 end
        local b0 = D.coords.body_q[body]
        if M.bodies[body].particle then return b0, b0 + 1, -1 end   -- no phi
        return b0, b0 + 1, b0 + 2
    end
    local function index(list)
        local idx = {}
        for i, ent in ipairs(list) do idx[ent.r * nq + ent.c] = i - 1 end
        return idx
    end
    local jidx, qidx, vidx = index(D.phiq), index(D.dqdq), index(D.dqdv)
    local slots, recs = {}, {}
    local row = 0
    local tvar = sym.var("t")

    -- local block slots; returns the offset in `slots`
    local function block(idx, rowsof, cols)
        local off = #slots
        for _, r in ipairs(rowsof) do
            for _, c in ipairs(cols) do
                local s = -1
                if r >= 0 and c >= 0 then s = idx[r * nq + c] or -1 end
                slots[#slots + 1] = s
            end
        end
        return off
    end

    for _, el in ipairs(M.elements) do
        ctext.at(el.line, el.kind .. ' "' .. el.name .. '"')
        local r = { kind = 0, a = -1, b = -1, sa = { 0, 0 }, sb = { 0, 0 }, par = { 0, 0, 0, 0 },
                    flag = 0, row = -1, col = {}, tf = { -1, -1, -1 }, jslot = -1, qslot = -1,
                    vslot = -1, name = el.name }
        local k = el.kind
        local nrow = 0
        if k == "revolute" or k == "prismatic" or k == "spring" or k == "rod" or k == "slot" or
           k == "rack" or k == "cam" then
            r.a, r.b = el.a.body - 1, el.b.body - 1
            r.sa, r.sb = { el.a.s[1], el.a.s[2] }, { el.b.s[1], el.b.s[2] }
            local ax, ay, ap = coords(el.a.body)
            local bx, by, bp = coords(el.b.body)
            r.col = { ax, ay, ap, bx, by, bp }
            if k == "revolute" then
                r.kind, nrow = KIND.revolute, 2
            elseif k == "rod" then
                r.kind, nrow = KIND.rod, 1
                r.par = { el.length, 0, 0, 0 }
            elseif k == "prismatic" then
                r.kind, nrow = KIND.prismatic, 2
                r.par = { el.axis[1], el.axis[2], el.angle or 0, 0 }
            elseif k == "slot" then
                r.kind, nrow = KIND.slot, 1
                r.par = { el.axis[1], el.axis[2], 0, 0 }
            elseif k == "rack" then
                r.kind, nrow = KIND.rack, 1
                r.par = { el.axis[1], el.axis[2], el.radius, mesh_offset(el) }
                r.flag = el.frame_is_a and 1 or 0
                r.col[7] = select(3, coords(el.pinion.body))
            elseif k == "cam" then
                -- a circle: its centre and radius (+ roller); Fourier: the coefficients a0,
                -- a_1..a_K, b_1..b_K appended to the constant pool; a spline: its knots and
                -- pieces there; par[2] the roller's radius (mb_generic.h: MB_GE_CAM)
                r.kind, nrow = KIND.cam, 1
                local p = el.profile
                if p.kind == "circle" then
                    r.par = { p.centre[1], p.centre[2], p.radius + (el.roller or 0), 0 }
                elseif p.kind == "spline" then
                    -- the knots x_1..x_{n+1} (x_{n+1} = x_1 + 2 pi), then the pieces'
                    -- coefficients c0..c3 in turn (cam.lua: spline_fit)
                    r.flag = 2
                    r.par = { #T.const, p.n, el.roller or 0, 0 }
                    for i = 1, p.n + 1 do T.const[#T.const + 1] = p.x[i] end
                    for i = 1, p.n do for j = 1, 4 do T.const[#T.const + 1] = p.c[i][j] end end
                else
                    r.flag = 1
                    r.par = { #T.const, #p.a, el.roller or 0, 0 }
                    T.const[#T.const + 1] = p.a0
                    for i = 1, #p.a do T.const[#T.const + 1] = p.a[i] end
                    for i = 1, #p.b do T.const[#T.const + 1] = p.b[i] end
                end
            else
                r.kind = KIND.spring
                r.par = { el.k, el.l0, el.c or 0, el.c2 or 0 }
            end
        elseif k == "gear" then
            r.kind, nrow = KIND.gear, 1
            r.a = el.carrier.body - 1
            r.col = { select(3, coords(el.g1.body)), select(3, coords(el.g2.body)),
                      select(3, coords(el.carrier.body)) }
            r.par = { el.internal and -el.ratio or el.ratio, mesh_offset(el), 0, 0 }
        elseif k == "rotspring" then
            r.kind = KIND.rotspring
            r.a, r.b = el.a.body - 1, el.b.body - 1
            r.col = { select(3, coords(el.a.body)), select(3, coords(el.b.body)) }
            r.par = { el.k, el.theta0 or 0, el.c or 0, 0 }
        elseif k == "force" then
            r.kind = KIND.force
            r.a = el.at.body - 1
            r.sa = { el.at.s[1], el.at.s[2] }
            r.col = { coords(el.at.body) }
            r.flag = el.frame == "body" and 1 or 0
            r.tf[1] = tf_add(T, M, el, tf_expr(M, el, el.fx), "fx")
            r.tf[2] = tf_add(T, M, el, tf_expr(M, el, el.fy), "fy")
        elseif k == "torque" then
            r.kind = KIND.torque
            r.a = el.body.body - 1
            r.col = { select(3, coords(el.body.body)) }
            r.tf[1] = tf_add(T, M, el, tf_expr(M, el, el.tau), "tau")
        elseif k == "driver" then
            nrow = 1
            if el.coord then
                r.kind = KIND.driver_coord
                r.col = { el.coord - 1 }
            else
                r.kind = KIND.driver_joint
                r.a, r.b = el.a.body - 1, el.b.body - 1
                r.col = { select(3, coords(el.a.body)), select(3, coords(el.b.body)) }
            end
            -- f, f', f'' as three programs: drivers' Phi_t = -f', Phi_tt = -f''
            local f = tf_expr(M, el, el.f)
            local f1 = sym.d(f, tvar)
            r.tf = { tf_add(T, M, el, f, "f"), tf_add(T, M, el, f1, "f'"),
                     tf_add(T, M, el, sym.d(f1, tvar), "f''") }
        else
            uerr(M, el.line, "generic evaluator: unknown element kind '" .. tostring(k) .. "'")
        end
        if nrow > 0 then
            r.row = row
            local rs = {}
            for i = 1, nrow do rs[i] = row + i - 1 end
            r.jslot = block(jidx, rs, r.col)
            row = row + nrow
        end
        if k == "spring" or k == "rotspring" or k == "force" then
            r.qslot = block(qidx, r.col, r.col)
        end
        if k == "spring" or k == "rotspring" then
            r.vslot = block(vidx, r.col, r.col)
        end
        recs[#recs + 1] = r
    end
    if row ~= D.nc then error("emit_data: constraint rows disagree with the derivation", 0) end
    return recs, slots
end

------------------------------------------------------------------ rendering

-- Contract: emit_data.generate(M, opts) -> { { name = "<name>_data.c", content = ... } }.
--   M: the validated model table (docs/generator.md). opts as for emit.generate, plus
--   opts.derived: the table emit.derive(M) returned (derived here when absent) so that the
--   patterns, names and point order are exactly the generated code's.
-- Raises "file:line: error: msg" for model errors (bad time functions). Deterministic output.
function emit_data.generate(M, opts)
    opts = opts or {}
    local D = opts.derived
    if not D then D = require("emit").derive(M) end   -- lazy: emit may require this module
    local name = M.name
    local fill = ctext.fill
    local cnum = sym.cnum
    -- removed equations are generated code only (the evaluator evaluates every element's): the
    -- descriptor is left empty (nq = 0), and the simulator's --eval generic refuses it by that
    -- (docs/generic-evaluator.md)
    -- inputs, sensors, actuators, joint torques and loads that depend on the state are generated
    -- code only too (docs/generic-evaluator.md: the evaluator's element table has no formulas of
    -- the state): the same empty descriptor
    local why
    for _, el in ipairs(M.elements) do
        if el.kind == "contact" then
            why = why or ('a contact (contact "' .. el.name .. '": a force of the state)')
        end
        if el.kind == "cam" and el.profile.kind == "function" then
            why = why or 'a cam whose profile is a function (cam "' .. el.name .. '")'
        end
        if el.kind == "actuator" or (el.kind == "torque" and el.joint) then
            why = why or (el.kind == "torque" and 'a torque in a joint (torque "' .. el.name .. '")'
                          or 'an actuator (actuator "' .. el.name .. '")')
        end
        for _, key in ipairs { "fx", "fy", "tau", "f", "l0" } do
            local uses = require("model").tf_uses(el[key])
            if uses and not why then
                why = "a value that depends on " .. (uses == "state" and "the state" or "an input")
                      .. ' (' .. el.kind .. ' "' .. el.name .. '" ' .. key .. ")"
            end
        end
    end
    if #(M.inputs or {}) > 0 then why = "inputs (input \"" .. M.inputs[1].name .. "\")" end
    if #(M.sensors or {}) > 0 then why = why or ("sensors (sensor \"" .. M.sensors[1].name .. "\")") end
    if why or (M.drop and next(M.drop)) then
        why = why or "equations removed as redundant (mbgen --redundant remove)"
        return { { name = name .. "_data.c", content = "/* SPDX-License-Identifier: MIT */\n"
            .. "/* " .. name .. "_data.c - model \"" .. name .. "\" for the generic evaluator: not available.\n"
            .. " * Generated by mbgen " .. (opts.version or "?") .. " from " .. ctext.comment_text(M.file or "?")
            .. " (options: " .. ctext.comment_text(ctext.options_text(opts)) .. ").\n"
            .. " * DO NOT EDIT: regenerate with mbgen (make generate).\n"
            .. " * The model has " .. why .. ", which only generated code models: the generic evaluator\n"
            .. " * (evaluator/mb_generic.c) evaluates every element's equations. The descriptor is empty\n"
            .. " * (nq = 0) so that --eval generic refuses the model (docs/generic-evaluator.md). */\n"
            .. "#include <stddef.h>\n\n#include \"mb_generic.h\"\n\n"
            .. "extern const mb_model " .. name .. "_generic_model;\n"
            .. "const mb_model " .. name .. "_generic_model = { .name = \"" .. name .. "\", .nq = 0 };\n" } }
    end
    local T = tf_table()
    local recs, slots = elements(M, D, T)
    -- the switches of step{} and heaviside() (interface 14, as the generated code's): each step
    -- argument x of the time functions as g = -x (> 0 before the switch, <= 0 from it on), the
    -- last programs of the table (mb_generic_switches evaluates the last nswitch)
    local steps = T.steps
    T.steps = nil
    for _, st in ipairs(steps) do tf_add(T, M, st.el, -st.arg, "switch") end

    local data = {}
    local function array(ctype, id, items, per, fmt)
        if #items == 0 then return "NULL" end
        local strs = {}
        for i, x in ipairs(items) do strs[i] = fmt and fmt(x) or tostring(x) end
        local decl = "static const " .. ctype .. " " .. name .. "_g_" .. id
        if ctype == "char *const" then decl = "static const char *const " .. name .. "_g_" .. id end
        data[#data + 1] = decl .. "[" .. #items .. "] = {\n" .. rows(strs, per) .. "\n};"
        return name .. "_g_" .. id
    end

    local C = D.coords
    local mass, q0, v0, locked, vgiven = C.mass, C.q0, C.v0, C.locked, C.v_given
    local point_body, point_s = {}, {}
    for i, p in ipairs(D.points) do
        point_body[i] = p.body - 1
        point_s[2 * i - 1], point_s[2 * i] = p.s[1], p.s[2]
    end

    local v = { NAME = name, VERSION = opts.version or "?", FILE = M.file or "?",
                OPTIONS = ctext.options_text(opts),
                NQ = D.nq, NC = D.nc, NBODY = D.nb, NPOINT = #D.points,
                PHI_Q_NNZ = #D.phiq, DQ_DQ_NNZ = #D.dqdq,
                DQ_DV_NNZ = #D.dqdv, NELEM = #recs, NTF = #T.start, NSWITCH = #steps,
                SWITCHES = #steps > 0 and "mb_generic_switches" or "NULL" }
    -- the descriptor arrays are <name>.c's (emit.lua: the shared ones), declared here
    local shared = { "extern const mb_model_info " .. name .. "_info;" }
    local function extern(ctype, id, n)
        if n == 0 then return "NULL" end
        shared[#shared + 1] = "extern const " .. ctype .. " " .. name .. "_" .. id .. "[" .. n .. "];"
        return name .. "_" .. id
    end
    v.POINT_BODY = extern("int", "point_body", #point_body)
    v.MASS = extern("mb_real", "mass", #mass)
    v.Q0 = extern("mb_real", "q0", #q0)
    v.V0 = extern("mb_real", "v0", #v0)
    v.LOCKED = extern("unsigned char", "locked", #locked)
    v.V_GIVEN = extern("unsigned char", "v_given", #vgiven)
    -- particles: where each body's coordinates start (NULL: 3 per body, runtime/mb_model.h)
    v.BODY_Q = C.particles and extern("int", "body_q", #C.body_q) or "NULL"
    v.PHI_Q_ROW = extern("mb_index", "phi_q_row", #D.phiq)
    v.PHI_Q_COL = extern("mb_index", "phi_q_col", #D.phiq)
    v.DQ_DQ_ROW = extern("mb_index", "dq_dq_row", #D.dqdq)
    v.DQ_DQ_COL = extern("mb_index", "dq_dq_col", #D.dqdq)
    v.DQ_DV_ROW = extern("mb_index", "dq_dv_row", #D.dqdv)
    v.DQ_DV_COL = extern("mb_index", "dq_dv_col", #D.dqdv)
    v.SHARED = table.concat(shared, "\n")
    v.POINT_S = array("mb_real", "point_s", point_s, 2, cnum)
    v.SLOT = array("int", "slot", slots, 16)
    v.TF_START = array("int", "tf_start", T.start, 16)
    v.TF_LEN = array("int", "tf_len", T.len, 16)
    v.TF_CODE = array("int", "tf_code", T.code, 16)
    v.TF_CONST = array("mb_real", "tf_const", T.const, 3, cnum)

    -- element records, one per line with the element's name as a comment
    local els = {}
    for _, e in ipairs(recs) do
        local col = {}
        for i = 1, math.max(6, #e.col) do col[i] = tostring(e.col[i] or -1) end
        local par = {}
        for i = 1, 4 do par[i] = cnum(e.par[i]) end
        els[#els + 1] = string.format(
            "    { %d, %d, %d, { %s, %s }, { %s, %s }, { %s }, %d, %d, %d, { %s }, { %d, %d, %d }, "
            .. "%d, %d, %d }, /* %s */",
            e.kind, e.a, e.b, cnum(e.sa[1]), cnum(e.sa[2]), cnum(e.sb[1]), cnum(e.sb[2]),
            table.concat(par, ", "), e.flag, e.row, #e.col, table.concat(col, ", "),
            e.tf[1], e.tf[2], e.tf[3], e.jslot, e.qslot, e.vslot, (e.name:gsub("%*/", "* /")))
    end
    if #els > 0 then
        data[#data + 1] = "static const mb_generic_elem " .. name .. "_g_elem[" .. #els .. "] = {\n"
                          .. table.concat(els, "\n") .. "\n};"
        v.ELEM = name .. "_g_elem"
    else
        v.ELEM = "NULL"
    end
    local g = M.gravity or { 0, -9.81 }
    v.GX, v.GY = cnum(g[1]), cnum(g[2])
    v.DATA = table.concat(data, "\n\n")
    local content = fill(ctext.load_template(opts, "model_data.c.in"), v, "model_data.c.in")
    return { { name = name .. "_data.c", content = content } }
end

return emit_data
