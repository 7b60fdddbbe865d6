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
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
