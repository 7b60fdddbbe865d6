#!/usr/bin/env bash
# test_params.sh - tunable parameters end to end (docs/model-language.md, "Tunable parameters"):
#  - suspension_sim --set m=.. --set k=.. ... equals, to round-off, the simulator of the model
#    regenerated with those constants in place of the tunables (a sed'ed copy, built by
#    make sim MODEL=<path>); a run at the defaults differs from it (negative control);
#  - --set errors: an unknown name lists the tunables, a value breaking a rule names the rule,
#    a bad value, --set on the generic evaluator: exit 2, nothing written (no --out file);
#  - model-file errors: a tunable where only a number may stand (an initial guess, a sine
#    period), a time-dependent mass, duplicate names, a name a sweep column gives a simulator
#    option (h, t_end), a default that breaks a rule;
#  - the generated header's tunable macros and mbgen --dump's description.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_params.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "$MAKE" --no-print-directory -C "$root" "$@"; }
SIM=$BUILD/suspension_sim
mk "$SIM" "$BUILD/mbgen" >/dev/null 2>&1 || { bad "cannot build $SIM"; echo "$pass passed, $fail failed"; exit 1; }

# ---- --set equals the model regenerated with the constants
sets=(--set m=300 --set k=21000 --set c=1500 --set F=700 --set a=0.05)
sed -e 's/^name "suspension"/name "suspension_fixed"/' \
    -e 's/tunable("m", 250[^)]*)/300/' -e 's/tunable("k", 16000[^)]*)/21000/' -e 's/tunable("c", 1000[^)]*)/1500/' \
    -e 's/tunable("F", 500[^)]*)/700/' -e 's/tunable("a", 0[^)]*)/0.05/' models/suspension.lua > "$tmp/suspension_fixed.lua"
if sed 's/--.*//' "$tmp/suspension_fixed.lua" | grep -q 'tunable('; then bad "sed left a tunable"; fi
if out=$(mk sim MODEL="$tmp/suspension_fixed.lua" 2>&1) && [ -x "$BUILD/suspension_fixed_sim" ]; then ok
else bad "make sim MODEL=$tmp/suspension_fixed.lua: $out"; fi
# the largest difference of two CSVs, relative to each column's scale (max |value| + 1e-12;
# energy_dev, a difference of energies of about 1e3 J, on that scale: 1e3 J)
csvdiff() {
    awk -F, 'NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) if ($i == "energy_dev") sc[i] = 1e3; next }
                         for (i = 1; i <= NF; i++) { a[FNR, i] = $i; s = ($i < 0 ? -$i : $i); if (s > sc[i]) sc[i] = s }
                         n = FNR; next }
             FNR == 1 { next }
             { for (i = 1; i <= NF; i++) { d = a[FNR, i] - $i; if (d < 0) d = -d; r = d / (sc[i] + 1e-12); if (r > w) w = r } ; m = FNR }
             END { if (m != n) print "rows", n, m; else printf "%.3g\n", w }' "$1" "$2"
}
for f in alf-trapezoid baumgarte canonical; do
    "$SIM" --quiet --formulation "$f" --t-end 1 "${sets[@]}" --out "$tmp/set.csv" > "$tmp/set.txt" 2>&1
    "$BUILD/suspension_fixed_sim" --quiet --formulation "$f" --t-end 1 --out "$tmp/fix.csv" > "$tmp/fix.txt" 2>&1
    "$SIM" --quiet --formulation "$f" --t-end 1 --out "$tmp/def.csv" > /dev/null 2>&1
    d=$(csvdiff "$tmp/set.csv" "$tmp/fix.csv")
    d0=$(csvdiff "$tmp/def.csv" "$tmp/fix.csv")
    echo "$f: --set vs regenerated: max relative difference $d; defaults vs regenerated: $d0"
    if awk -v d="$d" 'BEGIN { exit !(d + 0 == d && d < 1e-9) }'; then ok; else bad "$f: --set run differs from the regenerated model: $d"; fi
    if awk -v d="$d0" 'BEGIN { exit !(d + 0 == d && d > 1e-3) }'; then ok; else bad "$f: negative control: the defaults' run should differ: $d0"; fi
    if grep -q '^status=ok' "$tmp/set.txt" && grep -q '^status=ok' "$tmp/fix.txt"; then ok; else bad "$f: status: $(cat "$tmp/set.txt" "$tmp/fix.txt")"; fi
