-- model.lua - the model language: sandbox environment, statements, validation.
-- Layer: generator front end, trusted code (may use debug). Runs one model file under the
-- host's limits and returns the validated model table of docs/generator.md.

local model = {}

-- Everything used below is captured before any model code runs; model code cannot reach
-- the real global, string or math tables (see make_env).
local G = _G
local type, next, select, error, tostring, tonumber = type, next, select, error, tostring, tonumber
local rawget, rawlen, setmetatable, getmetatable = rawget, rawlen, setmetatable, getmetatable
local pcall, load, require, ipairs = pcall, load, require, ipairs
local mtype, huge, pi = math.type, math.huge, math.pi
local msin, mcos, mtan, mexp, mlog, msqrt, mabs = math.sin, math.cos, math.tan, math.exp,
    math.log, math.sqrt, math.abs
local function mtanh(x)
  if x > 20 then return 1.0 elseif x < -20 then return -1.0 end
  local e = mexp(2 * x)
  return (e - 1) / (e + 1)
end
local function matan2(y, x) return math.atan(y, x) end
local sfmt, sfind, smatch, ssub, sgsub = string.format, string.find, string.match, string.sub,
    string.gsub
local tsort, tconcat = table.sort, table.concat
local getinfo, dgetmetatable = debug.getinfo, debug.getmetatable
local stderr, iopen = io.stderr, io.open

-- Model code reaches the real string table read-only through string methods ("x"):rep(2);
-- the one function there it must not have is string.dump, which the generator never needs.
string.dump = nil

local MAX_NAME = 64          -- identifier length (names end up in C strings and symbols)
-- the sweep table's columns that name simulator options, not tunables or inputs (tools/mb_sweep_table.c)
local SWEEP_OPTIONS = { h = "--h", t_end = "--t-end", formulation = "--formulation",
                        integrator = "--integrator" }
local MAX_BODIES = 2000
local MAX_ELEMENTS = 20000
local MAX_POINTS = 1000      -- per body, and on the ground
local MAX_TNODES = 20000     -- nodes of all functions of time together
local MAX_TUNABLES = 1000    -- tunable parameters of one model
local MAX_SOURCE = 16 << 20   -- bytes of a model file
local PRINT_MAX = 64 << 10    -- bytes a model may print (docs/model-language.md)

-- Printable, bounded rendering of a string from a model file, for messages.
local function show(s)
  s = tostring(s)
  if #s > 40 then s = ssub(s, 1, 40) .. "..." end
  return (sgsub(s, "[^%w%p ]", "?"))
end

