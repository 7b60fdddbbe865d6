#!/usr/bin/env bash
# test_cli_hostile.sh - hostile and broken command lines and inputs for every binary: the
# simulator's options, the animation tool's CSV input, mbgen's options and odd paths. Each must
# end with a clear message naming the input, the documented non-zero exit, no crash, no output.
# Usage: tests/test_cli_hostile.sh   (BUILD=build/san for the sanitizer builds; MBGEN=path)
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
MBGEN=${MBGEN:-$BUILD/mbgen}
SIM=$BUILD/fixture_pendulum_sim ASIM=$BUILD/andrews_sim ANIM=$BUILD/mb_anim
T=$(mktemp -d "${TMPDIR:-/tmp}/test_cli_hostile.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0 inputs=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
for b in "$SIM" "$ASIM" "$ANIM" "$MBGEN"; do
    [ -x "$b" ] || { echo "FAIL: $b missing" >&2; echo "0 passed, 1 failed"; exit 1; }
done

# run RC TEXT CMD...: exit status RC (never a signal or the timeout), TEXT on stderr
run() {
    local want=$1 text=$2; shift 2
    inputs=$((inputs + 1))
    timeout 60 "$@" >"$T/out" 2>"$T/err"
    rc=$?
    if [ $rc -ge 124 ]; then bad "$*: crashed or hung (exit $rc): $(head -c 300 "$T/err")"
    elif [ $rc -ne "$want" ]; then bad "$*: exit $rc, expected $want: $(head -c 300 "$T/err")"
    elif [ -n "$text" ] && ! grep -qF -- "$text" "$T/err"; then bad "$*: stderr lacks '$text': $(head -c 300 "$T/err")"
    elif grep -q "runtime error:\|AddressSanitizer\|LeakSanitizer" "$T/err"; then bad "$*: sanitizer report"
    else ok; fi
}
# no_output FILE: neither FILE nor a temporary of it is left
no_output() {
    if [ -e "$1" ] || compgen -G "$1.tmp*" >/dev/null; then bad "output left behind: $(ls "$1"*)"; rm -f "$1"*
    else ok; fi
}

# ---- simulator: invalid values exit 2 naming the option and the value, write nothing
o=$T/o.csv
while IFS='|' read -r args text; do
    [ -n "$args" ] || continue
    eval "set -- $args"
    run 2 "$text" "$SIM" --out "$o" "$@"
    no_output "$o"
done <<'EOF'
--h -1|'-1' for --h
--h 0|'0' for --h
--h -0|'-0' for --h
--h nan|'nan' for --h
--h NaN|'NaN' for --h
--h inf|'inf' for --h
--h -inf|'-inf' for --h
--h 1e999|'1e999' for --h
--h ''|'' for --h
--h 1e-3x|'1e-3x' for --h
--h ' 1e-3 '|for --h
--h 0x|'0x' for --h
--h 1e-300|--h 1e-300
--t-end 1e300|--t-end 1e+300
--t-end 0|'0' for --t-end
--t-end -1|'-1' for --t-end
--t-end nan|'nan' for --t-end
--rtol 0|'0' for --rtol
--rtol -1e-6|'-1e-6' for --rtol
--atol 0|'0' for --atol
--atol nan|'nan' for --atol
--tol 0|'0' for --tol
--tol -1e-10|'-1e-10' for --tol
--tol inf|'inf' for --tol
--alpha 0|'0' for --alpha
--alpha -1e8|'-1e8' for --alpha
--alpha inf|'inf' for --alpha
--xi -1|'-1' for --xi
--xi nan|'nan' for --xi
--omega -1|'-1' for --omega
--omega 1e400|'1e400' for --omega
--sigma-reset -1|'-1' for --sigma-reset
--sigma-reset nan|'nan' for --sigma-reset
--baumgarte-cap -1|'-1' for --baumgarte-cap
--baumgarte-cap inf|'inf' for --baumgarte-cap
--max-iter 0|'0' for --max-iter
--max-iter -3|'-3' for --max-iter
--max-iter 1.5|'1.5' for --max-iter
--max-iter 99999999999999999999|'99999999999999999999' for --max-iter
--max-iter 1001|'1001' for --max-iter: at most 1000
--max-iter 1000000000|'1000000000' for --max-iter: at most 1000
--max-steps 0|'0' for --max-steps
--max-steps -1|'-1' for --max-steps
--max-steps 1e8|'1e8' for --max-steps
--max-steps 9223372036854775808|'9223372036854775808' for --max-steps
--max-steps ''|'' for --max-steps
--max-iter ''|'' for --max-iter
--every 0|'0' for --every
--every -1|'-1' for --every
--every 1e3|'1e3' for --every
--every 0x10|'0x10' for --every
--every 2000000000|'2000000000' for --every
--every 9223372036854775808|'9223372036854775808' for --every
--every abc|'abc' for --every
--formulation lagrange|'lagrange' for --formulation
--formulation ''|'' for --formulation
--formulation ALF-TRAPEZOID|'ALF-TRAPEZOID' for --formulation
--formulation 'alf-trapezoid '|'alf-trapezoid ' for --formulation
--integrator euler|'euler' for --integrator
--integrator ''|'' for --integrator
--formulation baumgarte --integrator trapezoid|integrator
--formulation canonical --integrator trapezoid|integrator
--formulation alf-trapezoid --integrator rk4|integrator
--formulation alf-trapezoid --integrator dopri5|integrator
--formulation canonical --integrator hht|canonical takes rk4, dopri5, dop853 or bdf
--formulation alf-trapezoid --integrator hht|alf-trapezoid takes trapezoid or bdf
--hht-alpha -0.05|option --hht-alpha has no effect with --integrator trapezoid
--integrator hht --hht-alpha 0.1|'0.1' for --hht-alpha
--integrator hht --hht-alpha -0.34|'-0.34' for --hht-alpha
--integrator hht --hht-alpha nan|'nan' for --hht-alpha
--integrator hht --project-velocity|option --project-velocity has no effect with --integrator hht
--out ''|'' for --out
--bogus|--bogus
--bogus 1|--bogus
-x|-x
--|--
-|-
positional|positional
--h|--h
--t-end|--t-end
--formulation|--formulation
--every|--every
--max-steps|--max-steps
--out|--out
--h 1e-400|underflows to 0
--t-end=1e-400|underflows to 0
--analysis x|expected dynamic, static, quasistatic, kinematic, inverse, modal, frequency or linearize
--about x|expected static (the equilibrium, default), initial (the assembled initial state) or t=<time in s> (linearize only)
--f-points 1|expected an integer from 2 to 1000000
--f-min=-1|expected a frequency > 0 in Hz
--mode-frames 3|expected an integer from 4 to 10000
--input|--input
--input bar.x|apply to --analysis frequency
--analysis modal --f-max 10|apply to --analysis frequency
--analysis frequency|needs a harmonic input: --input
--analysis frequency --input bar.x --f-min 5 --f-max 1|--f-max must be above --f-min
--analyse x|unknown option --analyse
--alphabet 1|unknown option --alphabet
--every-other=2|unknown option --every-other=2
--quiet=1|option --quiet takes no value
--t-end=|'' for --t-end
EOF
# a subnormal value is a finite number (strtod's ERANGE is no error for it): judged on its merits
run 2 "--h 1e-310" "$SIM" --out "$o" --h 1e-310
if grep -q "not a finite number" "$T/err"; then bad "--h 1e-310 called not a finite number"; else ok; fi
# --opt=VALUE is --opt VALUE (--t-end=0.1 was read as --t-end with the value '--out')
rm -f "$o"
run 0 "" "$SIM" --t-end=0.05 --quiet --out "$o" --every=10
if [ "$(wc -l <"$o")" -eq 7 ] && grep -q "^status=ok .* t_end=0.05 " "$T/out"; then ok
else bad "--t-end=0.05 --every=10: $(cat "$T/out")"; fi
# --out must name a regular file that can be created: exit 1 (cannot write) or 2 (not a file)
echo x >"$T/file"
run 1 "$T/file/x.csv" "$SIM" --t-end 0.01 --out "$T/file/x.csv"
run 1 "$T/nodir/x.csv" "$SIM" --t-end 0.01 --out "$T/nodir/x.csv"
no_output "$T/nodir/x.csv"
# ... and the summary line still ends the output (docs/cli.md: always printed)
if grep -q "^status=error code=0 .* steps=0 " "$T/out"; then ok; else bad "--out in a missing directory: no summary line: $(cat "$T/out")"; fi
# the summary line cannot be written (stdout on /dev/full): exit 1, not 0
inputs=$((inputs + 1))
timeout 60 "$SIM" --t-end 0.01 --quiet >/dev/full 2>"$T/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "cannot write the summary line" "$T/err"; then ok
else bad "stdout on /dev/full: exit $rc: $(cat "$T/err")"; fi
run 2 "for --out" "$SIM" --t-end 0.01 --out "$T"
run 2 "for --out" "$SIM" --t-end 0.01 --out /dev/null
# --out -: refused (it made files named "-" and "-.info"), run in $T so a stray file shows there
f0=$fail
(cd "$T" && run 2 "invalid value '-' for --out: the CSV goes to a regular file" "$OLDPWD/$SIM" --t-end 0.01 --out -
 [ -s "$T/out" ] && bad "--out -: a summary line for a refused command line"
 no_output "$T/-"; exit $((fail > f0)) ) && ok || fail=$((f0 + 1))
long=$(printf 'd%.0s' $(seq 1 5000))
run 2 "path too long" "$SIM" --t-end 0.01 --out "$T/$long.csv"
# the CSV cannot be completed (file size limit; SIGXFSZ not ignored by the caller): exit 1,
# summary status=error, the complete rows written before are renamed into place, no temporary
inputs=$((inputs + 1))
(ulimit -f 2; timeout 60 "$SIM" --t-end 1 --out "$T/big.csv" --quiet >"$T/out" 2>"$T/err")
rc=$?
if [ $rc -eq 1 ] && grep -q "cannot write .*File too large; the complete rows written before are kept" "$T/err" &&
   grep -q "^status=error" "$T/out" && [ "$(wc -l <"$T/big.csv")" -gt 2 ] &&
   awk -F, 'NR == 1 { n = NF } NF != n { exit 1 } END { exit NR < 2 }' "$T/big.csv" &&
   [ "$(tail -c 1 "$T/big.csv" | od -An -c | tr -d ' ')" = '\n' ]; then ok
else bad "file size limit: exit $rc: $(cat "$T/err")"; fi
if compgen -G "$T/big.csv.tmp*" >/dev/null; then bad "file size limit: temporary left"; else ok; fi
# a limit below the header: nothing usable, no file at all
inputs=$((inputs + 1))
# (stdout and stderr through a pipe: the limit applies to regular files, so to $T/out too)
(ulimit -f 0; exec timeout 60 "$SIM" --t-end 0.01 --out "$T/big0.csv" --quiet) 2>&1 | cat >"$T/out"
if grep -q "^status=error" "$T/out" && grep -q "cannot write" "$T/out"; then ok
else bad "file size limit 0: $(cat "$T/out")"; fi
no_output "$T/big0.csv"
# stdout and stderr closed after a fault (| head -c1: SIGPIPE): the rows up to the fault are
# renamed into place, no temporary is left
for sim in "$SIM --h 10 --t-end 100" "$ASIM --t-end 0.02"; do
    inputs=$((inputs + 1))
    rm -f "$T/pipe.csv"
    # shellcheck disable=SC2086
    timeout 60 $sim --out "$T/pipe.csv" 2>&1 | head -c 1 >/dev/null
    if [ -s "$T/pipe.csv" ] && ! compgen -G "$T/pipe.csv.tmp*" >/dev/null &&
       awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$T/pipe.csv"; then ok
    else bad "$sim | head -c1: CSV missing or temporary left: $(ls "$T"/pipe.csv* 2>&1)"; fi
done

# an interrupted run (SIGTERM, SIGINT, SIGHUP) leaves neither the CSV nor its temporary
for sig in TERM INT HUP; do
    inputs=$((inputs + 1))
    "$ASIM" --t-end 10 --quiet --out "$T/kill.csv" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 100); do compgen -G "$T/kill.csv.tmp*" >/dev/null && break; sleep 0.05; done
    sleep 0.2
    kill -$sig $pid; { wait $pid; } 2>/dev/null; rc=$?
    if [ $rc -ge 128 ] && ! compgen -G "$T/kill.csv*" >/dev/null; then ok
    else bad "SIG$sig: exit $rc, left: $(ls "$T"/kill.csv* 2>/dev/null)"; rm -f "$T"/kill.csv*; fi
