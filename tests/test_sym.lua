-- test_sym.lua - unit tests of the generator's symbolic core and template filler: hash-consing,
-- folding, derivatives vs finite differences, exact constants, CSE emission, determinism.
-- Run by tests/test_sym.c (an embedded Lua state with package.path set to generator/).

local sym = require("sym")
local emit = require("emit")

local passed, failed = 0, 0
local function check(cond, msg)
    if cond then passed = passed + 1
    else failed = failed + 1; io.stderr:write("test_sym.lua: FAIL: ", msg, "\n") end
end
local function raises(f, pattern, msg)
    local ok, err = pcall(f)
    check(not ok and tostring(err):find(pattern, 1, true) ~= nil,
          msg .. " (got " .. (ok and "no error" or tostring(err)) .. ")")
end

local x, y, t = sym.var("x"), sym.var("y"), sym.var("t")

-- hash-consing: structurally equal expressions are one node
check(x + y == y + x, "x + y and y + x are one node")
check(x * y == y * x, "x * y and y * x are one node")
check(sym.sin(x * y) == sym.sin(y * x), "sin(x y) interned")
check(sym.var("x") == x, "variables interned by name")
check(sym.num(0.5) == sym.lift(0.5), "constants interned")

-- substitution (a cam's profile r(u) at the follower's angle): the same node as building the
-- expression with the replacement directly, every op kind rebuilt, and untouched parts shared
do
    local u = sym.var("u")
    local e = sym.cos(2 * u) * sym.exp(u) + sym.hypot(u, y) / (1 + u * u) - sym.atan2(u, x)
              + sym.sqrt(u + 3) + sym.sdiv(y, u) + sym.abs(u) + u ^ 3 + sym.tanh(-u) + sym.tan(u)
    local a = sym.atan2(y, x)
    local direct = sym.cos(2 * a) * sym.exp(a) + sym.hypot(a, y) / (1 + a * a) - sym.atan2(a, x)
                   + sym.sqrt(a + 3) + sym.sdiv(y, a) + sym.abs(a) + a ^ 3 + sym.tanh(-a) + sym.tan(a)
    check(sym.subst(e, u, a) == direct, "subst(e, u, atan2(y, x)) is the node built with it")
    check(not sym.depends(sym.subst(e, u, a), u), "subst leaves no u")
    check(sym.subst(x * y, u, a) == x * y, "subst of an expression without u returns it")
    check(sym.subst(sym.sin(u), u, 0) == sym.num(0), "subst folds: sin(0) = 0")
end

-- folding and simplification
check(x + 0 == x and 0 + x == x, "x + 0 = x")
check(x * 1 == x and 1 * x == x, "x * 1 = x")
check(sym.iszero(x * 0) and sym.iszero(0 * sym.sin(x)), "x * 0 = 0")
check(-(-x) == x, "-(-x) = x")
check(x - x == sym.num(0), "x - x = 0")
check((sym.num(2) * 3).v == 6, "2 * 3 folds to 6")
check(2 * (3 * x) == 6 * x, "numeric factors collect: 2 (3 x) = 6 x")
check((2 * x) * (3 * y) == 6 * (x * y), "2x * 3y = 6 (x y)")
check(x + x == 2 * x and 2 * x - x == x, "like terms")
check(x / 4 == 0.25 * x, "division by a power of two becomes a product")
check((x / 3).op == "div", "division by 3 stays a division (exactness)")
check(x ^ 2 == x * x and x ^ 1 == x and sym.iszero(sym.d(x ^ 0, x)), "small powers")
check(sym.sin(0.5) == math.sin(0.5) and type(sym.sqrt(4)) == "number", "numbers give plain results")
check(sym.step(-1) == 0 and sym.step(0) == 1 and sym.step(2) == 1, "step on numbers")
check(sym.is(x) and not sym.is(1) and not sym.is({}), "sym.is")
raises(function() return sym.num(0 / 0) end, "non-finite", "NaN constant rejected")
raises(function() return x / 0 end, "division by zero", "division by zero rejected")
raises(function() return x < y end, "cannot compare", "comparison of expressions rejected")