done

# ---- --set errors: exit 2, a message naming the problem, no CSV
expect_err() {   # expect_err "what" "pattern" args...
    local what=$1 pat=$2; shift 2
    rm -f "$tmp/e.csv"
    "$SIM" --quiet --out "$tmp/e.csv" "$@" > "$tmp/o" 2> "$tmp/e"
    local rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$pat" "$tmp/e" && [ ! -e "$tmp/e.csv" ] && [ ! -s "$tmp/o" ]; then ok
    else bad "$what: rc=$rc stderr=$(cat "$tmp/e") stdout=$(cat "$tmp/o")"; fi
}
expect_err "unknown tunable or input" "unknown tunable or input 'kk'; the tunables are: m (default 250) k (default 16000) c (default 1000) F (default 500) a (default 0); the inputs are: none" --set kk=1
expect_err "negative mass" 'break the model.s rule body "car" mass > 0' --set m=-1
expect_err "negative k" 'spring "susp" k >= 0' --set k=-1
expect_err "zero mass (inertia rule first broken at mass)" 'mass > 0' --set m=0
expect_err "not a number" "not a number" --set k=abc
expect_err "no value" "expected NAME=VALUE" --set k
expect_err "non-finite" "not a finite number" --set k=inf
# values whose reciprocal overflows: a subnormal one, and a normal mass whose derived inertia
# (0.1 m) is subnormal: refused naming the rule (they ran into an unnamed "non-finite" in
# baumgarte and canonical); the smallest mass whose inertia is normal runs
expect_err "subnormal value" "not a normal number" --set m=1e-310
for f in alf-trapezoid baumgarte canonical; do
    expect_err "$f: mass 2.5e-308, inertia subnormal" 'break the model.s rule body "car" inertia > 0, normal (line 24)' --formulation $f --set m=2.5e-308
done
expect_err "static analysis: mass 2.5e-308" 'body "car" inertia > 0, normal' --analysis static --set m=2.5e-308
"$SIM" --quiet --formulation alf-trapezoid --t-end 0.01 --set m=2.3e-307 --set k=1e-300 --set c=0 --set F=0 > "$tmp/o" 2> "$tmp/e"
if grep -q "^status=" "$tmp/o" && ! grep -q "rule" "$tmp/e"; then ok; else bad "m = 2.3e-307 (inertia normal): refused or no summary: $(cat "$tmp/e" "$tmp/o")"; fi
expect_err "generic evaluator" "use --eval generated" --eval generic --set k=1
# a later --set of the same name wins; --set=NAME=VALUE works
a=$("$SIM" --quiet --set k=1 --set=k=21000 --t-end 0.2 | sed 's/ wall_s=.*//')
b=$("$SIM" --quiet --set k=21000 --t-end 0.2 | sed 's/ wall_s=.*//')
c=$("$SIM" --quiet --t-end 0.2 | sed 's/ wall_s=.*//')
if [ "$a" = "$b" ] && [ "$a" != "$c" ]; then ok; else bad "repeated --set: '$a' vs '$b' (defaults '$c')"; fi
# the analyses take the same checked values: a refused one stops them before they run (their
# results at other values are not checked here: the static analysis finds no equilibrium of
# this model from its guesses, with tunables or with constants alike)
expect_err "static analysis, negative mass" 'mass > 0' --analysis static --set m=-1