done

# absurd but valid values: the run finishes or stops with a fault, never crashes or hangs;
# whatever CSV it leaves is complete (header + full rows, at least one: a fault before the first
# row leaves none)
while IFS='|' read -r want args; do
    [ -n "$args" ] || continue
    eval "set -- $args"
    rm -f "$o"
    run "$want" "" "$SIM" --quiet --out "$o" "$@"
    if { [ ! -e "$o" ] && [ "$want" -ne 0 ]; } || { [ -s "$o" ] && awk -F, 'NR == 1 { n = NF } NF != n { exit 1 } END { exit NR < 2 }' "$o"; } &&
       grep -q "^status=$([ "$want" -eq 0 ] && echo ok || echo error)" "$T/out"; then ok
    else bad "$*: CSV incomplete or summary wrong: $(head -c 200 "$T/out")"; fi
done <<'EOF'
0|--every 1000000000 --t-end 0.05
1|--h 10 --t-end 1
0|--h 0x1p-10 --t-end 0.01
0|--t-end 1e-300
0|--formulation baumgarte --integrator dopri5 --rtol 1e300 --atol 1e300 --t-end 0.1
1|--alpha 1e308
1|--omega 1e300 --formulation canonical
1|--xi 1e300 --formulation baumgarte
0|--sigma-reset 1e-300 --t-end 0.05
0|--baumgarte-cap 1e-300 --formulation baumgarte --t-end 0.05
0|--integrator hht --hht-alpha -0.3333333333 --t-end 0.05
1|--integrator hht --h 1e300 --t-end 1e300
0|--max-iter 1000 --formulation alf-explicit --t-end 0.01
0|--max-iter 1000 --tol 1e-300 --t-end 0.05
1|--max-steps 1 --t-end 0.01
0|--max-steps 9223372036854775807 --t-end 0.01
1|--h 1e300 --t-end 1e300
0|--formulation baumgarte --formulation canonical --t-end 0.01
EOF

