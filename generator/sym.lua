-- sym.lua - a small symbolic core: expression DAG with hash-consing and folding,
-- differentiation, and C printing with common-subexpression elimination.
-- Layer: generator back end; used by elements.lua, emit.lua and (via sym.var) model time functions.

local sym = {}

local Node = {}          -- metatable of every expression node
Node.__index = Node

local interned = {}      -- "op:a:b" -> node (hash-consing: one node per structure)
local consts = {}        -- number -> num node
local vars = {}          -- name -> var node
local nextid = 0

local function new(fields)
    nextid = nextid + 1
    fields.id = nextid
    return setmetatable(fields, Node)
end

local function is(x) return getmetatable(x) == Node end
sym.is = is

-- A numeric constant node; NaN and infinity are errors (they cannot be printed exactly).
local function num(x)
    if x ~= x or x == math.huge or x == -math.huge then
        error("non-finite constant in an expression", 0)
    end
    x = x + 0.0
    if x == 0 then x = 0.0 end     -- one zero: -0.0 and 0.0 intern alike
    local n = consts[x]
    if not n then
        n = new { op = "num", v = x }
        consts[x] = n
    end
    return n
end
sym.num = num

local ZERO, ONE = num(0), num(1)

-- Contract: sym.var(name) -> the variable node named `name` (its C text is the name).
function sym.var(name)
    assert(type(name) == "string", "sym.var: name must be a string")
    local n = vars[name]
    if not n then
        n = new { op = "var", name = name }
        vars[name] = n
    end
    return n
end

local function lift(x)
    if is(x) then return x end
    if type(x) == "number" then return num(x) end
    error("expected a number or an expression, got " .. type(x), 0)
end
sym.lift = lift

local function mk(op, a, b)
    local key = op .. ":" .. a.id .. ":" .. (b and b.id or "")
    local n = interned[key]
    if not n then
        n = new { op = op, a = a, b = b }
        interned[key] = n
    end
    return n
end

local function isnum(x, v) return x.op == "num" and (v == nil or x.v == v) end

-- Split x into numeric coefficient and rest: c * rest.
local function coef(x)
    if x.op == "mul" and x.a.op == "num" then return x.a.v, x.b end
    if x.op == "neg" then return -1, x.a end
    return 1, x
end

local add, mul, neg, div

function neg(a)
    a = lift(a)
    if a.op == "num" then return num(-a.v) end
    if a.op == "neg" then return a.a end
    if a.op == "mul" and a.a.op == "num" then return mul(num(-a.a.v), a.b) end
    return mk("neg", a)
end

function add(a, b)
    a, b = lift(a), lift(b)
    if a.op == "num" and b.op == "num" then return num(a.v + b.v) end
    if b.op == "num" then a, b = b, a end
    if a.op == "num" then                       -- constant first: c + x
        if a.v == 0 then return b end
        if b.op == "add" and b.a.op == "num" then return add(num(a.v + b.a.v), b.b) end
        return mk("add", a, b)
    end
    -- pull constants outward so they fold: (c + x) + y -> c + (x + y)
    if a.op == "add" and a.a.op == "num" then return add(a.a, add(a.b, b)) end
    if b.op == "add" and b.a.op == "num" then return add(b.a, add(a, b.b)) end
    local ca, xa = coef(a)
    local cb, xb = coef(b)
    if xa == xb then return mul(num(ca + cb), xa) end   -- like terms: 2x - x -> x
    if ca == cb and ca ~= 1 and ca ~= -1 then return mul(num(ca), add(xa, xb)) end  -- c x + c y
    if a.id > b.id then a, b = b, a end                 -- canonical order of operands
    return mk("add", a, b)
end

function mul(a, b)
    a, b = lift(a), lift(b)
    if a.op == "num" and b.op == "num" then return num(a.v * b.v) end
    if b.op == "num" then a, b = b, a end
    if a.op == "num" then                       -- numeric factor first: c * x
        if a.v == 0 then return ZERO end
        if a.v == 1 then return b end
        if b.op == "mul" and b.a.op == "num" then return mul(num(a.v * b.a.v), b.b) end
        if b.op == "neg" then return mul(num(-a.v), b.a) end
        if a.v == -1 then return neg(b) end
        return mk("mul", a, b)
    end
    if a.op == "neg" then return neg(mul(a.a, b)) end
    if b.op == "neg" then return neg(mul(a, b.a)) end
    -- collect numeric factors: (c x) y -> c (x y)
    if a.op == "mul" and a.a.op == "num" then return mul(a.a, mul(a.b, b)) end
    if b.op == "mul" and b.a.op == "num" then return mul(b.a, mul(a, b.b)) end
    if a.id > b.id then a, b = b, a end
    return mk("mul", a, b)
