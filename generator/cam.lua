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
-- form); on a Fourier or function profile the roller's contact angle would be a coordinate of
-- its own, which the generator has none of: refused by model.lua (the pitch curve, the roller
-- centre's path, is then the profile to give, as a point follower).

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
            local r = p.kind == "function" and C.function_value(p, psi) or C.fourier_value(p, psi)
            pts[#pts + 1] = { r * math.cos(psi), r * math.sin(psi) }
        end
    end
    return pts
end

-- The constraint as an expression of the follower point (dx, dy) in the cam body's frame
-- relative to O (sym nodes):
--   fourier: (rho - r(psi)) / sqrt(1 + (r'(psi) / rho)^2), rho = |d|, psi = atan2(dy, dx):
--            the division makes the gradient in the follower point a unit vector on the profile
--            (|grad(rho - r(psi))| = sqrt(1 + (r' / rho)^2)), so the multiplier is the normal
--            force and Phi a distance to first order;
--   circle:  |d - c| - (R + roller): the roller centre's distance from the circle's centre.
function C.equation(p, dx, dy, roller)
    if p.kind == "circle" then
        return sym.hypot(dx - p.centre[1], dy - p.centre[2]) - (p.radius + (roller or 0))
    end
    local rho = sym.hypot(dx, dy)
    local psi = sym.atan2(dy, dx)
    local r, r1 = sym.num(p.a0 or 0), sym.num(0)
    if p.kind == "function" then
        r, r1 = sym.subst(p.r, U, psi), sym.subst(p.r1, U, psi)
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
