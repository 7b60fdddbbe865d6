-- driver_conflict.lua - drivers whose gradients repeat each other while their time functions
-- may not (issue 27, item 7). -D CASE=1..7 picks the drivers (tests/test_redundant.sh):
--   1 cubic:  a bar's angle driven twice, phi = t and phi = t + t^3: they agree to second order at
--           t = 0, so the rank and the nearby check call D2 a duplicate; over time they conflict
--   2 double: phi = t and phi = 2 t: they differ at first order (it looked like a singular position)
--   3 same:   phi = t twice: D2 is redundant (the control)
--   4 joint:  a second bar hinged to the first, its angle driven (3 t) beside the first's (t) and
--           the joint between them (2 t): consistent, the joint driver is redundant
--   5 jointc: the same with the joint driven 2 t + t^3: a conflict of three drivers
--   6 sine:   the first bar's angle (t) and its centre's height (0.5 sin t) driven: related through
--           the pin nonlinearly, consistent (redundant)
--   7 sinec:  the height driven 0.5 t instead: a conflict (at third order)
local CASE = ({ "cubic", "double", "same", "joint", "jointc", "sine", "sinec" })[param("CASE", 1)]
assert(CASE, "CASE: 1 to 7")
name "driver_conflict"
gravity { 0, -9.81 }
ground { O = { 0, 0 } }
body "bar" { mass = 1, inertia = 0.1, angle = 0, position = { 0.5, 0 },
             points = { O = { -0.5, 0 }, T = { 0.5, 0 } } }
revolute "A" { "ground.O", "bar.O" }
driver "D1" { coord = "bar.phi", f = function(t) return t end }
if CASE == "cubic" then
  driver "D2" { coord = "bar.phi", f = function(t) return t + t^3 end }
elseif CASE == "double" then
  driver "D2" { coord = "bar.phi", f = function(t) return 2 * t end }
elseif CASE == "same" then
  driver "D2" { coord = "bar.phi", f = function(t) return t end }
elseif CASE == "joint" or CASE == "jointc" then
  body "arm" { mass = 1, inertia = 0.1, angle = 0, position = { 1.5, 0 },
               points = { O = { -0.5, 0 } } }
  revolute "B" { "bar.T", "arm.O" }
  driver "D3" { coord = "arm.phi", f = function(t) return 3 * t end }
  if CASE == "joint" then
    driver "DJ" { joint = "B", f = function(t) return 2 * t end }
  else
    driver "DJ" { joint = "B", f = function(t) return 2 * t + t^3 end }
  end
elseif CASE == "sine" then
  driver "DY" { coord = "bar.y", f = function(t) return 0.5 * sin(t) end }
elseif CASE == "sinec" then
  driver "DY" { coord = "bar.y", f = function(t) return 0.5 * t end }
end
