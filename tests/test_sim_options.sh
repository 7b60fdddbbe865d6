#!/usr/bin/env bash
# test_sim_options.sh - docs/cli.md's option table of <model>_sim is the simulator's own
# (tools/mb_sim_options.c): its rows, in order, with their first two columns (the options and
# where they apply) exactly as `<model>_sim --help=markdown` prints them; and --help lists every
# option of that table. A doctored copy of the page must fail the same comparison (the check
# can fail). Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SIM=$BUILD/double_pendulum_sim
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test_sim_options.XXXXXX"); trap 'rm -rf "$T"' EXIT
[ -x "$SIM" ] || { bad "no $SIM (make $SIM)"; echo "$pass passed, $fail failed"; exit 1; }

# the option rows of the <model>_sim section: "| `--x ...` | applies to |" (the meaning dropped)
doc_rows() {
    awk '/^## <model>_sim/ { on = 1; next } /^## / { on = 0 } on && /^\| `-/' "$1" |
        awk -F ' [|] ' '{ print $1 " | " $2 " |" }'
}
"$SIM" --help=markdown >"$T/table" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^| `-' "$T/table")" -ge 30 ] && ok ||
    bad "--help=markdown: exit $rc, $(grep -c . "$T/table") rows: $(head -c 200 "$T/err")"
doc_rows docs/cli.md >"$T/doc"
if diff "$T/table" "$T/doc" >"$T/diff"; then ok
else bad "docs/cli.md's <model>_sim option table differs from the simulator's (< table, > docs):"; cat "$T/diff" >&2; fi

# the comparison fails on a doctored page: a wrong "applies to", a row left out, two rows swapped
sed 's/^| `--alpha A` | dynamic: alf-explicit, alf-trapezoid or hht |/| `--alpha A` | dynamic |/' docs/cli.md >"$T/m1.md"
sed '/^| `--f-points N` |/d' docs/cli.md >"$T/m2.md"
awk '/^\| `--t-end S` \|/ { held = $0; next } { print } held && /^\| `--h S` \|/ { print held; held = "" }' docs/cli.md >"$T/m3.md"
for m in m1 m2 m3; do
    doc_rows "$T/$m.md" >"$T/$m.doc"
    cmp -s "$T/table" "$T/$m.doc" && bad "a doctored docs/cli.md ($m) passes the comparison" || ok
done

# --help: every option of the table (but -h, which --help stands for) on a line of its own
"$SIM" --help >"$T/help"; rc=$?
[ $rc -eq 0 ] && ok || bad "--help: exit $rc"
for o in $(grep -o '`-[-a-z]*' "$T/table" | tr -d '`' | grep -vx -- -h); do
    grep -q -- "^  $o\( \|$\)" "$T/help" && ok || bad "--help does not list $o"
done
# an option --help lists is in the table
for o in $(grep -oE '^  --[a-z-]+' "$T/help"); do
    grep -qF -- "\`$o" "$T/table" && ok || bad "--help lists $o, the table does not"
done

# ---- the table's "applies to" is what the simulator does
forms=(baumgarte canonical alf-explicit alf-trapezoid)
integs=(rk4 dopri5 trapezoid dop853 bdf hht)        # by value (mb_sim.h)
anls=(dynamic static kinematic inverse modal quasistatic frequency linearize)   # MB_CLI_*
"$SIM" --help=table >"$T/rows" && [ "$(grep -c . "$T/rows")" -ge 30 ] && ok || bad "--help=table: $(head -c 200 "$T/rows")"
# try EXPECT LABEL ARGS...: EXPECT 1: refused naming $as; 0: not refused for it
try() {
    local expect=$1 label=$2; shift 2
    "$SIM" "$@" --quiet >/dev/null 2>"$T/e"; local rc=$?
    if grep -qF -- "option $as has no effect with" "$T/e"; then
        [ "$expect" = 1 ] && [ $rc -eq 2 ] && ok || bad "$label: refused, but its row says it applies (exit $rc): $(head -c 200 "$T/e")"
    else
        [ "$expect" = 0 ] && ok || bad "$label: not refused (exit $rc), but its row says it has no effect: $(head -c 200 "$T/e")"
    fi
}
ctxs=()   # "f i stepctl" of the pairs the runtime takes
for f in 0 1 2 3; do for i in 0 1 2 3 4 5; do
    "$SIM" --formulation "${forms[f]}" --integrator "${integs[i]}" --t-end 0.001 --quiet >/dev/null 2>"$T/e"
    grep -q "does not fit" "$T/e" && continue
    ctxs+=("$f $i 0")
    [ "${integs[i]}" = trapezoid ] && ctxs+=("$f $i 1")
done; done
[ ${#ctxs[@]} -ge 12 ] && ok || bad "only ${#ctxs[@]} formulation x integrator pairs fit"
while IFS='|' read -r name as ex am fm aim im ctl grp; do
    [ "$grp" = 3 ] || [ -z "$ex" ] && continue   # (checked elsewhere; no model-free value)
    if [ "$ex" = - ]; then ov=("$name"); else ov=("$name" "$ex"); fi
    for a in 1 2 3 4 5 6 7; do
        args=(--analysis "${anls[a]}")
        [ $a = 6 ] && args+=(--input AB.x)
        case $a in 2|3|5) [ "$name" != --t-end ] && args+=(--t-end 0.01) ;; esac
        try $(( am >> a & 1 ? 0 : 1 )) "$name ${ex#-} with --analysis ${anls[a]}" "${args[@]}" "${ov[@]}"
    done
    case $name in --formulation|--integrator) continue ;; esac
    for c in "${ctxs[@]}"; do
        read -r f i sc <<<"$c"
        args=(--formulation "${forms[f]}" --integrator "${integs[i]}" --t-end 0.01)
        [ "$sc" = 1 ] && args+=(--rtol 1e-6)
        refused=0
        (( am & 1 )) || refused=1
        (( (fm >> f & 1) || (aim >> i & 1) )) || refused=1
        (( im >> i & 1 )) || refused=1
        [ "$ctl" = 1 ] && [ "$sc" = 1 ] && refused=1
        [ "$ctl" = 2 ] && [ "$sc" = 0 ] && refused=1
        try $refused "$name ${ex#-} with ${args[*]}" "${args[@]}" "${ov[@]}"
    done
done < <(tr '\t' '|' <"$T/rows")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