-- simplification keeps the value: builders run on numbers and on nodes alike
local builders = {
    function(a, b) return 2 * a + 2 * b - 3 * (a - b) + (-a) * (-b) end,
    function(a, b) return (a + 1) + (2 + b) - (3 - a) * 2 + a / 4 - b / 3 end,
    function(a, b) return -(-(a * b)) * -2 + (2 * a) * (3 * b) - 6 * b * a + a * a end,
    function(a, b) return (0 * a + 1 * b) / (a * 1 + 0) - (-a) / (-b) + (a - a) * b end,
    function(a, b) return sym.cos(-a) + sym.sin(-b) + sym.abs(-a) + sym.tan(-b) + (a + b) ^ 2 end,
    function(a, b) return 5 * a - 2 * a - 3 * a + (-2) * b + 2 * b + (a / 2) * 4 end,
}
for i, f in ipairs(builders) do
    for _, p in ipairs({ { 0.7, -0.4 }, { -1.3, 0.9 } }) do
        local want = f(p[1], p[2])
        local got = sym.eval(sym.lift(f(x, y)), { x = p[1], y = p[2] })
        check(math.abs(got - want) <= 1e-13 * math.max(1, math.abs(want)),
              string.format("builder %d at (%g, %g): %.17g vs %.17g", i, p[1], p[2], got, want))
    end
end

-- derivatives: every operation against central differences, at several points
local exprs = {
    sym.sin(x * y) + sym.cos(x) / (2 + y * y),
    sym.tan(0.3 * x) * sym.exp(-y) + sym.log(1 + x * x),
    sym.sqrt(1 + x * x + y * y) * sym.abs(x - 0.3 * y),
    (x + 2) ^ 3.5 - 1 / (x * y + 4) + (y + 3) ^ -2,
    (1.5 + sym.sin(x)) ^ (1 + y * y),                 -- a general power
    x * sym.step(x - 0.1) + y * sym.step(0.2 - y),    -- ramp-like terms
}
local pts = { { 0.7, -0.4 }, { -1.3, 0.9 }, { 2.1, 1.7 } }
for i, e in ipairs(exprs) do
    for _, p in ipairs(pts) do
        for _, v in ipairs({ x, y }) do
            local env = { x = p[1], y = p[2] }
            local h = 1e-5
            local e1, e2 = {}, {}
            for k, val in pairs(env) do e1[k], e2[k] = val, val end
            e1[v.name] = env[v.name] + h
            e2[v.name] = env[v.name] - h
            local fd = (sym.eval(e, e1) - sym.eval(e, e2)) / (2 * h)
            local an = sym.eval(sym.d(e, v), env)
            local scale = math.max(1, math.abs(fd))
            check(math.abs(an - fd) <= 1e-6 * scale,
                  string.format("d expr %d / d %s at (%g, %g): %.12g vs FD %.12g", i, v.name,
                                p[1], p[2], an, fd))
        end
    end
end
check(sym.d(exprs[1], x) == sym.d(exprs[1], x), "derivatives are memoized (same node)")
check(sym.iszero(sym.d(sym.sin(x), y)), "derivative w.r.t. an absent variable is 0")
check(sym.iszero(sym.d(sym.step(x), x)), "step has derivative 0")

-- exact constants: the printed literal reads back as the same double
local seed = 12345
local function rnd()
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
end
local all_ok = true
for _ = 1, 2000 do
    local v = (rnd() - 0.5) * 10 ^ math.floor(rnd() * 40 - 20)
    local s = sym.literal(v)
    if tonumber(s) ~= v or not s:find("[%.e]") then all_ok = false; io.stderr:write(s, "\n") end
end
check(all_ok, "literals round-trip and are floating literals")
for _, v in ipairs({ 0.1, 1 / 3, 2, 1e-300, 123456789012345678, math.pi }) do
    check(tonumber(sym.literal(v)) == v + 0.0, "literal " .. sym.literal(v))
end
check(sym.literal(2) == "2.0" and sym.cnum(-1.5) == "-MB_R(1.5)", "integers get .0, signs outside MB_R")

-- CSE emission: a shared subexpression becomes one temporary, outputs keep their order
local s = sym.sin(x * y)
local lines, ops = sym.emit({ { lhs = "out[0]", e = s + x }, { lhs = "out[1]", e = s * y },
                              { lhs = "out[2]", e = 0 } })