# ---- animation tool: broken CSVs exit 1 naming the file, bad options exit 2; no page left
"$ASIM" --t-end 0.0005 --quiet --out "$T/a.csv" >/dev/null 2>&1 || bad "andrews_sim run failed"
head -n 1 "$T/a.csv" >"$T/header.csv"
: >"$T/empty.csv"
head -c 2500 "$T/a.csv" >"$T/trunc.csv"
{ echo "x,y,z"; tail -n +2 "$T/a.csv"; } >"$T/wronghdr.csv"
{ head -n 1 "$T/a.csv" | cut -d, -f1-5; tail -n +2 "$T/a.csv"; } >"$T/shorthdr.csv"
printf '\0\1\2\3binary\n' >"$T/binary.csv"
{ head -n 1 "$T/a.csv"; tail -n +2 "$T/a.csv" | sed 's/,[^,]*/,abc/'; } >"$T/text.csv"
for f in header empty trunc wronghdr shorthdr binary text; do
    run 1 "$f.csv" "$ANIM" --quiet --info "$T/a.csv.info" --out "$T/$f.html" "$T/$f.csv"
    no_output "$T/$f.html"
done
# finite values whose span overflows (x = +-1e308, or y): the page would get viewBox="-inf -inf
# inf inf" and R=inf; an error naming the file, no page
for c in 2 3; do
    { head -n 2 "$T/a.csv"; sed -n 3p "$T/a.csv" | awk -F, -v c=$c 'BEGIN { OFS = "," } { $c = "1e308"; print }'
      sed -n 4p "$T/a.csv" | awk -F, -v c=$c 'BEGIN { OFS = "," } { $c = "-1.7e308"; print }'; } >"$T/huge$c.csv"
    run 1 "huge$c.csv: the positions span more than a double can hold" "$ANIM" --info "$T/a.csv.info" --out "$T/huge$c.html" "$T/huge$c.csv"
    no_output "$T/huge$c.html"