-- Model names that break the build. The name becomes generated/<name>.h, found through
-- -Igenerated before the system's headers, and the simulator pastes it from -DMB_MODEL=<name>,
-- where an object-like macro of an included header would expand. Compared ignoring case
-- (case-insensitive file systems). See reserved_name() for the patterns.
local RESERVED_HEADERS = {}
for h in ([[
  assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal
  stdalign stdarg stdatomic stdbit stdbool stdckdint stddef stdint stdio stdlib stdnoreturn
  string tgmath threads time uchar wchar wctype
  aio cpio dirent dlfcn fcntl fmtmsg fnmatch ftw glob grp iconv langinfo libgen monetary mqueue
  ndbm netdb nl_types poll pthread pwd regex sched search semaphore spawn strings stropts syslog
  tar termios trace ulimit unistd utime utmp utmpx wordexp
  alloca argp argz byteswap crypt elf endian envz err error execinfo features fstab getopt
  ifaddrs lastlog libintl link malloc mcheck memory mntent obstack paths printf pty resolv
  sgtty shadow syscall sysexits termio ttyent ucontext values
  lua lauxlib lualib luaconf lapacke lapacke_config lapacke_mangling lapacke_utils lapack cblas
  blas f77blas klu amd btf colamd SuiteSparse_config check test_physics_models test_plan
  generic_models bench_models solver mcu_port metis ordering_models bench_ida andrews7 ref_common
  cartpole_control cartpole_design cartpole_gain cartpole_run lqr simbody bench_simbody_ours
]]):gmatch("%S+") do RESERVED_HEADERS[h] = true end
-- lowercase object-like macros of the C and POSIX headers the generated code, the runtime and
-- the tools include (and GNU's predefined unix/linux/i386)
local RESERVED_MACROS = {}
for m in ([[
  and and_eq bitand bitor compl not not_eq or or_eq xor xor_eq bool true false complex
  imaginary alignas alignof noreturn static_assert thread_local errno math_errhandling stdin
  stdout stderr sa_handler sa_sigaction st_atime st_mtime st_ctime unix linux i386
]]):gmatch("%S+") do RESERVED_MACROS[m] = true end

-- nil, or why the model name cannot be used
local function reserved_name(name)
  local low = name:lower()
  if RESERVED_HEADERS[low] then
    return sfmt("generated/%s.h would hide the system or project header <%s.h> from every build%s",
                name, low, name ~= low and " on a file system that ignores case" or "")
  end
  if RESERVED_MACROS[name] then
    return sfmt("'%s' is a macro of the C or POSIX headers", name)
  end
  if not sfind(name, "%l") then
    return "names without a lowercase letter are the macro namespace of the C and POSIX headers (NULL, EOF, PATH_MAX)"
  end
  for _, pat in ipairs { "^PRI[a-zX]", "^SCN[a-zX]", "^L_", "^si_", "^sigev_", "^lua_", "^luaL_",
                         "^lapack_", "^LAPACK", "^E[%dA-Z]", "^SIG[A-Z_]", "^LC_", "^FE_", "^FP_" } do
    if sfind(name, pat) then
      return sfmt("names matching %s are reserved by the C, POSIX or LAPACK headers", pat)
    end
  end
  return nil
end

local function is_finite(v)
  return v == v and v ~= huge and v ~= -huge
end

-- Errors a model causes are located in the model, never in the generator: uerror(msg) raises
-- msg at the innermost frame that is not generator code (model.lua itself, or a C function),
-- i.e. the model's line that called into the sandbox, however deep the generator's own call
-- chain (a metamethod of a time value, the closure sine{} returned, a statement). Without such
-- a frame the message has no position (the loader adds the model file's name).
local MY_SOURCE = getinfo(1, "S").source
local MY_SHORT = getinfo(1, "S").short_src
local function uerror(msg)
  for level = 2, 200 do
    local info = getinfo(level, "S")
    if info == nil then break end
    if info.what ~= "C" and info.source ~= MY_SOURCE then error(msg, level) end
  end
  error(msg, 0)
end

---------------------------------------------------------------- functions of time
-- A function of time given in a model is traced once with an opaque proxy `t`: arithmetic on
-- proxies records a DAG that only trusted code can read (the proxies are empty tables with a
-- locked metatable; their nodes live in a private weak table). After the model has run, no
-- model code is ever called again: evaluation and conversion to sym nodes use the DAG.
local tnode = setmetatable({}, { __mode = "k" })   -- proxy -> node
local tcount = 0
local tmeta = {}

local function mk(node)
  tcount = tcount + 1
  if tcount > MAX_TNODES then
    uerror(sfmt("functions of time too large (more than %d operations)", MAX_TNODES))
  end
  local p = setmetatable({}, tmeta)
  tnode[p] = node
  return p
end

-- Node of an operand (a number or a proxy).
local function lift(x)
  if type(x) == "number" then
    if not is_finite(x) then
      uerror("non-finite number (" .. tostring(x) .. ") in a function of time")
    end
    return { op = "k", v = x + 0.0 }
  end
  local n = tnode[x]
  if n == nil then
    uerror("a function of time can only be combined with numbers, not with a " .. type(x))
  end
  return n
end

local function binop(op)
  return function(a, b) return mk { op = op, a = lift(a), b = lift(b) } end
end
tmeta.__add, tmeta.__sub, tmeta.__mul = binop "+", binop "-", binop "*"
tmeta.__div, tmeta.__pow = binop "/", binop "^"
tmeta.__unm = function(a) return mk { op = "neg", a = tnode[a] } end
local function refuse(what)
  return function() uerror("a function of time " .. what) end
end
for _, ev in ipairs { "__mod", "__idiv", "__band", "__bor", "__bxor", "__shl", "__shr", "__bnot" } do
  tmeta[ev] = refuse("supports only + - * / ^ and the functions sin cos tan exp log sqrt abs")
end
tmeta.__lt = refuse("cannot be compared: use step{} or heaviside() to switch")
tmeta.__le = tmeta.__lt
tmeta.__concat = refuse("cannot be concatenated")
tmeta.__len = refuse("has no length")
tmeta.__call = refuse("cannot be called")
tmeta.__index = refuse("has no fields")
tmeta.__newindex = refuse("cannot be modified")
tmeta.__tostring = function() return "<function of time>" end
tmeta.__metatable = "function of time"

local num_fn = {
  sin = msin, cos = mcos, tan = mtan, exp = mexp, log = function(x) return mlog(x) end,
  sqrt = msqrt, abs = function(x) return mabs(x) + 0.0 end,
  heaviside = function(x) return x >= 0 and 1.0 or 0.0 end, tanh = mtanh,
}

-- A function of sandbox code: plain math on numbers, a recorded node on proxies.
local function unary(name)
  local f = num_fn[name]
  return function(x, base)
    if name == "log" and base ~= nil and
       (type(base) ~= "number" or not is_finite(base) or base <= 0 or base == 1) then
      uerror(sfmt("bad argument #2 to 'log' (a base must be a finite number > 0 other than 1, got %s)",
                  type(base) == "number" and sfmt("%.17g", base) or type(base)))
    end
    if type(x) == "number" then
      if name == "log" and base ~= nil then return mlog(x, base) end
      return f(x)
    end
    if tnode[x] == nil then
      uerror(sfmt("bad argument #1 to '%s' (number or function of time expected, got %s)",
                  name, type(x)))
    end
    local p = mk { op = name, a = tnode[x] }
    if name == "log" and base ~= nil then p = p / mlog(base) end
    return p
  end
end

-- atan2(y, x): the one binary function (a proxy node with a and b, like the operators)
local function atan2(y, x)
  if type(y) == "number" and type(x) == "number" then return matan2(y, x) end
  for i, v in ipairs { y, x } do
    if type(v) ~= "number" and tnode[v] == nil then
      uerror(sfmt("bad argument #%d to 'atan2' (number or formula expected, got %s)", i, type(v)))
    end
  end
  return mk { op = "atan2", a = lift(y), b = lift(x) }
end

local binf = {
  ["+"] = function(a, b) return a + b end, ["-"] = function(a, b) return a - b end,
  ["*"] = function(a, b) return a * b end, ["/"] = function(a, b) return a / b end,
  ["^"] = function(a, b) return a ^ b end,
}

local function eval(n, t, memo)
  local r = memo[n]
  if r ~= nil then return r end
  local op = n.op
  if op == "t" then r = t
  elseif op == "k" or op == "p" or op == "u" then r = n.v   -- a tunable or an input: its default
  elseif op == "m" then r = 0.0    -- a measure has no value before the state is known (loads and
                                   -- sensors only: nothing evaluates them numerically)
  elseif op == "neg" then r = -eval(n.a, t, memo)
  elseif op == "atan2" then r = matan2(eval(n.a, t, memo), eval(n.b, t, memo))
  elseif binf[op] then r = binf[op](eval(n.a, t, memo), eval(n.b, t, memo))
  else r = num_fn[op](eval(n.a, t, memo)) end
  memo[n] = r
  return r
end

local sym_fn = { heaviside = "step" }     -- sym's name where it differs

-- How tunables become sym nodes: "sym" the variable par[i] (generated code), "num" their
-- default (the generic evaluator's data); set around a call by model.param_view.
local par_mode = "sym"

-- Inputs (input "u" { ... }) become the hold of the generated code: u(t) = in[3i] + in[3i+1]
-- (t - in[3i+2]) (value, slope, the time the value was set: runtime/mb_input.c). Measures
-- (pos, vel, angle, rate, length, lengthrate) become expressions of q and v through the
-- resolver emit.lua installs while it derives (model.set_measure_resolver).
-- Hunt-Crossley damping from a restitution: the normal force k x^n (1 + d x') on a body of
-- any mass meeting the contact at speed v0 leaves it at e v0 where, with s = d v0,
--   s - ln(1 + s) = -e s - ln(1 - e s)
-- (m x' dx'/(1 + d x') = -k x^n dx integrated over compression and restitution; exact for every
-- k and n, no other force acting: docs/model-language.md, "Contact with friction"). Returns s
-- for e in (0, 1] (0 for e = 1) by bisection on (0, 1/e), where the two sides cross once.
function model.hc_damping(e)
  if e >= 1 then return 0.0 end
  local function g(s)
    local l1 = s < 1e-4 and (s * s / 2 - s * s * s / 3 + s ^ 4 / 4) or (s - math.log(1 + s))
    local w = e * s
    local l2 = w < 1e-4 and (w * w / 2 + w * w * w / 3 + w ^ 4 / 4) or (-w - math.log(1 - w))
    return l1 - l2
  end
  local lo, hi = 0.0, 1 / e
  -- g > 0 just above 0 (the difference starts as s^2 (1 - e^2) / 2), -> -inf at 1/e
  for _ = 1, 200 do
    local mid = 0.5 * (lo + hi)
    if mid == lo or mid == hi then break end
    if g(mid) > 0 then lo = mid else hi = mid end
  end
  return 0.5 * (lo + hi)
end

-- A reaction's components by element kind: the constraint row (suffix of the element's name,
-- generator/elements.lua) and the sign, those of the simulator's CSV columns
-- (tools/mb_analysis_cli.c): the force on the second body, the prismatic normal force and
-- moment, the rod's tension, the driver's effort, a cam's normal force on its follower, and a
-- slot's, gear's or rack's multiplier.
model.reaction_comps = {
  revolute = { fx = { ".x", 1 }, fy = { ".y", 1 } },
  prismatic = { fn = { ".perp", -1 }, moment = { ".angle", 1 } },
  rod = { tension = { ".dist", 1 } },
  driver = { effort = { "", -1 } },
  slot = { lambda = { ".perp", 1 } },
  gear = { lambda = { ".mesh", 1 } },
  rack = { lambda = { ".travel", 1 } },
  cam = { normal = { ".profile", -1 } },
}

local measure_resolver = nil
function model.set_measure_resolver(f) measure_resolver = f end
local function input_sym(n, tv, sym)
  local b = 3 * (n.i - 1)
  local u = sym.var("in[" .. b .. "]")
  return u + sym.var("in[" .. (b + 1) .. "]") * (tv - sym.var("in[" .. (b + 2) .. "]"))
end

local function to_sym(n, tv, memo, sym)
  local r = memo[n]
  if r ~= nil then return r end
  local op = n.op
  if op == "t" then r = tv
  elseif op == "k" then r = n.v
  elseif op == "p" then r = par_mode == "sym" and sym.var("par[" .. (n.i - 1) .. "]") or n.v
  elseif op == "u" then
    -- "num" (mbgen --check's redundancy test at the defaults): the default value
    r = par_mode == "sym" and input_sym(n, tv, sym) or n.v
  elseif op == "m" then
    if not measure_resolver then error("a measure of the state outside a load or sensor") end
    r = measure_resolver(n)
  elseif op == "neg" then r = -to_sym(n.a, tv, memo, sym)
  elseif op == "atan2" then r = sym.atan2(to_sym(n.a, tv, memo, sym), to_sym(n.b, tv, memo, sym))
  elseif binf[op] then r = binf[op](to_sym(n.a, tv, memo, sym), to_sym(n.b, tv, memo, sym))
  else
    local f = sym[sym_fn[op] or op]
    if f == nil then error("sym." .. (sym_fn[op] or op) .. " is missing") end
    r = f(to_sym(n.a, tv, memo, sym))
  end
  memo[n] = r
  return r
end

local function depends_on_t(n, memo)
  if memo[n] ~= nil then return memo[n] end
  local r
  if n.op == "t" or n.op == "u" or n.op == "m" then r = true   -- inputs and measures vary too
  elseif n.op == "k" or n.op == "p" then r = false
  else r = depends_on_t(n.a, memo) or (n.b ~= nil and depends_on_t(n.b, memo)) end
  memo[n] = r
  return r
end

local function depends_on_p(n, memo)
  if memo[n] ~= nil then return memo[n] end
  local r
  if n.op == "p" then r = true
  elseif n.op == "t" or n.op == "k" or n.op == "u" or n.op == "m" then r = false
  else r = depends_on_p(n.a, memo) or (n.b ~= nil and depends_on_p(n.b, memo)) end
  memo[n] = r
  return r
end

-- A parametric value: a number of the model that depends on tunables (docs/model-language.md,
-- "Tunable parameters"), not on time. Trusted tables only the generator makes and reads:
-- .value is the value at the defaults (what validation checks), .node the formula.
local PV = {}
-- The first node of kind op ("u" an input, "m" a measure) in a formula, or nil.
local function find_op(n, op, memo)
  if memo[n] ~= nil then return memo[n] or nil end
  local r
  if n.op == op then r = n
  elseif n.a then r = find_op(n.a, op, memo) or (n.b ~= nil and find_op(n.b, op, memo)) or nil end
  memo[n] = r or false
  return r
end
-- What a formula that must not vary depends on, for the message: "an input (u)", ...
local function varying_what(n)
  local u, m = find_op(n, "u", {}), find_op(n, "m", {})
  if m then return sfmt("the state (%s(\"%s\"))", m.kind, m.ref) end
  if u then return sfmt("an input (%s)", u.name) end
  return "time"
end

local function make_pv(n)
  return setmetatable({ node = n, value = eval(n, 0.0, {}) }, PV)
end
function model.is_param(x) return getmetatable(x) == PV end

-- The tf of the contract: a number, or a trusted function of t that returns a number for a
-- number and a sym node (or a number) for a sym node.
local tf_node = setmetatable({}, { __mode = "k" })   -- tf -> its formula (for describe)

local function make_tf(n)
  if not depends_on_t(n, {}) then
    if depends_on_p(n, {}) then return make_pv(n) end
    return eval(n, 0.0, {})
  end
  local f = function(t)
    if type(t) == "number" then return eval(n, t, {}) end
    local ok, sym = pcall(require, "sym")
    if not ok then error("functions of time need generator/sym.lua: " .. tostring(sym)) end
    return to_sym(n, t, {}, sym)
  end
  tf_node[f] = n
  return f
end

-- Infix text of a formula (for --dump), parenthesized below the top level; memoized and cut
-- at 2000 characters per subformula (a DAG can be exponentially larger as a tree).
local function formula(n, memo)
  local r = memo[n]
  if r then return r end
  local op = n.op
  if op == "t" then r = "t"
  elseif op == "k" then r = sfmt("%.17g", n.v)
  elseif op == "p" or op == "u" then r = n.name
  elseif op == "m" then r = n.kind .. "(\"" .. n.ref .. "\")" .. (n.comp and ("." .. n.comp) or "")
  elseif op == "atan2" then r = "atan2(" .. formula(n.a, memo) .. ", " .. formula(n.b, memo) .. ")"
  elseif op == "neg" then r = "(-" .. formula(n.a, memo) .. ")"
  elseif binf[op] then r = "(" .. formula(n.a, memo) .. " " .. op .. " " .. formula(n.b, memo) .. ")"
  else r = op .. "(" .. formula(n.a, memo) .. ")" end
  if #r > 2000 then r = "..." end
  memo[n] = r
  return r
end

-- model.param_view(M, mode) -> a copy of the validated model in which every parametric value is
-- replaced: mode "sym" by its formula as a sym node in the variables par[i] (the generated code
-- reads them from mb_model.par), mode "num" by its value at the defaults (the generic
-- evaluator's data). Functions of time are wrapped to convert their tunables the same way.
function model.param_view(M, mode)
  local sym = require("sym")
  local seen = {}
  local function conv(x)
    if model.is_param(x) then
      if mode == "num" then return x.value end
      local old = par_mode
      par_mode = "sym"
      local r = to_sym(x.node, nil, {}, sym)
      par_mode = old
      return sym.lift(r)
    end
    if type(x) == "function" then
      local w = function(t)
        local old = par_mode
        par_mode = mode
        local ok, r = pcall(x, t)
        par_mode = old
        if not ok then error(r, 0) end
        return r
      end
      tf_node[w] = tf_node[x]
      return w
    end
    if type(x) ~= "table" or getmetatable(x) ~= nil then return x end
    if seen[x] then return seen[x] end
    local c = {}
    seen[x] = c
    for k, v in next, x do c[k] = conv(v) end
    return c
  end
  return conv(M)
end

-- model.tf_uses(v) -> "state" when the time value v holds a measure of the state, "input" when
-- it holds an input, else nil.
function model.tf_uses(v)
  local n = type(v) == "function" and tf_node[v]
  if not n then return nil end
  if find_op(n, "m", {}) then return "state" end
  if find_op(n, "u", {}) then return "input" end
  return nil
end

-- model.describe(v) -> text of a time value: "%.17g" for a number, "f(t) = <formula>" for a
-- function of time made by the loader.
function model.describe(v)
  if type(v) == "number" then return sfmt("%.17g", v) end
  if model.is_param(v) then return "tunable " .. formula(v.node, {}) .. " = " .. sfmt("%.17g", v.value) end
  local n = tf_node[v]
  if n then return "f(t) = " .. formula(n, {}) end
  return tostring(v)
end

---------------------------------------------------------------- loading one model
-- Per-load state and helpers live in a context object so that loads do not interfere.
local function new_context(path, params, opts)
  local S = {
    -- file: the path for messages and the banner, on one line (control characters as '?')
    file = (sgsub(path, "%c", "?")), chunk = "@" .. path, path = path, params = params, opts = opts,
    used = {}, bodies = {}, body_by_name = {}, ground = {}, ground_line = {},
    elements = {}, el_by_name = {}, open = {}, assembly = {}, param_values = {},
    tunables = {}, tunable_by_name = {}, rules = {},
    inputs = {}, input_by_name = {}, measures = {}, sensors = {}, sensor_by_name = {},
  }

  -- Line of the innermost frame of the model file: the statement being executed.
  function S.here()
    for level = 2, 60 do
      local info = getinfo(level, "Sl")
      if info == nil then break end
      if info.source == S.chunk and info.currentline > 0 then return info.currentline end
    end
    return 0
  end

  function S.fail(line, fmt, ...)
    local where = (line and line > 0) and (S.file .. ":" .. line) or S.file
    error(where .. ": error: " .. sfmt(fmt, ...), 0)
  end
  return S
end

-- A sweep table's column sets a tunable or an input (--set NAME=VALUE) unless it names a
-- simulator option (docs/sweeps.md): one of the same name could not be swept, its column
-- silently the option.
local function check_not_option(S, line, what, name)
  local opt = SWEEP_OPTIONS[name]
  if opt then
    S.fail(line, "%s name '%s' is a simulator option's (%s): a sweep table's column '%s' "
           .. "means %s, so the %s could not be swept; give it another name", what, name, opt,
           name, opt, what)
  end
end

local function check_name(S, line, what, s)
  if type(s) ~= "string" then S.fail(line, "%s name must be a string, got %s", what, type(s)) end
  if #s > MAX_NAME then
    S.fail(line, "%s name '%s' is too long (%d characters, at most %d)", what, show(s), #s,
           MAX_NAME)
  end
  if not sfind(s, "^[A-Za-z_][A-Za-z0-9_]*$") then
    S.fail(line, "%s name '%s' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)", what, show(s))
  end
  return s
end

-- A unit (docs/model-language.md, "Units"): untrusted text that ends up in C strings, the FMU's
-- XML and Python, so it must parse as an SI-style unit expression and nothing else:
--   unit := term (("." | "*" | "/") term)*      term := atom (["^"] ["-"] digit [digit])?
--   atom := letters | "1" | "(" unit ")"        at most MAX_UNIT characters, ASCII only
-- (m, rad/s, m/s2, N.m, kg*m^2, N.m.s/rad, 1/s, (m/s)^2). Returns the text, or fails naming what.
local MAX_UNIT = 32
local function unit_text(S, line, what, u)
  if type(u) ~= "string" then S.fail(line, "%s: unit must be a string, got %s", what, type(u)) end
  if #u == 0 or #u > MAX_UNIT then
    S.fail(line, "%s: unit '%s' must have 1 to %d characters (it has %d)", what, show(u), MAX_UNIT, #u)
  end
  local pos, ok = 1, true
  local expr
  local function atom()
    local a, b = sfind(u, "^[A-Za-z]+", pos)
    if a then pos = b + 1 return true end
    if ssub(u, pos, pos) == "1" then pos = pos + 1 return true end
    if ssub(u, pos, pos) == "(" then
      pos = pos + 1
      if not expr() or ssub(u, pos, pos) ~= ")" then return false end
      pos = pos + 1
      return true
    end
    return false
  end
  local function term()
    if not atom() then return false end
    local a, b = sfind(u, "^%^?%-?%d%d?", pos)
    if a then pos = b + 1 end
    return true
  end
  expr = function()
    if not term() then return false end
    while sfind(u, "^[.*/]", pos) do
      pos = pos + 1
      if not term() then return false end
    end
    return true
  end
  ok = expr() and pos == #u + 1
  if not ok then
    S.fail(line, "%s: unit '%s' is not a unit expression (letters, 1, exponents such as m2 or s^-1, "
           .. "joined by . * / and grouped by parentheses: m/s2, N.m, kg*m^2)", what, show(u))
  end
  return u
end

local function number(S, line, what, v)
  if type(v) == "table" and tnode[v] ~= nil then
    S.fail(line, "%s must be a plain number (not a tunable or a function of time)", what)
  end
  if type(v) ~= "number" then S.fail(line, "%s must be a number, got %s", what, type(v)) end
  if not is_finite(v) then S.fail(line, "%s is not a finite number (%s)", what, tostring(v)) end
  return v + 0.0
end

-- A number, or where tunables are allowed a formula of tunables (not of time): a parametric
-- value. Every parametric value gets a rule (docs/model-language.md, "Tunable parameters"),
-- checked by the generated <name>_par_check when a value is set: kind "finite", ">0" or ">=0".
local function pnumber(S, line, what, v, kind)
  if type(v) == "table" and tnode[v] ~= nil then
    local n = tnode[v]
    if depends_on_t(n, {}) then S.fail(line, "%s cannot depend on %s", what, varying_what(n)) end
    local x = eval(n, 0.0, {})
    if not is_finite(x) then
      S.fail(line, "%s is not a finite number at the tunables' defaults (%s)", what, tostring(x))
    end
    if not depends_on_p(n, {}) then return x + 0.0 end
    local pv = make_pv(n)
    S.rules[#S.rules + 1] = { what = what, kind = kind or "finite", value = pv, line = line }
    return pv
  end
  return number(S, line, what, v)
end
local function val(x) if model.is_param(x) then return x.value end return x end

-- A mass or inertia (the runtime divides by it) must be a normal number: a subnormal one keeps
-- too few digits and its reciprocal overflows (MB_REAL_MIN, runtime/mb_config.h; the generated
-- <name>_par_check holds tunable values to the same rule).
local REAL_MIN = 2.2250738585072014e-308
local function normal_divisor(S, line, what, v)
  if v < REAL_MIN then
    S.fail(line, "%s must be a normal number (at least %.17g: a subnormal value's reciprocal "
      .. "overflows), got %.17g", what, REAL_MIN, v)
  end
end

-- A constant of sine{}, step{} or ramp{} that may be a tunable: a number, or the tunable's
-- formula as it is (combined into the function of time).
local function tvalue(S, line, what, v)
  if type(v) == "table" and tnode[v] ~= nil then
    local n = tnode[v]
    if depends_on_t(n, {}) then S.fail(line, "%s cannot depend on %s", what, varying_what(n)) end
    if not is_finite(eval(n, 0.0, {})) then
      S.fail(line, "%s is not a finite number at the tunables' defaults", what)
    end
    return v
  end
  return number(S, line, what, v)
end

-- Raw copy of a statement table: named fields must be in `allowed`, exactly npos positional
-- entries. Reads with next, so no metamethod of the model runs.
local function fields(S, line, what, t, allowed, npos)
  if type(t) ~= "table" then S.fail(line, "%s: expected a table { ... }, got %s", what, type(t)) end
  local named, pos, count = {}, {}, 0
  local k, v = next(t)
  while k ~= nil do
    count = count + 1
    if count > 100000 then S.fail(line, "%s: too many entries", what) end
    if mtype(k) == "integer" then
      if k < 1 or k > npos then
        S.fail(line, "%s: unexpected positional entry [%d] (%d expected)", what, k, npos)
      end
      pos[k] = v
    elseif type(k) == "string" then
      if not allowed[k] then S.fail(line, "%s: unknown field '%s'", what, show(k)) end
      named[k] = v
    else
      S.fail(line, "%s: unexpected key of type %s", what, type(k))
    end
    k, v = next(t, k)
  end
  for i = 1, npos do
    if pos[i] == nil then
      S.fail(line, "%s: expected %d positional entr%s, entry %d is missing", what, npos,
             npos == 1 and "y" or "ies", i)
    end
  end
  return named, pos
end

local function vec(S, line, what, v, n)
  if type(v) ~= "table" then
    S.fail(line, "%s must be a table of %d numbers, got %s", what, n, type(v))
  end
  local _, p = fields(S, line, what, v, {}, n)
  local out = {}
  for i = 1, n do out[i] = number(S, line, what .. "[" .. i .. "]", p[i]) end
  return out
end

-- vec whose entries may be tunable (parametric values)
local function pvec(S, line, what, v, n)
  if type(v) ~= "table" or tnode[v] ~= nil then
    S.fail(line, "%s must be a table of %d numbers, got %s", what, n, type(v))
  end
  local _, p = fields(S, line, what, v, {}, n)
  local out = {}
  for i = 1, n do out[i] = pnumber(S, line, what .. "[" .. i .. "]", p[i]) end
  return out
end

local function nonneg(S, line, what, v, default)
  if v == nil then return default end
  v = pnumber(S, line, what, v, ">=0")
  if val(v) < 0 then S.fail(line, "%s must be >= 0, got %.17g", what, val(v)) end
  return v
end

-- A formula may hold an input only where `allow.u`, a measure of the state only where
-- `allow.m` (docs/model-language.md: loads take both, a driver's f and a spring's l0 inputs).
local function find_reaction(n)
  if n.op == "m" and n.kind == "reaction" then return n end
  return n.a and (find_reaction(n.a) or (n.b ~= nil and find_reaction(n.b))) or nil
end
local function check_varying(S, line, what, n, allow)
  local r = not allow.r and find_reaction(n)
  if r then
    S.fail(line, '%s cannot depend on a reaction (reaction("%s").%s): reactions are allowed in sensors only',
           what, r.ref, r.comp)
  end
  local m = find_op(n, "m", {})
  if m and not allow.m then
    S.fail(line, "%s cannot depend on the state (%s(\"%s\")): measures are allowed in the loads fx, fy, tau, an actuator's f and sensors",
           what, m.kind, m.ref)
  end
  local u = find_op(n, "u", {})
  if u and not allow.u then S.fail(line, "%s cannot depend on an input (%s)", what, u.name) end
end

-- A load or driver value: a number, or a function of t traced now (inside the model run).
-- allow: { u = inputs allowed, m = measures allowed } (default: loads, both).
local function timefn(S, line, what, v, t_proxy, allow)
  allow = allow or { u = true, m = true }
  if type(v) == "number" then return number(S, line, what, v) end
  if type(v) == "table" and tnode[v] ~= nil then
    local n = tnode[v]
    if not depends_on_t(n, {}) then return pnumber(S, line, what, v) end
    if find_op(n, "u", {}) or find_op(n, "m", {}) then   -- fx = u, tau = -c * rate("J")
      check_varying(S, line, what, n, allow)
      return make_tf(n)
    end
    S.fail(line, "%s: give a function of time as function(t) ... end", what)
  end
  if type(v) ~= "function" then
    S.fail(line, "%s must be a number or a function of time, got %s", what, type(v))
  end
  local r = v(t_proxy)
  if type(r) == "number" then return number(S, line, what .. " (constant result)", r) end
  local n = tnode[r]
  if n == nil then
    S.fail(line, "%s: the function of time returned a %s (expected a number or a formula in t)",
           what, type(r))
  end
  if not depends_on_t(n, {}) then return pnumber(S, line, what, r) end
  check_varying(S, line, what, n, allow)
  return make_tf(n)
end

---------------------------------------------------------------- the sandbox environment
local forbidden = {
  os = true, io = true, require = true, dofile = true, loadfile = true, debug = true,
  package = true, collectgarbage = true, coroutine = true, loadstring = true,
}

local function copy(t, skip)
  local c = {}
  for k, v in next, t do if not (skip and skip[k]) then c[k] = v end end
  return c
end

local function make_env(S)
  local env = {}
  local T = mk { op = "t" }
  local user_mts = setmetatable({}, { __mode = "k" })

  for _, k in ipairs { "assert", "error", "ipairs", "next", "pairs", "pcall", "select",
                       "tonumber", "tostring", "type", "xpcall", "rawequal", "rawlen",
                       "rawget", "rawset", "_VERSION" } do
    env[k] = G[k]
  end
  env.string = copy(G.string, { dump = true })
  env.table = copy(G.table)
  env.utf8 = copy(G.utf8)
  env.math = copy(G.math)
  for _, f in ipairs { "sin", "cos", "tan", "exp", "log", "sqrt", "abs" } do
    env[f] = unary(f)
    env.math[f] = env[f]
  end
  env.heaviside = unary("heaviside")
  env.tanh = unary("tanh")
  -- Generation must be reproducible: math.random starts from a fixed seed (set in
  -- model.load) and randomseed needs an explicit seed.
  local randomseed = G.math.randomseed
  env.math.randomseed = function(x, y)
    if type(x) ~= "number" then
      uerror("math.randomseed needs an explicit seed in a model file (reproducible output)")
    end
    randomseed(x, y)
  end
  env.pi = pi
  env._G = env

  -- print: one line per call on stderr, control characters (terminal escapes, newlines) shown
  -- as '?', at most PRINT_MAX bytes per model run (time blocked on output is not CPU time, so
  -- no other limit stops a model printing in a loop); then one notice and silence.
  local printed, print_cut = 0, false
  env.print = function(...)
    if print_cut then return end
    local parts = {}
    for i = 1, select("#", ...) do
      local p = tostring((select(i, ...)))
      if #p > PRINT_MAX then p = ssub(p, 1, PRINT_MAX) end
      parts[i] = p
    end
    local text = S.file .. ": " .. sgsub(tconcat(parts, "\t"), "[%z\1-\8\10-\31\127]", "?") .. "\n"
    if printed + #text > PRINT_MAX then
      print_cut = true
      stderr:write(S.file, ": print output stopped at the limit of ", PRINT_MAX,
                   " bytes per model\n")
      return
    end
    printed = printed + #text
    stderr:write(text)
  end

  -- Text chunks only, in the sandbox unless another environment is given.
  env.load = function(chunk, name, mode, e)
    if mode ~= nil and mode ~= "t" then
      uerror("load: only text chunks may be loaded in a model file (mode 't')")
    end
    if type(chunk) ~= "string" and type(chunk) ~= "function" then
      uerror("bad argument #1 to 'load' (string expected, got " .. type(chunk) .. ")")
    end
    if e == nil then e = env end
    return load(chunk, name, "t", e)
  end

  -- Metatables: the model may only see and change metatables it set itself, never the
  -- generator's (strings, the environment, functions of time), and may not add finalizers
  -- (they would run later, outside the limits).
  env.setmetatable = function(t, mt)
    if type(t) ~= "table" then
      uerror("bad argument #1 to 'setmetatable' (table expected, got " .. type(t) .. ")")
    end
    local old = dgetmetatable(t)
    if old ~= nil and not user_mts[old] then uerror("cannot change a protected metatable") end
    if mt ~= nil then
      if type(mt) ~= "table" then
        uerror("bad argument #2 to 'setmetatable' (nil or table expected)")
      end
      if rawget(mt, "__gc") ~= nil then
        uerror("__gc metamethods are not allowed in a model file")
      end
      user_mts[mt] = true
    end
    return setmetatable(t, mt)
  end
  env.getmetatable = function(v)
    local mt = dgetmetatable(v)
    if mt ~= nil and user_mts[mt] then return getmetatable(v) end
    return nil
  end

  -- Statements -------------------------------------------------------------------------
  env.name = function(s)
    local line = S.here()
    check_name(S, line, "model", s)
    if S.name then S.fail(line, "model name given twice (first at line %d)", S.name_line) end
    S.name, S.name_line = s, line
  end

  env.gravity = function(v)
    local line = S.here()
    if S.gravity then S.fail(line, "gravity given twice (first at line %d)", S.gravity_line) end
    S.gravity, S.gravity_line = pvec(S, line, "gravity", v, 2), line
  end

  -- simulate { ... }: the model's recommended run settings (docs/model-language.md,
  -- "Run settings"). Top-level t_end, h and the formulation parameters; a table per
  -- formulation overrides the latter for that formulation, and its `float` table those of a
  -- single-precision firmware. Every value is checked here; what is not given stays
  -- mb_params_default's (the tools' fallback).
  local SIM_FORMS = { "baumgarte", "canonical", "alf-explicit", "alf-trapezoid" }
  local SIM_PARAMS = { "alpha", "xi", "omega", "tol", "max_iter" }
  local function sim_value(line, what, k, v)
    if k == "max_iter" then
      if mtype(v) ~= "integer" and not (type(v) == "number" and is_finite(v) and v == math.floor(v)) then
        S.fail(line, "%s must be an integer, got %s", what,
               type(v) == "number" and sfmt("%.17g", v) or type(v))
      end
      v = math.tointeger(v)
      if v == nil or v < 1 or v > 1000 then
        S.fail(line, "%s must be an integer in 1..1000", what)
      end
      return v
    end
    v = number(S, line, what, v)
    if k == "xi" or k == "omega" then
      if v < 0 then S.fail(line, "%s must be >= 0, got %.17g", what, v) end
    elseif not (v > 0) then
      S.fail(line, "%s must be > 0, got %.17g", what, v)
    end
    return v
  end
  local function sim_params(line, what, t, extra)
    local allowed = {}
    for _, k in ipairs(SIM_PARAMS) do allowed[k] = true end
    for k in next, extra or {} do allowed[k] = true end
    local named = fields(S, line, what, t, allowed, 0)
    local out = {}
    for _, k in ipairs(SIM_PARAMS) do
      if named[k] ~= nil then out[k] = sim_value(line, what .. ": " .. k, k, named[k]) end
    end
    return out, named
  end
  env.simulate = function(t)
    local line = S.here()
    if S.simulate then
      S.fail(line, "simulate given twice (first at line %d)", S.simulate_line)
    end
    local extra = { t_end = true, h = true }
    for _, f in ipairs(SIM_FORMS) do extra[f] = true end
    local common, named = sim_params(line, "simulate", t, extra)
    local sim = { forms = {} }
    for _, k in ipairs { "t_end", "h" } do
      if named[k] ~= nil then sim[k] = sim_value(line, "simulate: " .. k, k, named[k]) end
    end
    if sim.t_end and sim.h and sim.t_end / sim.h > 2e9 then
      S.fail(line, "simulate: t_end / h = %.3g steps (at most 2e9)", sim.t_end / sim.h)
    end
    for i, f in ipairs(SIM_FORMS) do
      local own, fl = {}, nil
      if named[f] ~= nil then
        local fnamed
        own, fnamed = sim_params(line, "simulate: " .. f, named[f], { float = true })
        if fnamed.float ~= nil then
          fl = sim_params(line, "simulate: " .. f .. ": float", fnamed.float)
        end
      end
      local merged = {}
      for _, k in ipairs(SIM_PARAMS) do
        if own[k] ~= nil then merged[k] = own[k] else merged[k] = common[k] end
      end
      sim.forms[i] = { name = f, params = merged, float = fl or {} }
    end
    S.simulate, S.simulate_line = sim, line
  end

  env.param = function(pname, default)
    local line = S.here()
    check_name(S, line, "parameter", pname)
    S.used[pname] = true
    local given = S.params[pname]
    if given ~= nil then return given.value end
    if default == nil then
      S.fail(line, "parameter %s has no default: give it with -D %s=value", pname, pname)
    end
    if type(default) ~= "number" then
      S.fail(line, "default of parameter %s must be a number, got %s", pname, type(default))
    end
    if not is_finite(default) then
      S.fail(line, "default of parameter %s is not a finite number", pname)
    end
    return default
  end

  -- tunable("k", default): a run-time parameter (docs/model-language.md, "Tunable
  -- parameters"): an opaque value that combines with numbers like a function of time does.
  env.tunable = function(pname, default, unit, ...)
    local line = S.here()
    check_name(S, line, "tunable", pname)
    if select("#", ...) > 0 then
      S.fail(line, "tunable %s: at most three arguments (name, default, unit)", pname)
    end
    if unit ~= nil then unit = unit_text(S, line, "tunable " .. pname, unit) end
    check_not_option(S, line, "tunable", pname)
    local prev = S.tunable_by_name[pname]
    prev = prev or S.tunable_by_name[pname:upper()]
    if prev then
      S.fail(line, "duplicate tunable '%s' (first at line %d; names must differ ignoring case)",
             pname, prev.line)
    end
    local inp = S.input_by_name[pname] or S.input_by_name[pname:upper()]
    if inp then   -- one name, one meaning: --set NAME and the in.NAME column would both take it
      S.fail(line, "tunable '%s' has the name of input '%s' (line %d; names must differ ignoring case)",
             pname, inp.name, inp.line)
    end
    if #S.tunables >= MAX_TUNABLES then S.fail(line, "too many tunables (at most %d)", MAX_TUNABLES) end
    if type(default) ~= "number" then
      S.fail(line, "default of tunable %s must be a number, got %s", pname, type(default))
    end
    if not is_finite(default) then S.fail(line, "default of tunable %s is not a finite number", pname) end
    local tu = { name = pname, default = default + 0.0, unit = unit, line = line, index = #S.tunables + 1 }
    S.tunables[tu.index] = tu
    S.tunable_by_name[pname] = tu
    S.tunable_by_name[pname:upper()] = tu
    return mk { op = "p", i = tu.index, v = tu.default, name = pname }
  end

  -- input "u" { default = 0 }: a value the caller sets between steps (docs/model-language.md,
  -- "Inputs"): an opaque value like a tunable, that varies in time like t.
  env.input = function(iname)
    local line = S.here()
    check_name(S, line, "input", iname)
    check_not_option(S, line, "input", iname)
    return function(t)
      local f = fields(S, line, 'input "' .. iname .. '"', t, { default = true, unit = true }, 0)
      local unit = f.unit ~= nil and unit_text(S, line, 'input "' .. iname .. '"', f.unit) or nil
      local prev = S.input_by_name[iname] or S.input_by_name[iname:upper()]
      if prev then
        S.fail(line, "duplicate input '%s' (first at line %d; names must differ ignoring case)",
               iname, prev.line)
      end
      local tu = S.tunable_by_name[iname] or S.tunable_by_name[iname:upper()]
      if tu then
        S.fail(line, "input '%s' has the name of tunable '%s' (line %d; names must differ ignoring case)",
               iname, tu.name, tu.line)
      end
      if #S.inputs >= MAX_TUNABLES then S.fail(line, "too many inputs (at most %d)", MAX_TUNABLES) end
      local d = f.default == nil and 0.0 or number(S, line, 'input "' .. iname .. '" default', f.default)
      local inp = { name = iname, default = d, unit = unit, line = line, index = #S.inputs + 1 }
      S.inputs[inp.index] = inp
      S.input_by_name[iname], S.input_by_name[iname:upper()] = inp, inp
      return mk { op = "u", i = inp.index, v = d, name = iname }
    end
  end

  -- Measures of the state (docs/model-language.md, "Forces that depend on the state"): resolved
  -- after the model has run (the elements they name may come later in the file).
  local function measure(kind, comp)
    return function(ref)
      local line = S.here()
      if type(ref) ~= "string" then
        S.fail(line, "%s: expected a name string, got %s", kind, type(ref))
      end
      local function node(c)
        local n = { op = "m", kind = kind, ref = ref, comp = c, line = line, v = 0.0 }
        S.measures[#S.measures + 1] = n
        return mk(n)
      end
      if comp then return { x = node("x"), y = node("y") } end
      return node(nil)
    end
  end
  env.pos, env.vel = measure("pos", true), measure("vel", true)
  -- reaction("J").fx ...: a joint's or driver's reaction, read from the multipliers (sensors
  -- only; the components by element kind: reaction_comps, checked once the elements are known)
  env.reaction = function(ref)
    local line = S.here()
    if type(ref) ~= "string" then
      S.fail(line, "reaction: expected a name string, got %s", type(ref))
    end
    return setmetatable({}, { reaction = ref, __index = function(_, c)
      if type(c) ~= "string" then S.fail(line, 'reaction("%s"): expected a component name', ref) end
      local n = { op = "m", kind = "reaction", ref = ref, comp = c, line = line, v = 0.0 }
      S.measures[#S.measures + 1] = n
      return mk(n)
    end })
  end
  env.angle, env.rate = measure("angle"), measure("rate")
  env.length, env.lengthrate = measure("length"), measure("lengthrate")
  env.atan2 = atan2
  env.gap, env.normal, env.friction, env.slip = measure("gap"), measure("normal"),
    measure("friction"), measure("slip")

  env.ground = function(t)
    local line = S.here()
    if type(t) ~= "table" then S.fail(line, "ground: expected a table { P = { x, y } }") end
    local k, v = next(t)
    while k ~= nil do
      if type(k) ~= "string" then S.fail(line, "ground: point names must be strings") end
      check_name(S, line, "ground point", k)
      if S.ground[k] then
        S.fail(line, "duplicate ground point '%s' (first at line %d)", k, S.ground_line[k])
      end
      S.ground[k] = pvec(S, line, "ground point " .. k, v, 2)
      S.ground_line[k] = line
      k, v = next(t, k)
    end
  end

  -- A statement of the form  kind "name" { ... }.
  local function statement(kind, handler)
    return function(ename)
      local line = S.here()
      check_name(S, line, kind, ename)
      local rec = { kind = kind, name = ename, line = line }
      S.open[rec] = true
      return function(t)
        S.open[rec] = nil
        handler(ename, t, line, sfmt('%s "%s"', kind, ename))
      end
    end
  end

  env.body = statement("body", function(bname, t, line, what)
    local f = fields(S, line, what, t, { mass = true, inertia = true, points = true,
      angle = true, position = true, velocity = true }, 0)
    if bname == "ground" then S.fail(line, "'ground' is reserved and cannot name a body") end
    local prev = S.body_by_name[bname]
    if prev then S.fail(line, 'duplicate body "%s" (first declared at line %d)', bname, prev.line) end
    if #S.bodies >= MAX_BODIES then S.fail(line, "too many bodies (at most %d)", MAX_BODIES) end
    if f.mass == nil then S.fail(line, "%s: mass is missing", what) end
    if f.inertia == nil then S.fail(line, "%s: inertia is missing", what) end
    local b = { name = bname, line = line,
      mass = pnumber(S, line, what .. " mass", f.mass, ">0"),
      inertia = pnumber(S, line, what .. " inertia", f.inertia, ">0"),
      angle = f.angle == nil and 0.0 or number(S, line, what .. " angle", f.angle) }
    if val(b.mass) <= 0 then S.fail(line, "%s: mass must be > 0, got %.17g", what, val(b.mass)) end
    if val(b.inertia) <= 0 then
      S.fail(line, "%s: inertia must be > 0, got %.17g", what, val(b.inertia))
    end
    normal_divisor(S, line, what .. ": mass", val(b.mass))
    normal_divisor(S, line, what .. ": inertia", val(b.inertia))
    local pos = f.position and vec(S, line, what .. " position", f.position, 2) or { 0.0, 0.0 }
    b.x, b.y = pos[1], pos[2]
    if f.velocity ~= nil then
      local v = vec(S, line, what .. " velocity", f.velocity, 3)
      b.vx, b.vy, b.omega, b.velocity_given = v[1], v[2], v[3], true
    else
      b.vx, b.vy, b.omega = 0.0, 0.0, 0.0
    end
    b.points, b.point_by_name = {}, {}
    if f.points ~= nil then
      if type(f.points) ~= "table" then
        S.fail(line, "%s: points must be a table { P = { x, y }, ... }", what)
      end
      local k, v = next(f.points)
      while k ~= nil do
        if type(k) ~= "string" then S.fail(line, "%s: point names must be strings", what) end
        check_name(S, line, "point", k)
        if #b.points >= MAX_POINTS then S.fail(line, "%s: too many points", what) end
        local p = pvec(S, line, what .. " point " .. k, v, 2)
        local pt = { name = k, x = p[1], y = p[2] }
        b.points[#b.points + 1] = pt
        b.point_by_name[k] = pt
        k, v = next(f.points, k)
      end
      tsort(b.points, function(p1, p2) return p1.name < p2.name end)
    end
    S.bodies[#S.bodies + 1] = b
    S.body_by_name[bname] = b
  end)

  -- particle "P" { mass = m, position = { x, y } (or x = , y = ), velocity = { vx, vy } }: a
  -- point mass with two coordinates (x, y), no rotation and no inertia. It joins the body list
  -- (its coordinates follow the previous body's) and is referred to by its bare name "P".
  env.particle = statement("particle", function(pname, t, line, what)
    local f = fields(S, line, what, t, { mass = true, position = true, x = true, y = true,
      velocity = true }, 0)
    if pname == "ground" then S.fail(line, "'ground' is reserved and cannot name a particle") end
    local prev = S.body_by_name[pname]
    if prev then
      S.fail(line, 'duplicate name "%s" (the %s declared at line %d)', pname,
             prev.particle and "particle" or "body", prev.line)
    end
    if #S.bodies >= MAX_BODIES then S.fail(line, "too many bodies and particles (at most %d)", MAX_BODIES) end
    if f.mass == nil then S.fail(line, "%s: mass is missing", what) end
    local b = { name = pname, line = line, particle = true, angle = 0.0,
      mass = number(S, line, what .. " mass", f.mass) }
    if b.mass <= 0 then S.fail(line, "%s: mass must be > 0, got %.17g", what, b.mass) end
    normal_divisor(S, line, what .. ": mass", b.mass)
    if f.position ~= nil and (f.x ~= nil or f.y ~= nil) then
      S.fail(line, "%s: give position = { x, y } or x = .., y = .., not both", what)
    end
    local pos = f.position and vec(S, line, what .. " position", f.position, 2) or
      { f.x == nil and 0.0 or number(S, line, what .. " x", f.x),
        f.y == nil and 0.0 or number(S, line, what .. " y", f.y) }
    b.x, b.y = pos[1], pos[2]
    if f.velocity ~= nil then
      local v = vec(S, line, what .. " velocity", f.velocity, 2)
      b.vx, b.vy, b.velocity_given = v[1], v[2], true
    else
      b.vx, b.vy = 0.0, 0.0
    end
    b.omega = 0.0
    b.points, b.point_by_name = {}, {}
    S.bodies[#S.bodies + 1] = b
    S.body_by_name[pname] = b
  end)

  local function element(kind, allowed, npos0, build)
    return statement(kind, function(ename, t, line, what)
      -- npos0 a function: the number of positional entries depends on the table (torque)
      local npos = type(npos0) == "function" and npos0(t) or npos0
      local f, pos = fields(S, line, what, t, allowed, npos)
      local prev = S.el_by_name[ename]
      if prev then
        S.fail(line, 'duplicate element name "%s" (first used by the %s at line %d)', ename,
               prev.kind, prev.line)
      end
      if #S.elements >= MAX_ELEMENTS then S.fail(line, "too many elements (at most %d)", MAX_ELEMENTS) end
      for i = 1, npos do
        if type(pos[i]) ~= "string" then
          S.fail(line, "%s: entry %d must be a string reference, got %s", what, i, type(pos[i]))
        end
      end
      local el = { kind = kind, name = ename, line = line, refs = pos }
      build(el, f, line, what)
      S.elements[#S.elements + 1] = el
      S.el_by_name[ename] = el
    end)
  end

  env.revolute = element("revolute", {}, 2, function() end)
  -- a sliding axis (prismatic joint, slot): required, any non-zero length, normalized
  local function unit_axis(f, line, what)
    if f.axis == nil then S.fail(line, "%s: axis is missing", what) end
    local a = vec(S, line, what .. " axis", f.axis, 2)
    -- length scaled by the larger component: { 1e308, 1e308 } is long, not "zero length"
    -- (its squares overflowed), and { 1e-200, 0 } does not underflow to 0
    local m = mabs(a[1]) > mabs(a[2]) and mabs(a[1]) or mabs(a[2])
    if m == 0 then S.fail(line, "%s: axis has zero length", what) end
    local u1, u2 = a[1] / m, a[2] / m
    local len = msqrt(u1 * u1 + u2 * u2)
    return { u1 / len, u2 / len }
  end
  env.prismatic = element("prismatic", { axis = true, angle = true }, 2, function(el, f, line, what)
    el.axis = unit_axis(f, line, what)
    el.angle = f.angle == nil and 0.0 or pnumber(S, line, what .. " angle", f.angle)
  end)
  -- slot "S" { "b1.P", "b2.Q", axis = { ax, ay } }: Q stays on the line through P along axis,
  -- fixed in b1 (the prismatic joint's perpendicular equation alone: b2 turns freely)
  env.slot = element("slot", { axis = true }, 2, function(el, f, line, what)
    el.axis = unit_axis(f, line, what)
  end)
  -- gear "G" { "J1", "J2", ratio = z2 / z1, internal = false, offset = c } between two revolute
  -- joints on one carrier; rack "R" { "J", "P", radius = r, offset = c } between a revolute and a
  -- prismatic joint on one frame. Resolved (the joints may come later) in resolve().
  local function optional_number(f, key, line, what)
    return f[key] ~= nil and number(S, line, what .. " " .. key, f[key]) or nil
  end
  env.gear = element("gear", { ratio = true, internal = true, offset = true }, 2,
    function(el, f, line, what)
      if f.ratio == nil then S.fail(line, "%s: ratio is missing", what) end
      el.ratio = number(S, line, what .. " ratio", f.ratio)
      if not (el.ratio > 0) then
        S.fail(line, "%s: ratio must be > 0 (the tooth ratio z2 / z1; an internal mesh is internal = true), got %.17g",
               what, el.ratio)
      end
      if f.internal ~= nil and type(f.internal) ~= "boolean" then
        S.fail(line, "%s: internal must be true or false, got %s", what, type(f.internal))
      end
      el.internal = f.internal == true
      el.offset = optional_number(f, "offset", line, what)
    end)
  env.rack = element("rack", { radius = true, offset = true }, 2, function(el, f, line, what)
    if f.radius == nil then S.fail(line, "%s: radius is missing", what) end
    el.radius = number(S, line, what .. " radius", f.radius)
    if el.radius == 0 then
      S.fail(line, "%s: radius must not be 0 (the pinion's pitch radius, signed: docs/model-language.md)", what)
    end
    el.offset = optional_number(f, "offset", line, what)
  end)
  -- cam "C" { "cam.O", "follower.P", profile = {..}, roller = r }: P (or a roller of radius r
  -- centred at P) stays on a closed profile fixed in the cam body about its point O
  -- (generator/cam.lua: the profiles and the equation; docs/model-language.md, "Cams")
  local function cam_list(v, key, what, line)
    if v == nil then return {} end
    if type(v) ~= "table" or tnode[v] ~= nil then
      S.fail(line, "%s: %s must be a list of numbers { .. }, got %s", what, key, type(v))
    end
    local _, p = fields(S, line, what .. " " .. key, v, {}, #v)
    local out = {}
    for i = 1, #v do out[i] = number(S, line, what .. " " .. key .. "[" .. i .. "]", p[i]) end
    return out
  end
  -- a profile (Fourier, circle, spline or function of the angle), checked; shared by cam and
  -- contact (a contact against a profile: the same forms)
  local function parse_profile(p, line, what)
    local cam = require("cam")
    local el = {}
    if p == nil then
      S.fail(line, "%s: profile is missing (Fourier coefficients { a0 = .., a = { .. }, b = { .. } } or a circle { circle = R, centre = { x, y } })", what)
    end
    if type(p) == "function" then
      -- r(psi) as a formula of an opaque angle: traced with the time proxy standing for psi
      -- (make_tf then evaluates it at a number or converts it at a sym node: the angle)
      local r = p(T)
      if type(r) == "number" then
        r = number(S, line, what .. " profile (constant result)", r)
        el.profile = cam.function_profile(function() return r end, what)
      else
        local n = tnode[r]
        if n == nil then
          S.fail(line, "%s: the profile function returned a %s (expected a number or a formula in its angle)",
                 what, type(r))
        end
        if depends_on_p(n, {}) then
          S.fail(line, "%s: the profile function depends on a tunable: a profile is plain numbers", what)
        end
        check_varying(S, line, what .. " profile", n, {})
        el.profile = cam.function_profile(make_tf(n), what)
      end
      local ok, err = cam.check_function(el.profile)
      if not ok then S.fail(line, "%s: %s", what, err) end
    else
      if type(p) ~= "table" or tnode[p] ~= nil then
        S.fail(line, "%s: profile must be a table of Fourier coefficients { a0 = .., a = { .. }, b = { .. } }, a circle { circle = R, centre = { x, y } } or a function of the angle, got %s",
               what, tnode[p] ~= nil and "a formula" or type(p))
      end
      local g = fields(S, line, what .. " profile", p, { a0 = true, a = true, b = true, circle = true,
                                                          centre = true, spline = true }, 0)
      if g.spline ~= nil then
        if g.a0 ~= nil or g.a ~= nil or g.b ~= nil or g.circle ~= nil or g.centre ~= nil then
          S.fail(line, "%s: profile gives a spline and other keys (a0, a, b, circle, centre): a spline alone", what)
        end
        local sp = g.spline
        if type(sp) ~= "table" or tnode[sp] ~= nil then
          S.fail(line, "%s: profile spline must be a list of points { { phi, r }, .. }, got %s", what, type(sp))
        end
        local _, list = fields(S, line, what .. " profile spline", sp, {}, #sp)
        local n = #list
        if n < 3 or n > cam.MAX_SPLINE then
          S.fail(line, "%s: profile spline has %d points: from 3 to %d", what, n, cam.MAX_SPLINE)
        end
        local pts = {}
        for i = 1, n do
          local pt = vec(S, line, what .. " profile spline[" .. i .. "]", list[i], 2)
          if not (pt[2] > 0) then
            S.fail(line, "%s: profile spline[%d]: radius %.17g must be > 0", what, i, pt[2])
          end
          if i > 1 and not (pt[1] > pts[i - 1][1]) then
            S.fail(line, "%s: profile spline[%d]: angle %.17g is not above the previous point's %.17g (the angles must increase)",
                   what, i, pt[1], pts[i - 1][1])
          end
          pts[i] = pt
        end
        if not (pts[n][1] - pts[1][1] < 2 * math.pi) then
          S.fail(line, "%s: profile spline spans %.17g rad from its first angle to its last: less than a turn (2 pi), the curve closes by itself",
                 what, pts[n][1] - pts[1][1])
        end
        el.profile = cam.spline_fit(pts)
        local ok, err = cam.check_spline(el.profile)
        if not ok then S.fail(line, "%s: %s", what, err) end
      elseif g.circle ~= nil then
        if g.a0 ~= nil or g.a ~= nil or g.b ~= nil then
          S.fail(line, "%s: profile gives a circle and Fourier coefficients: one or the other", what)
        end
        local R = number(S, line, what .. " profile circle", g.circle)
        if not (R > 0) then S.fail(line, "%s: profile circle (the radius) must be > 0, got %.17g", what, R) end
        local c = g.centre ~= nil and vec(S, line, what .. " profile centre", g.centre, 2) or { 0.0, 0.0 }
        el.profile = { kind = "circle", radius = R, centre = c }
      else
        if g.centre ~= nil then
          S.fail(line, "%s: profile centre belongs to a circle profile (circle = R)", what)
        end
        if g.a0 == nil then
          S.fail(line, "%s: profile a0 (the mean radius) is missing: an empty profile has no curve", what)
        end
        local a0 = number(S, line, what .. " profile a0", g.a0)
        local a, b = cam_list(g.a, "profile a", what, line), cam_list(g.b, "profile b", what, line)
        local K = math.max(#a, #b)
        if K > cam.MAX_HARMONICS then
          S.fail(line, "%s: profile has %d harmonics, at most %d", what, K, cam.MAX_HARMONICS)
        end
        for k = 1, K do a[k], b[k] = a[k] or 0.0, b[k] or 0.0 end
        el.profile = { kind = "fourier", a0 = a0, a = a, b = b }
        local rmin, at, rgrid = cam.fourier_min(el.profile)
        local n = math.max(cam.GRID, 64 * K)
        if not (rgrid > 0) then
          S.fail(line, "%s: the profile's radius is not positive everywhere: r(%.6g rad) = %.6g (the smallest of %d angles; a polar profile needs r > 0)",
                 what, at, rgrid, n)
        elseif not (rmin > 0) then
          S.fail(line, "%s: the profile's radius may not be positive everywhere: the smallest of %d angles, r(%.6g rad) = %.6g, is within %.3g of 0, the most the curve can dip between them (max|r''| h^2 / 8)",
                 what, n, at, rgrid, rgrid - rmin)
        end
      end
    end
    return el.profile
  end
  env.cam = element("cam", { profile = true, roller = true }, 2, function(el, f, line, what)
    local cam = require("cam")
    el.profile = parse_profile(f.profile, line, what)
    if f.roller ~= nil then
      local rr = number(S, line, what .. " roller", f.roller)
      if not (rr > 0) then S.fail(line, "%s: roller (its radius) must be > 0, got %.17g", what, rr) end
      if el.profile.kind ~= "circle" then
        local ok, err = cam.roller_check(el.profile, rr)
        if not ok then S.fail(line, "%s: %s", what, err) end
      end
      el.roller = rr
    end
  end)
  env.spring = element("spring", { k = true, l0 = true, c = true, c2 = true }, 2,
    function(el, f, line, what)
      if f.k == nil then S.fail(line, "%s: k is missing", what) end
      if f.l0 == nil then S.fail(line, "%s: l0 is missing", what) end
      el.k = nonneg(S, line, what .. " k", f.k)
      -- l0 may follow an input (or time): a number or a parametric value is checked >= 0
      if type(f.l0) == "function" or (type(f.l0) == "table" and tnode[f.l0] ~= nil and
                                      depends_on_t(tnode[f.l0], {})) then
        el.l0 = timefn(S, line, what .. " l0", f.l0, T, { u = true })
      else
        el.l0 = nonneg(S, line, what .. " l0", f.l0)
      end
      el.c = nonneg(S, line, what .. " c", f.c, 0.0)
      el.c2 = nonneg(S, line, what .. " c2", f.c2, 0.0)
    end)
  -- actuator "A" { "a.P", "b.Q", f = formula }: a force f along the line P-Q (tension positive,
  -- like a spring's), a formula in time, inputs, tunables and measures of the state.
  env.actuator = element("actuator", { f = true }, 2, function(el, f, line, what)
    if f.f == nil then S.fail(line, "%s: f is missing", what) end
    el.f = timefn(S, line, what .. " f", f.f, T)
  end)
  env.rotspring = element("rotspring", { k = true, theta0 = true, c = true }, 2,
    function(el, f, line, what)
      if f.k == nil then S.fail(line, "%s: k is missing", what) end
      el.k = nonneg(S, line, what .. " k", f.k)
      el.theta0 = f.theta0 == nil and 0.0 or pnumber(S, line, what .. " theta0", f.theta0)
      el.c = nonneg(S, line, what .. " c", f.c, 0.0)
    end)
  env.force = element("force", { fx = true, fy = true, frame = true }, 1,
    function(el, f, line, what)
      if f.fx == nil and f.fy == nil then S.fail(line, "%s: give fx and/or fy", what) end
      el.fx = f.fx == nil and 0.0 or timefn(S, line, what .. " fx", f.fx, T)
      el.fy = f.fy == nil and 0.0 or timefn(S, line, what .. " fy", f.fy, T)
      el.frame = f.frame == nil and "global" or f.frame
      if el.frame ~= "global" and el.frame ~= "body" then
        S.fail(line, "%s: frame must be \"global\" or \"body\", got %s", what, show(el.frame))
      end
    end)
  -- torque "T" { "body", tau = .. } on a body, or torque "T" { joint = "J", tau = .. } in a
  -- revolute joint: +tau on J's second body, -tau on its first (the sign of angle("J")).
  env.torque = element("torque", { tau = true, joint = true }, function(t)
    return type(t) == "table" and rawget(t, "joint") ~= nil and 0 or 1
  end, function(el, f, line, what)
    if f.tau == nil then S.fail(line, "%s: tau is missing", what) end
    if f.joint ~= nil and type(f.joint) ~= "string" then
      S.fail(line, "%s: joint must be a string, got %s", what, type(f.joint))
    end
    el.joint_ref = f.joint
    el.tau = timefn(S, line, what .. " tau", f.tau, T)
  end)
  -- sensor "y" { value = formula }: a named output in the measures (docs/model-language.md,
  -- "Sensors"), evaluated by the generated <name>_outputs with its Jacobians.
  env.sensor = statement("sensor", function(sname, t, line, what)
    local f = fields(S, line, what, t, { value = true, unit = true }, 0)
    if f.value == nil then S.fail(line, "%s: value is missing", what) end
    local unit = f.unit ~= nil and unit_text(S, line, what, f.unit) or nil
    if type(f.value) == "string" then   -- "J.fx": a reaction by its CSV column's name
      local el, c = f.value:match("^([^.]+)%.(.+)$")
      if not el then
        S.fail(line, '%s: value "%s": a string names a reaction as <element>.<component> (J.fx, P.fn, R.tension, D.effort, S.lambda)',
               what, f.value)
      end
      c = c:match("^[^.]+%.(lambda)$") or c   -- the CSV's S.perp.lambda
      local str = f.value
      f.value = env.reaction(el)[c]
      S.measures[#S.measures].str = str          -- errors quote what the model wrote
    end
    local prev = S.sensor_by_name[sname]
    if prev then S.fail(line, 'duplicate sensor "%s" (first at line %d)', sname, prev.line) end
    local mt = type(f.value) == "table" and getmetatable(f.value)
    if type(mt) == "table" and rawget(mt, "reaction") then
      S.fail(line, '%s: value reaction("%s") is the element\'s reaction, not a number: pick a component, e.g. reaction("%s").%s',
             what, mt.reaction, mt.reaction, "fx")
    end
    local function tag(n)   -- reactions name their sensor in errors
      if n.op == "m" and n.kind == "reaction" then n.sensor = n.sensor or sname end
      if n.a then tag(n.a) end
      if n.b then tag(n.b) end
    end
    if type(f.value) == "table" and tnode[f.value] then tag(tnode[f.value]) end
    local sn = { name = sname, line = line, unit = unit,
                 value = timefn(S, line, what .. " value", f.value, T, { u = true, m = true, r = true }) }
    S.sensors[#S.sensors + 1] = sn
    S.sensor_by_name[sname] = sn
  end)
  -- rod "R" { "a.P", "b.Q", length = L }: a massless rigid link, one distance equation between
  -- two points (body points, particles by name, ground points).
  env.rod = element("rod", { length = true }, 2, function(el, f, line, what)
    if f.length == nil then S.fail(line, "%s: length is missing", what) end
    el.length = number(S, line, what .. " length", f.length)
    if not (el.length > 0) then S.fail(line, "%s: length must be > 0, got %.17g", what, el.length) end
    -- the equation holds L^2: it must neither underflow nor overflow in double
    if el.length < 1e-150 or el.length > 1e150 then
      S.fail(line, "%s: length %.17g is outside 1e-150 .. 1e150 m (its square would under- or overflow)",
             what, el.length)
    end
  end)
  -- contact "K" { "a.C", "b.P", radius = r, line = { ux, uy } | circle = R, k = .., ... }: a
  -- penalty contact force (Hunt-Crossley or ADAMS IMPACT normal law, regularized Coulomb
  -- friction) between a point or circle of radius r around C on a and a line through P along
  -- (ux, uy) fixed in b, or a circle of radius R around P on b (docs/model-language.md,
  -- "Contact with friction"). Its gap, normal force, friction force and slip velocity are
  -- measures (gap("K") ...) and sensors (the CSV columns out.K.gap ...).
  local contact_measure = { gap = env.gap, normal = env.normal, friction = env.friction,
                            slip = env.slip }
  env.contact = element("contact", { radius = true, line = true, circle = true, segment = true, inside = true, profile = true,
    k = true, exponent = true, model = true, damping = true, restitution = true, velocity = true,
    c = true, depth = true, mu_s = true, mu_d = true, v_stick = true }, 2,
    function(el, f, line, what)
      local function num(key, default)
        if f[key] == nil then return default end
        return number(S, line, what .. " " .. key, f[key])
      end
      el.radius = num("radius", 0.0)
      if el.radius < 0 then S.fail(line, "%s: radius must be >= 0 (0: a point), got %.17g", what, el.radius) end
      if (f.line ~= nil and 1 or 0) + (f.circle ~= nil and 1 or 0) + (f.segment ~= nil and 1 or 0)
         + (f.profile ~= nil and 1 or 0) ~= 1 then
        S.fail(line, "%s: give exactly one of line = { ux, uy } (a line through the second point), segment = { dx, dy } (from it to it + (dx, dy)), circle = R (a circle around it) or profile = { .. } (a cam profile about it)", what)
      end
      if f.profile ~= nil then
        -- a closed profile about P in b's axes, the forms a cam takes; the gap is the signed
        -- distance from its nearest point (found by Newton in the generated code) less the radius
        el.profile = parse_profile(f.profile, line, what)
        if f.inside ~= nil then
          S.fail(line, "%s: inside applies to a circle, not a profile (the circle stays outside the profile)", what)
        end
        if el.profile.kind ~= "circle" and el.radius > 0 then
          local ok, err = require("cam").roller_check(el.profile, el.radius)
          if not ok then S.fail(line, "%s: %s", what, (err:gsub("roller", "circle"))) end
        end
      elseif f.segment ~= nil then
        -- a finite segment from P to P + (dx, dy) in b's axes; the gap is the distance from C
        -- to its nearest point less the radius, which only a circle (radius > 0) can close
        local v = f.segment
        if type(v) ~= "table" or #v ~= 2 or next(v, #v > 0 and #v or nil) ~= nil then
          S.fail(line, "%s: segment must be { dx, dy }", what)
        end
        local dx, dy = number(S, line, what .. " segment", v[1]), number(S, line, what .. " segment", v[2])
        local len = math.sqrt(dx * dx + dy * dy)
        if not (len > 0 and len < math.huge) then
          S.fail(line, "%s: segment { %.17g, %.17g } must have a finite, non-zero length", what, dx, dy)
        end
        if not (el.radius > 0) then
          S.fail(line, "%s: a segment needs radius > 0 (a circle: a point would pass through it, the distance to a segment having no side)", what)
        end
        if f.inside ~= nil then S.fail(line, "%s: inside applies to a circle, not a segment", what) end
        el.seg = { dx, dy }
      elseif f.line ~= nil then
        el.dir = unit_axis({ axis = f.line }, line, what .. " line")
        if f.inside ~= nil then S.fail(line, "%s: inside applies to a circle, not a line", what) end
      else
        el.circle = num("circle")
        if not (el.circle > 0) then S.fail(line, "%s: circle (its radius) must be > 0, got %.17g", what, el.circle) end
        if f.inside ~= nil and type(f.inside) ~= "boolean" then
          S.fail(line, "%s: inside must be true or false, got %s", what, type(f.inside))
        end
        el.inside = f.inside == true
        if el.inside and not (el.radius < el.circle) then
          S.fail(line, "%s: inside a circle of radius %g, the radius %g must be smaller", what, el.circle, el.radius)
        end
      end
      if f.k == nil then S.fail(line, "%s: k is missing", what) end
      el.k = num("k")
      if not (el.k > 0) then S.fail(line, "%s: k must be > 0, got %.17g", what, el.k) end
      -- 1e20 N/m^e is stiffer than any material contact (Hertz for steel spheres of 1 km:
      -- 5e12); beyond it k x^e and its derivatives overflow for ordinary penetrations
      if el.k > 1e20 then S.fail(line, "%s: k = %g is above 1e20 (no material contact is that stiff; its forces would overflow)", what, el.k) end
      el.exponent = num("exponent", 1.5)
      if not (el.exponent >= 1 and el.exponent <= 10) then
        S.fail(line, "%s: exponent must be in 1 .. 10 (below 1 the stiffness is infinite at first touch), got %.17g",
               what, el.exponent)
      end
      el.model = f.model == nil and "hunt-crossley" or f.model
      if el.model ~= "hunt-crossley" and el.model ~= "impact" then
        S.fail(line, '%s: model must be "hunt-crossley" or "impact", got %s', what, show(el.model))
      end
      local function only(keys, for_what)
        for _, key in ipairs(keys) do
          if f[key] ~= nil then S.fail(line, "%s: %s applies to %s", what, key, for_what) end
        end
      end
      if el.model == "impact" then
        only({ "damping", "restitution", "velocity" }, 'model = "hunt-crossley"')
        el.c = num("c", 0.0)
        if el.c < 0 then S.fail(line, "%s: c must be >= 0, got %.17g", what, el.c) end
        if f.depth == nil then S.fail(line, '%s: depth is missing (model = "impact": the damping reaches c at this penetration)', what) end
        el.depth = num("depth")
        if not (el.depth > 0) then S.fail(line, "%s: depth must be > 0, got %.17g", what, el.depth) end
      else
        only({ "c", "depth" }, 'model = "impact"')
        if f.damping ~= nil and f.restitution ~= nil then
          S.fail(line, "%s: give damping or restitution (with velocity), not both", what)
        end
        if f.restitution ~= nil then
          local e = num("restitution")
          if not (e > 0 and e <= 1) then S.fail(line, "%s: restitution must be in (0, 1], got %.17g", what, e) end
          if f.velocity == nil then
            S.fail(line, "%s: restitution needs velocity (the impact speed at which it holds: a Hunt-Crossley contact's restitution falls with speed)", what)
          end
          local v = num("velocity")
          if not (v > 0) then S.fail(line, "%s: velocity must be > 0, got %.17g", what, v) end
          el.restitution, el.velocity = e, v
          el.damping = model.hc_damping(e) / v
        else
          if f.velocity ~= nil then S.fail(line, "%s: velocity applies with restitution", what) end
          el.damping = num("damping", 0.0)
          if el.damping < 0 then S.fail(line, "%s: damping must be >= 0, got %.17g", what, el.damping) end
        end
      end
      el.mu_s = num("mu_s", 0.0)
      if el.mu_s < 0 then S.fail(line, "%s: mu_s must be >= 0, got %.17g", what, el.mu_s) end
      el.mu_d = num("mu_d", el.mu_s)
      if el.mu_d < 0 then S.fail(line, "%s: mu_d must be >= 0, got %.17g", what, el.mu_d) end
      if el.mu_d > el.mu_s then
        S.fail(line, "%s: mu_d (%g) must not exceed mu_s (%g)", what, el.mu_d, el.mu_s)
      end
      el.v_stick = num("v_stick", 1e-3)
      if not (el.v_stick > 0) then S.fail(line, "%s: v_stick must be > 0, got %.17g", what, el.v_stick) end
      -- the reported values, as sensors named "K.gap" ... (CSV columns out.K.gap ...)
      local CONTACT_UNIT = { gap = "m", normal = "N", friction = "N", slip = "m/s" }
      for _, kind in ipairs { "gap", "normal", "friction", "slip" } do
        local sname = el.name .. "." .. kind
        local sn = { name = sname, line = line, contact = true, unit = CONTACT_UNIT[kind],
                     value = timefn(S, line, what .. " " .. kind, contact_measure[kind](el.name), T,
                                    { u = true, m = true }) }
        S.sensors[#S.sensors + 1] = sn
        S.sensor_by_name[sname] = sn
      end
    end)
  env.driver = element("driver", { coord = true, joint = true, f = true }, 0,
    function(el, f, line, what)
      if (f.coord == nil) == (f.joint == nil) then
        S.fail(line, "%s: give exactly one of coord = \"body.x|y|phi\" or joint = \"J\"", what)
      end
      if f.f == nil then S.fail(line, "%s: f is missing", what) end
      for _, key in ipairs { "coord", "joint" } do
        if f[key] ~= nil and type(f[key]) ~= "string" then
          S.fail(line, "%s: %s must be a string, got %s", what, key, type(f[key]))
        end
      end
      el.coord_ref, el.joint_ref = f.coord, f.joint
      -- f may follow an input (its derivatives are the hold's: docs/model-language.md, "Inputs"),
      -- never the state (a measure would make it another constraint)
      el.f = timefn(S, line, what .. " f", f.f, T, { u = true })
    end)

  env.assembly = function(t)
    local line = S.here()
    local f = fields(S, line, "assembly", t, { lock = true, velocity = true }, 0)
    if f.lock ~= nil then
      if type(f.lock) ~= "table" then S.fail(line, "assembly: lock must be a list of coordinates") end
      local _, p = fields(S, line, "assembly lock", f.lock, {}, rawlen(f.lock))
      for i = 1, #p do
        if type(p[i]) ~= "string" then
          S.fail(line, "assembly lock: entry %d must be a coordinate name like \"crank.phi\"", i)
        end
        S.assembly[#S.assembly + 1] = { kind = "lock", coord = p[i], line = line }
      end
    end
    if f.velocity ~= nil then
      if type(f.velocity) ~= "table" then
        S.fail(line, "assembly: velocity must be a table { [\"body.x\"] = v, ... }")
      end
      local k, v = next(f.velocity)
      while k ~= nil do
        if type(k) ~= "string" then S.fail(line, "assembly velocity: keys must be coordinate names") end
        S.assembly[#S.assembly + 1] = { kind = "velocity", coord = k, line = line,
          value = number(S, line, "assembly velocity " .. show(k), v) }
        k, v = next(f.velocity, k)
      end
    end
  end

  -- Time functions for loads and drivers (they compose: sine{...}(t) works in formulas). They
  -- use the generator's own sin and heaviside (a model may redefine the globals), and check
  -- their derived constants: a tiny period or ramp, or a huge step, overflows there.
  local H, usin = unary("heaviside"), unary("sin")
  local function finite(line, what, v)
    if not is_finite(v) then S.fail(line, "%s is not a finite number (%s): the values are too large or too small", what, tostring(v)) end
    return v
  end
  env.sine = function(t)
    local line = S.here()
    local f = fields(S, line, "sine", t, { amplitude = true, period = true, phase = true,
      offset = true }, 0)
    if f.amplitude == nil or f.period == nil then S.fail(line, "sine: amplitude and period are required") end
    local A = tvalue(S, line, "sine amplitude", f.amplitude)
    local P = number(S, line, "sine period", f.period)
    if P <= 0 then S.fail(line, "sine: period must be > 0, got %.17g", P) end
    local ph = f.phase == nil and 0.0 or tvalue(S, line, "sine phase", f.phase)
    local off = f.offset == nil and 0.0 or tvalue(S, line, "sine offset", f.offset)
    local w = finite(line, "sine: 2 pi / period", 2 * pi / P)
    return function(x)
      local arg = w * x
      if ph ~= 0 then arg = arg + ph end
      local r = A * usin(arg)
      if off ~= 0 then r = off + r end
      return r
    end
  end
  env.step = function(t)
    local line = S.here()
    local f = fields(S, line, "step", t, { time = true, before = true, after = true }, 0)
    if f.time == nil or f.after == nil then S.fail(line, "step: time and after are required") end
    local t0 = number(S, line, "step time", f.time)
    local before = f.before == nil and 0.0 or tvalue(S, line, "step before", f.before)
    local after = tvalue(S, line, "step after", f.after)
    finite(line, "step: after - before", after - before)
    return function(x) return before + (after - before) * H(x - t0) end
  end
  env.ramp = function(t)
    local line = S.here()
    local f = fields(S, line, "ramp", t, { t0 = true, t1 = true, from = true, to = true }, 0)
    if f.t0 == nil or f.t1 == nil or f.to == nil then S.fail(line, "ramp: t0, t1 and to are required") end
    local t0, t1 = number(S, line, "ramp t0", f.t0), number(S, line, "ramp t1", f.t1)
    if not (t1 > t0) then S.fail(line, "ramp: t1 must be greater than t0") end
    local from = f.from == nil and 0.0 or tvalue(S, line, "ramp from", f.from)
    local to = tvalue(S, line, "ramp to", f.to)
    local slope = finite(line, "ramp: (to - from) / (t1 - t0)", (to - from) / (t1 - t0))
    return function(x) return from + slope * ((x - t0) * H(x - t0) - (x - t1) * H(x - t1)) end
  end

  -- Every function the model can call runs shielded: an error raised inside the generator's own
  -- code (a Lua error a model's arguments provoked past the checks) is reported at the model's
  -- line, without the generator's position; it is a model error like any other. Closures the
  -- statements return (sine{} ...) are shielded too.
  local function shield(f)
    local function pass(ok, ...)
      if ok then return ... end
      local e = ...
      if type(e) == "string" and ssub(e, 1, #MY_SHORT + 1) == MY_SHORT .. ":" then
        uerror((sgsub(e, "^[^\n]-:%d+: ", "", 1)))
      end
      error(e, 0)
    end
    return function(...)
      return pass(pcall(f, ...))
    end
  end
  for _, k in ipairs { "sine", "step", "ramp" } do
    local f = env[k]
    env[k] = function(...) return shield(f(...)) end
  end
  for _, k in ipairs { "body", "particle", "revolute", "prismatic", "spring", "rotspring",
                       "rod", "force", "torque", "driver", "input", "actuator", "sensor", "slot",
                       "gear", "rack", "contact", "cam" } do
    local f = env[k]
    env[k] = function(...) return shield(f(...)) end
  end
  for _, k in ipairs { "name", "gravity", "simulate", "param", "tunable", "ground", "assembly", "print", "load",
                       "setmetatable", "getmetatable", "heaviside", "sin", "cos", "tan", "exp",
                       "log", "sqrt", "abs", "sine", "step", "ramp", "body", "particle", "revolute",
                       "prismatic", "spring", "rotspring", "rod", "force", "torque", "driver",
                       "input", "actuator", "sensor", "pos", "vel", "angle", "rate", "length",
                       "lengthrate", "atan2", "tanh", "reaction", "slot", "gear", "rack",
                       "contact", "gap", "normal", "friction", "slip", "cam" } do
    env[k] = shield(env[k])
  end
  for _, f in ipairs { "sin", "cos", "tan", "exp", "log", "sqrt", "abs" } do env.math[f] = env[f] end
  env.math.randomseed = shield(env.math.randomseed)

  -- Reading an unknown global is an error (catches typos and forbidden libraries).
  setmetatable(env, { __metatable = false, __index = function(_, k)
    if forbidden[k] then
      uerror(sfmt("'%s' is not available in a model file (sandbox)", tostring(k)))
    end
    uerror(sfmt("unknown name '%s'", show(k)))
  end })
  return env
end

---------------------------------------------------------------- validation
local coord_index = { x = 1, y = 2, phi = 3 }

local function resolve(S, M)
  local bodies, index = S.bodies, {}
  -- base[i]: 0-based index of body i's first coordinate (3 per body, 2 per particle)
  local base, coord_body, nq = {}, {}, 0
  for i, b in ipairs(bodies) do
    index[b.name] = i
    base[i] = nq
    nq = nq + (b.particle and 2 or 3)
    for k = base[i] + 1, nq do coord_body[k] = i end
  end
  M.nq = nq

  local function point_ref(el, s)
    local pi_ = index[s]
    if pi_ and bodies[pi_].particle then
      return { body = pi_, point = "", s = { 0.0, 0.0 }, label = s }
    end
    local bn, pn = smatch(s, "^([%w_]+)%.([%w_]+)$")
    if bn and index[bn] and bodies[index[bn]].particle then
      S.fail(el.line, '%s "%s": particle "%s" has no points: refer to it as "%s"', el.kind,
             el.name, bn, bn)
    end
    if not bn then
      S.fail(el.line, '%s "%s": bad point reference "%s" (expected "body.point" or "particle")', el.kind,
             el.name, show(s))
    end
    if bn == "ground" then
      local g = S.ground[pn]
      if not g then
        S.fail(el.line, '%s "%s": unknown ground point "%s"', el.kind, el.name, pn)
      end
      return { body = 0, point = pn, s = { g[1], g[2] }, label = s }
    end
    local bi = index[bn]
    if not bi then S.fail(el.line, '%s "%s": unknown body "%s"', el.kind, el.name, show(bn)) end
    local p = bodies[bi].point_by_name[pn]
    if not p then
      S.fail(el.line, '%s "%s": body "%s" has no point "%s"', el.kind, el.name, bn, show(pn))
    end
    return { body = bi, point = pn, s = { p.x, p.y }, label = s }
  end
  local function body_ref(el, s)
    if s == "ground" then return { body = 0, label = "ground" } end
    local bi = index[s]
    if not bi then S.fail(el.line, '%s "%s": unknown body "%s"', el.kind, el.name, show(s)) end
    if bodies[bi].particle then
      S.fail(el.line, '%s "%s": "%s" is a particle (no rotation): a %s needs a body', el.kind,
             el.name, s, el.kind)
    end
    return { body = bi, label = s }
  end
  local function coord_ref(line, what, s)
    local bn, c = smatch(s, "^([%w_]+)%.([%w_]+)$")
    if bn == "ground" then S.fail(line, "%s: the ground has no coordinates", what) end
    if not bn or not coord_index[c] then
      S.fail(line, '%s: bad coordinate "%s" (expected "body.x", "body.y" or "body.phi")', what,
             show(s))
    end
    local bi = index[bn]
    if not bi then S.fail(line, '%s: unknown body "%s"', what, show(bn)) end
    if bodies[bi].particle and c == "phi" then
      S.fail(line, '%s: particle "%s" has no phi coordinate (only x and y)', what, bn)
    end
    return base[bi] + coord_index[c]
  end
  -- a particle cannot carry what needs an orientation
  local function no_particle(el, ref, why)
    if ref.body > 0 and bodies[ref.body].particle then
      S.fail(el.line, '%s "%s": "%s" is a particle (no rotation): %s', el.kind, el.name,
             ref.label, why)
    end
  end

  -- Gear and rack: the joints they couple (by name), their bodies, and the carrier (frame) both
  -- joints share: the mesh's angles are taken relative to it (generator/elements.lua). Each
  -- body reference carries its body's initial guesses (q0 = { x, y, phi }, 0 for the ground):
  -- the mesh's constant is its value there unless `offset` gives it.
  local function guess(r)
    local b = r.body > 0 and bodies[r.body]
    r.q0 = b and { b.x, b.y, b.angle } or { 0.0, 0.0, 0.0 }
    return r
  end
  local function bref(bi)
    return guess { body = bi, label = bi == 0 and "ground" or bodies[bi].name }
  end
  local function mesh_refs(el, e)
    local what = el.kind .. ' "' .. el.name .. '"'
    local want = { "revolute", el.kind == "gear" and "revolute" or "prismatic" }
    local js = {}
    for i = 1, 2 do
      local j = S.el_by_name[el.refs[i]]
      if not j then S.fail(el.line, '%s: unknown joint "%s"', what, show(el.refs[i])) end
      if j.kind ~= want[i] then
        S.fail(el.line, '%s: "%s" is a %s, a %s needs a %s joint%s', what, j.name, j.kind, el.kind,
               want[i], el.kind == "rack" and (i == 1 and " first (the pinion's)" or " second (the rack's)") or "")
      end
      local ra, rb = point_ref(j, j.refs[1]), point_ref(j, j.refs[2])
      for _, r in ipairs { ra, rb } do
        if r.body > 0 and bodies[r.body].particle then
          S.fail(el.line, '%s: joint "%s" attaches particle "%s", which has no angle', what, j.name,
                 bodies[r.body].name)
        end
      end
      js[i] = { el = j, a = ra.body, b = rb.body, ra = ra, rb = rb }
    end
    if js[1].el == js[2].el then
      S.fail(el.line, '%s couples joint "%s" with itself', what, js[1].el.name)
    end
    local function name(bi) return bi == 0 and "the ground" or '"' .. bodies[bi].name .. '"' end
    local shared = {}
    for _, x in ipairs { js[1].a, js[1].b } do
      if x == js[2].a or x == js[2].b then shared[#shared + 1] = x end
    end
    if #shared == 2 then
      S.fail(el.line, '%s: joints "%s" and "%s" join the same two bodies (%s and %s)', what,
             js[1].el.name, js[2].el.name, name(js[1].a), name(js[1].b))
    end
    if #shared == 0 then
      S.fail(el.line, '%s: joints "%s" (%s, %s) and "%s" (%s, %s) share no body: a %s needs both on one carrier (the body that holds both axles: the ground or a moving arm)',
             what, js[1].el.name, name(js[1].a), name(js[1].b), js[2].el.name, name(js[2].a),
             name(js[2].b), el.kind == "gear" and "gear pair" or "rack and pinion")
    end
    local c = shared[1]
    local function other(j) return j.a == c and j.b or j.a end
    e.joints = { js[1].el.name, js[2].el.name }
    e.carrier = bref(c)
    -- for drawing (generator/emit.lua): each joint's point on the carrier, its axle's centre
    local function on_carrier(j) return j.a == c and j.ra or j.rb end
    e.centres = { on_carrier(js[1]), on_carrier(js[2]) }
    e.offset = el.offset
    if el.kind == "gear" then
      e.g1, e.g2 = bref(other(js[1])), bref(other(js[2]))
      e.ratio, e.internal = el.ratio, el.internal
    else
      -- the prismatic joint's ends and axis (fixed in its first body a); the rack's travel is
      -- measured from the frame to the rack: +u . (p_b - p_a) when the frame is a, else -
      local p = js[2]
      e.pinion = bref(other(js[1]))
      e.a, e.b = guess(p.ra), guess(p.rb)
      e.axis = p.el.axis
      e.frame_is_a = p.a == c
      e.radius = el.radius
      -- for drawing: the prismatic joint's point on the rack, its axis in the frame's axes (the
      -- joint holds phi_a - phi_b at its angle, so an axis fixed in the rack a turns by it)
      e.rack_point = e.frame_is_a and p.rb or p.ra
      e.frame_axis_angle = e.frame_is_a and 0 or (p.el.angle or 0)
    end
  end

  local attached = {}
  local function attach(el, a, b)
    if a == b then
      local n = a == 0 and "ground" or bodies[a].name
      S.fail(el.line, '%s "%s" connects %s to itself', el.kind, el.name,
             a == 0 and "the ground" or ((bodies[a].particle and 'particle "' or 'body "') .. n .. '"'))
    end
    attached[a], attached[b] = true, true
  end

  local out = {}
  for i, el in ipairs(S.elements) do
    local e = { kind = el.kind, name = el.name, line = el.line }
    local k = el.kind
    if k == "revolute" or k == "prismatic" or k == "spring" or k == "rod" or k == "actuator" or
       k == "slot" or k == "cam" then
      e.a, e.b = point_ref(el, el.refs[1]), point_ref(el, el.refs[2])
      attach(el, e.a.body, e.b.body)
      if k == "prismatic" then
        no_particle(el, e.a, "a prismatic joint needs the orientation of both ends")
        no_particle(el, e.b, "a prismatic joint needs the orientation of both ends")
      end
      if k == "slot" then no_particle(el, e.a, "a slot's axis is fixed in its first body") end
      if k == "cam" then
        no_particle(el, e.a, "a cam's profile turns with its body")
        e.profile, e.roller = el.profile, el.roller
      end
      e.length = el.length
      e.axis, e.angle = el.axis, el.angle
      e.k, e.l0, e.c, e.c2 = el.k, el.l0, el.c, el.c2
      e.f = el.f
    elseif k == "contact" then
      e.a, e.b = point_ref(el, el.refs[1]), point_ref(el, el.refs[2])
      if e.a.body == e.b.body then
        S.fail(el.line, 'contact "%s": both ends are on %s: a contact is between two bodies', el.name,
               e.a.body == 0 and "the ground" or '"' .. bodies[e.a.body].name .. '"')
      end
      if e.a.body == 0 then
        S.fail(el.line, 'contact "%s": its first end (the point or circle) is on the ground: give the moving body first', el.name)
      end
      attach(el, e.a.body, e.b.body)
      if el.dir then no_particle(el, e.b, "a contact line's direction is fixed in its body") end
      if el.seg then no_particle(el, e.b, "a contact segment is fixed in its body") end
      if el.profile then no_particle(el, e.b, "a contact profile turns with its body") end
      for _, key in ipairs { "radius", "dir", "seg", "circle", "inside", "profile", "k", "exponent", "model",
                             "damping", "restitution", "velocity", "c", "depth", "mu_s", "mu_d",
                             "v_stick" } do
        e[key] = el[key]
      end
    elseif k == "gear" or k == "rack" then
      mesh_refs(el, e)
    elseif k == "rotspring" then
      e.a, e.b = body_ref(el, el.refs[1]), body_ref(el, el.refs[2])
      attach(el, e.a.body, e.b.body)
      e.k, e.theta0, e.c = el.k, el.theta0, el.c
    elseif k == "force" then
      e.at = point_ref(el, el.refs[1])
      if e.at.body == 0 then S.fail(el.line, 'force "%s" acts on the ground', el.name) end
      e.fx, e.fy, e.frame = el.fx, el.fy, el.frame
      if e.frame == "body" then no_particle(el, e.at, 'frame = "body" needs an orientation') end
    elseif k == "torque" and el.joint_ref then
      local j = S.el_by_name[el.joint_ref]
      local what = 'torque "' .. el.name .. '"'
      if not j then S.fail(el.line, '%s: unknown joint "%s"', what, show(el.joint_ref)) end
      if j.kind ~= "revolute" then
        S.fail(el.line, '%s: joint "%s" is a %s, a joint torque needs a revolute joint', what,
               j.name, j.kind)
      end
      local ja, jb = point_ref(j, j.refs[1]).body, point_ref(j, j.refs[2]).body
      for _, bi in ipairs { ja, jb } do
        if bi > 0 and bodies[bi].particle then
          S.fail(el.line, '%s: joint "%s" attaches particle "%s", which takes no torque', what,
                 j.name, bodies[bi].name)
        end
      end
      e.a = { body = ja, label = ja == 0 and "ground" or bodies[ja].name }
      e.b = { body = jb, label = jb == 0 and "ground" or bodies[jb].name }
      e.joint, e.tau = j.name, el.tau
    elseif k == "torque" then
      e.body = body_ref(el, el.refs[1])
      if e.body.body == 0 then S.fail(el.line, 'torque "%s" acts on the ground', el.name) end
      e.tau = el.tau
    elseif k == "driver" then
      e.f = el.f
      local what = 'driver "' .. el.name .. '"'
      if el.coord_ref then
        e.coord = coord_ref(el.line, what, el.coord_ref)
        attached[coord_body[e.coord]] = true
      else
        local j = S.el_by_name[el.joint_ref]
        if not j then S.fail(el.line, '%s: unknown joint "%s"', what, show(el.joint_ref)) end
        if j.kind ~= "revolute" then
          S.fail(el.line, '%s: joint "%s" is a %s, a driver needs a revolute joint', what,
                 j.name, j.kind)
        end
        local ja = point_ref(j, j.refs[1]).body
        local jb = point_ref(j, j.refs[2]).body
        for _, bi in ipairs { ja, jb } do
          if bi > 0 and bodies[bi].particle then
            S.fail(el.line, '%s: joint "%s" attaches particle "%s", which has no angle to drive',
                   what, j.name, bodies[bi].name)
          end
        end
        e.a = { body = ja, label = ja == 0 and "ground" or bodies[ja].name }
        e.b = { body = jb, label = jb == 0 and "ground" or bodies[jb].name }
        e.joint = j.name
      end
    end
    out[i] = e
  end
  M.elements = out

  -- measures: the points, joints and springs they name (docs/model-language.md)
  for _, n in ipairs(S.measures) do
    local fake = { kind = n.kind, name = n.ref, line = n.line }
    if n.kind == "reaction" then
      local who = n.sensor and ('sensor "' .. n.sensor .. '": ') or ""
      local j = S.el_by_name[n.ref]
      if not j then S.fail(n.line, '%sreaction("%s"): unknown element "%s"', who, show(n.ref), show(n.ref)) end
      local comps = model.reaction_comps[j.kind]
      if not comps and j.kind == "contact" then   -- its forces are loads: the contact measures
        local m = ({ gap = 1, normal = 1, friction = 1, slip = 1 })[n.comp] and n.comp or "normal"
        S.fail(n.line, '%s%s: "%s" is a contact, whose forces are loads, not reactions: write %s("%s") '
               .. '(the contact measures gap, normal, friction, slip; the contact reports them itself as '
               .. 'the sensors %s.gap ... %s.slip)', who,
               n.str and ('"' .. n.str .. '"') or ('reaction("' .. n.ref .. '").' .. show(n.comp)),
               n.ref, m, n.ref, n.ref, n.ref)
      end
      if not comps then
        S.fail(n.line, '%sreaction("%s"): "%s" is a %s, which has no reaction (joints, rods, slots, gears, racks, cams and drivers have)',
               who, n.ref, n.ref, j.kind)
      end
      if not comps[n.comp] then
        local names = {}
        for k in pairs(comps) do names[#names + 1] = k end
        table.sort(names)
        S.fail(n.line, '%sreaction("%s").%s: a %s has no component "%s" (it has %s)', who, n.ref,
               show(n.comp), j.kind, show(n.comp), table.concat(names, ", "))
      end
      n.row, n.sign = j.name .. comps[n.comp][1], comps[n.comp][2]
    elseif n.kind == "pos" or n.kind == "vel" then
      n.point = point_ref(fake, n.ref)
    elseif n.kind == "gap" or n.kind == "normal" or n.kind == "friction" or n.kind == "slip" then
      local j = S.el_by_name[n.ref]
      if not j then S.fail(n.line, '%s("%s"): unknown element "%s"', n.kind, show(n.ref), show(n.ref)) end
      if j.kind ~= "contact" then
        S.fail(n.line, '%s("%s"): "%s" is a %s, %s needs a contact', n.kind, n.ref, n.ref, j.kind, n.kind)
      end
      for i, el in ipairs(S.elements) do
        if el == j then n.contact = i end
      end
    else
      local j = S.el_by_name[n.ref]
      if not j then S.fail(n.line, '%s("%s"): unknown element "%s"', n.kind, show(n.ref), show(n.ref)) end
      if n.kind == "angle" or n.kind == "rate" then
        if j.kind ~= "revolute" then
          S.fail(n.line, '%s("%s"): "%s" is a %s, %s needs a revolute joint', n.kind, n.ref, n.ref,
                 j.kind, n.kind)
        end
        local ja, jb = point_ref(j, j.refs[1]).body, point_ref(j, j.refs[2]).body
        for _, bi in ipairs { ja, jb } do
          if bi > 0 and bodies[bi].particle then
            S.fail(n.line, '%s("%s"): joint "%s" attaches particle "%s", which has no angle', n.kind,
                   n.ref, n.ref, bodies[bi].name)
          end
        end
        n.a, n.b = ja, jb
      else
        if j.kind ~= "spring" and j.kind ~= "actuator" and j.kind ~= "rod" then
          S.fail(n.line, '%s("%s"): "%s" is a %s, %s needs a spring, actuator or rod', n.kind, n.ref,
                 n.ref, j.kind, n.kind)
        end
        n.pa, n.pb = point_ref(j, j.refs[1]), point_ref(j, j.refs[2])
      end
    end
  end

  for _, b in ipairs(bodies) do
    if not attached[index[b.name]] then
      S.fail(b.line, '%s "%s" is attached to nothing (no joint, rod, spring or driver refers to it)',
             b.particle and "particle" or "body", b.name)
    end
  end

  M.lock, M.velocity = {}, {}
  local vline = {}
  for i, b in ipairs(bodies) do
    if b.velocity_given then
      local vals = { b.vx, b.vy, b.omega }
      for j = 1, b.particle and 2 or 3 do
        M.velocity[base[i] + j], vline[base[i] + j] = vals[j], b.line
      end
    end
  end
  for _, a in ipairs(S.assembly) do
    local k = coord_ref(a.line, "assembly " .. a.kind, a.coord)
    if a.kind == "lock" then
      M.lock[k] = true
    else
      if M.velocity[k] ~= nil then
        S.fail(a.line, 'assembly velocity: "%s" already given at line %d', a.coord, vline[k])
      end
      M.velocity[k], vline[k] = a.value, a.line
    end
  end
end

local function validate(S)
  local M = { file = S.file }
  local name, name_line = S.name, S.name_line
  if S.opts.name then
    name, name_line = S.opts.name, 0
    check_name(S, 0, "--name", name)
  elseif not name then
    name = smatch(S.file, "([^/]*)%.lua$") or smatch(S.file, "([^/]*)$")
    if not sfind(name, "^[A-Za-z_][A-Za-z0-9_]*$") or #name > MAX_NAME then
      S.fail(0, "the file name does not give a C identifier: add a name \"...\" statement")
    end
  end
  M.name = check_name(S, name_line, "model", name)
  -- The name prefixes every generated symbol: keep clear of C's reserved identifiers (_X, __x)
  -- and of the runtime's namespace (mb_model is a type).
  if sfind(name, "^_") or sfind(name, "^[Mm][Bb]_") or name == "mb" or name == "MB" then
    S.fail(name_line, "model name '%s' is reserved (it must not start with '_' or 'mb_')", name)
  end
  local why = reserved_name(name)
  if why then S.fail(name_line, "model name '%s' is reserved: %s", name, why) end

  local open
  for rec in next, S.open do
    if open == nil or rec.line < open.line then open = rec end
  end
  if open then
    S.fail(open.line, '%s "%s" has no definition table: write %s "%s" { ... }', open.kind,
           open.name, open.kind, open.name)
  end
  if #S.bodies == 0 then S.fail(0, "the model has no bodies") end

  M.params = {}
  for pname, p in next, S.params do
    if not S.used[pname] then
      S.fail(0, "-D %s given, but the model has no param(\"%s\")", pname, pname)
    end
    M.params[#M.params + 1] = { name = pname, value = p.value, text = p.text }
  end
  tsort(M.params, function(a, b) return a.name < b.name end)

  M.tunables = {}
  for i, tu in ipairs(S.tunables) do
    M.tunables[i] = { name = tu.name, default = tu.default, unit = tu.unit, line = tu.line }
  end
  M.rules = {}
  for i, r in ipairs(S.rules) do
    M.rules[i] = { what = r.what, kind = r.kind, value = r.value, line = r.line }
  end
  M.inputs = {}
  for i, u in ipairs(S.inputs) do
    M.inputs[i] = { name = u.name, default = u.default, unit = u.unit, line = u.line }
  end
  M.sensors = {}
  -- the header's <NAME>_OUT_<SENSOR> macros: a contact's "K.gap" is K_GAP, which a sensor
  -- "K_gap" (or "k_gap") would repeat
  local macro = {}
  for i, sn in ipairs(S.sensors) do
    local id = sgsub(sn.name, "[^%w_]", "_"):upper()
    local prev = macro[id]
    if prev then
      local a, b = prev.contact and prev or sn, prev.contact and sn or prev
      S.fail(sn.line, 'sensor "%s" and sensor "%s" (line %d) give one header macro ..._OUT_%s%s', sn.name,
             prev.name, prev.line, id, (a.contact or b.contact) and ": a contact's sensors are named <contact>.gap, .normal, .friction, .slip" or " (names must differ ignoring case)")
    end
    macro[id] = sn
    M.sensors[i] = { name = sn.name, value = sn.value, unit = sn.unit, line = sn.line }
  end
  M.gravity = S.gravity or { 0.0, -9.81 }
  M.simulate = S.simulate
  M.bodies = {}
  for i, b in ipairs(S.bodies) do
    local pts = {}
    for j, p in ipairs(b.points) do pts[j] = { name = p.name, x = p.x, y = p.y } end
    M.bodies[i] = { name = b.name, mass = b.mass, inertia = b.inertia, angle = b.angle,
      x = b.x, y = b.y, vx = b.vx, vy = b.vy, omega = b.omega, line = b.line, points = pts,
      particle = b.particle }
  end
  M.ground_points = {}
  for gname, g in next, S.ground do
    M.ground_points[#M.ground_points + 1] = { name = gname, x = g[1], y = g[2] }
  end
  tsort(M.ground_points, function(a, b) return a.name < b.name end)
  resolve(S, M)
  return M
end

-- Message of an error raised while the model ran, as "file:line: error: message".
local function user_message(S, e, gendir)
  if type(e) ~= "string" then
    return S.file .. ": error: the model raised an error object of type " .. type(e)
  end
  if #e > 2000 then e = ssub(e, 1, 2000) .. "..." end
  -- the host reads messages as C strings: a NUL or other control byte in the model's text
  -- would cut it short (and hide its ": error: " marker), so show them as '?'
  e = sgsub(e, "[%z\1-\8\11-\31\127]", "?")
  -- already in the "file:line: error:" form (raised by the model language's own checks)
  if ssub(e, 1, #S.file + 1) == S.file .. ":" then
    local rest = ssub(e, #S.file + 2)
    if smatch(rest, "^%d+: error: ") or ssub(rest, 1, 8) == " error: " then return e end
  end
  -- Lua names the chunk by its path, or "..." and the path's last 56 bytes when it is longer
  -- than LUA_IDSIZE - 1 (paths with newlines or long paths would not parse below).
  local short = #S.path <= 59 and S.path or "..." .. ssub(S.path, -56)
  if ssub(e, 1, #short + 1) == short .. ":" then
    local line, rest = smatch(ssub(e, #short + 2), "^(%d+): (.*)$")
    if line then return S.file .. ":" .. line .. ": error: " .. rest end
  end
  local where, msg = smatch(e, "^([^\n]-:%d+): (.*)$")
  if where then
    -- Never an internal error: the text is the model's to choose (it could name the
    -- generator's files). A position in the generator is dropped.
    if gendir and ssub(where, 1, #gendir) == gendir or ssub(where, 1, #MY_SHORT) == MY_SHORT then
      return S.file .. ": error: " .. msg
    end
    if ssub(where, 1, #S.file + 1) == S.file .. ":" then return where .. ": error: " .. msg end
    return S.file .. ": error: " .. e       -- raised in a chunk the model loaded itself
  end
  return S.file .. ": error: " .. e
end

-- model.load(path, params, opts) -> the validated model table (docs/generator.md).
-- params: { NAME = { value = number, text = "as given" } } from -D; opts.name: --name value;
-- opts.guard: the host's guarded call (limits); opts.gendir: generator directory.
-- Raises "file:line: error: message" for any problem in the model.
function model.load(path, params, opts)
  opts = opts or {}
  tcount = 0
  G.math.randomseed(0)
  local S = new_context(path, params or {}, opts)
  local fh, err = iopen(path, "rb")
  if not fh then error("mbgen: error: cannot read model file: " .. tostring(err), 0) end
  local src, rerr = fh:read(MAX_SOURCE + 1)   -- bounded: /dev/zero or a huge file is a user error
  fh:close()
  if src == nil and rerr ~= nil then
    error("mbgen: error: cannot read model file " .. path .. ": " .. tostring(rerr), 0)
  end
  src = src or ""                              -- an empty file reads as nil
  if #src > MAX_SOURCE then
    error(sfmt("%s: error: model file too large (more than %d MiB)", path, MAX_SOURCE >> 20), 0)
  end
  local env = make_env(S)
  -- pcall: the parser raises (instead of returning) when nesting overflows the C stack
  local okl, fn, serr = pcall(load, src, S.chunk, "t", env)
  if not okl then fn, serr = nil, fn end
  if not fn then error(user_message(S, serr), 0) end
  local guard = opts.guard or function(_, f, ...) return pcall(f, ...) end
  local ok, e = guard(S.chunk, fn)
  if not ok then error(user_message(S, e, opts.gendir), 0) end
  return validate(S)
end

-- model.dump(M) -> the validated table as sorted "path = value" lines (for --dump and tests):
-- numbers "%.17g", strings quoted, functions of time as their formula.
function model.dump(M)
  local out = {}
  local function key_less(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end
  local function walk(v, path)
    if model.is_param(v) then
      out[#out + 1] = path .. " = " .. model.describe(v)
    elseif type(v) == "table" then
      local keys = {}
      for k in next, v do keys[#keys + 1] = k end
      tsort(keys, key_less)
      for _, k in ipairs(keys) do
        walk(v[k], type(k) == "number" and sfmt("%s[%d]", path, k) or
                   (path == "" and k or path .. "." .. k))
      end
    elseif type(v) == "string" then
      out[#out + 1] = sfmt("%s = %q", path, v)
    elseif type(v) == "boolean" then
      out[#out + 1] = path .. " = " .. tostring(v)
    else
      out[#out + 1] = path .. " = " .. model.describe(v)
    end
  end
  walk(M, "")
  return tconcat(out, "\n") .. "\n"
end

-- One-line summary of a validated model, for --check.
function model.summary(M)
  local nc, kinds, order = 0, {}, {}
  for _, e in ipairs(M.elements) do
    if e.kind == "revolute" or e.kind == "prismatic" then nc = nc + 2
    elseif e.kind == "driver" or e.kind == "rod" or e.kind == "slot" or e.kind == "gear" or
           e.kind == "rack" or e.kind == "cam" then nc = nc + 1 end
    if not kinds[e.kind] then order[#order + 1] = e.kind end
    kinds[e.kind] = (kinds[e.kind] or 0) + 1
  end
  local parts = {}
  for i, k in ipairs(order) do parts[i] = kinds[k] .. " " .. k end
  local np = #M.ground_points
  for _, b in ipairs(M.bodies) do np = np + #b.points end
  local npart = 0
  for _, b in ipairs(M.bodies) do if b.particle then npart = npart + 1 end end
  -- the tunables, inputs and the model file's own sensors by name, each with its unit [u]
  local function list(items, one, many, own)
    local names = {}
    for _, x in ipairs(items or {}) do
      if not own or not x.name:find(".", 1, true) then
        names[#names + 1] = x.unit and (x.name .. " [" .. x.unit .. "]") or x.name
      end
    end
    if #names == 0 then return "" end
    return sfmt(", %d %s (%s)", #names, #names == 1 and one or many, tconcat(names, " "))
  end
  local tun = list(M.tunables, "tunable", "tunables") .. list(M.inputs, "input", "inputs")
              .. list(M.sensors, "sensor", "sensors", true)
  local function count(n, one, many) return sfmt("%d %s", n, n == 1 and one or many) end
  return sfmt("%s: %s, %s%s, %s, %s, %s (%s)%s",
              M.name, count(#M.bodies - npart, "body", "bodies"),
              npart > 0 and count(npart, "particle", "particles") .. ", " or "",
              count(M.nq, "coordinate", "coordinates"), count(nc, "constraint", "constraints"),
              count(np, "point", "points"), count(#M.elements, "element", "elements"), tconcat(parts, ", "), tun)
end

return model
