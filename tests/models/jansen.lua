-- jansen.lua - one leg of Theo Jansen's linkage (the Strandbeest), crank driven: 7 bodies (crank,
-- links j, k, c, f, the triangles b-d-e and g-h-i), 10 revolute joints, 1 degree of freedom
-- taken by the crank's driver.
-- Source: Jansen's "holy numbers" a = 38, b = 41.5, c = 39.3, d = 40.1, e = 55.8, f = 39.4,
--   g = 36.7, h = 65.7, i = 49, j = 50, k = 61.9, l = 7.8, m = 15 (cm here: S = 0.01 m per unit;
--   mbgen -D S=1 takes them as metres).
-- Data: crank centre O = (0, 0), crank O-A of m; the fixed pivot B = (-a, -l); C with |AC| = j,
--   |BC| = b (upper); D with |AD| = k, |BD| = c (lower); E with |CE| = e, |BE| = d (left); F with
--   |EF| = f, |DF| = g (left); the foot G with |FG| = h, |DG| = i (lower). Bars of RHO kg per
--   length unit (J = m L^2 / 12), triangles of RHO times their perimeter (J = m (sum of the
--   squared sides) / 36, a uniform lamina about its centroid); gravity; the crank turns at
--   W rad/s (default one turn per second) from angle 0.
-- Equations: revolute joints (thesis 2.4); the joint driver theta(t) = W t at O. What it is
--   for: a mechanism with no settings of its own, run in float with the defaults
--   (docs/embedding.md, "Single precision"; tests/test_float_defaults.c).

name "jansen"
gravity { 0, -9.81 }

local S = param("S", 0.01)
local RHO = param("RHO", 1.0)
local W = param("W", 2 * pi)
local a, b, c, d, e = 38 * S, 41.5 * S, 39.3 * S, 40.1 * S, 55.8 * S
local f, g, h, i, j = 39.4 * S, 36.7 * S, 65.7 * S, 49 * S, 50 * S
local k, l, m = 61.9 * S, 7.8 * S, 15 * S

-- the point at distance r1 from P1 and r2 from P2, on the side pick chooses of the two
local function meet(P1, r1, P2, r2, pick)
  local dx, dy = P2[1] - P1[1], P2[2] - P1[2]
  local dd = math.sqrt(dx * dx + dy * dy)
  local al = (r1 * r1 - r2 * r2 + dd * dd) / (2 * dd)
  local hh = math.sqrt(r1 * r1 - al * al)
  local mx, my = P1[1] + al * dx / dd, P1[2] + al * dy / dd
  local s1 = { mx - hh * dy / dd, my + hh * dx / dd }
  local s2 = { mx + hh * dy / dd, my - hh * dx / dd }
  return pick(s1, s2) and s1 or s2
end
local function upper(p, q) return p[2] > q[2] end
local function lower(p, q) return p[2] < q[2] end
local function left(p, q) return p[1] < q[1] end

local O, B = { 0, 0 }, { -a, -l }
local A = { m, 0 }
local C = meet(A, j, B, b, upper)
local D = meet(A, k, B, c, lower)
local E = meet(C, e, B, d, left)
local F = meet(E, f, D, g, left)
local G = meet(F, h, D, i, lower)

ground { O = O, B = B }

-- a bar from P (point p) to Q (point q)
local function bar(name, p, P, q, Q)
  local dx, dy = Q[1] - P[1], Q[2] - P[2]
  local L = math.sqrt(dx * dx + dy * dy)
  local ms = RHO * L
  body(name) { mass = ms, inertia = ms * L * L / 12, angle = math.atan(dy, dx),
               position = { (P[1] + Q[1]) / 2, (P[2] + Q[2]) / 2 },
               points = { [p] = { -L / 2, 0 }, [q] = { L / 2, 0 } } }
end
-- a triangular plate with corners named p, q, r at P, Q, R (frame at the centroid, angle 0)
local function plate(name, p, P, q, Q, r, R)
  local cx, cy = (P[1] + Q[1] + R[1]) / 3, (P[2] + Q[2] + R[2]) / 3
  local function d2(U, V) return (U[1] - V[1]) ^ 2 + (U[2] - V[2]) ^ 2 end
  local s2 = d2(P, Q) + d2(Q, R) + d2(R, P)
  local ms = RHO * (math.sqrt(d2(P, Q)) + math.sqrt(d2(Q, R)) + math.sqrt(d2(R, P)))
  body(name) { mass = ms, inertia = ms * s2 / 36, angle = 0, position = { cx, cy },
               points = { [p] = { P[1] - cx, P[2] - cy }, [q] = { Q[1] - cx, Q[2] - cy },
                          [r] = { R[1] - cx, R[2] - cy } } }
end

bar("crank", "O", O, "A", A)
bar("j", "A", A, "C", C)
bar("k", "A", A, "D", D)
plate("bde", "B", B, "C", C, "E", E)
bar("c", "B", B, "D", D)
bar("f", "E", E, "F", F)
plate("ghi", "D", D, "F", F, "G", G)

revolute "O" { "ground.O", "crank.O" }
revolute "A1" { "crank.A", "j.A" }
revolute "A2" { "crank.A", "k.A" }
revolute "C" { "j.C", "bde.C" }
revolute "B1" { "ground.B", "bde.B" }
revolute "B2" { "ground.B", "c.B" }
revolute "D1" { "k.D", "c.D" }
revolute "D2" { "c.D", "ghi.D" }
revolute "E" { "bde.E", "f.E" }
revolute "F" { "f.F", "ghi.F" }
driver "drive" { joint = "O", f = function(t) return W * t end }

simulate { t_end = 2, h = 1e-3 }