end

-- x / c == x * (1/c) exactly only when |c| is a power of two.
local function pow2(c)
    c = math.abs(c)
    if c == 0 or c ~= c or c == math.huge then return false end
    while c >= 2 do c = c / 2 end
    while c < 1 do c = c * 2 end
    return c == 1
end

function div(a, b)
    a, b = lift(a), lift(b)
    if b.op == "num" then
        if b.v == 0 then error("division by zero in an expression", 0) end
        if a.op == "num" then return num(a.v / b.v) end
        if b.v == 1 then return a end
        if b.v == -1 then return neg(a) end
        if pow2(b.v) then return mul(num(1 / b.v), a) end
        if a.op == "mul" and a.a.op == "num" then return mul(a.a, div(a.b, b)) end
        return mk("div", a, b)
    end
    if isnum(a, 0) then return ZERO end
    if a == b then return ONE end
    if a.op == "neg" then return neg(div(a.a, b)) end
    if b.op == "neg" then return neg(div(a, b.a)) end
    if a.op == "mul" and a.a.op == "num" and a.a.v ~= 1 then return mul(a.a, div(a.b, b)) end
    return mk("div", a, b)
end

local function sub(a, b) return add(a, neg(b)) end

sym.add, sym.sub, sym.mul, sym.div, sym.neg = add, sub, mul, div, neg

local fold = {
    sin = math.sin, cos = math.cos, tan = math.tan, exp = math.exp, log = math.log,
    sqrt = math.sqrt, abs = math.abs,
    step = function(x) return x >= 0 and 1 or 0 end,
    tanh = function(x)
        if x > 20 then return 1.0 elseif x < -20 then return -1.0 end
        local e = math.exp(2 * x)
        return (e - 1) / (e + 1)
    end,
}

local function fn(name, a)
    if a.op == "num" then return num(fold[name](a.v)) end
    if a.op == "neg" then       -- symmetries keep sign flips outside the call
        if name == "sin" or name == "tan" or name == "tanh" then return neg(fn(name, a.a)) end
        if name == "cos" or name == "abs" then return fn(name, a.a) end
    end
    return mk(name, a)
end

-- Contract: sym.sin .. sym.abs, sym.step: a number gives the plain math result, a node a node.
for name in pairs(fold) do
    sym[name] = function(x)
        if type(x) == "number" then return fold[name](x) end
        return fn(name, lift(x))
    end
end

-- hypot(a, b) = sqrt(a^2 + b^2) without underflow or overflow of the squares (a spring's
-- length: sqrt(dx*dx + dy*dy) is 0 once |d| < 1e-162, and its derivatives then divide 0 by 0).
local function hyp(x, y)
    x, y = math.abs(x), math.abs(y)
    if x < y then x, y = y, x end
    if x == 0 then return 0.0 end
    local r = y / x
    return x * math.sqrt(1 + r * r)
end
function sym.hypot(a, b)
    a, b = lift(a), lift(b)
    if a.op == "num" and b.op == "num" then return num(hyp(a.v, b.v)) end
    return mk("hypot", a, b)
end

