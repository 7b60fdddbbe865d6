#!/usr/bin/env bash
# test_make_models.sh - make sim/run (and anim) on any model file (mk/tools.mk, scripts/model.sh):
#  - MODEL as a name, NAME.lua, models/NAME.lua, ./models/NAME (a shipped model: generated/);
#  - a missing file is reported as "<file> not found" (never "No rule to make target");
#  - a file anywhere whose name statement differs from its file name builds under build/models
#    and runs; one that declares a shipped model's or a test model's name is refused (before,
#    a test model's name ended in a link error: both rules linked build/<name>_sim); a model error names the
#    file and line; a path make cannot carry is refused: in every failure nothing is written;
#  - DEFS="N=3" builds the variant chain_N3 (build/models, build/chain_N3_sim), never generated/;
#  - another file with the same name regenerates; make run writes results/<name>.*;
#  - an edited shipped model builds from a copy in build/models (make sim and run), and
#    build/<m>_sim is relinked from generated/ once the edit is undone; MBGEN_FLAGS variants;
#  - generated/ is left exactly as it was (no stray file, no change), and a model in models/
#    whose name differs from its file name is refused by the generated/ rule before writing.
# Ends with "N passed, N failed".
# run.sh: alone - it edits models/oscillator_1dof.lua, saves a file in models/ and relinks
# build/oscillator_1dof_sim, which other tests read
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_make_models.XXXXXX")
stray=models/zz_test_make_models_$$.lua
trap 'rm -rf "$tmp"; rm -f "$stray"' EXIT
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "$MAKE" --no-print-directory -C "$root" "$@"; }
# the state of generated/: names and contents
gen_state() { (cd generated && find . -type f | LC_ALL=C sort | xargs sha1sum); }
gen0=$(gen_state)
SHIPPED=$(sed -n 's/^MODELS *:= *//p' Makefile)
resolve() { MBGEN=$BUILD/mbgen BUILD=$BUILD SHIPPED=$SHIPPED scripts/model.sh "$@"; }

mk "$BUILD/mbgen" >/dev/null 2>&1 || { bad "cannot build $BUILD/mbgen"; echo "$pass passed, $fail failed"; exit 1; }

# ---- the ways of naming a shipped model
for m in double_pendulum double_pendulum.lua models/double_pendulum.lua ./models/double_pendulum; do
    out=$(resolve "$m" 2>&1)
    if [ $? -eq 0 ] && [[ "$out" == *"MODEL_NAME=double_pendulum"* ]] && [[ "$out" == *"MODEL_DIR=generated"* ]]; then ok
    else bad "MODEL=$m: $out"; fi
done

# ---- missing files: "<file> not found", exit non-zero, no make "No rule"
expect_fail() {   # expect_fail TEXT MAKE-ARGS...: make fails, stderr holds TEXT
    local text=$1; shift
    mk "$@" >"$tmp/out" 2>&1
    local rc=$?
    if [ "$rc" -ne 0 ] && grep -qF -- "$text" "$tmp/out" && ! grep -q "No rule to make target" "$tmp/out"; then ok
    else bad "make $*: exit $rc, expected '$text': $(head -n 5 "$tmp/out")"; fi
}
expect_fail "make: models/nosuch.lua not found (MODEL=nosuch: a name in models/, a .lua file or a path; models/ has: andrews bouncing_ball cam_follower cartpole chain" sim MODEL=nosuch
expect_fail "models/nosuch.lua not found" run MODEL=nosuch
expect_fail "make: nosuch.lua not found (nor models/nosuch.lua)" sim MODEL=nosuch.lua
expect_fail "make: models/nosuch.lua not found" run MODEL=models/nosuch.lua
# the animation tool is one for every model: make anim needs no MODEL
if mk anim >"$tmp/out" 2>&1 && [ -x "$BUILD/mb_anim" ]; then ok
else bad "make anim: $(tail -n 5 "$tmp/out")"; fi
expect_fail "make: $tmp/none/x.lua not found" sim MODEL="$tmp/none/x.lua"
expect_fail "MODEL is empty" sim MODEL=