done
# subnormal values are finite numbers (strtod's ERANGE): the page is written with every row
{ head -n 2 "$T/a.csv"; sed -n 3p "$T/a.csv" | awk -F, 'BEGIN { OFS = "," } { $3 = "1e-310"; $4 = "-4.9e-324"; print }'; } >"$T/sub.csv"
run 0 "(2 frames" "$ANIM" --info "$T/a.csv.info" --out "$T/sub.html" "$T/sub.csv"
if grep -q "not a finite number" "$T/err"; then bad "subnormal CSV value called not a finite number"; else ok; fi
run 1 "nonexistent.csv" "$ANIM" --out "$T/n.html" "$T/nonexistent.csv"
no_output "$T/n.html"
# NaN and infinity rows end the animation there with a warning (a diverged run still shows)
{ head -n 3 "$T/a.csv"; sed -n 4p "$T/a.csv" | sed 's/^\([^,]*\),[^,]*/\1,nan/'; tail -n +5 "$T/a.csv"; } >"$T/nan.csv"
{ head -n 3 "$T/a.csv"; sed -n 4p "$T/a.csv" | sed 's/^\([^,]*\),[^,]*/\1,-inf/'; } >"$T/inf.csv"
for f in nan inf; do
    run 0 "not a finite number" "$ANIM" --info "$T/a.csv.info" --out "$T/$f.html" "$T/$f.csv"
    if grep -q "^\[" "$T/$f.html" && ! grep -qi "nan\|infinity" <(grep "^\[" "$T/$f.html"); then ok
    else bad "$f.csv: page holds non-finite numbers or no frames"; fi