-- atan2(y, x): the angle of the vector (x, y) (a model's formulas: docs/model-language.md)
function sym.atan2(a, b)
    a, b = lift(a), lift(b)
    if a.op == "num" and b.op == "num" then return num(math.atan(a.v, b.v)) end
    return mk("atan2", a, b)
end

-- An implicit function of two arguments, f(a, b), whose value the C code computes by calling a
-- helper (a Newton solve: a roller cam's contact angle, generator/cam.lua) and whose partial
-- derivatives are expressions of a, b and the node itself (the implicit function theorem), so
-- that sym.d differentiates through it to any order. spec (one per function, kept by identity):
--   spec.key    a string unique among the specs (interning: one node per spec and arguments);
--   spec.cname  the C function called as cname(a, b) (its definition is the caller's business);
--   spec.eval   function(a, b) -> the number f(a, b) (sym.eval, the generator's own checks);
--   spec.partials function(node, a, b) -> df/da, df/db as expressions.
function sym.implicit(spec, a, b)
    a, b = lift(a), lift(b)
    local key = "implicit:" .. spec.key .. ":" .. a.id .. ":" .. b.id
    local n = interned[key]
    if not n then
        n = new { op = "implicit", a = a, b = b, spec = spec }
        interned[key] = n
    end
    return n
end

-- A function of one argument computed by a C helper (a cam's spline profile r(psi) and its
-- derivatives, generator/cam.lua). spec: key (unique), cname (called as cname(a)), eval
-- (function(number) -> number), deriv (the spec of its derivative, or nil where it is 0).
function sym.call1(spec, a)
    a = lift(a)
    if a.op == "num" then return num(spec.eval(a.v)) end
    local key = "call1:" .. spec.key .. ":" .. a.id
    local n = interned[key]
    if not n then
        n = new { op = "call1", a = a, spec = spec }
        interned[key] = n
    end
    return n
end

-- A value of two arguments with its gradient given: prints as `value` (an expression of a and
-- b), differentiates as ga d(a) + gb d(b). For a function whose exact gradient is simpler than
-- the derivative of its formula: a roller cam's distance at its contact angle, whose derivative
-- in the contact angle vanishes at the root (the envelope theorem), so the gradient in the
-- centre is the profile's normal alone (generator/cam.lua). The caller vouches for the gradient
-- (test_derivs checks it against finite differences of the value).
function sym.given(value, a, b, ga, gb)
    value, a, b, ga, gb = lift(value), lift(a), lift(b), lift(ga), lift(gb)
    local key = "given:" .. value.id .. ":" .. a.id .. ":" .. b.id .. ":" .. ga.id .. ":" .. gb.id
    local n = interned[key]
    if not n then
        n = new { op = "given", a = a, b = b, value = value, ga = ga, gb = gb }
        interned[key] = n
    end
    return n
end

-- a / b where b ~= 0, else 0: a direction along a vector of length b (d / |d|), defined as
-- zero where the length is zero (the derivatives of hypot use it). The C code takes a length
-- below MB_LEN_TINY (runtime/mb_config.h, 1e-150 in double) as zero: 1 / b of a subnormal
-- length overflowed in the Jacobians (tests/models/fault_zerospring.lua decays that far).
local function sdiv(a, b)
    a, b = lift(a), lift(b)
    if isnum(a, 0) then return ZERO end
    if b.op == "num" then
        if b.v == 0 then return ZERO end
        return div(a, b)
    end
    return mk("sdiv", a, b)
end
sym.sdiv = sdiv

-- a ^ n. Numeric exponents get cheap forms; a node exponent gives a general power.
local function pow(a, n)
    a = lift(a)
    if is(n) and n.op == "num" then n = n.v end
    if type(n) == "number" then
        if a.op == "num" then return num(a.v ^ n) end
        if n == 0 then return ONE end
        if n == 1 then return a end
        if n == 2 then return mul(a, a) end
        if n == -1 then return div(ONE, a) end
        if n == 0.5 then return fn("sqrt", a) end
        return mk("pow", a, num(n))
    end
    return mk("powv", a, lift(n))
end
sym.pow = pow

Node.__add = function(a, b) return add(a, b) end
Node.__sub = function(a, b) return sub(a, b) end
Node.__mul = function(a, b) return mul(a, b) end
Node.__div = function(a, b) return div(a, b) end
Node.__unm = function(a) return neg(a) end
Node.__pow = function(a, b) return pow(a, b) end
Node.__lt = function() error("cannot compare an expression that depends on time; use step{}", 0) end
Node.__le = Node.__lt

-- True when the expression is the constant 0.
function sym.iszero(x) return type(x) == "number" and x == 0 or (is(x) and isnum(x, 0)) end

------------------------------------------------------------------ dependencies, derivatives

-- Set of variable ids an expression depends on (cached per node).
local function deps(e)
    local d = e.deps
    if d then return d end
    if e.op == "var" then
        d = { [e.id] = true }
    elseif e.op == "num" then
        d = {}
    elseif e.b == nil then
        d = deps(e.a)
    else
        local da, db = deps(e.a), deps(e.b)
        if next(db) == nil then d = da
        elseif next(da) == nil then d = db
        else
            d = {}
            for k in pairs(da) do d[k] = true end   -- set union; order irrelevant
            for k in pairs(db) do d[k] = true end
        end
    end
    e.deps = d
    return d
end

-- The set { [variable id] = true } of the variables e depends on (do not modify it).
function sym.vars(e)
    if not is(e) then return {} end
    return deps(e)
end

-- True when e depends on variable x.
function sym.depends(e, x)
    if not is(e) then return false end
    return deps(e)[x.id] == true
end

local dcache = {}   -- var id -> { node id -> derivative }

local function sign(a) return sub(mul(2, fn("step", a)), 1) end

local d
-- Contract: sym.d(e, x) -> d e / d x for a variable node x (memoized, simplified).
function d(e, x)
    if not is(e) then return ZERO end
    if not deps(e)[x.id] then return ZERO end
    local cache = dcache[x.id]
    if not cache then cache = {}; dcache[x.id] = cache end
    local r = cache[e.id]
    if r then return r end
    local op, a, b = e.op, e.a, e.b
    if op == "var" then r = ONE
    elseif op == "add" then r = add(d(a, x), d(b, x))
    elseif op == "neg" then r = neg(d(a, x))
    elseif op == "mul" then r = add(mul(d(a, x), b), mul(a, d(b, x)))
    elseif op == "div" then r = div(sub(d(a, x), mul(e, d(b, x))), b)   -- (a' - (a/b) b') / b
    elseif op == "pow" then r = mul(mul(b.v, pow(a, b.v - 1)), d(a, x))
    elseif op == "powv" then
        r = mul(e, add(mul(d(b, x), fn("log", a)), div(mul(b, d(a, x)), a)))
    elseif op == "sin" then r = mul(fn("cos", a), d(a, x))
    elseif op == "cos" then r = neg(mul(fn("sin", a), d(a, x)))
    elseif op == "tan" then r = mul(add(1, mul(e, e)), d(a, x))
    elseif op == "exp" then r = mul(e, d(a, x))
    elseif op == "log" then r = div(d(a, x), a)
    elseif op == "sqrt" then r = mul(0.5, div(d(a, x), e))
    elseif op == "abs" then r = mul(sign(a), d(a, x))
    elseif op == "hypot" then r = sdiv(add(mul(a, d(a, x)), mul(b, d(b, x))), e)
    elseif op == "sdiv" then r = sdiv(sub(d(a, x), mul(e, d(b, x))), b)
    elseif op == "step" then r = ZERO
    elseif op == "tanh" then r = mul(sub(1, mul(e, e)), d(a, x))
    elseif op == "atan2" then   -- d atan2(y, x) = (x dy - y dx) / (x^2 + y^2)
        r = div(sub(mul(b, d(a, x)), mul(a, d(b, x))), add(mul(a, a), mul(b, b)))
    elseif op == "given" then r = add(mul(e.ga, d(a, x)), mul(e.gb, d(b, x)))
    elseif op == "call1" then
        r = e.spec.deriv and mul(sym.call1(e.spec.deriv, a), d(a, x)) or ZERO
    elseif op == "implicit" then
        if not e.partials then e.partials = { e.spec.partials(e, a, b) } end
        r = add(mul(e.partials[1], d(a, x)), mul(e.partials[2], d(b, x)))
    else error("sym.d: unknown op " .. op) end
    cache[e.id] = r
    return r
end
sym.d = d

-- Contract: sym.subst(e, x, r) -> e with the variable node x replaced by the expression r (a
-- node or a number), rebuilt through the constructors (folded, interned). A cam's profile
-- r(u) and its derivative in a variable u, evaluated at the follower's polar angle.
function sym.subst(e, x, r, memo)
    if not is(e) or not deps(e)[x.id] then return e end
    memo = memo or {}
    local got = memo[e]
    if got then return got end
    local op = e.op
    local a = e.a and sym.subst(e.a, x, r, memo)
    local b = e.b and sym.subst(e.b, x, r, memo)
    local out
    if op == "var" then out = lift(r)
    elseif op == "add" then out = add(a, b)
    elseif op == "mul" then out = mul(a, b)
    elseif op == "div" then out = div(a, b)
    elseif op == "neg" then out = neg(a)
    elseif op == "pow" or op == "powv" then out = pow(a, b)
    elseif op == "hypot" then out = sym.hypot(a, b)
    elseif op == "sdiv" then out = sdiv(a, b)
    elseif op == "atan2" then out = sym.atan2(a, b)
    elseif op == "implicit" then out = sym.implicit(e.spec, a, b)
    elseif op == "call1" then out = sym.call1(e.spec, a)
    elseif op == "given" then
        local function sb(y) return sym.subst(y, x, r, memo) end
        out = sym.given(sb(e.value), a, b, sb(e.ga), sb(e.gb))
    elseif fold[op] then out = fn(op, a)
    else error("sym.subst: unknown op " .. op) end
    memo[e] = out
    return out
end

-- Evaluate numerically; env maps variable names to numbers. For tests and folding checks.
function sym.eval(e, env, memo)
    if type(e) == "number" then return e end
    memo = memo or {}
    local r = memo[e]
    if r then return r end
    local op = e.op
    if op == "num" then r = e.v
    elseif op == "var" then
        r = env[e.name]
        if r == nil then error("sym.eval: no value for " .. e.name) end
    elseif op == "given" then r = sym.eval(e.value, env, memo)
    elseif op == "call1" then r = e.spec.eval(sym.eval(e.a, env, memo))
    else
        local a = sym.eval(e.a, env, memo)
        local b = e.b and sym.eval(e.b, env, memo)
        if op == "add" then r = a + b
        elseif op == "mul" then r = a * b
        elseif op == "div" then r = a / b
        elseif op == "neg" then r = -a
        elseif op == "pow" or op == "powv" then r = a ^ b
        elseif op == "hypot" then r = hyp(a, b)
        elseif op == "sdiv" then r = b > 1e-150 and a / b or 0.0   -- MB_LEN_TINY (double)
        elseif op == "atan2" then r = math.atan(a, b)
        elseif op == "implicit" then r = e.spec.eval(a, b)
        else r = fold[op](a) end
    end
    memo[e] = r
    return r
end

------------------------------------------------------------------ C printing

-- Shortest decimal that reads back as exactly x; always has a '.' or an exponent.
local function literal(x)
    x = x + 0.0     -- an integer argument prints as the double it denotes
    local s
    for p = 15, 17 do
        s = string.format("%." .. p .. "g", x)
        if tonumber(s) == x then break end
    end
    assert(tonumber(s) == x, "constant does not round-trip")
    if not s:find("[%.eEn]") then s = s .. ".0" end
    return s
end
sym.literal = literal

-- C text of a constant: MB_R(lit), negative as -MB_R(lit).
function sym.cnum(x)
    if x < 0 then return "-MB_R(" .. literal(-x) .. ")" end
    return "MB_R(" .. literal(x) .. ")"
end

local cfn = { sin = "MB_SIN", cos = "MB_COS", tan = "MB_TAN", exp = "MB_EXP", log = "MB_LOG",
              sqrt = "MB_SQRT", abs = "MB_FABS", tanh = "MB_TANH" }

local LONG = 100   -- an inline expression longer than this becomes a temporary

-- Contract: sym.emit(outputs, opts) -> lines, ops.
-- outputs: list of { lhs = "out[3]", e = node or number }; the statements come out in this order
-- after the temporaries they need. Nodes used more than once (or long) become
-- `const mb_real tK = ...;`. ops = { add=, mul=, div=, call= } counts the emitted operations.
function sym.emit(outputs, opts)
    opts = opts or {}
    local indent = opts.indent or "    "
    local count = {}
    local function visit(e)
        local c = count[e]
        count[e] = (c or 0) + 1
        if c then return end
        if e.op == "given" then visit(e.value); return end   -- printed as its value
        if e.a then visit(e.a) end
        if e.b then visit(e.b) end
    end
    for _, o in ipairs(outputs) do visit(lift(o.e)) end

    local lines, ops = {}, { add = 0, mul = 0, div = 0, call = 0 }
    local name, ntemp = {}, 0
    local str

    local function paren(s, p, need) if p < need then return "(" .. s .. ")" end return s end

    -- A node printed where a sign can be absorbed: returns positive-part text for "a - b".
    local function negpart(e)
        if name[e] then return nil end
        if e.op == "neg" then return e.a end
        if e.op == "num" and e.v < 0 then return num(-e.v) end
        if e.op == "mul" and e.a.op == "num" and e.a.v < 0 and count[e] == 1 then
            return e   -- printed specially below
        end
        return nil
    end

    local function body(e)      -- text and precedence (1 add, 2 mul, 3 unary, 4 atom)
        local op = e.op
        if op == "num" then
            if e.v < 0 then return sym.cnum(e.v), 3 end
            return sym.cnum(e.v), 4
        elseif op == "var" then return e.name, 4
        elseif op == "add" then
            ops.add = ops.add + 1
            local a, b = e.a, e.b
            local pb = negpart(b)
            if not pb and negpart(a) then a, b, pb = b, a, negpart(a) end
            local sa, pa = str(a)
            if pb then
                local sb, qb
                if pb == b then     -- c*x with c < 0: print |c|*x
                    local sx, px = str(b.b)
                    ops.mul = ops.mul + 1
                    sb, qb = sym.cnum(-b.a.v) .. "*" .. paren(sx, px, 4), 2
                else
                    sb, qb = str(pb)
                end
                return paren(sa, pa, 1) .. " - " .. paren(sb, qb, 2), 1
            end
            local sb, qb = str(b)
            return paren(sa, pa, 1) .. " + " .. paren(sb, qb, 2), 1
        elseif op == "mul" then
            ops.mul = ops.mul + 1
            local sa, pa = str(e.a)
            local sb, pb = str(e.b)
            return paren(sa, pa, 2) .. "*" .. paren(sb, pb, 4), 2
        elseif op == "div" then
            ops.div = ops.div + 1
            local sa, pa = str(e.a)
            local sb, pb = str(e.b)
            return paren(sa, pa, 2) .. "/" .. paren(sb, pb, 4), 2
        elseif op == "neg" then
            local sa, pa = str(e.a)
            return "-" .. paren(sa, pa, 3), 3
        elseif op == "pow" or op == "powv" then
            ops.call = ops.call + 1
            local sa = str(e.a)
            local sb = str(e.b)
            return "MB_POW(" .. sa .. ", " .. sb .. ")", 4
        elseif op == "atan2" then
            ops.call = ops.call + 1
            local sa = str(e.a)
            local sb = str(e.b)
            return "MB_ATAN2(" .. sa .. ", " .. sb .. ")", 4
        elseif op == "given" then return str(e.value)
        elseif op == "call1" then
            ops.call = ops.call + 1
            return e.spec.cname .. "(" .. str(e.a) .. ")", 4
        elseif op == "implicit" then
            ops.call = ops.call + 1
            local sa = str(e.a)
            local sb = str(e.b)
            return e.spec.cname .. "(" .. sa .. ", " .. sb .. ")", 4
        elseif op == "hypot" then
            ops.call = ops.call + 1
            local sa = str(e.a)
            local sb = str(e.b)
            return "MB_HYPOT(" .. sa .. ", " .. sb .. ")", 4
        elseif op == "sdiv" then    -- b is a length (>= 0): 0 where it is 0 (below MB_LEN_TINY)
            ops.div = ops.div + 1
            local sa, pa = str(e.a)
            local sb, pb = str(e.b)
            return "(" .. sb .. " > MB_LEN_TINY ? " .. paren(sa, pa, 2) .. "/" .. paren(sb, pb, 4)
                   .. " : MB_R(0.0))", 4
        elseif op == "step" then
            ops.call = ops.call + 1
            local sa = str(e.a)
            return "(" .. sa .. " >= MB_R(0.0) ? MB_R(1.0) : MB_R(0.0))", 4
        else
            ops.call = ops.call + 1
            local sa = str(e.a)
            return cfn[op] .. "(" .. sa .. ")", 4
        end
    end

    function str(e)
        local n = name[e]
        if n then return n, 4 end
        local s, p = body(e)
        if e.op ~= "num" and e.op ~= "var" and (count[e] > 1 or #s > LONG) then
            n = "t" .. ntemp
            ntemp = ntemp + 1
            lines[#lines + 1] = indent .. "const mb_real " .. n .. " = " .. s .. ";"
            name[e] = n
            return n, 4
        end
        return s, p
    end

    for _, o in ipairs(outputs) do
        local e = lift(o.e)
        local s
        if name[e] then s = name[e]
        else
            -- an output root used once is printed in place, however long
            if count[e] == 1 then
                s = (body(e))
            else
                s = str(e)
            end
        end
        lines[#lines + 1] = indent .. o.lhs .. " = " .. s .. ";"
    end
    return lines, ops
end

return sym