local text = table.concat(lines, "\n")
local _, nsin = text:gsub("MB_SIN", "")
check(nsin == 1, "sin(x y) emitted once:\n" .. text)
check(text:find("const mb_real t0 = MB_SIN(x*y);", 1, true) ~= nil, "temporary for the shared node:\n" .. text)
check(lines[#lines]:find("out[2] = MB_R(0.0);", 1, true) ~= nil, "constant output printed")
check(text:find("out[0]", 1, true) < text:find("out[1]", 1, true), "outputs in order")
check(ops.call == 1 and ops.mul == 2 and ops.add == 1 and ops.div == 0,
      string.format("operation count add %d mul %d div %d call %d", ops.add, ops.mul, ops.div, ops.call))
local lines2 = sym.emit({ { lhs = "out[0]", e = s + x }, { lhs = "out[1]", e = s * y },
                          { lhs = "out[2]", e = 0 } })
check(table.concat(lines2, "\n") == text, "emission is deterministic")
local l3 = sym.emit({ { lhs = "o", e = x - 2 * y } })
check(l3[1]:find("o = x - MB_R(2.0)*y;", 1, true) ~= nil, "subtraction printed as such: " .. l3[1])
local l4 = sym.emit({ { lhs = "o", e = x - (y + 1) * 0 + sym.step(x) } })
check(l4[1]:find("(x >= MB_R(0.0) ? MB_R(1.0) : MB_R(0.0))", 1, true) ~= nil, "step printed as a test: " .. l4[1])

-- the template filler: substitution only, fails on unknown, unused or leftover placeholders
check(emit.fill("a ${X} b ${Y}", { X = 1, Y = "z" }, "t") == "a 1 b z", "fill substitutes")
raises(function() return emit.fill("a ${X} ${Z}", { X = 1 }, "t") end, "unknown placeholder", "unknown placeholder")
raises(function() return emit.fill("a ${X}", { X = 1, Y = 2 }, "t") end, "not used", "unused value")
raises(function() return emit.fill("a ${X} ${bad-name}", { X = 1 }, "t") end, "leftover", "leftover placeholder")

-- hypot and the guarded division of its derivatives: no underflow, 0 direction at length 0
local hx, hy = sym.var("hx"), sym.var("hy")
local hl = sym.hypot(hx, hy)
check(sym.eval(hl, { hx = 3e-170, hy = 4e-170 }) == 5e-170, "hypot does not underflow")
check(math.abs(sym.eval(hl, { hx = 3e200, hy = 4e200 }) / 5e200 - 1) < 1e-15, "hypot does not overflow")
local dl = sym.d(hl, hx)
check(sym.eval(dl, { hx = 0, hy = 0 }) == 0, "d hypot / dx is 0 at length 0")
check(math.abs(sym.eval(dl, { hx = 3e-140, hy = 4e-140 }) - 0.6) < 1e-15, "d hypot / dx = x / l at tiny l")
check(sym.eval(dl, { hx = 3e-170, hy = 4e-170 }) == 0, "d hypot / dx is 0 below MB_LEN_TINY (1e-150)")
local d2 = sym.d(dl, hy)
check(sym.eval(d2, { hx = 0, hy = 0 }) == 0, "second derivative 0 at length 0")
check(math.abs(sym.eval(d2, { hx = 3, hy = 4 }) + 12 / 125) < 1e-15, "d2 hypot / dx dy = -x y / l^3")
local hlines = table.concat(sym.emit({ { lhs = "o", e = dl } }), "\n")
check(hlines:find("MB_HYPOT(hx, hy)", 1, true) and hlines:find("> MB_LEN_TINY ?", 1, true),
      "hypot and the guarded division printed: " .. hlines)
check(sym.hypot(3, 4) == sym.num(5), "hypot of constants folds")

-- text from outside (the model's path, -D values) in comments: a conservative character set
local ctext = require("ctext")
local evil = "dir/a*/ int pwned = 42; /*x ??/ \\\n\"q'\27[31m\195\188.lua"
local safe = ctext.comment_text(evil)
check(not safe:find("[^A-Za-z0-9 ._/+,:=@-]"), "comment_text keeps only safe characters: " .. safe)
check(#safe == #evil and safe:sub(1, 6) == "dir/a_", "comment_text replaces byte for byte: " .. safe)
check(emit.fill("/* ${FILE} (${OPTIONS}) ${X} */", { FILE = "a*/b", OPTIONS = "-D N=\n3", X = "*" }, "t")
      == "/* a_/b (-D N=_3) * */", "fill sanitizes FILE and OPTIONS whoever supplies them")
-- the structural check of rendered C: comments and literals end where they should
for _, s in ipairs { "/* a */ int x; /* b */\n", "char c = '\\'', *s = \"a\\\"*/\"; // /* x\n",
                     "a / b; /**/\n" } do
    check(pcall(ctext.check_c, "f.c", s), "check_c accepts: " .. s)
end
for _, c in ipairs { { "/* a /* b */", "inside a comment" }, { "/* x", "unterminated comment" },
                     { "s = \"x;\n\";", "unterminated literal" }, { "/* ??/ */", "trigraph" },
                     { "#define A \\\nB", "backslash" }, { "/* a */ /* b * /", "unterminated" } } do
    raises(function() return ctext.check_c("f.c", c[1]) end, c[2], "check_c rejects: " .. c[1])
end

-- the header's index macros: names upper-cased and sanitized; collisions (with an earlier macro
-- or a fixed one of the header) get _<index>, then _2, _3 ... (emit.index_macros)
do
    local D = { coords = { names = { "a.x", "a.y", "a.phi", "A.x", "A.y", "A.phi" }, body_names = { "a", "A" } },
                points = { { name = "a.P_2" }, { name = "a_P.2" }, { name = "ground.O" } },
                phinames = { "Q_NNZ", "j.x", "J.x", "J.x_2" } }
    local text, list = emit.index_macros("M", D)
    local want = { "M_Q_A_X", "M_Q_A_Y", "M_Q_A_PHI", "M_Q_A_X_3", "M_Q_A_Y_4", "M_Q_A_PHI_5",
                   "M_BODY_A", "M_BODY_A_1", "M_POINT_A_P_2", "M_POINT_A_P_2_1", "M_POINT_GROUND_O",
                   "M_PHI_Q_NNZ_0", "M_PHI_J_X", "M_PHI_J_X_2", "M_PHI_J_X_2_3" }
    check(table.concat(list, " ") == table.concat(want, " "), "index macros: " .. table.concat(list, " "))
    check(text:find("\n#define M_PHI_J_X_2_3 3", 1, true) ~= nil, "index macro values: " .. text)
    local seen, dup = {}, false
    for _, m in ipairs(list) do dup = dup or seen[m]; seen[m] = true end
    check(not dup, "index macros are unique")
end

-- redundant constraints (generator/redundant.lua): a loop's redundancy exists only on the
-- assembled configuration; a repeated joint everywhere; none in a plain mechanism
do
    local model, red = require("model"), require("redundant")
    local M = model.load("tests/models/parallelogram_redundant.lua")
    local D = emit.derive(M)
    check(red.rank_at(D, D.coords.q0) == 12, "parallelogram + extra crank: full rank 12 at the guesses (2 cm off)")
    local rep = red.analyse(M, D)
    check(rep.assembled and rep.rank == 11, "parallelogram: rank 11 after assembly (got " .. rep.rank .. ")")
    check(#rep.dependent == 1 and D.phinames[rep.dependent[1]] == "F.y", "parallelogram: F.y is the dependent equation")
    check(rep.lines[1] == 'joint "F" (F.y) is implied by joint "A", joint "B", joint "D", joint "C" and joint "E"',
          "parallelogram: the report line (got " .. tostring(rep.lines[1]) .. ")")
    M = model.load("tests/models/fault_redundant.lua")
    D = emit.derive(M)
    check(red.rank_at(D, D.coords.q0) == 2, "a repeated joint: rank 2 of 4 anywhere")
    rep = red.analyse(M, D)
    check(rep.lines[1] == 'joint "A2" (A2.x, A2.y) duplicates joint "A1"', "repeated joint: named (got " .. tostring(rep.lines[1]) .. ")")
    M = model.load("models/fourbar_singular.lua")   -- negative control: a plain four-bar
    rep = red.analyse(M, emit.derive(M))
    check(rep.rank == rep.nc and #rep.dependent == 0 and #rep.lines == 0, "four-bar: no redundancy")
    M = model.load("tests/models/parallelogram_redundant.lua")
    M.drop = { ["F.y"] = true }            -- what --redundant remove leaves
    D = emit.derive(M)
    rep = red.analyse(M, D)
    check(D.nc == 11 and rep.rank == 11 and #rep.dependent == 0, "parallelogram without F.y: full rank 11")
end

-- the cam helpers' nodes (generator/cam.lua): an implicit function (its value from eval, its
-- partials expressions of itself), a value with its gradient given, a one-argument helper with
-- a chain of derivative helpers; each against central differences of its value, to second order
do
    local function fd2(e, var, at)   -- d e / d var at env `at`, and d^2 e / d var^2, both by FD
        local h, env1, env2 = 1e-5, {}, {}
        for k, v in pairs(at) do env1[k], env2[k] = v, v end
        env1[var.name], env2[var.name] = at[var.name] + h, at[var.name] - h
        local e0, ep, em = sym.eval(e, at), sym.eval(e, env1), sym.eval(e, env2)
        return (ep - em) / (2 * h), (ep - 2 * e0 + em) / (h * h)
    end
    local function close(a, b, tol) return math.abs(a - b) <= tol * math.max(1, math.abs(b)) end
    -- z(a, b): the root of z^3 + z - a b = 0 (Newton in eval), dz/da = b / (3 z^2 + 1)
    local spec = { key = "test_root", cname = "test_root" }
    function spec.eval(a, b)
        local z = 0.0
        for _ = 1, 60 do z = z - (z ^ 3 + z - a * b) / (3 * z * z + 1) end
        return z
    end
    function spec.partials(n, a, b)
        local den = 3 * n * n + 1
        return b / den, a / den
    end
    local z = sym.implicit(spec, x * x, sym.sin(x) + y)
    check(sym.implicit(spec, x * x, sym.sin(x) + y) == z, "implicit: one node per spec and arguments")
    local at = { x = 0.7, y = 0.2 }
    local d1n, d2n = fd2(z, x, at)
    local d1 = sym.d(z, x)
    check(close(sym.eval(d1, at), d1n, 1e-7), "implicit: dz/dx against FD")
    check(close(sym.eval(sym.d(d1, x), at), d2n, 1e-4), "implicit: d2z/dx2 against FD")
    local lines = sym.emit({ { lhs = "out[0]", e = z } })
    check(table.concat(lines, "\n"):find("test_root(", 1, true) ~= nil, "implicit: printed as its helper's call")
    -- given: hypot(a, b) with its gradient (a, b) / hypot given
    local hx = sym.hypot(x, y)
    local g = sym.given(hx, x, y, x / hx, y / hx)
    check(close(sym.eval(g, at), sym.eval(hx, at), 0), "given: the value's value")
    local g1n, g2n = fd2(g, x, at)
    check(close(sym.eval(sym.d(g, x), at), g1n, 1e-7), "given: derivative against FD")
    check(close(sym.eval(sym.d(sym.d(g, x), x), at), g2n, 1e-4), "given: second derivative against FD")
    local gl = table.concat(sym.emit({ { lhs = "out[0]", e = g } }), "\n")
    check(gl:find("MB_HYPOT", 1, true) ~= nil, "given: printed as its value")
    -- call1: sin through helpers s0 -> s1 -> s2 -> s3 -> s0 (a cycle of four derivatives)
    local sp = {}
    for k = 0, 3 do sp[k] = { key = "test_s" .. k, cname = "test_s" .. k } end
    local fs = { math.sin, math.cos, function(u) return -math.sin(u) end, function(u) return -math.cos(u) end }
    for k = 0, 3 do sp[k].eval = fs[k + 1]; sp[k].deriv = sp[(k + 1) % 4] end
    local c = sym.call1(sp[0], x * y)
    local c1n, c2n = fd2(c, x, at)
    check(close(sym.eval(sym.d(c, x), at), c1n, 1e-7), "call1: derivative against FD")
    check(close(sym.eval(sym.d(sym.d(c, x), x), at), c2n, 1e-4), "call1: second derivative against FD")
    check(sym.call1(sp[0], 0.5).op == "num", "call1: a number folds")
    sp[3].deriv = nil
    check(sym.iszero(sym.d(sym.call1(sp[3], x), x)), "call1: no deriv spec, derivative 0")
end

print(string.format("%d passed, %d failed", passed, failed))
return failed
