-- elements.lua - the equations of each element type, declared once as expressions of q, v, t:
-- constraints Phi, potential V, non-conservative generalized forces Q_nc. Everything else is derived.
-- Layer: generator back end; called by emit.lua with a context (ctx) that knows the coordinates.

local sym = require("sym")

local E = {}

-- The context emit.lua passes in (all indices 1-based, body 0 = ground):
--   ctx.coords(i)   -> { kx, ky, kphi } coordinate indices of body i, or nil for the ground
--   ctx.angle(i)    -> phi_i (0 for the ground)
--   ctx.pos(ref)    -> X, Y: global position of a point reference
--   ctx.rate(e)     -> de/dt along the motion: sum_k de/dq_k v_k + de/dt
--   ctx.tf(f, el)   -> a time function (number or Lua function of t) as an expression
--   ctx.q, ctx.v    -> coordinate and velocity variables; ctx.t the time variable
-- Each element function returns { phi = { {name=, e=}, ... }, V = expr, qnc = { {k=, e=}, ... } }.

-- Generalized force of a global force (fx, fy) at a point (X, Y) on body i: (dr/dq_k)^T F.
local function point_load(ctx, body, X, Y, fx, fy, out)
    local c = ctx.coords(body)
    if not c then return end
    for _, k in ipairs(c) do
        local qk = ctx.q[k]
        local e = sym.d(X, qk) * fx + sym.d(Y, qk) * fy
        if not sym.iszero(e) then out[#out + 1] = { k = k, e = e } end
    end
end

-- Generalized force -(ds/dq)^T F of a scalar load F acting on a scalar coordinate s(q).
local function scalar_load(ctx, bodies, s, F, out)
    for _, b in ipairs(bodies) do
        local c = ctx.coords(b)
        if c then
            for _, k in ipairs(c) do
                local e = -(sym.d(s, ctx.q[k]) * F)
                if not sym.iszero(e) then out[#out + 1] = { k = k, e = e } end
            end
        end
    end
end

-- Revolute: r_a + R_a s_a - r_b - R_b s_b = 0 (2 equations).
function E.revolute(el, ctx)
    local xa, ya = ctx.pos(el.a)
    local xb, yb = ctx.pos(el.b)
    return { phi = { { name = el.name .. ".x", e = xa - xb },
                     { name = el.name .. ".y", e = ya - yb } } }
end

-- Prismatic: phi_a - phi_b - angle = 0, and the vector P->Q has no component along the
-- normal n = R_a Omega axis of the sliding axis fixed in body a.
function E.prismatic(el, ctx)
    local pa, pb = ctx.angle(el.a.body), ctx.angle(el.b.body)
    local xa, ya = ctx.pos(el.a)
    local xb, yb = ctx.pos(el.b)
    local nx0, ny0 = -el.axis[2], el.axis[1]            -- Omega axis, body-a frame
    local c, s = sym.cos(pa), sym.sin(pa)
    local nx, ny = c * nx0 - s * ny0, s * nx0 + c * ny0
    return { phi = { { name = el.name .. ".angle", e = sym.lift(pa) - pb - (el.angle or 0) },
                     { name = el.name .. ".perp", e = nx * (xb - xa) + ny * (yb - ya) } } }
end

-- Slot (pin in slot): point Q of body b stays on the line through P along the axis fixed in body
-- a: n . (p_Q - p_P) = 0 with n = R_a Omega axis, the prismatic joint's second equation alone
-- (b turns freely; b may be a particle, the pin itself).
function E.slot(el, ctx)
    local pa = ctx.angle(el.a.body)
    local xa, ya = ctx.pos(el.a)
    local xb, yb = ctx.pos(el.b)
    local nx0, ny0 = -el.axis[2], el.axis[1]            -- Omega axis, body-a frame
    local c, s = sym.cos(pa), sym.sin(pa)
    local nx, ny = c * nx0 - s * ny0, s * nx0 + c * ny0
    return { phi = { { name = el.name .. ".perp", e = nx * (xb - xa) + ny * (yb - ya) } } }
end

-- Gear pair on a carrier c (the body both revolute joints share: the ground or a moving arm),
-- gears g1 and g2 (each joint's other body), theta_i = phi_gi - phi_c (so a moving carrier is
-- accounted for): theta1 + k theta2 = offset with k = ratio (= z2 / z1) for an external mesh
-- (the gears turn opposite ways relative to the carrier), k = -ratio for an internal one.
-- ang(ref) gives a body reference's angle: the coordinate (equations) or the guess (offset).
local function gear_value(el, ang)
    local c = ang(el.carrier)
    local k = el.internal and -el.ratio or el.ratio
    return (ang(el.g1) - c) + k * (ang(el.g2) - c)
end

-- Rack and pinion on a frame f (the body the revolute and the prismatic joint share): pinion
-- angle theta = phi_pinion - phi_f, the rack's travel s = +-u . (p_b - p_a) (u = R_a axis, the
-- prismatic joint's axis fixed in its first body a; + when a is the frame, - when b is): the
-- travel from the frame to the rack along u. Equation s - radius theta = offset.
local function rack_value(el, ang, pos)
    local pa = ang(el.a)
    local c, s = sym.cos(pa), sym.sin(pa)
    local ux, uy = c * el.axis[1] - s * el.axis[2], s * el.axis[1] + c * el.axis[2]
    local xa, ya = pos(el.a)
    local xb, yb = pos(el.b)
    local travel = ux * (xb - xa) + uy * (yb - ya)
    if not el.frame_is_a then travel = -travel end
    return travel - el.radius * (ang(el.pinion) - ang(el.carrier))
end

-- The initial guesses as accessors (the model's angle and position guesses, ref.q0).
local function guess_angle(r) return r.q0[3] end
local function guess_pos(r)
    local sx, sy = r.s[1], r.s[2]
    if r.body == 0 then return sx, sy end
    local c, s = math.cos(r.q0[3]), math.sin(r.q0[3])
    return r.q0[1] + (c * sx - s * sy), r.q0[2] + (s * sx + c * sy)
end

-- The constant of a gear or rack equation: `offset` when given, else the mesh's value at the
-- model's initial guesses (so the teeth mesh as the model places the bodies). A number, or a
-- sym node when a point coordinate is a tunable. Shared with emit_data.lua (generic data).
function E.mesh_offset(el)
    if el.offset then return el.offset end
    if el.kind == "gear" then return gear_value(el, guess_angle) end
    return rack_value(el, guess_angle, guess_pos)
end

function E.gear(el, ctx)
    local function ang(r) return sym.lift(ctx.angle(r.body)) end
    return { phi = { { name = el.name .. ".mesh", e = gear_value(el, ang) - E.mesh_offset(el) } } }
end

function E.rack(el, ctx)
    local function ang(r) return sym.lift(ctx.angle(r.body)) end
    return { phi = { { name = el.name .. ".travel",
                       e = rack_value(el, ang, ctx.pos) - E.mesh_offset(el) } } }
end

-- Cam: the follower point P (body b) in the cam body a's frame relative to its point O,
-- d = R_a^T (p_P - p_O), stays on the profile (generator/cam.lua: the equation, one row in units
-- of length whose gradient in P is the profile's outward unit normal, so the multiplier is minus
-- the normal force). The contact parameter is eliminated: the polar angle atan2(d_y, d_x) for a
-- point follower; for a roller on a Fourier or function profile the contact angle, an implicit
-- function of d found by the C helper <model>_contact_<cam> (cam.lua: contact_spec, kept on
-- the element so that every derivation of the model shares one node).
function E.cam(el, ctx)
    local pa = ctx.angle(el.a.body)
    local xo, yo = ctx.pos(el.a)
    local xp, yp = ctx.pos(el.b)
    local gx, gy = xp - xo, yp - yo
    local c, s = sym.cos(pa), sym.sin(pa)
    local dx, dy = c * gx + s * gy, c * gy - s * gx
    local cam = require("cam")
    if el.profile.kind == "spline" then cam.spline_specs(el.profile, ctx.name .. "_spline_" .. el.name) end
    if el.roller and el.profile.kind ~= "circle" and not el.contact_spec then
        el.contact_spec = cam.contact_spec(el.profile, ctx.name .. "_contact_" .. el.name)
    end
    return { phi = { { name = el.name .. ".profile",
                       e = cam.equation(el.profile, dx, dy, el.roller, el.contact_spec) } } }
end

-- Rod (massless rigid link of length L between points P and Q): d = r_Q - r_P,
-- Phi = (d . d - L^2) / (2 L) = 0, one equation in units of length whose gradient d^T (dd/dq) / L
-- has the size of a revolute joint's rows near |d| = L (and no square root to differentiate).
function E.rod(el, ctx)
    local xa, ya = ctx.pos(el.a)
    local xb, yb = ctx.pos(el.b)
    local dx, dy = xb - xa, yb - ya
    local L = el.length
    return { phi = { { name = el.name .. ".dist", e = (dx * dx + dy * dy - L * L) / (2 * L) } } }
end

-- Point-to-point spring-damper: l = |r_Q - r_P| (hypot), V = k (l - l0)^2 / 2,
-- damper force F = c ldot + c2 ldot |ldot| (tension positive), Q_nc = -(dl/dq)^T F.
function E.spring(el, ctx)
    local xa, ya = ctx.pos(el.a)
    local xb, yb = ctx.pos(el.b)
    local dx, dy = xb - xa, yb - ya
    -- hypot: no underflow of dx*dx near |d| = 1e-162; at l = 0 the direction (and so the force
    -- k l0 along it) is taken as zero (sym.sdiv in the derivatives)
    local l = sym.hypot(dx, dy)
    -- l0 a number, a tunable or (inputs) a function of time: V then depends on t, and emit.lua
    -- counts dV/dt as power put in (the energy balance)
    local out = { V = 0.5 * el.k * (l - ctx.tf(el.l0, el)) ^ 2, qnc = {} }
    local c, c2 = el.c or 0, el.c2 or 0
    if c ~= 0 or c2 ~= 0 then
        local ld = ctx.rate(l)
        local F = c * ld + c2 * ld * sym.abs(ld)
        scalar_load(ctx, { el.a.body, el.b.body }, l, F, out.qnc)
    end
    return out
end

-- Rotational spring-damper on theta = phi_b - phi_a: V = k (theta - theta0)^2 / 2,
-- damper torque c thetadot.
function E.rotspring(el, ctx)
    local theta = sym.lift(ctx.angle(el.b.body)) - ctx.angle(el.a.body)
    local out = { V = 0.5 * el.k * (theta - (el.theta0 or 0)) ^ 2, qnc = {} }
    if (el.c or 0) ~= 0 then
        scalar_load(ctx, { el.a.body, el.b.body }, theta, el.c * ctx.rate(theta), out.qnc)
    end
    return out
end

-- Point force, components global or in the body's frame.
function E.force(el, ctx)
    local fx, fy = ctx.tf(el.fx, el), ctx.tf(el.fy, el)
    if el.frame == "body" then
        local p = ctx.angle(el.at.body)
        local c, s = sym.cos(p), sym.sin(p)
        fx, fy = c * fx - s * fy, s * fx + c * fy
    end
    local X, Y = ctx.pos(el.at)
    local out = { qnc = {} }
    point_load(ctx, el.at.body, X, Y, fx, fy, out.qnc)
    return out
end

-- Torque on a body (counter-clockwise positive), or in a revolute joint: +tau on its second
-- body, -tau on its first.
function E.torque(el, ctx)
    local out = { qnc = {} }
    local tau = ctx.tf(el.tau, el)
    if el.joint then
        local ca, cb = ctx.coords(el.a.body), ctx.coords(el.b.body)
        if cb then out.qnc[#out.qnc + 1] = { k = cb[3], e = tau } end
        if ca then out.qnc[#out.qnc + 1] = { k = ca[3], e = -tau } end
        return out
    end
    local c = ctx.coords(el.body.body)
    if c then out.qnc[1] = { k = c[3], e = tau } end
    return out
end

-- Actuator: a force f (a formula, possibly of the state) along P-Q, tension positive as a
-- spring's: Q_nc = -(dl/dq)^T f, l = |r_Q - r_P|.
function E.actuator(el, ctx)
    local xa, ya = ctx.pos(el.a)
    local xb, yb = ctx.pos(el.b)
    local l = sym.hypot(xb - xa, yb - ya)
    local out = { qnc = {} }
    scalar_load(ctx, { el.a.body, el.b.body }, l, ctx.tf(el.f, el), out.qnc)
    return out
end

-- Contact (docs/model-language.md, "Contact with friction"): a circle of radius r around point
-- C of body a (r = 0: the point) against a line through P along dir fixed in body b, or a circle
-- of radius R around P (outside it, or inside with `inside`). n is the unit normal that pushes a
-- away from b: Omega R_b dir for a line (its left side is outside), (C - P)/|C - P| for a circle
-- (towards P inside one); the gap g = n . (C - P) - r, |C - P| - r - R, R - r - |C - P|.
-- A segment from P to P + (dx, dy) fixed in b: g = |C - X| - r, X its point nearest C, n along
-- C - X (the distance to a segment is C^1 in C off the segment: a circle with r > 0 only).
-- Penetration x = max(-g, 0) = (|g| - g) / 2, its rate x' = -dg/dt.
-- Normal force (never a pull: clamped at 0 by (f + |f|) / 2):
--   Hunt-Crossley  f = k x^e (1 + d x'),
--   ADAMS IMPACT   f = k x^e + c step3(x / depth) x', step3(s) = s^2 (3 - 2 s) on s in [0, 1].
-- The elastic part k x^e is the potential V = k x^(e+1) / (e+1) (so T + V shows what an impact
-- dissipates); the rest is a load f - k x^e along n. Both act through C: Q = f dg/dq.
-- Friction at the contact point X = C - r n, along t = (n_y, -n_x) (the line's direction):
-- slip velocity s = t . (v_a(X) - v_b(X)) of the two bodies' material points at X, force
-- -mu(s) f on a along t (and its reaction on b): Q = -mu(s) f ds/dv, with the smooth Stribeck
-- curve of Brown and McPhee (2016), w = s / v_stick:
--   mu(s) = mu_d tanh(4 w) + (mu_s - mu_d) w / (w^2 / 4 + 3 / 4)^2
-- (mu_s at w = 1 to within mu_d (1 - tanh 4) = 7e-4 mu_d, -> mu_d as w grows, 0 at w = 0).
-- Returns { gap, normal, friction, slip, V, qnc }, cached per derivation (ctx).
function E.contact_terms(el, ctx)
    ctx.contact_cache = ctx.contact_cache or {}
    local cached = ctx.contact_cache[el.name]
    if cached then return cached end
    local xa, ya = ctx.pos(el.a)
    local xb, yb = ctx.pos(el.b)
    local dx, dy = xa - xb, ya - yb
    local nx, ny, gap
    if el.dir then
        local pb = ctx.angle(el.b.body)
        local c, s = sym.cos(pb), sym.sin(pb)
        local ux, uy = c * el.dir[1] - s * el.dir[2], s * el.dir[1] + c * el.dir[2]
        nx, ny = sym.neg(sym.lift(uy)), sym.lift(ux)
        gap = nx * dx + ny * dy - el.radius
    elseif el.seg then
        -- the segment from P to P + L u (u, L: seg's direction and length, turning with b):
        -- its point nearest C is P + s u, s = clamp(u . (C - P), 0, L); n along C minus it
        local pb = ctx.angle(el.b.body)
        local c, s = sym.cos(pb), sym.sin(pb)
        local L = math.sqrt(el.seg[1] ^ 2 + el.seg[2] ^ 2)
        local sx, sy = el.seg[1] / L, el.seg[2] / L
        local ux, uy = c * sx - s * sy, s * sx + c * sy
        local u = ux * dx + uy * dy
        local sc = 0.5 * (sym.abs(u) - sym.abs(u - L) + L)       -- clamp(u, 0, L)
        local ex, ey = dx - sc * ux, dy - sc * uy
        local dist = sym.hypot(ex, ey)
        nx, ny = sym.sdiv(ex, dist), sym.sdiv(ey, dist)
        gap = dist - el.radius
    elseif el.profile and el.profile.kind ~= "circle" then
        -- a closed profile about P in b's axes (generator/cam.lua): C in b's axes about P,
        -- d = R_b^T (C - P); its nearest profile point at the angle psi_c(d), the root of
        -- (d - P(psi)) . P'(psi) = 0 (an implicit node: the helper <model>_gap_<contact>, Newton
        -- from d's polar angle); the gap is the signed distance (d - P(psi_c)) . N(psi_c) less
        -- the radius, its gradient in d the outward normal N (sym.given: the distance's
        -- derivative in psi vanishes at the root), n = R_b N
        local cam = require("cam")
        local p = el.profile
        local pb = ctx.angle(el.b.body)
        local c, s = sym.cos(pb), sym.sin(pb)
        local bx, by = c * dx + s * dy, c * dy - s * dx
        if p.kind == "spline" then cam.spline_specs(p, ctx.name .. "_gapspline_" .. el.name) end
        el.contact_spec = el.contact_spec or cam.contact_spec(p, ctx.name .. "_gap_" .. el.name)
        local psi = sym.implicit(el.contact_spec, bx, by)
        local r, r1 = cam.exprs(p, psi)
        local cp, sp = sym.cos(psi), sym.sin(psi)
        local tx, ty = r1 * cp - r * sp, r1 * sp + r * cp
        local L = sym.hypot(r, r1)
        local Nx, Ny = ty / L, -tx / L
        local dist = ((bx - r * cp) * ty - (by - r * sp) * tx) / L
        gap = sym.given(dist, bx, by, Nx, Ny) - el.radius
        nx, ny = c * Nx - s * Ny, s * Nx + c * Ny
    else
        if el.profile then
            -- a circle profile of radius R centred at c from P in b's axes: a circle contact
            -- about that centre
            local pb = ctx.angle(el.b.body)
            local c, s = sym.cos(pb), sym.sin(pb)
            local cx, cy = el.profile.centre[1], el.profile.centre[2]
            if cx ~= 0 or cy ~= 0 then dx, dy = dx - (c * cx - s * cy), dy - (s * cx + c * cy) end
        end
        local l = sym.hypot(dx, dy)
        nx, ny = sym.sdiv(dx, l), sym.sdiv(dy, l)
        if el.inside then
            nx, ny = -nx, -ny
            gap = (el.circle - el.radius) - l
        else
            gap = l - (el.radius + (el.circle or el.profile.radius))
        end
    end
    local x = 0.5 * (sym.abs(gap) - gap)                     -- penetration, >= 0
    local xd = -ctx.rate(gap)
    local el_f = el.k * (x ^ el.exponent)                    -- the elastic part
    local f
    if el.model == "impact" then
        local r = x / el.depth
        local sr = 1 - 0.5 * ((1 - r) + sym.abs(1 - r))       -- min(x / depth, 1)
        f = el_f + el.c * (sr * sr * (3 - 2 * sr)) * xd
    else
        f = el_f * (1 + el.damping * xd)
    end
    local damped = el.model == "impact" and el.c > 0 or el.model ~= "impact" and el.damping > 0
    if damped then
        f = 0.5 * (f + sym.abs(f))                            -- never a pull
    end
    -- the material points' velocities at the contact point X
    local Xc, Yc = xa - el.radius * nx, ya - el.radius * ny
    local function vel_at(body)
        local cs = ctx.coords(body)
        if not cs then return sym.num(0), sym.num(0) end
        local vx, vy = ctx.v[cs[1]], ctx.v[cs[2]]
        if not cs[3] then return vx, vy end
        local w = ctx.v[cs[3]]
        return vx - w * (Yc - ctx.q[cs[2]]), vy + w * (Xc - ctx.q[cs[1]])
    end
    local vax, vay = vel_at(el.a.body)
    local vbx, vby = vel_at(el.b.body)
    local slip = ny * (vax - vbx) - nx * (vay - vby)
    local ft = sym.num(0)
    if el.mu_s > 0 then
        local w = slip / el.v_stick
        local a = 0.25 * (w * w) + 0.75
        local mu = el.mu_d * sym.tanh(4 * w)
        if el.mu_s ~= el.mu_d then mu = mu + (el.mu_s - el.mu_d) * w / (a * a) end
        ft = -(mu * f)
    end
    local out = { gap = gap, normal = f, friction = ft, slip = slip, qnc = {} }
    out.V = el.k / (el.exponent + 1) * (x ^ (el.exponent + 1))
    local fd = f - el_f                                       -- the load beside the potential's
    for _, body in ipairs { el.a.body, el.b.body } do
        for _, k in ipairs(ctx.coords(body) or {}) do
            local e = fd * sym.d(gap, ctx.q[k])
            if el.mu_s > 0 then e = e + ft * sym.d(slip, ctx.v[k]) end
            if not sym.iszero(e) then out.qnc[#out.qnc + 1] = { k = k, e = e } end
        end
    end
    ctx.contact_cache[el.name] = out
    return out
end

function E.contact(el, ctx)
    local c = E.contact_terms(el, ctx)
    return { V = c.V, qnc = c.qnc }
end

-- Driver: q_k - f(t) = 0, or phi_b - phi_a - f(t) = 0 (joint form).
function E.driver(el, ctx)
    local f = ctx.tf(el.f, el)
    local e
    if el.coord then
        e = ctx.q[el.coord] - f
    else
        e = sym.lift(ctx.angle(el.b.body)) - ctx.angle(el.a.body) - f
    end
    return { phi = { { name = el.name, e = e } } }
end

-- Gravity on body i: V = -m g^T r.
function E.gravity(body, i, g, ctx)
    local c = ctx.coords(i)
    return -(body.mass * (g[1] * ctx.q[c[1]] + g[2] * ctx.q[c[2]]))
end

return E
