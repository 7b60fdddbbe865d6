#!/usr/bin/env bash
# test_anim.sh - the animation page and the plots from a short real simulation of Andrews'
# mechanism: well-formed markup, one frame per CSV row, finite numbers, the mechanism's parts,
# error handling; the same binary on other models (a particle on a rod: rods drawn, the particle
# from its CSV columns); the drawing info file (tools/mb_info.h): its errors and hostile names; a headless Chromium screenshot when Chromium is installed (else skipped).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
sim=$BUILD/andrews_sim anim=$BUILD/mb_anim fsim=$BUILD/fixture_pendulum_sim psim=$BUILD/point_pendulum_sim
pass=0 fail=0
ok() { if [ "$1" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2" >&2; fi; }
check() { local what=$1; shift; "$@" >/dev/null 2>&1; ok $? "$what"; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

for b in "$sim" "$anim" "$fsim" "$psim" "$BUILD/shaper_sim" "$BUILD/gear_train_sim" "$BUILD/kin_meshes_sim" \
         "$BUILD/bouncing_ball_sim" "$BUILD/cam_follower_sim" "$BUILD/kin_cams_sim" "$BUILD/geneva_sim"; do
    [ -x "$b" ] || { echo "FAIL: $b missing (make sim MODEL=andrews; make anim $fsim $psim)" >&2; fail=$((fail + 1)); finish; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 200 steps of the thesis run, one row per 10 steps.
"$sim" --formulation alf-trapezoid --alpha 1e8 --xi 1e4 --omega 1 --h 1e-5 --t-end 0.002 \
    --every 10 --quiet --out "$tmp/a.csv" > "$tmp/sim.out" 2>&1
ok $? "simulator run: $(tail -n 3 "$tmp/sim.out")"
rows=$(grep -v -e '=' -e '^#' "$tmp/a.csv" | tail -n +2 | grep -c .)
check "CSV has rows ($rows)" test "$rows" -ge 10

"$anim" --quiet --out "$tmp/a.html" "$tmp/a.csv" 2> "$tmp/anim.err"
ok $? "anim exit status: $(cat "$tmp/anim.err")"
check "anim wrote nothing on stderr with --quiet" test ! -s "$tmp/anim.err"

# Well-formed: the page is written as polyglot XHTML, so an XML parser must accept it.
if command -v xmllint >/dev/null 2>&1; then
    xmllint --noout "$tmp/a.html" 2> "$tmp/xml.err"
    ok $? "xmllint: $(head -n 3 "$tmp/xml.err")"
elif command -v python3 >/dev/null 2>&1; then
    python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/a.html"
    ok $? "python3 XML parse"
else
    ok 1 "no XML checker: install libxml2-utils (scripts/deps.sh plots)"
fi
if command -v python3 >/dev/null 2>&1; then  # and as HTML: every opened tag is closed
    python3 - "$tmp/a.html" <<'EOF'
import sys
from html.parser import HTMLParser
void = {"meta", "input", "br", "img", "link", "hr"}
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.stack = []; self.bad = []
    def handle_starttag(self, tag, a):
        if tag not in void: self.stack.append(tag)
    def handle_startendtag(self, tag, a): pass
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag: self.bad.append(tag)
        else: self.stack.pop()
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read()); p.close()
sys.exit(1 if p.bad or p.stack else 0)
EOF
    ok $? "html.parser: tags balanced"
fi

# One frame per CSV row, each with t + 2 * (points + bodies) finite numbers.
frames=$(awk '/^var D=\[/ {on = 1; next} on && /^\];/ {exit} on' "$tmp/a.html")
nframes=$(printf '%s\n' "$frames" | grep -c '^\[')
check "one frame per CSV row ($nframes frames, $rows rows)" test "$nframes" -eq "$rows"
check "data-frames attribute matches" grep -q "data-frames=\"$rows\"" "$tmp/a.html"
printf '%s\n' "$frames" | awk -F, '
    { gsub(/^\[|\],?$/, ""); if (NR == 1) n = NF; if (NF != n) bad = 1
      for (i = 1; i <= NF; i++) if ($i !~ /^-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?$/) bad = 1 }
    END { exit bad || NR == 0 }'
ok $? "every frame value is a finite number, same count per frame"
# First frame: time 0; the frame time increases.
printf '%s\n' "$frames" | awk -F, '{ t = substr($1, 2) + 0; if (NR == 1 && t != 0) bad = 1
    if (NR > 1 && t <= prev) bad = 1; prev = t } END { exit bad }'
ok $? "frame times start at 0 and increase"

# The mechanism's parts (SPEC.md): 7 bodies, 1 spring, 4 ground points, and 7 joint
# locations (O, F, E shared by 4 bodies, H, G, A shared by 3, B).
count_in() { awk -v pat="$2" '$0 ~ pat {on = 1} on {print} on && /\];/ {exit}' "$1"; }
count() { count_in "$tmp/a.html" "$1"; }
nb=$(count '^var BODIES=\[' | grep -c '{name:')
check "7 bodies drawn ($nb)" test "$nb" -eq 7
ns=$(count '^var SPRINGS=' | head -n 1 | grep -o '\[[0-9]*,[0-9]*\]' | grep -c .)
check "1 spring drawn ($ns)" test "$ns" -eq 1
nj=$(sed -n 's/^var JOINTS=\[\(.*\)\];$/\1/p' "$tmp/a.html" | tr ',' '\n' | grep -c '[0-9]')
check "7 joint circles ($nj)" test "$nj" -eq 7
ng=$(grep -o 'class="groundsym"' "$tmp/a.html" | grep -c .)
check "4 ground symbols ($ng)" test "$ng" -eq 4
check "play/pause button and time slider" grep -q 'id="play".*id="slider"' "$tmp/a.html"
check "no network: no http(s) URL except the SVG/XHTML namespaces" \
    test -z "$(grep -o 'https\?://[^"'"'"' ]*' "$tmp/a.html" | grep -v -e 'www.w3.org/2000/svg' -e 'www.w3.org/1999/xhtml')"

# Options and errors.
"$anim" --every 2 --out "$tmp/b.html" --quiet "$tmp/a.csv"
n2=$(awk '/^var D=\[/ {on = 1; next} on && /^\];/ {exit} on' "$tmp/b.html" | grep -c '^\[')
check "--every 2 halves the frames ($n2)" test "$n2" -eq $(((rows + 1) / 2))
"$anim" --max-frames 7 --out "$tmp/g.html" --quiet "$tmp/a.csv"
check "--max-frames 7 keeps 7 frames" grep -q 'data-frames="7"' "$tmp/g.html"
last_csv=$(grep -v -e '=' -e '^#' "$tmp/a.csv" | tail -n 1 | cut -d, -f1)
last_html=$(awk '/^var D=\[/ {on = 1; next} on && /^\];/ {exit} on' "$tmp/g.html" | tail -n 1 | cut -d, -f1 | tr -d '[')
check "--max-frames keeps the final state (t = $last_html vs $last_csv)" \
    awk -v a="$last_html" -v b="$last_csv" 'BEGIN {exit !(a - b < 1e-12 && b - a < 1e-12)}'
"$anim" --trace none --out "$tmp/c.html" --quiet "$tmp/a.csv"
check "--trace none draws no trace" grep -q '^var NP=[0-9]*,TR=-1,' "$tmp/c.html"
"$anim" --trace nosuch.point --out "$tmp/d.html" "$tmp/a.csv" 2> /dev/null
check "unknown --trace point: exit 2" test $? -eq 2
"$anim" --bogus "$tmp/a.csv" 2> /dev/null
check "unknown option: exit 2" test $? -eq 2
"$anim" --help > "$tmp/help.txt"
check "--help exits 0 and documents --trace" grep -q -- '--trace' "$tmp/help.txt"
head -n 1 "$tmp/a.csv" | sed 's/,EF\.F\.y,/,renamed,/' > "$tmp/bad.csv"
"$anim" --info "$tmp/a.csv.info" --out "$tmp/e.html" "$tmp/bad.csv" 2> "$tmp/bad.err"
check "missing point column: exit 1" test $? -eq 1
check "missing point column: named in the message" grep -q "no column 'EF.F.y'" "$tmp/bad.err"
check "missing point column: no page" test ! -e "$tmp/e.html"
# A diverged run: a NaN row ends the animation there, with a warning.
{ head -n 6 "$tmp/a.csv"; sed -n 7p "$tmp/a.csv" | sed 's/[^,]*$/nan/; s/^\([^,]*\),[^,]*/\1,nan/'; } > "$tmp/nan.csv"
"$anim" --info "$tmp/a.csv.info" --out "$tmp/f.html" "$tmp/nan.csv" 2> "$tmp/nan.err"
check "NaN row: still written" test $? -eq 0
check "NaN row: frames before it kept" grep -q 'data-frames="5"' "$tmp/f.html"
check "NaN row: warned" grep -q "not a finite number" "$tmp/nan.err"

# One binary for every model: the fixture pendulum (2 bodies, 5 points, 2 joints, 1 ground point)
"$fsim" --t-end 0.05 --h 1e-3 --quiet --out "$tmp/p.csv" > /dev/null 2>&1
ok $? "fixture_pendulum_sim run"
"$anim" --quiet --out "$tmp/p.html" "$tmp/p.csv"
ok $? "mb_anim on the fixture pendulum"
nb=$(count_in "$tmp/p.html" '^var BODIES=\[' | grep -c '{name:')
check "fixture: 2 bodies drawn ($nb)" test "$nb" -eq 2
nj=$(sed -n 's/^var JOINTS=\[\(.*\)\];$/\1/p' "$tmp/p.html" | tr ',' '\n' | grep -c '[0-9]')
check "fixture: 2 joint circles ($nj)" test "$nj" -eq 2
check "fixture: 1 ground symbol" test "$(grep -o 'class="groundsym"' "$tmp/p.html" | grep -c .)" -eq 1

# Particles and rods: the point-mass pendulum (tests/models/point_pendulum.lua: particle P on rod R
# from ground.O). The rod's ends in the info file are a point and -1 - b for particle b; the
# particle's position comes from its P.x, P.y columns (a body's centre of mass in the frame).
"$psim" --t-end 0.5 --h 1e-3 --every 50 --quiet --out "$tmp/r.csv" > /dev/null 2>&1
ok $? "point_pendulum_sim run"
check "particle: info file has 'rod 0 -1' (ground.O to particle 0)" grep -qx 'rod 0 -1' "$tmp/r.csv.info"
check "particle: info file has the particle as a particle" grep -qx 'particle P' "$tmp/r.csv.info"
"$anim" --quiet --out "$tmp/r.html" "$tmp/r.csv"
ok $? "mb_anim on the point pendulum"
check "particle: one rod drawn from point 0 to particle 0" grep -qx 'var RODS=\[\[0,-1\]\];' "$tmp/r.html"
check "fixture: no rods" grep -qx 'var RODS=\[\];' "$tmp/p.html"
# every frame: t, ground.O (x, y), P (x, y); the rod keeps |P - O| = L = 1 m (6 digits)
rod_frames() {   # rod_frames PAGE: 11 frames of 5 values, the rod's ends 1 m apart in each
    awk '/^var D=\[/ {on = 1; next} on && /^\];/ {exit} on' "$1" | awk -F, '
        { gsub(/^\[|\],?$/, ""); if (NF != 5) bad = 1; d = sqrt(($4 - $2)^2 + ($5 - $3)^2)
          if (d < 1 - 1e-5 || d > 1 + 1e-5) bad = 1; n++ }
        END { exit bad || n != 11 }'
}
check "particle: 11 frames of 5 values, the rod's ends 1 m apart" rod_frames "$tmp/r.html"
# negative control: the particle's x read from another column (P.vx renamed P.x) breaks the rod
sed '1s/,P\.x,/,Px_was,/; 1s/,P\.vx,/,P.x,/' "$tmp/r.csv" > "$tmp/rs.csv"
"$anim" --quiet --info "$tmp/r.csv.info" --out "$tmp/rs.html" "$tmp/rs.csv"
ok $? "particle: control page written"
rod_frames "$tmp/rs.html"
check "particle: control, P.x from the velocity column: the rod check fails" test $? -ne 0
for edit in 's/^rod 0 -1$/rod 0 -2/|rod end: no body 1' 's/^rod 0 -1$/rod 1 -1/|rod end: no point 1' \
            's/^rod 0 -1$/rod 0/|rod with one end' '$a body Q|body after a rod'; do
    what=${edit#*|} edit=${edit%%|*}
    sed "$edit" "$tmp/r.csv.info" > "$tmp/rbad.info"
    "$anim" --info "$tmp/rbad.info" --out "$tmp/rbad.html" "$tmp/r.csv" 2> "$tmp/rbad.err"
    rc=$?
    check "bad info ($what): exit 1 ($rc)" test "$rc" -eq 1
    check "bad info ($what): file:line named" grep -q "rbad.info:[0-9]*: " "$tmp/rbad.err"
    check "bad info ($what): no page" test ! -e "$tmp/rbad.html"
done

# A particle is traced like a point (issue 27, item 16): --trace P, and by default the moving point
# or particle whose path is longest (here P: ground.O does not move), as scripts/plot.sh does. In the
# page it is point NP + b: the frame holds the centres of mass right after the points.
check "particle: traced by default (TR = NP + 0)" grep -q '^var NP=1,TR=1,' "$tmp/r.html"
check "particle: the note names the particle's path" grep -q 'path of particle P' "$tmp/r.html"
"$anim" --trace P --out "$tmp/rt.html" "$tmp/r.csv" 2> "$tmp/rt.err"
ok $? "particle: --trace P accepted: $(cat "$tmp/rt.err")"
check "particle: --trace P traces it" grep -q '^var NP=1,TR=1,' "$tmp/rt.html"
check "particle: --trace P reported" grep -q 'trace P)' "$tmp/rt.err"
# version 1 (no particle lines) is still read; it cannot say what is a particle: no particle trace
sed '1s/.*/mbinfo 1/; s/^particle /body /' "$tmp/r.csv.info" > "$tmp/r1.info"
"$anim" --quiet --info "$tmp/r1.info" --out "$tmp/r1.html" "$tmp/r.csv"
ok $? "particle: a version 1 info file is read"
check "particle: version 1: nothing traced by default" grep -q '^var NP=1,TR=-1,' "$tmp/r1.html"
"$anim" --info "$tmp/r1.info" --trace P --out "$tmp/r1t.html" "$tmp/r.csv" 2> "$tmp/r1t.err"
check "particle: version 1: --trace P is no point (exit 2)" test $? -eq 2
"$anim" --trace nosuch --out "$tmp/rn.html" "$tmp/r.csv" 2> "$tmp/rn.err"
check "particle: unknown --trace lists the particles too" grep -q 'the particles: P$' "$tmp/rn.err"
for edit in 's/^particle P$/body P/|a rod end names a rigid body' '/^particle P$/a point 0 P.A|a point on a particle' \
            '1s/.*/mbinfo 1/|a particle line in version 1'; do
    what=${edit#*|} edit=${edit%%|*}
    sed "$edit" "$tmp/r.csv.info" > "$tmp/rbad.info"
    "$anim" --info "$tmp/rbad.info" --out "$tmp/rbad.html" "$tmp/r.csv" 2> "$tmp/rbad.err"
    rc=$?
    check "bad info ($what): exit 1 ($rc)" test "$rc" -eq 1
    check "bad info ($what): file:line named" grep -q "rbad.info:[0-9]*: " "$tmp/rbad.err"
    check "bad info ($what): no page" test ! -e "$tmp/rbad.html"
done

# Slots, gears and racks (tests/models: shaper, gear_train, kin_meshes): their info lines, and
# the page's records: a slot's point, pin and axis, the gears' pitch radii r1 + r2 = d or
# r2 - r1 = d (gear_train: 0.02 + 0.06, 0.075 - 0.025), a rack's signed radius and axis.
mesh_run() {   # model csv-name: simulate 0.2 s and draw
    "$BUILD/$1_sim" --quiet --t-end 0.2 --out "$tmp/$2.csv" > "$tmp/$2.sim" 2>&1 &&
        "$anim" --quiet --out "$tmp/$2.html" "$tmp/$2.csv"
}
mesh_run shaper sh; ok $? "shaper: simulated and drawn"
check "shaper: info file has 'slot 2 1 1 0' (lever.O, crank.P, axis x)" grep -qx 'slot 2 1 1 0' "$tmp/sh.csv.info"
check "shaper: the page has the slot (point, pin, axis, lever.phi's column)" \
    grep -q '^var SLOTS=\[\[2,1,1,0,32,' "$tmp/sh.html"
check "shaper: the page draws slots" grep -q "'class':'slot'" "$tmp/sh.html"
check "shaper: the note names slots" grep -q 'slots as lines with their pins as circles' "$tmp/sh.html"
mesh_run gear_train gt; ok $? "gear_train: simulated and drawn"
check "gear_train: info has both gear pairs" test "$(grep -c '^gear ' "$tmp/gt.csv.info")" -eq 2
check "gear_train: pitch radii 0.02, 0.06 (external, d 0.08)" \
    grep -q '^var GEARS=\[\[11,12,0.02,0.06\],\[12,13,0.025,0.075\]\];' "$tmp/gt.html"
check "gear_train: the page draws pitch circles" grep -q "'class':'pitch'" "$tmp/gt.html"
mesh_run kin_meshes km; ok $? "kin_meshes: simulated and drawn"
check "kin_meshes: the page has the rack (centre, rack point, r 0.05, axis x, ground frame)" \
    grep -q '^var RACKS=\[\[7,1,0.05,1,0,-1,' "$tmp/km.html"
for f in sh gt km; do
    if command -v xmllint >/dev/null 2>&1; then check "$f: page well-formed" xmllint --noout "$tmp/$f.html"; fi
done
check "andrews: no mesh records in its page" test -z "$(grep -e 'var SLOTS' -e 'var GEARS' "$tmp/a.html")"
for edit in 's/^slot 2 1 1 0$/slot 2 1 0 0/|slot with a zero axis' \
            's/^slot 2 1 1 0$/slot 2 -5 1 0/|slot pin naming a rigid body' \
            's/^slot 2 1 1 0$/slot 99 1 1 0/|slot point out of range' \
            's/^slot 2 1 1 0$/slot 2 1 nan 0/|slot axis not finite' \
            's/^slot 2 1 1 0$/slot 2 1 1/|slot with one axis component' \
            's/^slot 2 1 1 0$/slot 2 1 1 0 7/|slot with a field too many' \
            's/^slot 2 1 1 0$/slot 2 1  1 0/|slot with two blanks' \
            '$a gear 0 1 -1 2|gear with a negative radius' \
            '$a rack 0 1 0 1 0|rack with radius 0' \
            '$a rack 0 1 0.1 0 0|rack with a zero axis' \
            '$a gear 0 1 1 2\nslot 2 1 1 0|slot after a gear' \
            '$a rod 0 1|rod after a slot'; do
    what=${edit#*|} edit=${edit%%|*}
    sed "$edit" "$tmp/sh.csv.info" > "$tmp/mbad.info"
    "$anim" --info "$tmp/mbad.info" --out "$tmp/mbad.html" "$tmp/sh.csv" 2> "$tmp/mbad.err"
    rc=$?
    check "bad info ($what): exit 1 ($rc)" test "$rc" -eq 1
    check "bad info ($what): file:line named" grep -q "mbad.info:[0-9]*: " "$tmp/mbad.err"
    check "bad info ($what): no page" test ! -e "$tmp/mbad.html"
done

# Contacts (models/bouncing_ball.lua): the info line (the ball's centre, the ground point, radius
# 0.1, a line along x) and the page's record (with ball.phi's column: its radius line turns).
mesh_run bouncing_ball bb; ok $? "bouncing_ball: simulated and drawn"
check "bouncing_ball: info file has 'contact 0 1 0.10000000000000001 0 1 0'" \
    grep -qx 'contact 0 1 0.10000000000000001 0 1 0' "$tmp/bb.csv.info"
check "bouncing_ball: the page has the contact (centre, point, r, line x, ball.phi's column, ground)" \
    grep -q '^var CONTACTS=\[\[0,1,0.1,0,1,0,7,-1,' "$tmp/bb.html"
check "bouncing_ball: the page draws the contact's line" grep -q "'class':'contactline'" "$tmp/bb.html"
check "bouncing_ball: the note names contacts" grep -q 'contacts as their circles' "$tmp/bb.html"
if command -v xmllint >/dev/null 2>&1; then check "bb: page well-formed" xmllint --noout "$tmp/bb.html"; fi
check "andrews: no contact records in its page" test -z "$(grep -e 'var CONTACTS' "$tmp/a.html")"
for edit in 's/^contact 0 1 .*/contact 0 1 -0.1 0 1 0/|contact with a negative radius' \
            's/^contact 0 1 .*/contact 0 1 0.1 5 1 0/|contact of an unknown kind' \
            's/^contact 0 1 .*/contact 0 1 0.1 4 0.5 0/|contact profile entry not a whole number' \
            's/^contact 0 1 .*/contact 0 1 0.1 3 0 0/|contact segment of zero length' \
            's/^contact 0 1 .*/contact 0 1 0.1 0 0 0/|contact line of zero direction' \
            's/^contact 0 1 .*/contact 0 1 0.1 1 0 0/|contact circle of radius 0' \
            's/^contact 0 1 .*/contact -1 1 0.1 0 1 0/|contact end naming a rigid body' \
            's/^contact 0 1 .*/contact 0 1 0.1 0 1/|contact with a field missing'; do
    what=${edit#*|} edit=${edit%%|*}
    sed "$edit" "$tmp/bb.csv.info" > "$tmp/cbad.info"
    "$anim" --info "$tmp/cbad.info" --out "$tmp/cbad.html" "$tmp/bb.csv" 2> "$tmp/cbad.err"
    rc=$?
    check "bad info ($what): exit 1 ($rc)" test "$rc" -eq 1
    check "bad info ($what): file:line named" grep -q "cbad.info:[0-9]*: " "$tmp/cbad.err"
    check "bad info ($what): no page" test ! -e "$tmp/cbad.html"
done

# Segments (models/geneva.lua): eight contacts of kind 3, the pin (driver.pin, point 1) against
# a flank from wheel.s0a (point 3) along its vector in the wheel's axes; the page draws them as
# lines from their point.
mesh_run geneva gv; ok $? "geneva: simulated and drawn"
check "geneva: eight segment contacts in the info file" test "$(grep -c '^contact 1 [0-9]* 0.0050000000000000001 3 ' "$tmp/gv.csv.info")" -eq 8
check "geneva: the page has the first segment (pin, s0a, r, kind 3, its vector)" \
    grep -q '^var CONTACTS=\[\[1,3,0.005,3,0.0342390693,0.0342390693,' "$tmp/gv.html"
check "geneva: the page draws segments" grep -q "c\[3\]===3" "$tmp/gv.html"
if command -v xmllint >/dev/null 2>&1; then check "gv: page well-formed" xmllint --noout "$tmp/gv.html"; fi

# A contact against a cam profile (models/valve_jump.lua): kind 4, the follower's C (point 1)
# against cam.O (point 0), its profile the first cam line (centre cam.O, follower C, roller 0,
# the profile r = 0.025 + 0.005 cos psi + 0.0015 cos 2 psi: first vertex (0.0315, 0)); the
# page draws the contact's circle and the profile with the cams, not a circle of its own.
mesh_run valve_jump vj; ok $? "valve_jump: simulated and drawn"
check "valve_jump: info has 'contact 1 0 0.01 4 0 0'" grep -qx 'contact 1 0 0.01 4 0 0' "$tmp/vj.csv.info"
check "valve_jump: info has the profile as 'cam 0 1 0 64 0.0315 0 ...'" grep -q '^cam 0 1 0 64 0.0315 0 ' "$tmp/vj.csv.info"
check "valve_jump: the page has the contact (kind 4) and the profile" \
    sh -c "grep -q '^var CONTACTS=\[\[1,0,0.01,4,0,0,' '$tmp/vj.html' && grep -q '^var CAMS=\[\[0,1,0,' '$tmp/vj.html'"
check "valve_jump: the page skips a kind-4 contact's own outline" grep -q "c\[3\]===4?null" "$tmp/vj.html"
if command -v xmllint >/dev/null 2>&1; then check "vj: page well-formed" xmllint --noout "$tmp/vj.html"; fi

# Cams (models/cam_follower.lua, tests/models/kin_cams.lua): the info line carries the profile as
# 64 vertices about the cam's centre in its body's axes (cam_follower: r = 0.025 + 0.005 cos psi,
# so the first vertex, psi = 0, is (0.03, 0)); the page draws it turning with cam.phi's column
# and a roller as a circle (kin_cams: rr 0.012 on the second of its seven cams, 0.01 on the
# fourth, a Fourier profile, 0.008 on the sixth, a spline, and 0.06 on the seventh).
mesh_run cam_follower cf; ok $? "cam_follower: simulated and drawn"
check "cam_follower: info has 'cam 0 1 0 64 0.030000000000000002 0 ...' (cam.O, follower.P, no roller)" \
    grep -q '^cam 0 1 0 64 0.030000000000000002 0 ' "$tmp/cf.csv.info"
check "cam_follower: the cam line has 4 + 128 fields" \
    test "$(grep '^cam ' "$tmp/cf.csv.info" | wc -w)" -eq 133
check "cam_follower: the page has the cam (centre, follower, roller 0, cam.phi's column 17)" \
    grep -q '^var CAMS=\[\[0,1,0,17,\[0.03,0,' "$tmp/cf.html"
check "cam_follower: the page draws the profile" grep -q "'class':'camprofile'" "$tmp/cf.html"
check "cam_follower: the note names cams" grep -q 'cams as their profiles' "$tmp/cf.html"
mesh_run kin_cams kc; ok $? "kin_cams: simulated and drawn"
check "kin_cams: seven cams, rollers 0.012, 0.01, 0.008 and 0.06 on the second, fourth, sixth and seventh" \
    test "$(grep -c '^cam ' "$tmp/kc.csv.info")" -eq 7 -a "$(grep '^cam ' "$tmp/kc.csv.info" | cut -d' ' -f4 | tr '\n' ' ')" = "0 0.012 0 0.01 0 0.0080000000000000002 0.059999999999999998 "
check "kin_cams: the page draws the roller" grep -q "'class':'roller'" "$tmp/kc.html"
for f in cf kc; do
    if command -v xmllint >/dev/null 2>&1; then check "$f: page well-formed" xmllint --noout "$tmp/$f.html"; fi
done
check "andrews: no cam records in its page" test -z "$(grep -e 'var CAMS' "$tmp/a.html")"
for edit in 's/^cam 0 1 0 64 /cam 0 1 -1 64 /|cam with a negative roller' \
            's/^cam 0 1 0 64 /cam 0 1 0 65 /|cam with 65 vertices' \
            's/^cam 0 1 0 64 /cam 0 1 0 2 /|cam with 2 vertices and too many numbers' \
            's/^cam 0 1 0 64 /cam 0 1 0 /|cam without its vertex count' \
            's/^cam 0 1 0 64 0.030000000000000002 /cam 0 1 0 64 nan /|cam vertex not finite' \
            's/^cam 0 1 0 64 /cam 99 1 0 64 /|cam centre out of range' \
            's/^cam 0 1 0 64 /cam 0 -1 0 64 /|cam follower naming a rigid body' \
            's/^\(cam .*\) [^ ]*$/\1/|cam missing its last number' \
            '$a rod 0 1|rod after a cam'; do
    what=${edit#*|} edit=${edit%%|*}
    sed "$edit" "$tmp/cf.csv.info" > "$tmp/cbad.info"
    "$anim" --info "$tmp/cbad.info" --out "$tmp/cbad.html" "$tmp/cf.csv" 2> "$tmp/cbad.err"
    rc=$?
    check "bad info ($what): exit 1 ($rc)" test "$rc" -eq 1
    check "bad info ($what): file:line named" grep -q "cbad.info:[0-9]*: " "$tmp/cbad.err"
    check "bad info ($what): no page" test ! -e "$tmp/cbad.html"
done

# The drawing info file: written next to the CSV, checked on reading (file:line), names escaped.
check "the simulator wrote a.csv.info" grep -qx 'model andrews' "$tmp/a.csv.info"
cp "$tmp/a.csv" "$tmp/noinfo.csv"
"$anim" --out "$tmp/n.html" "$tmp/noinfo.csv" 2> "$tmp/n.err"
check "no info file: exit 1" test $? -eq 1
check "no info file: named" grep -q "noinfo.csv.info" "$tmp/n.err"
check "no info file: no page" test ! -e "$tmp/n.html"
i=0
while IFS='|' read -r edit what; do
    i=$((i + 1))
    sed "$edit" "$tmp/a.csv.info" > "$tmp/bad$i.info"
    "$anim" --info "$tmp/bad$i.info" --out "$tmp/bad$i.html" "$tmp/a.csv" 2> "$tmp/bad$i.err"
    rc=$?
    check "bad info ($what): exit 1 ($rc)" test "$rc" -eq 1
    check "bad info ($what): file:line named" grep -q "bad$i.info:[0-9]*: " "$tmp/bad$i.err"
    check "bad info ($what): no page" test ! -e "$tmp/bad$i.html"
done <<'EOF'
1s/.*/mbinfo 3/|version
s/^joint 18 1$/joint 18 19/|joint index out of range
s/^point 0 OF.F$/point 7 OF.F/|point's body out of range
s/^spring 13 17$/spring 13/|spring with one index
s/^body EF$/body E\tF/|control character in a name
s/^model .*/modle andrews/|misspelt keyword
/^body AG$/{h;d};/^point 0 OF.F$/{G}|body after a point
EOF
# hostile names: markup and script terminators in body and point names stay text
sed 's/^body OF$/body <\/script>]]><b>"OF"\&/; s/^point 1 EF\.E$/point 1 <i>E\&]]>/' "$tmp/a.csv.info" > "$tmp/h.info"
sed '1s/,EF\.E\.x,EF\.E\.y,/,<i>E\&]]>.x,<i>E\&]]>.y,/; 1s/^\([^,]*\),OF\.x,OF\.y,/\1,<\/script>]]><b>"OF"\&.x,<\/script>]]><b>"OF"\&.y,/' "$tmp/a.csv" > "$tmp/h.csv"
"$anim" --info "$tmp/h.info" --trace '<i>E&]]>' --out "$tmp/h.html" "$tmp/h.csv" 2> "$tmp/h.err"
ok $? "hostile names: written: $(head -c 300 "$tmp/h.err")"
check "hostile names: no raw markup from a name" test -z "$(grep -e '<b>' -e '<i>' -e '</script>]' "$tmp/h.html")"
check "hostile names: one CDATA end only (the script's own)" test "$(grep -o ']]>' "$tmp/h.html" | grep -c .)" -eq 1
check "hostile names: escaped in the page text" grep -q '&lt;i&gt;E&amp;\]\]&gt;' "$tmp/h.html"
if command -v xmllint >/dev/null 2>&1; then
    check "hostile names: the page is still well-formed XML" xmllint --noout "$tmp/h.html"
fi

# Hostile inputs (issue 27): both readers (the CSV, the info file) take a regular file or a pipe,
# lines of bounded length (CSV 64 MiB, info 4096 bytes), no NUL bytes and a line break at the end
# of every line (a file cut short is refused, never drawn); an error names the file (and line),
# exits 1, leaves no page, and never hangs or grows until killed.
hostile() {   # hostile WHAT TEXT ARGS...: exit 1, TEXT on stderr, no page
    local what=$1 text=$2 rc; shift 2
    rm -f "$tmp/hx.html"
    timeout 60 "$anim" --out "$tmp/hx.html" "$@" > /dev/null 2> "$tmp/hx.err"
    rc=$?
    check "$what: exit 1 ($rc: $(head -c 200 "$tmp/hx.err"))" test "$rc" -eq 1
    check "$what: says '$text'" grep -qF -- "$text" "$tmp/hx.err"
    check "$what: no page" test ! -e "$tmp/hx.html"
}
I=$tmp/a.csv.info
mkdir "$tmp/dir.csv"
hostile "/dev/zero as the CSV" "/dev/zero: not a regular file or a pipe (a character device)" --info "$I" /dev/zero
hostile "/dev/zero as the info file" "/dev/zero: not a regular file or a pipe (a character device)" --info /dev/zero "$tmp/a.csv"
hostile "a directory as the CSV" "dir.csv: not a regular file or a pipe (a directory)" --info "$I" "$tmp/dir.csv"
check "a directory as the CSV: not called an empty file" test -z "$(grep 'empty' "$tmp/hx.err")"
hostile "a directory as the info file" "dir.csv: not a regular file or a pipe (a directory)" --info "$tmp/dir.csv" "$tmp/a.csv"
hostile "zeros through a pipe as the CSV" ":1: a NUL byte" --info "$I" <(head -c 100000 /dev/zero)
hostile "endless zeros through a pipe as the info file" ":1: a NUL byte" --info <(cat /dev/zero) "$tmp/a.csv"
hostile "an endless line through a pipe as the CSV" ":1: line longer than 67108864 bytes" --info "$I" <(yes | tr -d '\n')
hostile "an endless line through a pipe as the info file" ":1: line longer than 4096 bytes" --info <(yes | tr -d '\n') "$tmp/a.csv"
long=$(head -c 5000 /dev/zero | tr '\0' x)
sed "3s/\$/$long/" "$I" > "$tmp/long.info"
hostile "a 5000-byte line in the info file" "long.info:3: line longer than 4096 bytes" --info "$tmp/long.info" "$tmp/a.csv"
# a long line below the limit is read (blanks around a field are trimmed)
sed "2s/\$/$(printf '%s' "$long$long" | tr x ' ')/" "$tmp/a.csv" > "$tmp/longrow.csv"
"$anim" --quiet --title T --info "$I" --out "$tmp/longrow.html" "$tmp/longrow.csv"
ok $? "a 10000-byte CSV row below the limit: read"
# cut short: without its last line break, or within the last line (a line that may still parse:
# "joint 18 1" cut from "joint 18 12" would draw the wrong joint)
ni=$(wc -l < "$I") nc=$(wc -l < "$tmp/a.csv")
for cut in 1 2 4; do
    head -c -$cut "$I" > "$tmp/cut$cut.info"
    hostile "info file cut short by $cut bytes" "cut$cut.info:$ni: the last line has no line break" --info "$tmp/cut$cut.info" "$tmp/a.csv"
    head -c -$cut "$tmp/a.csv" > "$tmp/cut$cut.csv"
    hostile "CSV cut short by $cut bytes" "cut$cut.csv:$nc: the last line has no line break" --info "$I" "$tmp/cut$cut.csv"
done
head -c 3000 "$tmp/a.csv" > "$tmp/cutrow.csv"
hostile "CSV cut within a data row" "cutrow.csv:$(grep -c '' "$tmp/cutrow.csv"): the last line has no line break" --info "$I" "$tmp/cutrow.csv"
: > "$tmp/empty.info"
hostile "an empty info file" "empty.info: incomplete: no 'model' line (an empty file)" --info "$tmp/empty.info" "$tmp/a.csv"
# under a memory limit the messages stay true (out of memory or too long, at file:1; never "empty
# file" or "no 'model' line"); skipped where the binary cannot run under the limit (sanitizers)
# (in a shell of its own that outlives the binary: an abort is reported into its /dev/null)
if bash -c 'ulimit -v 60000 && "$0" --help; exit $?' "$anim" > /dev/null 2>&1; then
    for which in csv info; do
        if [ $which = csv ]; then
            (ulimit -v 60000; exec timeout 60 "$anim" --out "$tmp/hx.html" --info "$I" <(yes | tr -d '\n'))
        else
            (ulimit -v 60000; exec timeout 60 "$anim" --out "$tmp/hx.html" --info <(yes | tr -d '\n') "$tmp/a.csv")
        fi > /dev/null 2> "$tmp/hx.err"
        rc=$?
        check "memory limit, endless $which line: exit 1 ($rc: $(head -c 200 "$tmp/hx.err"))" test "$rc" -eq 1
        check "memory limit, endless $which line: file:1 named" grep -q ':1: \(out of memory\|line longer\)' "$tmp/hx.err"
        check "memory limit, endless $which line: no false message" test -z "$(grep -e 'empty' -e "no 'model'" "$tmp/hx.err")"
    done
else
    echo "note: $anim does not run under ulimit -v 60000 (a sanitizer build?): memory limit checks skipped"
fi
# a pipe is read once, like the file: the same page
"$anim" --quiet --title T --out "$tmp/fromfile.html" "$tmp/a.csv"
"$anim" --quiet --title T --info "$I" --out "$tmp/frompipe.html" <(cat "$tmp/a.csv")
ok $? "the CSV through a pipe"
check "the CSV through a pipe: the same page as from the file" cmp -s "$tmp/fromfile.html" "$tmp/frompipe.html"
check "a 10000-byte CSV row below the limit: the same page" cmp -s "$tmp/fromfile.html" "$tmp/longrow.html"
# a column named twice: the first one counts (a garbage copy appended at the end changes nothing)
sed '1s/$/,EF.F.y,OF.x/; 2,$s/^\([^=]*\)$/\1,12345,-9/' "$tmp/a.csv" > "$tmp/dup.csv"
"$anim" --quiet --title T --info "$I" --out "$tmp/dup.html" "$tmp/dup.csv"
ok $? "duplicate columns: written"
check "duplicate columns: the first of each name is used" cmp -s "$tmp/fromfile.html" "$tmp/dup.html"
# 100000 points (issue 27, item 11: quadratic before, 110 s; linear now): one body, 50000 joints,
# 3 rows; the page has every point in every frame and one circle per joint
awk 'BEGIN { print "mbinfo 2"; print "model big"; print "body B"
    for (i = 0; i < 100000; i++) printf "point 0 B.p%d\n", i
    for (i = 0; i < 100000; i += 2) printf "joint %d %d\n", i, i + 1 }' > "$tmp/big.csv.info"
awk 'BEGIN { printf "t,B.x,B.y"; for (i = 0; i < 100000; i++) printf ",B.p%d.x,B.p%d.y", i, i; print ""
    for (r = 0; r < 3; r++) { printf "%g,0,0", r * 0.1; for (i = 0; i < 100000; i++) printf ",%d,%d", i + r, r; print "" } }' > "$tmp/big.csv"
timeout 120 "$anim" --quiet --out "$tmp/big.html" "$tmp/big.csv"
ok $? "100000 points: written"
check "100000 points: 3 frames" grep -q 'data-frames="3"' "$tmp/big.html"
nv=$(awk '/^var D=\[/ {on = 1; next} on && /^\];/ {exit} on' "$tmp/big.html" | awk -F, '{ print NF - 1 }' | sort -u)
check "100000 points: 200003 values in every frame ($nv)" test "$nv" = 200003
nj=$(sed -n 's/^var JOINTS=\[\(.*\)\];$/\1/p' "$tmp/big.html" | tr ',' '\n' | grep -c '[0-9]')
check "100000 points: 50000 joint circles ($nj)" test "$nj" -eq 50000
# 50000 bodies of 2 points each (each body's outline was a scan of every point: 274 s before)
awk 'BEGIN { print "mbinfo 2"; print "model manybodies"; for (b = 0; b < 50000; b++) printf "body B%d\n", b
    for (b = 0; b < 50000; b++) printf "point %d B%d.a\npoint %d B%d.b\n", b, b, b, b }' > "$tmp/bodies.csv.info"
awk 'BEGIN { printf "t"; for (b = 0; b < 50000; b++) printf ",B%d.a.x,B%d.a.y,B%d.b.x,B%d.b.y", b, b, b, b
    for (b = 0; b < 50000; b++) printf ",B%d.x,B%d.y", b, b; print ""
    for (r = 0; r < 2; r++) { printf "%g", r; for (i = 0; i < 300000; i++) printf ",%d", i % 97 + r; print "" } }' > "$tmp/bodies.csv"
timeout 120 "$anim" --quiet --out "$tmp/bodies.html" "$tmp/bodies.csv"
ok $? "50000 bodies: written"
nb=$(count_in "$tmp/bodies.html" '^var BODIES=\[' | grep -c '{name:')
check "50000 bodies: every body drawn ($nb)" test "$nb" -eq 50000
check "50000 bodies: a bar through its points and centre of mass" grep -q '^ {name:"B49999",.*pts:\[99998,-50000,99999\]},$' "$tmp/bodies.html"

# Plots: one PNG per quantity, real PNG files.
if command -v gnuplot >/dev/null 2>&1; then
    scripts/plot.sh --outdir "$tmp/png" --label "test" "$tmp/a.csv" > "$tmp/pngs.txt" 2> "$tmp/plot.err"
    ok $? "plot.sh: $(head -n 3 "$tmp/plot.err")"
    for s in energy constraints sigma trace; do
        f=$tmp/png/a_$s.png
        check "plot $s is a PNG" test "$(head -c 8 "$f" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
    done
    scripts/plot.sh --outdir "$tmp/png" --trace no.such "$tmp/a.csv" 2> /dev/null
    check "plot.sh: unknown trace point fails" test $? -ne 0
    scripts/plot.sh --compare "$tmp/png/cmp" "$tmp/a.csv:one" "$tmp/a.csv:two" > /dev/null 2>&1
    ok $? "plot.sh --compare"
    for s in energy phi phid; do check "compare plot $s written" test -s "$tmp/png/cmp_$s.png"; done
    # What `make run` runs after building: simulate, animate, plot, summarize.
    RESULTS=$tmp/res BUILD=$BUILD scripts/run.sh andrews alf-trapezoid --t-end 0.002 --h 1e-5 \
        --every 10 > "$tmp/run.out" 2>&1
    ok $? "scripts/run.sh: $(tail -n 3 "$tmp/run.out")"
    check "run.sh summary says status ok" grep -q '^   status ok, 200 steps to t = 0.002 s' "$tmp/run.out"
    # TRACE names a particle (make run TRACE=P; issue 27, item 16: it was refused, exit 2)
    TRACE=P RESULTS=$tmp/resp BUILD=$BUILD scripts/run.sh point_pendulum alf-trapezoid --t-end 0.1 \
        > "$tmp/runp.out" 2>&1
    ok $? "scripts/run.sh TRACE=P (a particle): $(tail -n 3 "$tmp/runp.out")"
    check "run.sh TRACE=P: the animation traces P" grep -q '^var NP=1,TR=1,' "$tmp/resp/point_pendulum.html"
    check "run.sh TRACE=P: the trace plot" test -s "$tmp/resp/point_pendulum_trace.png"
    for f in andrews.csv andrews.csv.info andrews.log andrews.html andrews_energy.png andrews_trace.png; do
        check "run.sh wrote $f and listed it" grep -q "$tmp/res/$f" "$tmp/run.out"
        check "run.sh: $f exists" test -s "$tmp/res/$f"
    done
else
    echo "note: gnuplot absent (scripts/deps.sh plots): plot checks skipped"
fi

# Headless screenshot: the page must draw the bodies (their colours appear in the image).
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chrome" ] && command -v python3 >/dev/null 2>&1; then
    timeout 60 "$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size=960,820 --virtual-time-budget=500 --screenshot="$tmp/shot.png" \
        "file://$tmp/a.html" > /dev/null 2>&1
    python3 - "$tmp/shot.png" <<'EOF'
# Decode the PNG (8-bit RGB/RGBA, non-interlaced: what Chromium writes) and count the
# pixels of each body colour and the non-white pixels: at least 5 of the 7 bodies visible.
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(d):
    n, typ = struct.unpack(">I4s", d[pos:pos + 8]); body = d[pos + 8:pos + 8 + n]; pos += 12 + n
    if typ == b"IHDR": w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif typ == b"IDAT": idat += body
bpp = {2: 3, 6: 4}[ctype]; raw = zlib.decompress(idat); stride = w * bpp
prev = bytearray(stride); rows = []; i = 0
for y in range(h):
    f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
# the palette of mb_anim_main.c for the 7 bodies; small ones may be hidden behind others
cols = ["1f77b4", "d62728", "2ca02c", "9467bd", "ff7f0e", "17becf", "8c564b"]
count = {tuple(int(c[i:i + 2], 16) for i in (0, 2, 4)): 0 for c in cols}; ink = 0
for line in rows:
    for x in range(0, stride, bpp):
        px = tuple(line[x:x + 3])
        if px in count: count[px] += 1
        if px != (255, 255, 255): ink += 1
print("screenshot %dx%d: %d non-white pixels, body colours %s" % (w, h, ink, list(count.values())))
sys.exit(0 if ink > 0.01 * w * h and sum(v >= 10 for v in count.values()) >= 5 else 1)
EOF
    ok $? "headless Chromium screenshot shows the bodies"
    # It plays: 2 s into the 4 s loop the clock shows about half the simulated time.
    tnow=$(timeout 60 "$chrome" --headless --no-sandbox --disable-gpu --virtual-time-budget=2000 \
        --dump-dom "file://$tmp/a.html" 2> /dev/null | sed -n 's/.*id="time">t = \([0-9.e+-]*\) s.*/\1/p')
    tend=$(grep -v -e '=' -e '^#' "$tmp/a.csv" | tail -n 1 | cut -d, -f1)
    check "animation plays: t = $tnow s after 2 s of 4 (run ends at $tend s)" \
        awk -v a="$tnow" -v e="$tend" 'BEGIN {exit !(a != "" && a > 0.3 * e && a < 0.7 * e)}'
else
    echo "note: chromium (scripts/deps.sh browser) or python3 absent: screenshot check skipped"
fi
finish
