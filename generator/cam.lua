-- cam.lua - a cam's profile: its radius r(psi) about the cam's centre O as numbers (checks,
-- drawing) and as expressions (the element's equation, generator/elements.lua).
-- Layer: generator, shared by model.lua (validation), elements.lua and emit.lua (drawing).
--
-- Three profiles (docs/model-language.md, "Cams"):
--   fourier: r(psi) = a0 + sum_k a_k cos(k psi) + b_k sin(k psi), psi the polar angle in the cam
--            body's frame about O; closed, smooth, with closed-form derivatives;
--   circle:  a circle of radius R centred at c (O's frame in the cam body): the eccentric cam;
--   function: r(psi) a Lua function of an opaque angle (model.lua traces it into a formula),
--            differentiated by sym.lua; checked closed (r, r', r'' equal at 0 and 2 pi).
-- A roller of radius rr rides on a circle as a point on the circle of radius R + rr (closed
-- form). On a Fourier or function profile the roller's centre follows the offset curve
-- P(psi) + rr N(psi), which has no closed form in the centre's position: the contact angle
-- psi_c is eliminated as an implicit function of the centre d (sym.implicit), the root of the
-- tangency g(d, psi) = (d - P(psi)) . P'(psi) = 0 that the generated code finds by Newton from
-- d's polar angle (C.contact_c), and whose derivatives follow from the implicit function
-- theorem, dpsi_c/dd = -P' / g_psi (exact to any order: sym.d differentiates through them).
-- g_psi = -|P'|^2 (1 + rr kappa) at the root (kappa the signed curvature, > 0 where convex), so
-- the root is regular unless the roller is at least as large as a concave part's radius of
-- curvature, where the offset curve has a cusp: such a roller is refused (C.roller_check).

local sym = require("sym")

local C = {}

C.MAX_HARMONICS = 64
C.GRID = 4096           -- the positivity check's points per turn (at least 64 per harmonic)
C.DRAW_POINTS = 64      -- the drawn polyline's vertices: MB_CAM_VERTICES (runtime/mb_model.h)

-- r, r', r'' of a Fourier profile at the number psi.
function C.fourier_value(p, psi)
    local r, r1, r2 = p.a0, 0.0, 0.0
    for k = 1, #p.a do
        local c, s = math.cos(k * psi), math.sin(k * psi)
        local a, b = p.a[k], p.b[k]
        r = r + a * c + b * s
        r1 = r1 + k * (b * c - a * s)
        r2 = r2 - k * k * (a * c + b * s)
    end
    return r, r1, r2
end

-- A profile given as a function f of the angle (a number -> a number, a sym node -> a sym node):
-- its radius and first two derivatives as expressions of the variable cam_psi.
local U = sym.var("cam_psi")
function C.function_profile(f)
    local r = sym.lift(f(U))
    local r1 = sym.d(r, U)
    return { kind = "function", f = f, r = r, r1 = r1, r2 = sym.d(r1, U) }
end

-- r, r', r'' of a function profile at the number psi.
function C.function_value(p, psi)
    local env = { cam_psi = psi }
    return sym.eval(p.r, env), sym.eval(p.r1, env), sym.eval(p.r2, env)
end

-- Check a function profile: finite, closed (r, r', r'' at 2 pi equal to those at 0, to 1e-9 of
-- their largest sizes: a periodic curve with continuous tangent and curvature) and positive
-- with the same margin as C.fourier_min. Returns true, or false and why.
function C.check_function(p)
    local n = C.GRID
    local h = 2 * math.pi / n
    local big, rmin, at = { 0.0, 0.0, 0.0 }, math.huge, 0.0
    for i = 0, n do
        local psi = i * h
        local ok, r, r1, r2 = pcall(C.function_value, p, psi)
        if not ok then return false, "the profile function fails at psi = " .. string.format("%.6g", psi) .. ": " .. tostring(r) end
        for k, x in ipairs { r, r1, r2 } do
            if x ~= x or x == math.huge or x == -math.huge then
                return false, string.format("the profile function is not finite at psi = %.6g rad (r, r', r'' = %.6g, %.6g, %.6g)",
                                            psi, r, r1, r2)
            end
            big[k] = math.max(big[k], math.abs(x))
        end
        if i < n and r < rmin then rmin, at = r, psi end
    end
    local v0, v1 = { C.function_value(p, 0.0) }, { C.function_value(p, 2 * math.pi) }
    local names = { "r", "r'", "r''" }
    for k = 1, 3 do
        if math.abs(v1[k] - v0[k]) > 1e-9 * math.max(big[k], big[1]) then
            return false, string.format("the profile function is not closed: %s(2 pi) - %s(0) = %.6g (a profile must be a periodic function of the angle, period 2 pi, smooth where it joins)",
                                        names[k], names[k], v1[k] - v0[k])
        end
    end
    if not (rmin > 0) then
        return false, string.format("the profile's radius is not positive everywhere: r(%.6g rad) = %.6g (the smallest of %d angles; a polar profile needs r > 0)",
                                    at, rmin, n)
    end
    local margin = big[3] * h * h / 8
    if not (rmin - margin > 0) then
        return false, string.format("the profile's radius may not be positive everywhere: the smallest of %d angles, r(%.6g rad) = %.6g, is within %.3g of 0, the most the curve can dip between them (max|r''| h^2 / 8)",
                                    n, at, rmin, margin)
    end
    return true
end

-- The smallest radius over C.GRID angles (and where), for the check r > 0. Between two grid
-- points a smooth r dips below the smaller value by at most max|r''| h^2 / 8 (h = 2 pi / N):
-- that bound is subtracted, so a profile passing the check is positive everywhere.
function C.fourier_min(p)
    local K = #p.a
    local n = math.max(C.GRID, 64 * K)
    local h = 2 * math.pi / n
    local bound = 0.0
    for k = 1, K do bound = bound + k * k * (math.abs(p.a[k]) + math.abs(p.b[k])) end
    local rmin, at = math.huge, 0.0
    for i = 0, n - 1 do
        local psi = i * h
        local r = C.fourier_value(p, psi)
        if r < rmin then rmin, at = r, psi end
    end
    return rmin - bound * h * h / 8, at, rmin
end

-- The profile's points (cam body frame, relative to O) for drawing: n vertices of the closed
-- curve (the last joins the first).
function C.polyline(p, n)
    n = n or C.DRAW_POINTS
    local pts = {}
    for i = 0, n - 1 do
        local psi = 2 * math.pi * i / n
        if p.kind == "circle" then
            pts[#pts + 1] = { p.centre[1] + p.radius * math.cos(psi), p.centre[2] + p.radius * math.sin(psi) }
        else
            local r = C.value(p, psi)
            pts[#pts + 1] = { r * math.cos(psi), r * math.sin(psi) }
        end
    end
    return pts
end

------------------------------------------------------------------ periodic spline profiles

C.MAX_SPLINE = 256      -- a spline profile's points at most (its fit is a dense solve)

-- The periodic cubic spline (C2) through the points (phi_i, r_i), i = 1..n, phi increasing
-- within less than a turn, closed over 2 pi: second derivatives M_i from the cyclic system
-- h_{i-1} M_{i-1} + 2 (h_{i-1} + h_i) M_i + h_i M_{i+1} = 6 (s_i - s_{i-1}), s_i the chord
-- slopes (diagonally dominant: elimination without pivoting), then each piece as
-- c0 + c1 t + c2 t^2 + c3 t^3 in t = psi - phi_i. Returns the profile table.
function C.spline_fit(pts)
    local n = #pts
    local x, y = {}, {}
    for i = 1, n do x[i], y[i] = pts[i][1], pts[i][2] end
    x[n + 1], y[n + 1] = x[1] + 2 * math.pi, y[1]
    local h, sl = {}, {}
    for i = 1, n do h[i] = x[i + 1] - x[i]; sl[i] = (y[i + 1] - y[i]) / h[i] end
    local A, b = {}, {}
    for i = 1, n do
        A[i] = {}
        for j = 1, n do A[i][j] = 0.0 end
        local im = i == 1 and n or i - 1
        local ip = i == n and 1 or i + 1
        A[i][im] = A[i][im] + h[im]
        A[i][i] = A[i][i] + 2 * (h[im] + h[i])
        A[i][ip] = A[i][ip] + h[i]
        b[i] = 6 * (sl[i] - sl[im])
    end
    for k = 1, n do
        for i = k + 1, n do
            local f = A[i][k] / A[k][k]
            if f ~= 0 then
                for j = k, n do A[i][j] = A[i][j] - f * A[k][j] end
                b[i] = b[i] - f * b[k]
            end
        end
    end
    local M = {}
    for i = n, 1, -1 do
        local acc = b[i]
        for j = i + 1, n do acc = acc - A[i][j] * M[j] end
        M[i] = acc / A[i][i]
    end
    M[n + 1] = M[1]
    local c = {}
    for i = 1, n do
        c[i] = { y[i], sl[i] - h[i] * (2 * M[i] + M[i + 1]) / 6, M[i] / 2, (M[i + 1] - M[i]) / (6 * h[i]) }
    end
    return { kind = "spline", x = x, c = c, n = n }
end

-- The k-th derivative (k = 0..3) of a spline profile at the number psi: psi wrapped into
-- [phi_1, phi_1 + 2 pi), its piece found by bisection.
function C.spline_value(p, k, psi)
    local x0, tp = p.x[1], 2 * math.pi
    local u = psi - tp * math.floor((psi - x0) / tp)
    if u < x0 then u = x0 end
    local lo, hi = 1, p.n + 1
    while hi - lo > 1 do
        local mid = (lo + hi) // 2
        if u < p.x[mid] then hi = mid else lo = mid end
    end
    local t, c = u - p.x[lo], p.c[lo]
    if k == 0 then return c[1] + t * (c[2] + t * (c[3] + t * c[4]))
    elseif k == 1 then return c[2] + t * (2 * c[3] + 3 * t * c[4])
    elseif k == 2 then return 2 * c[3] + 6 * t * c[4] end
    return 6 * c[4]
end

-- The sym specs of a spline's derivatives 0..3 (sym.call1), calling the C helpers
-- <base>_d0 .. _d3 (C.spline_c); kept on the profile.
function C.spline_specs(p, base)
    if p.specs then return p.specs end
    local specs = {}
    for k = 3, 0, -1 do
        local spec = { key = base .. "_d" .. k, cname = base .. "_d" .. k, deriv = specs[k + 1] }
        function spec.eval(u) return C.spline_value(p, k, u) end
        specs[k] = spec
    end
    p.specs, p.cbase = specs, base
    return specs
end

-- The C helpers of a spline profile: the knots and coefficients as static constants of one
-- function base(k, psi) (the k-th derivative), and base_d0 .. base_d3 calling it (static
-- inline: a build that leaves out Gamma does not use d3).
function C.spline_c(p, what)
    local base, n = p.cbase, p.n
    local xs, cs = {}, {}
    for i = 1, n + 1 do xs[i] = sym.cnum(p.x[i]) end
    for i = 1, n do for k = 1, 4 do cs[#cs + 1] = sym.cnum(p.c[i][k]) end end
    local function rows(list)
        local out, line = {}, "        "
        for i, v in ipairs(list) do
            local piece = v .. (i < #list and ", " or "")
            if #line + #piece > 96 then out[#out + 1] = (line:gsub("%s+$", "")); line = "        " end
            line = line .. piece
        end
        out[#out + 1] = line
        return table.concat(out, "\n")
    end
    local L = {
        "/* " .. what .. ": the periodic cubic spline through its " .. n .. " points, its k-th derivative",
        " * (k = 0..3) at psi: psi wrapped into [phi_1, phi_1 + 2 pi), the piece by bisection",
        " * (generator/cam.lua: spline_fit, spline_value). */",
        "static inline mb_real " .. base .. "(int k, mb_real psi)",
        "{",
        "    static const mb_real x[" .. (n + 1) .. "] = {",
        rows(xs),
        "    };",
        "    static const mb_real c[" .. (4 * n) .. "] = {",
        rows(cs),
        "    };",
        "    const mb_real tp = MB_R(6.283185307179586);",
        "    mb_real u = psi - tp * MB_LIBM(floor)((psi - x[0]) / tp), t;",
        "    int lo = 0, hi = " .. n .. ";",
        "    const mb_real *p;",
        "    if (u < x[0]) u = x[0];",
        "    while (hi - lo > 1) {",
        "        const int mid = (lo + hi) / 2;",
        "        if (u < x[mid]) hi = mid; else lo = mid;",
        "    }",
        "    t = u - x[lo];",
        "    p = c + 4 * lo;",
        "    if (k == 0) return p[0] + t * (p[1] + t * (p[2] + t * p[3]));",
        "    if (k == 1) return p[1] + t * (MB_R(2.0) * p[2] + MB_R(3.0) * t * p[3]);",
        "    if (k == 2) return MB_R(2.0) * p[2] + MB_R(6.0) * t * p[3];",
        "    return MB_R(6.0) * p[3];",
        "}",
    }
    for k = 0, 3 do
        L[#L + 1] = "static inline mb_real " .. base .. "_d" .. k .. "(mb_real psi) { return " .. base
                    .. "(" .. k .. ", psi); }"
    end
    return table.concat(L, "\n") .. "\n"
end

-- Check a spline profile positive everywhere: the smallest radius at the check's grid less the
-- most a piece can dip between two grid points (max|r''| h^2 / 8). Returns true, or false and why.
function C.check_spline(p)
    local n = math.max(C.GRID, 16 * p.n)
    local h = 2 * math.pi / n
    local rmin, at, big = math.huge, 0.0, 0.0
    for i = 0, n - 1 do
        local psi = p.x[1] + i * h
        local r = C.spline_value(p, 0, psi)
        if r < rmin then rmin, at = r, psi end
        big = math.max(big, math.abs(C.spline_value(p, 2, psi)))
    end
    for i = 1, p.n do big = math.max(big, math.abs(C.spline_value(p, 2, p.x[i]))) end
    if not (rmin > 0) then
        return false, string.format("the spline's radius is not positive everywhere: r(%.6g rad) = %.6g (the smallest of %d angles; a polar profile needs r > 0)",
                                    at, rmin, n)
    end
    if not (rmin - big * h * h / 8 > 0) then
        return false, string.format("the spline's radius may not be positive everywhere: the smallest of %d angles, r(%.6g rad) = %.6g, is within %.3g of 0, the most the curve can dip between them (max|r''| h^2 / 8)",
                                    n, at, rmin, big * h * h / 8)
    end
    return true
end

-- r, r', r'' of a Fourier, function or spline profile at the number psi.
function C.value(p, psi)
    if p.kind == "function" then return C.function_value(p, psi) end
    if p.kind == "spline" then
        return C.spline_value(p, 0, psi), C.spline_value(p, 1, psi), C.spline_value(p, 2, psi)
    end
    return C.fourier_value(p, psi)
end

-- r, r', r'' of a Fourier or function profile as expressions of the sym node u.
function C.exprs(p, u)
    if p.kind == "function" then
        return sym.subst(p.r, U, u), sym.subst(p.r1, U, u), sym.subst(p.r2, U, u)
    end
    if p.kind == "spline" then
        local sp = assert(p.specs, "cam.exprs: a spline profile without its specs (C.spline_specs)")
        return sym.call1(sp[0], u), sym.call1(sp[1], u), sym.call1(sp[2], u)
    end
    local r, r1, r2 = sym.num(p.a0), sym.num(0), sym.num(0)
    for k = 1, #p.a do
        local a, b = p.a[k], p.b[k]
        local ku = k == 1 and u or k * u
        local c, s = sym.cos(ku), sym.sin(ku)
        if a ~= 0 then r = r + a * c; r1 = r1 - (k * a) * s; r2 = r2 - (k * k * a) * c end
        if b ~= 0 then r = r + b * s; r1 = r1 + (k * b) * c; r2 = r2 - (k * k * b) * s end
    end
    return r, r1, r2
end

-- The signed curvature of the polar curve r(psi) (> 0 where the profile is convex):
-- (r^2 + 2 r'^2 - r r'') / (r^2 + r'^2)^(3/2).
local function curvature(r, r1, r2)
    return (r * r + 2 * r1 * r1 - r * r2) / (r * r + r1 * r1) ^ 1.5
end

-- Check that a roller of radius rr rolls on a Fourier or function profile: the offset curve
-- P + rr N is regular where 1 + rr kappa > 0, which fails only on a concave part (kappa < 0)
-- whose radius of curvature 1 / |kappa| is not larger than rr (a cusp: the roller would touch
-- the profile's two flanks, and its contact angle jumps). Sampled on the positivity check's
-- grid. Returns true, or false and why. (A roller that bridges a concave valley between two
-- distant points without a cusp is not detected: the check is local.)
function C.roller_check(p, rr)
    local n = math.max(C.GRID, 64 * #(p.a or {}), 16 * (p.n or 0))
    local worst, at = math.huge, 0.0
    for i = 0, n - 1 do
        local psi = 2 * math.pi * i / n
        local f = 1 + rr * curvature(C.value(p, psi))
        if f < worst then worst, at = f, psi end
    end
    if not (worst > 0) then
        local r, r1, r2 = C.value(p, at)
        return false, string.format("roller %.6g does not fit the profile: at psi = %.6g rad the profile is concave with radius of curvature %.6g, not larger than the roller (the roller centre's path has a cusp there: the roller would touch two points); use a smaller roller or a flatter profile",
                                    rr, at, -1 / curvature(r, r1, r2))
    end
    return true
end

-- The contact angle by Newton on g(psi) = (d - P(psi)) . P'(psi) = 0 from d's polar angle
-- (numbers; the same iteration as the generated C, C.contact_c): steps limited to 0.5 rad, a
-- step against the curve's orientation (g_psi >= -|P'|^2 / 100, far from the root) replaced by
-- g / |P'|^2; once a step is below sqrt(eps) one more step, then the root to rounding. No such
-- step in NEWTON_MAX: NaN (not the last iterate, a wrong angle with nothing to tell it), which
-- makes the constraint's row and its derivatives NaN, and the runtime reports a non-finite
-- evaluation (MB_ERR_NONFINITE; an adaptive run retries the step smaller).
local function newton_step(p, psi, dx, dy)
    local r, r1, r2 = C.value(p, psi)
    local c, s = math.cos(psi), math.sin(psi)
    local tx, ty = r1 * c - r * s, r1 * s + r * c
    local ax, ay = (r2 - r) * c - 2 * r1 * s, (r2 - r) * s + 2 * r1 * c
    local ex, ey = dx - r * c, dy - r * s
    local tt = tx * tx + ty * ty
    local g, gp = ex * tx + ey * ty, ex * ax + ey * ay - tt
    if not (gp < -0.01 * tt) then gp = -tt end
    local step = g / gp
    if step > 0.5 then step = 0.5 elseif step < -0.5 then step = -0.5 end
    return step
end
C.NEWTON_MAX = 50
function C.contact_angle(p, dx, dy)
    local psi = math.atan(dy, dx)
    local tol = math.sqrt(2.220446049250313e-16)
    for _ = 1, C.NEWTON_MAX do
        local step = newton_step(p, psi, dx, dy)
        psi = psi - step
        if math.abs(step) < tol then return psi - newton_step(p, psi, dx, dy) end
    end
    return 0 / 0
end

-- The implicit node's spec (sym.implicit) for a roller on profile p of element el, its C
-- helper named cname: value by C.contact_angle, partials -g_d / g_psi.
function C.contact_spec(p, cname)
    local spec = { key = cname, cname = cname }
    function spec.eval(a, b) return C.contact_angle(p, a, b) end
    function spec.partials(n, a, b)
        local r, r1, r2 = C.exprs(p, n)
        local c, s = sym.cos(n), sym.sin(n)
        local tx, ty = r1 * c - r * s, r1 * s + r * c
        local ax, ay = (r2 - r) * c - 2 * r1 * s, (r2 - r) * s + 2 * r1 * c
        local ex, ey = a - r * c, b - r * s
        local gp = ex * ax + ey * ay - (tx * tx + ty * ty)
        return -tx / gp, -ty / gp
    end
    return spec
end

-- The C helper of a spec: static mb_real cname(mb_real dx, mb_real dy), the iteration of
-- C.contact_angle with the profile's r, r', r'' printed by sym.emit (what: the comment's name).
function C.contact_c(p, spec, what, rr)
    local psi = sym.var("psi")
    local r, r1, r2 = C.exprs(p, psi)
    local lines = sym.emit({ { lhs = "const mb_real r0", e = r }, { lhs = "const mb_real r1", e = r1 },
                             { lhs = "const mb_real r2", e = r2 } }, { indent = "    " })
    local L = {
        "/* " .. what .. ", a roller of radius " .. sym.literal(rr) .. ": the contact angle psi on the profile",
        " * for the roller centre (dx, dy) in the cam's frame about O, the root of",
        " * g = (d - P(psi)) . P'(psi) by Newton from d's polar angle (generator/cam.lua). */",
        "static mb_real " .. spec.cname .. "_step(mb_real psi, mb_real dx, mb_real dy)",
        "{",
    }
    for _, l in ipairs(lines) do L[#L + 1] = l end
    for _, l in ipairs {
        "    const mb_real c = MB_COS(psi), s = MB_SIN(psi);",
        "    const mb_real tx = r1 * c - r0 * s, ty = r1 * s + r0 * c;",
        "    const mb_real ax = (r2 - r0) * c - MB_R(2.0) * r1 * s, ay = (r2 - r0) * s + MB_R(2.0) * r1 * c;",
        "    const mb_real ex = dx - r0 * c, ey = dy - r0 * s;",
        "    const mb_real tt = tx * tx + ty * ty;",
        "    mb_real gp = ex * ax + ey * ay - tt, step;",
        "    if (!(gp < -MB_R(0.01) * tt)) gp = -tt;   /* far from the root: along the tangent */",
        "    step = (ex * tx + ey * ty) / gp;",
        "    return step > MB_R(0.5) ? MB_R(0.5) : step < -MB_R(0.5) ? -MB_R(0.5) : step;",
        "}",
        "static mb_real " .. spec.cname .. "(mb_real dx, mb_real dy)",
        "{",
        "    mb_real psi = MB_ATAN2(dy, dx);",
        "    int i;",
        "    for (i = 0; i < " .. C.NEWTON_MAX .. "; i++) {",
        "        const mb_real step = " .. spec.cname .. "_step(psi, dx, dy);",
        "        psi -= step;",
        "        /* quadratic convergence: one more step after one below sqrt(eps) */",
        "        if (MB_FABS(step) < MB_SQRT(MB_EPS)) return psi - " .. spec.cname .. "_step(psi, dx, dy);",
        "    }",
        "    return MB_R(0.0) / MB_R(0.0);   /* not converged: NaN, reported as a non-finite evaluation */",
        "}",
    } do L[#L + 1] = l end
    return table.concat(L, "\n") .. "\n"
end

-- The constraint as an expression of the follower point (dx, dy) in the cam body's frame
-- relative to O (sym nodes):
--   fourier: (rho - r(psi)) / sqrt(1 + (r'(psi) / rho)^2), rho = |d|, psi = atan2(dy, dx):
--            the division makes the gradient in the follower point a unit vector on the profile
--            (|grad(rho - r(psi))| = sqrt(1 + (r' / rho)^2)), so the multiplier is the normal
--            force and Phi a distance to first order;
--   circle:  |d - c| - (R + roller): the roller centre's distance from the circle's centre.
--   roller on a Fourier or function profile: (d - P(psi_c)) . N(psi_c) - rr, the signed
--            distance from the profile at the contact angle psi_c (an implicit node: spec)
--            less the roller's radius; its gradient in d is N (d/dpsi of the distance is 0 at
--            the root), so the multiplier is again the normal force.
function C.equation(p, dx, dy, roller, spec)
    if p.kind == "circle" then
        return sym.hypot(dx - p.centre[1], dy - p.centre[2]) - (p.radius + (roller or 0))
    end
    if roller then
        local n = sym.implicit(spec, dx, dy)
        local r, r1 = C.exprs(p, n)
        local c, s = sym.cos(n), sym.sin(n)
        local tx, ty = r1 * c - r * s, r1 * s + r * c
        local ex, ey = dx - r * c, dy - r * s
        local L = sym.hypot(r, r1)
        -- the gradient in d is the normal N = (ty, -tx) / L: d/dpsi of the distance is
        -- (d - P) . N' = 0 at the root (N' is along the tangent), so psi_c's own derivatives
        -- drop out of the first derivatives (and the generated code's size halves)
        return sym.given((ex * ty - ey * tx) / L - roller, dx, dy, ty / L, -tx / L)
    end
    local rho = sym.hypot(dx, dy)
    local psi = sym.atan2(dy, dx)
    local r, r1 = sym.num(p.a0 or 0), sym.num(0)
    if p.kind == "function" or p.kind == "spline" then
        r, r1 = C.exprs(p, psi)
    end
    for k = 1, #(p.a or {}) do
        local a, b = p.a[k], p.b[k]
        local kp = k == 1 and psi or k * psi
        local c, s = sym.cos(kp), sym.sin(kp)
        if a ~= 0 then r = r + a * c; r1 = r1 - (k * a) * s end
        if b ~= 0 then r = r + b * s; r1 = r1 + (k * b) * c end
    end
    if sym.iszero(r1) then return rho - r end
    local t = r1 / rho
    return (rho - r) / sym.sqrt(1 + t * t)
end

return C