done
while IFS='|' read -r args text; do
    [ -n "$args" ] || continue
    eval "set -- $args"
    run 2 "$text" "$ANIM" --out "$T/x.html" "$@"
    no_output "$T/x.html"
done <<EOF
--every 0 $T/a.csv|--every
--every -5 $T/a.csv|--every
--max-frames -1 $T/a.csv|--max-frames
--duration nan $T/a.csv|--duration
--duration 0 $T/a.csv|--duration
--duration inf $T/a.csv|--duration
--trace nope.P $T/a.csv|nope.P
--trace '' $T/a.csv|--trace
--bogus $T/a.csv|--bogus
$T/a.csv $T/a.csv|more than one input
|no input file
--every|--every
EOF
run 1 "not a regular file" "$ANIM" --out /dev/null "$T/a.csv"
f0=$fail
(cd "$T" && run 2 "bad value for --out: -: the page goes to a file" "$OLDPWD/$ANIM" --out - "$T/a.csv"
 no_output "$T/-"; exit $((fail > f0)) ) && ok || fail=$((f0 + 1))
run 1 "$T/file/x.html" "$ANIM" --out "$T/file/x.html" "$T/a.csv"

# ---- mbgen: options and paths; exit 1 with "error:", no traceback, nothing written
od=$T/gen
while IFS='|' read -r args text; do
    [ -n "$args" ] || continue
    eval "set -- $args"
    run 1 "$text" "$MBGEN" "$@" -o "$od"
    if [ -e "$od" ] && [ -n "$(ls -A "$od")" ]; then bad "mbgen $*: wrote $(ls "$od")"; rm -rf "$od"; fi
    if grep -q "traceback" "$T/err"; then bad "mbgen $*: traceback for a user error"; fi
