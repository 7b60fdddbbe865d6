-- ctext.lua - text helpers shared by the emitters (emit.lua, emit_data.lua): model errors,
-- template loading and filling, C literals and initializer rows, the banner's option text.
-- Layer: generator back end; no knowledge of models beyond their file name.

local ctext = {}

-- Raise a model error in the compiler-like form "file:line: error: msg".
function ctext.uerr(M, line, msg)
    error(string.format("%s:%d: error: %s", M.file or "?", line or 0, msg), 0)
end

local function sorted_keys(t)
    local ks = {}
    for k in pairs(t) do ks[#ks + 1] = k end
    table.sort(ks)
    return ks
end

-- Substitute ${NAME} placeholders; fail on an unknown placeholder, a leftover "${" and on a
-- value that the template never uses (a sign the template and the Lua side disagree).
function ctext.fill(tpl, vals, tname)
    local used = {}
    local out = tpl:gsub("%${([%w_]+)}", function(k)
        local v = vals[k]
        if v == nil then error(tname .. ": unknown placeholder ${" .. k .. "}", 0) end
        used[k] = true
        return tostring(v)
    end)
    if out:find("${", 1, true) then error(tname .. ": leftover placeholder", 0) end
    for _, k in ipairs(sorted_keys(vals)) do
        if not used[k] then error(tname .. ": value ${" .. k .. "} not used by the template", 0) end
    end
    return out
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
