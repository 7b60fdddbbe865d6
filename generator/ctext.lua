-- ctext.lua - text helpers shared by the emitters (emit.lua, emit_data.lua): model errors,
-- template loading and filling, C literals and initializer rows, the banner's option text.
-- Layer: generator back end; no knowledge of models beyond their file name.

local ctext = {}

-- Raise a model error in the compiler-like form "file:line: error: msg".
function ctext.uerr(M, line, msg)
    error(string.format("%s:%d: error: %s", M.file or "?", line or 0, msg), 0)
end

-- Where the back end is while it derives a model: the statement whose numbers it is combining
-- (set by emit.lua and emit_data.lua), so that an overflow while folding constants names it.
ctext.here = { line = 0, what = "the model" }
function ctext.at(line, what)
    ctext.here.line, ctext.here.what = line or 0, what
end

-- Run f(...) and turn sym's arithmetic errors (a constant that overflows to infinity, a
-- division by a zero constant: the model's numbers are too large or too small) into a model
-- error at the statement being derived. No model code runs in the back end, so these texts
-- cannot come from a model; any other error passes unchanged.
local NUMERIC = { ["non-finite constant in an expression"] = "a constant overflows",
                  ["division by zero in an expression"] = "a constant divides by zero" }
function ctext.numeric(M, f, ...)
    ctext.at(0, "the model")
    local function pass(ok, ...)
        if ok then return ... end
        local e = ...
        if type(e) == "string" and NUMERIC[e] then
            ctext.uerr(M, ctext.here.line, string.format(
                "%s: %s in the generated equations (its numbers are too large or too small for double precision)",
                ctext.here.what, NUMERIC[e]))
        end
        error(e, 0)
    end
    return pass(pcall(f, ...))
end

local function sorted_keys(t)
    local ks = {}
    for k in pairs(t) do ks[#ks + 1] = k end
    table.sort(ks)
    return ks
end

-- Text that comes from outside the generator (the model file's path, the -D values as typed)
-- and lands in a C comment: only characters of a conservative set pass, every other byte
-- becomes '_'. No '*' (so no "*/" that ends the comment, no "/*" that -Wcomment rejects), no
-- '?' (trigraphs: "??/" is a backslash), no backslash (line splices), no control characters
-- or non-ASCII bytes.
function ctext.comment_text(s)
    return (tostring(s):gsub("[^A-Za-z0-9 ._/+,:=@-]", "_"))
end

-- The placeholders that carry such outside text; fill() passes their values through
-- comment_text whoever supplies them, so a new template or emitter cannot forget it.
local OUTSIDE_TEXT = { FILE = true, OPTIONS = true }

-- Substitute ${NAME} placeholders; fail on an unknown placeholder, a leftover "${" and on a
-- value that the template never uses (a sign the template and the Lua side disagree).
function ctext.fill(tpl, vals, tname)
    local used = {}
    local out = tpl:gsub("%${([%w_]+)}", function(k)
        local v = vals[k]
        if v == nil then error(tname .. ": unknown placeholder ${" .. k .. "}", 0) end
        used[k] = true
        if OUTSIDE_TEXT[k] then return ctext.comment_text(v) end
        return tostring(v)
    end)
    if out:find("${", 1, true) then error(tname .. ": leftover placeholder", 0) end
    for _, k in ipairs(sorted_keys(vals)) do
        if not used[k] then error(tname .. ": value ${" .. k .. "} not used by the template", 0) end
    end
    return out
end

-- Defence in depth for a rendered C file: every comment closes where the generator meant it
-- to (no "/*" inside a comment, none left open), string literals end on their line, and
-- there is no trigraph ("??") and no backslash-newline anywhere. A failure is a generator bug
-- (text from outside reached the output unsanitized), reported as an internal error.
function ctext.check_c(fname, s)
    local function bad(why, pos)
        local _, line = s:sub(1, pos):gsub("\n", "")
        error(string.format("generated %s, line %d: %s (generator bug: unsanitized text)", fname,
                            line + 1, why), 0)
    end
    local p = s:find("??", 1, true)
    if p then bad("trigraph sequence", p) end
    p = s:find("\\\n", 1, true)
    if p then bad("backslash-newline", p) end
    local i, n = 1, #s
    while i <= n do
        local j = s:find('[/"\']', i)
        if not j then break end
        local c = s:sub(j, j)
        if c == "/" and s:sub(j + 1, j + 1) == "*" then
            local e = s:find("*/", j + 2, true)
            if not e then bad("unterminated comment", j) end
            local inner = s:find("/*", j + 2, true)
            if inner and inner < e then bad("'/*' inside a comment", inner) end
            i = e + 2
        elseif c == "/" and s:sub(j + 1, j + 1) == "/" then
            i = (s:find("\n", j, true) or n) + 1
        elseif c == "/" then
            i = j + 1
        else   -- a string or character literal: escapes skipped, must end on its line
            local k = j + 1
            while true do
                local q = s:find("[\\\n" .. c .. "]", k)
                if not q or s:sub(q, q) == "\n" then bad("unterminated literal", j) end
                if s:sub(q, q) == "\\" then
                    k = q + 2
                else
                    i = q + 1
                    break
                end
            end
        end
    end
    return s
end

-- The templates/ directory next to generator/ unless opts.template_dir says otherwise.
local function template_dir(opts)
    if opts.template_dir then return opts.template_dir end
    local src = debug and debug.getinfo(1, "S").source or ""
    local dir = src:match("^@(.*)[/\\][^/\\]*$") or "."
    return dir .. "/../templates"
end

-- Template text: opts.templates[name] when given (tests), else the file.
function ctext.load_template(opts, name)
    if opts.templates and opts.templates[name] then return opts.templates[name] end
    local path = template_dir(opts) .. "/" .. name
    local f, err = io.open(path, "rb")
    if not f then error("cannot read template " .. path .. ": " .. tostring(err), 0) end
    local s = f:read("a")
    f:close()
    return s
end

-- A C string literal; control characters, quotes and backslashes as octal escapes.
function ctext.cstring(s)
    return '"' .. s:gsub('[%c"\\]', function(c) return string.format("\\%03o", c:byte()) end) .. '"'
end

-- Comma-separated initializer rows, `per` items per line.
function ctext.rows(items, per)
    local out = {}
    for i = 1, #items, per do
        out[#out + 1] = "    " .. table.concat(items, ", ", i, math.min(i + per - 1, #items)) .. ","
    end
    return table.concat(out, "\n")
end

-- The options for the banner: "none" when there are none.
function ctext.options_text(opts)
    local s = opts.options_text
    if s == nil and type(opts.options) == "table" then s = table.concat(opts.options, " ") end
    if s == nil or s == "" then return "none" end
    return s
end

return ctext