# ---- a model file elsewhere whose name differs from its file name
mkdir -p "$tmp/elsewhere"
cat >"$tmp/elsewhere/mycrane.lua" <<'EOF'
-- a file whose name statement differs from its file name
name "zz_tcrane"
gravity { 0, -9.81 }
ground { A = { 0, 0 }, S = { 0.8, 0 } }
body "bar" { mass = 2.0, inertia = 0.06, points = { A = { -0.3, 0 }, T = { 0.3, 0 } }, angle = -pi / 2 }
revolute "A" { "ground.A", "bar.A" }
spring "S" { "bar.T", "ground.S", k = 200, l0 = 0.5, c = 2 }
assembly { lock = { "bar.phi" } }
EOF
rm -f "$BUILD"/models/zz_tcrane* "$BUILD/zz_tcrane_sim"
if mk sim MODEL="$tmp/elsewhere/mycrane.lua" >"$tmp/out" 2>&1 && [ -x "$BUILD/zz_tcrane_sim" ] &&
   [ -f "$BUILD/models/zz_tcrane.c" ] && [ -f "$BUILD/models/zz_tcrane_data.c" ]; then ok
else bad "make sim MODEL=<file elsewhere, name differs>: $(tail -n 5 "$tmp/out")"; fi
out=$("$BUILD/zz_tcrane_sim" --t-end 0.01 --quiet 2>&1)
[[ "$out" == "status=ok code=0 model=zz_tcrane "* ]] && ok || bad "zz_tcrane_sim: $out"
# another file with the same name (two bodies now) regenerates: the stamp names the file
sed -e 's/^assembly.*//' "$tmp/elsewhere/mycrane.lua" >"$tmp/elsewhere/other.lua"
echo 'body "bar2" { mass = 1, inertia = 0.01, points = { A = { 0, 0 } } }' >>"$tmp/elsewhere/other.lua"
echo 'revolute "B" { "bar.T", "bar2.A" }' >>"$tmp/elsewhere/other.lua"
touch -d '2000-01-01' "$tmp/elsewhere/other.lua"     # older than the generated files
if mk sim MODEL="$tmp/elsewhere/other.lua" >"$tmp/out" 2>&1 && grep -qx '#define ZZ_TCRANE_NQ 6' "$BUILD/models/zz_tcrane.h"; then ok
else bad "another file with the same name did not regenerate: $(grep NQ "$BUILD/models/zz_tcrane.h") $(tail -n 3 "$tmp/out")"; fi
# make run: the results carry the model's name
if mk run MODEL="$tmp/elsewhere/mycrane.lua" RESULTS="$tmp/results" RUN_ARGS="--t-end 0.05" >"$tmp/out" 2>&1 &&
   [ -s "$tmp/results/zz_tcrane.csv" ] && [ -s "$tmp/results/zz_tcrane.html" ] &&
   grep -qx 'spring 1 3' "$tmp/results/zz_tcrane.csv.info" && grep -qx 'joint 2 0' "$tmp/results/zz_tcrane.csv.info" &&
   grep -q "== zz_tcrane (alf-trapezoid) done" "$tmp/out"; then ok
else bad "make run MODEL=<file elsewhere>: $(tail -n 5 "$tmp/out")"; fi

# ---- refused before anything is written
sed 's/^name .*/name "andrews"/' "$tmp/elsewhere/mycrane.lua" >"$tmp/elsewhere/fake.lua"
before=$(ls -l --time-style=+%s.%N "$BUILD/andrews_sim" 2>/dev/null)
expect_fail "declares the name 'andrews' of the shipped model models/andrews.lua" sim MODEL="$tmp/elsewhere/fake.lua"
[ "$(ls -l --time-style=+%s.%N "$BUILD/andrews_sim" 2>/dev/null)" = "$before" ] && [ ! -e "$BUILD/models/andrews.c" ] &&
    ok || bad "a file named like a shipped model touched its build"
