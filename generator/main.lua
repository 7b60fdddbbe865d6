-- main.lua - entry point of mbgen: command line -> load and validate the model -> emit.
-- Layer: generator front end, called by the host (mbgen.c) with (args, host).
-- Returns nil (nothing to write) or { dir = DIR, verbose = bool, files = { {name, content} } }.

local args, host = ...
local model = require "model"

local USAGE = [[
usage: mbgen MODEL.lua [options]
Generate C for the planar mechanism described in MODEL.lua (see docs/model-language.md).
Writes three files into the output directory; <name> is --name, else the model's name
statement, else the file name without .lua:
  <name>.h          sizes, index macros (<NAME>_Q_<BODY>_X, _POINT_, _PHI_ ...), the
                    descriptor <name>_model and the model functions' prototypes
  <name>.c          the model functions and the descriptor (each of its arrays defined once
                    here): compile it into your program
  <name>_data.c     the same model as data for the generic evaluator (evaluator/mb_generic.c,
                    not in the runtime library; it shares <name>.c's arrays): leave it out
                    of a program that links libmbrt
Nothing is written on an error; files whose content is unchanged are left alone.

options:
  -o DIR            output directory (default: generated)
  -D NAME=VALUE     set the model parameter NAME (read with param("NAME", default))
  --name NAME       model name and C prefix (overrides the model's name statement)
  --no-fused        leave out the fused evaluations (eval_kin, eval_kin_dyn): smaller code for
                    tight flash, slower steps (the runtime then calls the single functions)
  --linalg FORM     generated linear algebra: unrolled (straight-line code), compact (index
                    arrays and one loop kernel) or auto (default: unrolled up to 3000
                    elimination updates, compact above; see docs/linear-systems.md)
  --check           only load and validate the model, print a summary; also assembles the
                    initial configuration and names redundant constraint equations (stderr)
  --redundant MODE  find the constraint equations that are redundant at the assembled initial
                    configuration and name them on stderr; report: generate every equation,
                    remove: generate the model without them (docs/generator.md). Without the
                    option generation does not look (--check does). When the configuration
                    does not assemble nothing is named and remove is an error; so is remove
                    at a singular position (a rank loss there only: --check names it)
  --dump            only load and validate the model, print the validated table
  --stats           print per-function statistics and the generation time to stderr
  -v, --verbose     say which files were written or left unchanged
  -h, --help        show this help
  --version         show the version
environment:
  MBGEN_DATADIR     the directory holding mbgen's generator/ and templates/ (default:
                    found beside the executable, else compiled in); this mbgen uses
                    %s
Exit status: 0 ok, 1 error in the model or the options, 2 internal error.
]]

local function die(fmt, ...)
  error("mbgen: error: " .. string.format(fmt, ...), 0)
end

-- Command line ------------------------------------------------------------------------
local opts = { dir = "generated", params = {}, options = {}, files = {} }

local function define(s)
  local name, text = string.match(s, "^([^=]*)=(.*)$")
  if not name then die("-D expects NAME=VALUE, got '%s'", s) end
  if not string.find(name, "^[A-Za-z_][A-Za-z0-9_]*$") then
    die("-D %s: parameter name is not an identifier", name)
  end
  local v = tonumber(text)
  if v == nil or v ~= v or v == math.huge or v == -math.huge then
    die("-D %s=%s: value is not a finite number", name, text)
  end
  if opts.params[name] then die("-D %s given twice", name) end
  opts.params[name] = { value = v, text = text }
end

local i = 1
local function need(opt)
  i = i + 1
  if args[i] == nil then die("option %s needs an argument (see mbgen --help)", opt) end
  return args[i]
end

local only_files = false
while i <= #args do
  local a = args[i]
  if only_files or a == "-" or string.sub(a, 1, 1) ~= "-" then
    opts.files[#opts.files + 1] = a
  elseif a == "--" then only_files = true
  elseif a == "-o" then opts.dir = need(a)
  elseif string.sub(a, 1, 2) == "-o" then opts.dir = string.sub(a, 3)
  elseif a == "-D" then define(need(a))
  elseif string.sub(a, 1, 2) == "-D" then define(string.sub(a, 3))
  elseif a == "--no-fused" then opts.no_fused = true
  elseif a == "--linalg" then opts.linalg = need(a)
  elseif string.sub(a, 1, 9) == "--linalg=" then opts.linalg = string.sub(a, 10)
  elseif a == "--name" then opts.name = need(a)
  elseif string.sub(a, 1, 7) == "--name=" then opts.name = string.sub(a, 8)
  elseif a == "--check" then opts.check = true
  elseif a == "--redundant" then opts.redundant = need(a)
  elseif string.sub(a, 1, 12) == "--redundant=" then opts.redundant = string.sub(a, 13)
  elseif a == "--dump" then opts.dump = true
  elseif a == "--stats" then opts.stats = true
  elseif a == "-v" or a == "--verbose" then opts.verbose = true
  elseif a == "-h" or a == "--help" then opts.help = true
  elseif a == "--version" then opts.version = true
  else die("unknown option '%s' (see mbgen --help)", a) end
  i = i + 1
end

if opts.help then
  io.stdout:write((USAGE:gsub("%%s", function() return (tostring(host.gendir):gsub("/generator$", "")) end)))
  return nil
end
if opts.version then
  io.stdout:write("mbgen ", host.version, " (", host.lua, ")\n")
  return nil
end
if #opts.files == 0 then die("no model file given (usage: mbgen MODEL.lua [-o DIR]; see --help)") end
if #opts.files > 1 then die("one model file at a time, got %d", #opts.files) end
if opts.dir == "" then die("option -o needs a directory") end
if opts.redundant and opts.redundant ~= "report" and opts.redundant ~= "remove" then
  die("--redundant %s: expected report or remove", opts.redundant)
end
if opts.linalg and opts.linalg ~= "auto" and opts.linalg ~= "unrolled" and opts.linalg ~= "compact" then
  die("--linalg %s: expected unrolled, compact or auto", opts.linalg)
end

-- The options as they appear in the banner: -D values sorted by name, then --name.
do
  local names = {}
  for n in pairs(opts.params) do names[#names + 1] = n end
  table.sort(names)
  for _, n in ipairs(names) do
    opts.options[#opts.options + 1] = "-D " .. n .. "=" .. opts.params[n].text
  end
  if opts.name then opts.options[#opts.options + 1] = "--name " .. opts.name end
  if opts.linalg then opts.options[#opts.options + 1] = "--linalg " .. opts.linalg end
  if opts.no_fused then opts.options[#opts.options + 1] = "--no-fused" end
  if opts.redundant == "remove" then opts.options[#opts.options + 1] = "--redundant remove" end
end

-- Load and validate ---------------------------------------------------------------------
local t0 = host.clock()
local M = model.load(opts.files[1], opts.params,
                     { name = opts.name, guard = host.guard, gendir = host.gendir })
M.options = opts.options                   -- banner text, e.g. { "-D N=10", "--name c10" }
M.generator = "mbgen " .. host.version
local t_load = host.clock() - t0

if opts.dump then
  io.stdout:write(model.dump(M))
  return nil
end
-- Redundant constraint equations at the assembled initial configuration (generator/redundant.lua):
-- named on stderr; with remove, left out of the generated model (M.drop, read by emit.derive).
local function redundancy(remove)
  local file = (string.gsub(M.file, "%c", "?"))
  -- --check needs only the front end (main.lua, model.lua): without the back end it says so and
  -- skips this; generation (remove) reports the missing back end as the internal error it is
  local okb, emit = pcall(require, "emit")
  local okr, red = pcall(require, "redundant")
  if not (okb and okr) then
    if remove then error("the generator back end could not be loaded: " .. tostring(okb and red or emit), 0) end
    io.stderr:write(file, ": note: redundancy not checked: the generator back end could not be loaded\n")
    return
  end
  local ctext = require("ctext")
  -- numbers only: the tunables at their defaults (model.param_view), as the generic data
  local Mn = model.param_view(M, "num")
  local D = ctext.numeric(Mn, emit.derive, Mn)
  local rep, why = red.analyse(Mn, D)
  if not rep then
    if D.nc > 0 then io.stderr:write(file, ": note: redundancy not checked: ", why, "\n") end
    return
  end
  if not rep.assembled then
    -- a rank where the assembly stopped is no verdict: nothing named, nothing removed
    local why = string.format("the initial configuration does not assemble (|Phi| = %.3g after Gauss-Newton "
      .. "from the model's positions)", rep.residual)
    if remove then
      die("%s: --redundant remove: %s: redundant constraints are found only at an assembled configuration "
        .. "(fix the positions; nothing written)", file, why)
    end
    io.stderr:write(file, ": warning: ", why, ": redundancy not checked\n")
    return
  end
  if #rep.dependent == 0 then return end
  local ntorn = 0
  for _, g in ipairs(rep.groups) do if g.singular then ntorn = ntorn + 1 end end
  if remove and (rep.singular or rep.near_why) then
    die("%s: --redundant remove: %s (nothing written)", file,
      rep.singular and "Phi_q loses rank at a singular position, where no equation can be left out "
        .. "(the mechanism could tear there); see mbgen --check"
      or "the dependent equations could not be confirmed near the initial configuration: " .. rep.near_why)
  end
  -- one line per element, as the simulators write it (tools/mb_analysis_cli.c)
  local unsure = rep.near_why and "; not confirmed nearby: " .. rep.near_why or ""
  local tail = string.format(" (rank %d of %d equations at the assembled initial configuration%s)\n",
    rep.rank, rep.nc, remove and "" or (ntorn > 0 or rep.near_why) and unsure
      or "; mbgen --redundant remove generates the model without them")
  for k, l in ipairs(rep.lines) do
    local g = rep.groups[k]
    io.stderr:write(file, remove and ": note: removed redundant constraint: "
                    or g.singular and ": warning: singular position: "
                    or ": warning: redundant constraint: ", l, tail)
  end
  if remove then
    M.drop = {}
    for _, c in ipairs(rep.dependent) do M.drop[D.phinames[c]] = true end
  end
end

if opts.check then
  io.stdout:write(model.summary(M), "\n")
  redundancy(false)
  if opts.stats then io.stderr:write(string.format("load time: %.3f s\n", t_load)) end
  return nil
end
if opts.redundant then redundancy(opts.redundant == "remove") end

local ok, err = host.prepare_dir(opts.dir)
if not ok then die("%s", err) end

-- Emit --------------------------------------------------------------------------------
local okm, emit = pcall(require, "emit")
if not okm then
  -- Not a user error: the back end is missing or broken (exit 2 with a traceback).
  error("the generator back end (generator/emit.lua) could not be loaded: " .. tostring(emit), 0)
end
if type(emit) ~= "table" or type(emit.generate) ~= "function" then
  error("generator/emit.lua provides no emit.generate(M, opts)", 0)
end
-- emit.generate(M, opts) -> files { { name =, content = } }, stats (docs/generator.md)
local list, stats = emit.generate(M, { version = host.version, generator = M.generator,
                                       model_interface = host.model_interface,
                                       plan = host.plan, linalg = opts.linalg,
                                       fused = not opts.no_fused,
                                       options = opts.options,
                                       options_text = table.concat(opts.options, " ") })
if type(list) ~= "table" then error("emit.generate returned no file list", 0) end
for _, f in ipairs(list) do
  if type(f) ~= "table" or type(f.name) ~= "string" or type(f.content) ~= "string" then
    error("emit.generate returned a bad file entry", 0)
  end
  -- every comment and literal ends where the generator meant it to (ctext.lua): outside text
  -- that slipped through unsanitized is a generator bug, never written
  require("ctext").check_c(f.name, f.content)
end

-- Statistics: emit reports { fn =, lines =, ops = { add=, mul=, div=, call= }, total = } per
-- function (docs/generator.md); printed as a table with the generation time.
local function print_stats(st, elapsed)
  local out = io.stderr
  local cols = { "lines", "add", "mul", "div", "call", "total" }
  out:write(string.format("%-22s", "function"))
  for _, c in ipairs(cols) do out:write(string.format(" %8s", c)) end
  out:write("\n")
  for _, r in ipairs(type(st) == "table" and st or {}) do
    local ops = type(r.ops) == "table" and r.ops or {}
    out:write(string.format("%-22s", tostring(r.fn or r.name)))
    for _, c in ipairs(cols) do
      local v = r[c]
      if v == nil then v = ops[c] end
      out:write(string.format(" %8s", v == nil and "" or tostring(v)))
    end
    out:write("\n")
  end
  for _, f in ipairs(list) do
    local _, n = string.gsub(f.content, "\n", "")
    out:write(string.format("%s: %d lines, %d bytes\n", f.name, n, #f.content))
  end
  out:write(string.format("generation time: %.3f s (model load %.3f s)\n", elapsed, t_load))
end
if opts.stats then print_stats(stats, host.clock() - t0) end

return { dir = opts.dir, verbose = opts.verbose, files = list }