done <<'EOF'
models/chain.lua -D N=1e308|N must be an integer
models/chain.lua -D N=-1e308|N must be an integer
models/chain.lua -D N=1e9|N must be an integer
models/chain.lua -D N=0x7fffffffffffffff|N must be an integer
models/chain.lua -D N=nan|not a finite number
models/chain.lua -D N=-inf|not a finite number
models/chain.lua -D N=1e400|not a finite number
models/chain.lua -D N=|not a finite number
models/chain.lua -D =3|not an identifier
models/chain.lua -D 'N N=3'|not an identifier
models/chain.lua -D 'N;os.exit()=3'|not an identifier
models/andrews.lua --name ''|not an identifier
models/andrews.lua --name 'a b'|not an identifier
models/andrews.lua --name "$(printf 'x%.0s' $(seq 1 100))"|too long
models/andrews.lua --name mb_model|reserved
models/andrews.lua --name _x|reserved
/dev/zero|model file too large
/dev/null|no bodies
.|cannot read model file
models|cannot read model file
EOF
# odd characters in paths: the model is found, named and reported by the path as given; the
# generated files name it in their opening comment only through a safe character set, so a
# path cannot end the comment and inject C (they compile with -pedantic -Werror and define
# nothing but the model's symbols)
for n in "with space" "new
line" "semi;colon" "quote'x" 'dollar$(id)' "ünï" "-dash" 'a*/ int pwned = 42; /*x' \
         'b*/ __asm__(".section .init_array"); /*' 'c/*nested' 'd*??/' 'e\' "f\"q" \
         "$(printf 'g\033[31mred')" '*/'; do
    d="$T/$n"; mkdir -p "$d"
    printf 'name "odd"\nground { O = { 0, 0 } }\nbody "b" { mass = 1, inertia = 1, points = { A = { 0, 0 } } }\nrevolute "j" { "ground.O", "b.A" }\nbogus()\n' >"$d/m.lua"
    shown=$(printf '%s' "$d/m.lua" | tr '\001-\037\177' '?')   # control characters shown as '?'
    run 1 "$shown:5: error: unknown name 'bogus'" "$MBGEN" -o "$d/out" -- "$d/m.lua"
    [ -e "$d/out" ] && bad "odd path '$n': output written"
    sed -i '$d' "$d/m.lua"
    inputs=$((inputs + 1))
    if timeout 60 "$MBGEN" -o "$d/out" -- "$d/m.lua" 2>"$T/err" && [ -s "$d/out/odd.c" ] &&
       ! compgen -G "$d/out/*tmp*" >/dev/null; then ok
    else bad "odd path '$n': generation failed: $(cat "$T/err")"; fi
    inputs=$((inputs + 1))
    if cc -std=c99 -Wall -Wextra -Werror -pedantic -Iruntime -c "$d/out/odd.c" -o "$T/odd.o" \
           2>"$T/err" &&
       cc -std=c99 -Wall -Wextra -Werror -pedantic -Iruntime -Ievaluator -c "$d/out/odd_data.c" -o "$T/odd_data.o" \
           2>>"$T/err" &&
       nm "$T/odd.o" "$T/odd_data.o" | awk '$2 ~ /^[A-TV-Z]$/ && $3 !~ /^odd_/ { bad = 1 } END { exit bad }' &&
       ! grep -q -a "pwned\|init_array" <(nm "$T/odd.o" "$T/odd_data.o") &&
       [ "$(sed -s -n '3s/.* from \(.*\) (options: .*/\1/p' "$d/out/odd.c" "$d/out/odd.h" \
             "$d/out/odd_data.c" | grep -c '^[A-Za-z0-9 ._/+,:=@-]*$')" -eq 3 ]; then ok
    else bad "odd path '$n': generated files do not compile cleanly or carry the path unsafely: $(head -c 300 "$T/err")"; fi
done
# outputs that cannot be completed (file size limit): exit 1, no file, no temporary
inputs=$((inputs + 1))
(trap '' XFSZ; ulimit -f 4; timeout 60 "$MBGEN" models/andrews.lua -o "$T/lim" 2>"$T/err")
rc=$?
if [ $rc -eq 1 ] && grep -q "cannot write" "$T/err" && [ -z "$(ls -A "$T/lim" 2>/dev/null)" ]; then ok
else bad "mbgen under a file size limit: exit $rc, files: $(ls "$T/lim" 2>/dev/null): $(cat "$T/err")"; fi

echo "hostile command lines and inputs tried: $inputs"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
