#!/usr/bin/env bash
# test_control.sh - the closed loop's programs (examples/cartpole, docs/control.md): lqr_design
# writes the gain header (and nothing on a bad path), cartpole_lqr balances the pole from 0.2 rad
# and its negative control (--gain zero) lets it fall, and the simulator's replay of the force the
# controller set (cartpole_sim --input-file, what make run MODEL=cartpole draws) ends where the
# closed loop ends; the replay of the force with its sign flipped does not (so the replay
# follows the table). Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test_control.XXXXXX")
trap 'rm -rf "$T"' EXIT
get() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# ---- lqr_design
out=$($B/lqr_design "$T/gain.h"); rc=$?
[ $rc -eq 0 ] && grep -q '^#define CARTPOLE_GAIN_K {' "$T/gain.h" && ok || bad "lqr_design: exit $rc"
printf '%s\n' "$out" | grep -q '^Riccati residual' && ok || bad "lqr_design prints no residual: $out"
$B/lqr_design "$T/nodir/gain.h" > /dev/null 2>&1; rc=$?
[ $rc -eq 1 ] && [ ! -e "$T/nodir" ] && ok || bad "lqr_design to a missing directory: exit $rc"
$B/lqr_design > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok || bad "lqr_design without arguments: exit $rc"
# the header compiles with the controller in both precisions
for p in "" -DMB_FLOAT; do
    mkdir -p "$T/inc"; cp "$T/gain.h" "$T/inc/cartpole_gain.h"
    ${CC:-cc} -std=c99 -Wall -Wextra -Werror -pedantic $p -I"$T/inc" -Iruntime -Igenerated -Iexamples/cartpole \
        -c examples/cartpole/cartpole_control.c -o "$T/c.o" && ok || bad "cartpole_control.c with the written header ($p)"
done

# ---- cartpole_lqr: balances, and the negative control falls
out=$($B/cartpole_lqr --t-end 5 --inputs "$T/u.csv"); rc=$?
[ $rc -eq 0 ] && [ "$(get "$out" status)" = ok ] && ok || bad "cartpole_lqr: exit $rc: $out"
th=$(get "$out" theta_end) x=$(get "$out" x_end) late=$(get "$out" max_theta_last_1s)
awk -v a="$late" -v x="$x" 'BEGIN { exit !(a < 1e-3 && (x < 0 ? -x : x) < 0.01) }' && ok ||
    bad "cartpole_lqr: not balanced: max |theta| over the last s $late, x $x"
[ "$(head -n 1 "$T/u.csv")" = "t,F" ] && [ "$(wc -l < "$T/u.csv")" -eq 501 ] && ok || bad "inputs table: $(head -n 2 "$T/u.csv")"
out0=$($B/cartpole_lqr --t-end 2 --gain zero); rc=$?
awk -v a="$(get "$out0" theta_end)" 'BEGIN { exit !(a > 1 || a < -1) }' && ok || bad "gain zero: the pole did not fall: $out0"
for args in "--t-end -1" "--t-end abc" "--gain half" "--nosuch"; do
    # shellcheck disable=SC2086
    $B/cartpole_lqr $args > /dev/null 2>&1; rc=$?
    [ $rc -eq 2 ] && ok || bad "cartpole_lqr $args: exit $rc, not 2"
done

# ---- the simulator's replay of the force ends where the closed loop ends
last() {  # last COLUMN CSV: the column's value in the last data row
    awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } $0 !~ /=/ && k { v = $k } END { print v }' "$2"
}
$B/cartpole_sim --quiet --t-end 5 --input-file "$T/u.csv" --every 10 --out "$T/rep.csv" > /dev/null; rc=$?
[ $rc -eq 0 ] && ok || bad "cartpole_sim --input-file: exit $rc"
rth=$(last out.theta "$T/rep.csv") rx=$(last out.x "$T/rep.csv")
awk -v a="$th" -v b="$rth" -v c="$x" -v d="$rx" 'function ab(v) { return v < 0 ? -v : v }
    BEGIN { exit !(ab(a - b) <= 1e-9 && ab(c - d) <= 1e-9) }' && ok ||
    bad "replay ends at theta $rth, x $rx; the closed loop at $th, $x"
awk -F, 'NR == 1 { print; next } { printf "%s,%.17g\n", $1, -$2 }' "$T/u.csv" > "$T/neg.csv"
$B/cartpole_sim --quiet --t-end 5 --input-file "$T/neg.csv" --every 10 --out "$T/neg_rep.csv" > /dev/null 2>&1
nth=$(last out.theta "$T/neg_rep.csv")
awk -v a="$nth" 'BEGIN { exit !(a == "" || a > 0.1 || a < -0.1) }' && ok || bad "the flipped force balances too: theta $nth"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