# a test model's name: its simulator is the test suite's (both rules would link into it)
sed 's/^name .*/name "pendulum"/' "$tmp/elsewhere/mycrane.lua" >"$tmp/elsewhere/tpend.lua"
stamp() { ls -l --time-style=+%s.%N "$BUILD/pendulum_sim" "$BUILD"/models/pendulum* 2>/dev/null; }
before=$(stamp)
expect_fail "declares the name 'pendulum' of a test model; $BUILD/pendulum_sim is the test suite's simulator" sim MODEL="$tmp/elsewhere/tpend.lua"
[ "$(stamp)" = "$before" ] && ok || bad "a file named like a test model touched its build"
printf 'name "zz_terr"\nground { O = { 0, 0 } }\nbody "b" { mass = -1, inertia = 1, points = { A = { 0, 0 } } }\n' \
    >"$tmp/elsewhere/broken.lua"
expect_fail "$tmp/elsewhere/broken.lua:3: error: " sim MODEL="$tmp/elsewhere/broken.lua"
[ -z "$(ls "$BUILD"/models/zz_terr* 2>/dev/null)" ] && ok || bad "a broken model left files: $(ls "$BUILD"/models/zz_terr*)"
cp "$tmp/elsewhere/mycrane.lua" "$tmp/elsewhere/with space.lua"
expect_fail "make cannot take this path" sim MODEL="$tmp/elsewhere/with space.lua"

# ---- DEFS: the variant, never generated/
rm -f "$BUILD"/models/chain_N3* "$BUILD/chain_N3_sim"
if mk sim MODEL=chain DEFS="N=3" >"$tmp/out" 2>&1 && [ -x "$BUILD/chain_N3_sim" ] &&
   grep -qx '#define CHAIN_N3_NQ 9' "$BUILD/models/chain_N3.h" &&
   grep -q '^ \* Generated by mbgen .* from models/chain.lua (options: -D N=3 --name chain_N3)\.$' "$BUILD/models/chain_N3.c"; then ok
else bad "make sim MODEL=chain DEFS=N=3: $(tail -n 5 "$tmp/out")"; fi
out=$("$BUILD/chain_N3_sim" --t-end 0.01 --quiet 2>&1)
[[ "$out" == "status=ok code=0 model=chain_N3 "* ]] && ok || bad "chain_N3_sim: $out"
out=$(resolve chain "N=-2.5e+1 M=1" 2>&1)
[[ "$out" == *"MODEL_NAME=chain_M1_Nm2p5e1"* ]] || [[ "$out" == *"N must be an integer"* ]] && ok || bad "variant name: $out"
expect_fail "DEFS: 'N' is not NAME=VALUE" sim MODEL=chain DEFS="N"
expect_fail "DEFS: N=1;x is not a number" sim MODEL=chain DEFS='N=1;x'
# (a '$' never reaches scripts/model.sh: make refuses it, mk/user_vars.mk)
expect_fail "DEFS='N=\$(x)': a '\$' in a make variable" sim MODEL=chain DEFS='N=$(x)'
expect_fail "value is not a finite number" sim MODEL=chain DEFS="N=abc"
expect_fail "models/andrews.lua: error: -D N given, but the model has no param" sim MODEL=andrews DEFS="N=3"

# ---- a model in models/ whose name differs from its file name: the generated/ rule refuses
# it before writing; make sim builds it under build/models
sed 's/^name .*/name "zz_tother"/' "$tmp/elsewhere/mycrane.lua" >"$stray"
b=$(basename "$stray" .lua)
expect_fail "declares the name 'zz_tother', not '$b'" "generated/$b.c"
if mk sim MODEL="$b" >"$tmp/out" 2>&1 && [ -x "$BUILD/zz_tother_sim" ]; then ok
else bad "make sim MODEL=$b (models/, name differs): $(tail -n 5 "$tmp/out")"; fi
rm -f "$stray"

