#!/usr/bin/env bash
# test_doc_embed.sh - docs/embedding.md's "Dropping the example into a firmware project" holds:
# the runtime files its step 2 lists, copied alone into an empty directory with a model generated
# there (step 1) and examples/firmware/solver.[ch], compile with step 4's flags (-std=c99
# -DMB_NO_LAPACKE, warnings as errors) and run, in double, in float, lean (MB_ONLY_ALF_TRAPEZOID)
# and with our own math (MB_MATH_HEADER); a list without mb_bdf.c must fail to link (the
# omission a reviewer hit: the test can see one); an application compiled in float or lean on a
# double, full runtime gets MB_ERR_BUILD at its start, not overwritten memory. Needs build/mbgen.
set -u
BUILD=${BUILD:-build}
CC=${CC:-cc}
pass=0
fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else echo "FAIL: $1"; fail=$((fail + 1)); fi; }
[ -x "$BUILD/mbgen" ] || { echo "test_doc_embed.sh: $BUILD/mbgen missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# step 2's list: the text between "2. Copy into the project" and "3. In `solver.c`"
list=$(awk '/^2\. Copy into the project/ { on = 1 } /^3\. In `solver\.c`/ { on = 0 } on' docs/embedding.md)
ok "step 2 found in docs/embedding.md" '[ -n "$list" ]'
files=()
for f in $(grep -o 'mb_[a-z0-9_]*\.\(\[ch\]\|[ch]\)' <<<"$list" | sort -u); do
    case $f in
        *.\[ch\]) files+=("${f%.\[ch\]}.c" "${f%.\[ch\]}.h") ;;
        *) files+=("$f") ;;
    esac
done
missing=
for f in "${files[@]}"; do [ -f "runtime/$f" ] || missing="$missing $f"; done
ok "every file step 2 lists is in runtime/ (missing:${missing:- none})" '[ -z "$missing" ]'

src=$tmp/project
mkdir -p "$src"
for f in "${files[@]}"; do [ -f "runtime/$f" ] && cp "runtime/$f" "$src/"; done
cp examples/firmware/solver.c examples/firmware/solver.h "$src/"
"$BUILD/mbgen" models/double_pendulum.lua -o "$tmp/gen" >"$tmp/gen.log" 2>&1
ok "step 1: mbgen writes the model" '[ -f "$tmp/gen/double_pendulum.c" ] && [ -f "$tmp/gen/double_pendulum.h" ]'
cp "$tmp/gen/double_pendulum.c" "$tmp/gen/double_pendulum.h" "$src/"   # step 2: <name>.[ch] only
cat >"$src/app.c" <<'EOF'
/* a host stand-in for the firmware's periodic task (examples/firmware/main.c uses semihosting) */
#include <stdio.h>
#include "solver.h"
int main(void)
{
    int st = solver_init();
    if (st < 0) { printf("init %d\n", st); return 1; }
    for (int k = 0; k < 1000; k++) {
        st = solver_step();
        if (st < 0) { printf("step %d: %d\n", k, st); return 1; }
    }
    printf("ok dU %g\n", (double)mb_embed_energy_dev(solver_sim()));
    return 0;
}
EOF
flags=(-std=c99 -Wall -Wextra -Werror -DMB_NO_LAPACKE -ffunction-sections -fdata-sections -Wl,--gc-sections)
build_run() {   # name, extra flags...: compile every .c of the project, run 1000 steps
    local name=$1
    shift
    (cd "$src" && $CC "${flags[@]}" "$@" -I. ./*.c -lm -o "$tmp/$name") >"$tmp/$name.log" 2>&1 &&
        "$tmp/$name" >>"$tmp/$name.log" 2>&1 && grep -q '^ok ' "$tmp/$name.log"
}
variant() {   # description, name, extra flags...: build_run, one check, the log on failure
    local what=$1 name=$2
    shift 2
    build_run "$name" "$@"
    local r=$?
    ok "$what" '[ $r = 0 ]'
    [ $r = 0 ] || sed -n 1,5p "$tmp/$name.log"
}
variant "the listed files build and run 1000 steps (double)" double
variant "the same in float (-DMB_FLOAT, alpha 1e5, tol 1e-4)" float -DMB_FLOAT '-DFW_ALPHA=MB_R(1e5)' '-DFW_TOL=MB_R(1e-4)'
variant "the same lean (-DMB_ONLY_ALF_TRAPEZOID)" lean -DMB_ONLY_ALF_TRAPEZOID
variant "the same with our own sin/cos (-DMB_MATH_HEADER=\"mb_math.h\")" ownmath '-DMB_MATH_HEADER="mb_math.h"'
# an application built differently from the runtime (README's libmbrt.a is double only): the
# runtime in double and default switches, the application and model in float, or lean; the
# start must answer MB_ERR_BUILD, with nothing overwritten (ASan), and the same build start
cat >"$src/app_mix.c" <<'EOF2'
#include <stdio.h>
#include "mb_embed.h"
#include "double_pendulum.h"
static mb_sim_storage sim;
static mb_real work[4096];
int main(void)
{
    mb_params p;
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    int st = mb_embed_start(mb_sim_of(&sim), &double_pendulum_model, &p, work, sizeof work, 0, NULL, NULL, 1);
    printf("start %d %s\n", st, mb_status_str(st));
    return 0;
}
EOF2
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -g)
mkdir -p "$tmp/rt"
rtok=1
for f in "$src"/mb_*.c; do
    $CC "${flags[@]}" "${san[@]}" -I"$src" -c "$f" -o "$tmp/rt/$(basename "$f" .c).o" >>"$tmp/rt.log" 2>&1 || rtok=0
done
ok "the runtime alone compiles (double, default switches)" '[ $rtok = 1 ]'
mix() {   # name, the application's flags: its start's line of output
    local name=$1
    shift
    (cd "$src" && $CC "${flags[@]}" "${san[@]}" "$@" -I. app_mix.c double_pendulum.c "$tmp"/rt/*.o -lm \
        -o "$tmp/$name") >"$tmp/$name.log" 2>&1 && "$tmp/$name" >>"$tmp/$name.log" 2>&1
    grep '^start' "$tmp/$name.log"
}
ok "the same build starts" '[ "$(mix same)" = "start 0 ok" ]'
ok "a float application on the double runtime: MB_ERR_BUILD, nothing overwritten" \
   'mix float -DMB_FLOAT | grep -q "^start -14 " && ! grep -q "Sanitizer" "$tmp/float.log"'
ok "a lean (MB_ONLY_ALF_TRAPEZOID) application on the full runtime: MB_ERR_BUILD" \
   'mix lean -DMB_ONLY_ALF_TRAPEZOID | grep -q "^start -14 " && ! grep -q "Sanitizer" "$tmp/lean.log"'

# negative control: the same without mb_bdf.c does not link in the default configuration
rm -f "$src/mb_bdf.c"
build_run nobdf; r=$?
ok "negative control: without mb_bdf.c the default build fails to link" '[ $r != 0 ] && grep -q "undefined reference" "$tmp/nobdf.log"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