# ---- model-file errors
model_err() {   # model_err "what" "pattern" lua-lines...
    local what=$1 pat=$2; shift 2
    rm -rf "$tmp/g"; mkdir -p "$tmp/g"
    printf '%s\n' "$@" > "$tmp/t.lua"
    "$BUILD/mbgen" "$tmp/t.lua" -o "$tmp/g" > "$tmp/o" 2> "$tmp/e"
    local rc=$?
    if [ $rc -ne 0 ] && grep -q -- "$pat" "$tmp/e" && [ -z "$(ls "$tmp/g")" ]; then ok
    else bad "$what: rc=$rc $(cat "$tmp/e")"; fi
}
base='ground { O = { 0, 0 } }'
joint='revolute "A" { "ground.O", "b.O" }'
model_err "tunable initial guess" "t.lua:3: error: body \"b\" angle must be a plain number" "$base" 'local k = tunable("k", 1)' 'body "b" { mass = 1, inertia = 1, angle = k, points = { O = { 0, 0 } } }' "$joint"
model_err "time-dependent mass" "t.lua:2: error: body \"b\" mass must be a number, got function" "$base" 'body "b" { mass = function(t) return 1 + t end, inertia = 1, points = { O = { 0, 0 } } }' "$joint"
model_err "tunable times t as mass" "t.lua:4: error: body \"b\" mass cannot depend on time" "$base" 'local k, tt = tunable("k", 1)' 'torque "T" { "b", tau = function(t) tt = t; return k end }' 'body "b" { mass = k * tt, inertia = 1, points = { O = { 0, 0 } } }' "$joint"
model_err "duplicate tunable" "duplicate tunable 'k'" "$base" 'tunable("k", 1)' 'tunable("k", 2)'
model_err "duplicate ignoring case" "names must differ ignoring case" "$base" 'tunable("k", 1)' 'tunable("K", 2)'
model_err "default breaks a rule" "mass must be > 0, got -1" "$base" 'local m = tunable("m", 1)' 'body "b" { mass = m - 2, inertia = 1, points = { O = { 0, 0 } } }' "$joint"
model_err "subnormal mass" "t.lua:2: error: body \"b\": mass must be a normal number" "$base" 'body "b" { mass = 1e-310, inertia = 1, points = { O = { 0, 0 } } }' "$joint"
model_err "subnormal inertia at the defaults" "inertia must be a normal number" "$base" 'local m = tunable("m", 2.5e-308)' 'body "b" { mass = m, inertia = m / 12, points = { O = { 0, 0 } } }' "$joint"
model_err "bad default" "default of tunable k must be a number" "$base" 'tunable("k", "x")'
model_err "bad name" "tunable name '1k' is not an identifier" "$base" 'tunable("1k", 1)'
# a sweep column h, t_end, formulation or integrator sets the option: no tunable may take its name
model_err "tunable named h" "t.lua:2: error: tunable name 'h' is a simulator option's (--h): a sweep table's column 'h' means --h" "$base" 'tunable("h", 1)'
model_err "tunable named t_end" "tunable name 't_end' is a simulator option's (--t-end)" "$base" 'tunable("t_end", 1)'
model_err "input named h" "t.lua:2: error: input name 'h' is a simulator option's (--h)" "$base" 'input "h" { default = 1 }'
model_err "compared" "cannot be compared" "$base" 'local k = tunable("k", 1)' 'if k > 0 then end'
model_err "sine period" "sine period must be a plain number" "$base" 'local k = tunable("k", 1)' 'body "b" { mass = 1, inertia = 1, points = { O = { 0, 0 } } }' "$joint" 'force "F" { "b.O", fx = sine { amplitude = 1, period = k } }'
model_err "non-finite at the defaults" "not a finite number at the tunables' defaults" "$base" 'local k = tunable("k", 0)' 'body "b" { mass = 1, inertia = 1, points = { O = { 1 / k, 0 } } }' "$joint"

# ---- header macros, --dump
h=generated/suspension.h
if grep -q '^#define SUSPENSION_NPAR 5$' $h && grep -q '^#define SUSPENSION_MASS_TUNABLE 1$' $h &&
   grep -q '^#define SUSPENSION_PAR_K 1$' $h; then ok; else bad "header macros in $h"; fi
if "$BUILD/mbgen" --dump models/suspension.lua | grep -q '^bodies\[1\].mass = tunable m = 250$' &&
   "$BUILD/mbgen" --dump models/suspension.lua | grep -q '^tunables\[2\].name = "k"$'; then ok
else bad "mbgen --dump: $("$BUILD/mbgen" --dump models/suspension.lua | grep -i 'mass\|tunables' | head -5)"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