# ---- an edited shipped model: built from a copy in build/models, generated/ never written;
# afterwards build/<m>_sim is relinked from generated/ (the stamp build/simsrc/<m>.dir)
edit=models/oscillator_1dof.lua
cp -p "$edit" "$tmp/edit_saved.lua"
trap 'cp -p "$tmp/edit_saved.lua" "$edit" 2>/dev/null; rm -rf "$tmp"; rm -f "$stray"' EXIT
echo "-- edited by tests/test_make_models.sh" >>"$edit"
if ! cmp -s "$edit" "$tmp/edit_saved.lua"; then
    if mk sim MODEL=oscillator_1dof >"$tmp/out" 2>&1 && grep -q "differs from the committed model: generated into $BUILD/models" "$tmp/out" &&
       [ -f "$BUILD/models/oscillator_1dof.c" ] && [ "$(cat "$BUILD/simsrc/oscillator_1dof.dir")" = "$BUILD/models" ]; then ok
    else bad "make sim MODEL=oscillator_1dof (edited): $(tail -n 5 "$tmp/out")"; fi
    [ "$(gen_state)" = "$gen0" ] && ok || bad "make sim of an edited shipped model wrote generated/: $(diff <(echo "$gen0") <(gen_state) | head)"
    # make run too
    if mk run MODEL=oscillator_1dof RESULTS="$tmp/res_edit" RUN_ARGS="--t-end 0.01" >"$tmp/out" 2>&1 &&
       [ -s "$tmp/res_edit/oscillator_1dof.csv" ]; then ok
    else bad "make run MODEL=oscillator_1dof (edited): $(tail -n 5 "$tmp/out")"; fi
    [ "$(gen_state)" = "$gen0" ] && ok || bad "make run of an edited shipped model wrote generated/"
    cp -p "$tmp/edit_saved.lua" "$edit"
    if mk "$BUILD/oscillator_1dof_sim" >"$tmp/out" 2>&1 && [ "$(cat "$BUILD/simsrc/oscillator_1dof.dir")" = generated ] &&
       grep -q "generated/oscillator_1dof_data.o .*-o $BUILD/oscillator_1dof_sim" "$tmp/out"; then ok
    else bad "build/oscillator_1dof_sim not relinked from generated/ after the edit was undone: $(tail -n 3 "$tmp/out")"; fi
else bad "could not edit $edit for the test"; fi

# ---- MBGEN_FLAGS: mbgen's options for make sim/run, a variant named after them
rm -f "$BUILD"/models/double_pendulum_linalg_compact* "$BUILD/double_pendulum_linalg_compact_no_fused_sim"
if mk sim MODEL=double_pendulum MBGEN_FLAGS="--linalg compact --no-fused" >"$tmp/out" 2>&1 &&
   [ -x "$BUILD/double_pendulum_linalg_compact_no_fused_sim" ] &&
   grep -q '(options: --name double_pendulum_linalg_compact_no_fused --linalg compact --no-fused)' "$BUILD/models/double_pendulum_linalg_compact_no_fused.c"; then ok
else bad "make sim MBGEN_FLAGS=\"--linalg compact --no-fused\": $(tail -n 5 "$tmp/out") $(grep -m1 'Generated by' "$BUILD"/models/double_pendulum_linalg_compact_no_fused.c 2>&1)"; fi
expect_fail "MBGEN_FLAGS: '-o' is not one of --redundant MODE, --linalg FORM, --no-fused, --fused" sim MODEL=double_pendulum MBGEN_FLAGS="-o x"
expect_fail "MBGEN_FLAGS: --redundant drop: expected" sim MODEL=double_pendulum MBGEN_FLAGS="--redundant drop"
rm -f "$BUILD"/models/double_pendulum_linalg_compact* "$BUILD/double_pendulum_linalg_compact_no_fused_sim"

# ---- generated/ untouched by all of the above
[ "$(gen_state)" = "$gen0" ] && ok || bad "generated/ changed: $(diff <(echo "$gen0") <(gen_state) | head)"
rm -rf "$BUILD"/models/zz_t* "$BUILD"/zz_t*_sim "$BUILD"/zz_t*_anim

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
