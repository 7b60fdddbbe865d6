#!/usr/bin/env bash
# test_batch.sh - the simulator's --batch ROWS.csv (tools/mb_batch.c, docs/sweeps.md): many
# rows of a sweep table in one process.
#  - each row's summary row against a run of its own with the same options (the sweep's
#    columns: status, exit, every field of the summary line but wall_s, the message), over rows
#    that change the tunables, the end time, the step, the formulation and the integrator
#    (workspaces of other sizes one after the other), with failed rows in the middle (a value
#    that is no number, a value that breaks a rule): those rows fail with their own message,
#    the rows after them run; the rows' stderr passed on as "row N: ..."; a row that faults
#    (status error) between rows that run;
#  - a first column "row" numbers the rows; a first row that fails before the fields are known
#    gets its empty fields; every row failing: a header without fields;
#  - hostile files: no file, a directory, empty, no rows, blank lines, quotes, shell syntax, NUL
#    and CR bytes, over-long values, bad row numbers; --batch without a value, twice, with
#    --out: exit 2, one message naming the file (and line), nothing on stdout, nothing run;
#  - sensors: each row's final out.NAME values, those of a run's last CSV row.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_batch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
SIM=$BUILD/suspension_sim
[ -x "$SIM" ] || env -u MAKEFLAGS -u MAKELEVEL "$MAKE" --no-print-directory "$SIM" >/dev/null 2>&1 ||
    { bad "cannot build $SIM"; echo "$pass passed, $fail failed"; exit 1; }

# the row a run of its own gives, as the sweep's summary.csv has it: FIELDS are the header's
# summary fields; wall_s left empty (a time, not a result)
expected() {   # expected ROW CELLS FIELDS OPTION...
    local row=$1 cells=$2 fields=$3 out rc line st msg
    shift 3
    out=$("$SIM" --quiet "$@" 2> "$tmp/direct.err"); rc=$?
    line=$(printf '%s\n' "$out" | tail -n 1)
    case "$line" in "status=ok"|"status=ok "*) st=ok ;; "status=error"|"status=error "*) st=error ;; *) st=failed ;; esac
    [ $rc -ne 0 ] && [ $st != failed ] && st=error
    msg=""
    [ $st = ok ] || msg=$(grep -v '^$' "$tmp/direct.err" | head -n 1 | sed 's/"/""/g')
    printf '%s,%s,%s,%s' "$row" "$cells" "$st" "$rc"
    for f in $fields; do
        v=""
        [ $st = failed ] || v=$(printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^$f=//p" | tail -n 1)
        [ "$f" = wall_s ] && v=""
        printf ',%s' "$v"
    done
    printf ',"%s"\n' "$msg"
}
# a batch row with its wall_s emptied (column W of the header)
no_wall() { awk -F, -v w="$1" '{ $w = ""; print }' OFS=,; }

# ---- every row as a run of its own: tunables, t_end, h, formulation, integrator; rows 3 and 5
# fail (a value that is no number; a value that breaks the model's rule); row 6 after them
cat > "$tmp/rows.csv" <<'T'
k,c,t_end,h,formulation,integrator
12000,500,0.3,0.001,alf-trapezoid,trapezoid
16000,800,0.2,0.0005,canonical,rk4
20000,500,abc,0.001,baumgarte,rk4
24000,2000,0.3,0.001,baumgarte,dopri5
-5,500,0.3,0.001,alf-explicit,rk4
30000,2000,0.2,0.002,alf-explicit,rk4
T
"$SIM" --quiet --batch "$tmp/rows.csv" > "$tmp/out" 2> "$tmp/err"
rc=$?
hdr=$(head -n 1 "$tmp/out")
fields=$(printf '%s\n' "$hdr" | tr ',' '\n' | sed -n '/^exit$/,/^message$/p' | sed '1d;$d' | tr '\n' ' ')
w=$(printf '%s\n' "$hdr" | tr ',' '\n' | grep -n '^wall_s$' | cut -d: -f1)
if [ $rc -eq 1 ] && [ "$(wc -l < "$tmp/out")" -eq 7 ] && [ -n "$w" ] &&
   printf '%s\n' "$hdr" | grep -q '^row,k,c,t_end,h,formulation,integrator,status,exit,code,model,steps,.*,max_energy_dev,.*,wall_s,message$' &&
   [ -z "$(printf '%s\n' "$hdr" | tr ',' '\n' | sort | uniq -d)" ]; then ok
else bad "batch of 6 rows: rc=$rc $(head -c 600 "$tmp/out") $(cat "$tmp/err")"; fi
same=0
while IFS=, read -r k c te h f i; do
    [ "$k" = k ] && continue
    r=$((${r:-0} + 1))
    want=$(expected "$r" "$k,$c,$te,$h,$f,$i" "$fields" --set "k=$k" --set "c=$c" --t-end "$te" --h "$h" --formulation "$f" --integrator "$i")
    got=$(sed -n "$((r + 1))p" "$tmp/out" | no_wall "$w")
    if [ "$got" = "$want" ]; then same=$((same + 1)); else bad "row $r: batch '$got', its own run '$want'"; fi
done < "$tmp/rows.csv"
unset r
if [ $same -eq 6 ]; then ok; else bad "$same of 6 rows as their own runs"; fi
if grep -q "^3,20000,500,abc,.*,failed,2,.*\"suspension_sim: invalid value 'abc' for --t-end: not a number\"$" "$tmp/out" &&
   grep -q '^5,-5,.*,failed,2,.*the values break the model.s rule spring ""susp"" k >= 0' "$tmp/out" &&
   [ "$(grep -c ',ok,0,' "$tmp/out")" -eq 4 ] && grep -q '^6,30000,.*,ok,0,' "$tmp/out"; then ok
else bad "failed rows in the middle: $(cut -c1-120 "$tmp/out")"; fi
if grep -q "^row 3: suspension_sim: invalid value 'abc' for --t-end" "$tmp/err" && grep -q '^row 5: suspension_sim: --set: k=-5' "$tmp/err"; then ok
else bad "the rows' stderr: $(cat "$tmp/err")"; fi

# a row that faults (status error, exit 1: --strict and a step beyond rk4's stability limit)
# between two that run, with options before --batch: as their own runs too
printf 'h,k\n0.0001,12000\n0.05,16000\n0.0002,20000\n' > "$tmp/e.csv"
base=(--strict --integrator rk4 --formulation baumgarte --t-end 0.2)
"$SIM" --quiet "${base[@]}" --batch "$tmp/e.csv" > "$tmp/out" 2> "$tmp/err"
rc=$?
hdr=$(head -n 1 "$tmp/out")   # (h is a column here, so not a field: the fields differ)
fields=$(printf '%s\n' "$hdr" | tr ',' '\n' | sed -n '/^exit$/,/^message$/p' | sed '1d;$d' | tr '\n' ' ')
w=$(printf '%s\n' "$hdr" | tr ',' '\n' | grep -n '^wall_s$' | cut -d: -f1)
same=0
for r in 1 2 3; do
    IFS=, read -r h k < <(sed -n "$((r + 1))p" "$tmp/e.csv")
    want=$(expected "$r" "$h,$k" "$fields" "${base[@]}" --h "$h" --set "k=$k")
    got=$(sed -n "$((r + 1))p" "$tmp/out" | no_wall "$w")
    if [ "$got" = "$want" ]; then same=$((same + 1)); else bad "faulting batch row $r: batch '$got', its own run '$want'"; fi
done
if [ $rc -eq 1 ] && [ $same -eq 3 ] && grep -q '^2,0.05,16000,error,1,-13,.*"suspension_sim: runtime fault at t=0.05' "$tmp/out"; then ok
else bad "a faulting row: rc=$rc $(cut -c1-100 "$tmp/out")"; fi

# ---- a row column; a first row failing before the fields are known; every row failing
printf 'row,k\n7,-1\n9,12000\n' > "$tmp/r.csv"
"$SIM" --quiet --t-end 0.1 --batch "$tmp/r.csv" > "$tmp/out" 2> "$tmp/err"
rc=$?
nh=$(head -n 1 "$tmp/out" | awk -F, '{ print NF }')
n7=$(sed -n 2p "$tmp/out" | sed 's/,"[^"]*\("".*\)*"$//' | awk -F, '{ print NF + 1 }')
if [ $rc -eq 1 ] && grep -q '^row,k,status,exit,code,' "$tmp/out" && grep -q '^7,-1,failed,2,,' "$tmp/out" &&
   grep -q '^9,12000,ok,0,' "$tmp/out" && [ "$nh" = "$n7" ]; then ok
else bad "row numbers, a first row failing: rc=$rc (header $nh cells, row 7 $n7) $(cat "$tmp/out")"; fi
printf 'k\n-1\n-2\n' > "$tmp/f.csv"
"$SIM" --quiet --batch "$tmp/f.csv" > "$tmp/out" 2> /dev/null
rc=$?
if [ $rc -eq 1 ] && [ "$(head -n 1 "$tmp/out")" = "row,k,status,exit,message" ] && grep -q '^2,-2,failed,2,"suspension_sim: --set: k=-2' "$tmp/out"; then ok
else bad "every row failing: rc=$rc $(cat "$tmp/out")"; fi
# --batch=FILE, the options before and after it; the row's option after them wins
printf 't_end\n0.1\n' > "$tmp/t.csv"
if "$SIM" --t-end 5 --batch="$tmp/t.csv" --quiet > "$tmp/out" 2> "$tmp/err" && grep -q '^1,0.1,ok,0,.*,[0-9.]*,""$' "$tmp/out" &&
   [ "$(head -n 1 "$tmp/out" | tr ',' '\n' | grep -c '^t_end$')" = 1 ] &&
   [ ! -s "$tmp/err" ]; then ok
else bad "--batch=FILE: $(cat "$tmp/out" "$tmp/err")"; fi

# ---- hostile files and uses: exit 2, one message, nothing on stdout, nothing run
hostile() {   # hostile "what" 'message pattern' file-content-or-NONE [SIM OPTIONS...]
    local what=$1 pat=$2 content=$3
    shift 3
    rm -f "$tmp/h.csv"
    [ "$content" = NONE ] || printf '%b' "$content" > "$tmp/h.csv"
    local args=("$@") sim; sim=$(realpath "$SIM")
    [ $# -gt 0 ] || args=(--batch h.csv)
    (cd "$tmp" && "$sim" --quiet "${args[@]}") > "$tmp/out" 2> "$tmp/err"
    local rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q -- "$pat" "$tmp/err" &&
       [ ! -e "$tmp/PWNED" ]; then ok
    else bad "$what: rc=$rc out=$(head -c 200 "$tmp/out") err=$(cat "$tmp/err")"; fi
}
hostile "no file" "--batch h.csv: cannot read: No such file" NONE
mkdir -p "$tmp/adir"
hostile "a directory" "--batch adir: cannot read" NONE --batch adir
hostile "an empty file" "h.csv: empty" ''
hostile "a header without rows" "h.csv: no rows" 'k\n'
hostile "a blank line" "h.csv:3: a blank line" 'k\n1\n\n2\n'
hostile "quotes" 'h.csv:2: column 1: "\\"1\\"" is not a number' 'k\n"1"\n'
hostile "command substitution" 'h.csv:2: column 1: "$(touch PWNED)" is not a number' 'k\n$(touch PWNED)\n'
hostile "a NUL byte" 'h.csv:2: column 1: "1\\x00z" is not a number' 'k\n1\0z\n'
hostile "a CR inside a value" 'h.csv:2: column 1: "1\\r2" is not a number' 'k\n1\r2\n'
hostile "a row of another length" "h.csv:3: 2 fields, the header has 1" 'k\n1\n2,3\n'
hostile "a value of 300 characters" "h.csv:2: column 1: a value of 300 characters" "k\n$(printf '%0300d' 1)\n"
hostile "row 0" "h.csv:3: row '0' is not a row number" 'row,k\n1,12000\n0,12000\n'
hostile "row -1" "h.csv:2: row '-1' is not a row number" 'row,k\n-1,12000\n'
hostile "row +3" "h.csv:2: row '+3' is not a row number" 'row,k\n+3,12000\n'
hostile "row 1e3" "h.csv:2: row '1e3' is not a row number" 'row,k\n1e3,12000\n'
hostile "row beyond long" "h.csv:2: row '99999999999999999999999' is not a row number" 'row,k\n99999999999999999999999,12000\n'
hostile "--batch without a value" "option --batch needs a value" NONE --batch
hostile "--batch with an empty name" "invalid value '' for --batch" NONE --batch=
printf 'k\n12000\n' > "$tmp/ok.csv"
hostile "--batch twice" "--batch given twice" NONE --batch ok.csv --batch ok.csv
hostile "--out with --batch" "option --out has no effect with --batch" NONE --out x.csv --batch ok.csv
[ ! -e "$tmp/x.csv" ] && [ ! -e "$tmp/PWNED" ] && ok || bad "a hostile batch wrote a file"
# a value that is an option (--help) or a column no tunable names: the row fails, the rest run
printf 't_end,k\n--help,12000\n0.1,12000\n' > "$tmp/hp.csv"
"$SIM" --quiet --batch "$tmp/hp.csv" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "^1,--help,12000,failed,2,.*invalid value '--help' for --t-end" "$tmp/out" && grep -q '^2,0.1,12000,ok,0,' "$tmp/out" &&
   ! grep -qi usage "$tmp/out"; then ok
else bad "--help as a value: rc=$rc $(cat "$tmp/out")"; fi
printf 'kk\n1\n' > "$tmp/u.csv"
"$SIM" --quiet --batch "$tmp/u.csv" > "$tmp/out" 2> /dev/null
if [ $? -eq 1 ] && grep -q "^1,1,failed,2,\"suspension_sim: --set kk=1: unknown tunable or input 'kk'; the tunables are: m (default 250)" "$tmp/out"; then ok
else bad "an unknown column: $(cat "$tmp/out")"; fi

# ---- sensors: each row's out.NAME columns hold the values of a run's last CSV row (a
# cart-pole pushed by its input F: rows that change the input and the end time)
CP=$BUILD/cartpole_sim
if [ -x "$CP" ] || env -u MAKEFLAGS -u MAKELEVEL "$MAKE" --no-print-directory "$CP" >/dev/null 2>&1; then
    printf 'F,t_end\n0,0.3\n2.5,0.5\n-4,0.4\n' > "$tmp/cp.csv"
    "$CP" --quiet --batch "$tmp/cp.csv" > "$tmp/cpb" 2> /dev/null
    rc=$?
    hdr=$(head -n 1 "$tmp/cpb")
    r=0
    for spec in 0:0.3 2.5:0.5 -4:0.4; do
        r=$((r + 1))
        "$CP" --quiet --set F="${spec%%:*}" --t-end "${spec#*:}" --out "$tmp/cp$r.csv" > /dev/null 2>&1
        for s in x xdot theta thetadot; do
            want=$(awk -F, -v c="out.$s" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } END { printf "%.9g", $k }' "$tmp/cp$r.csv")
            got=$(awk -F, -v c="out.$s" -v r=$((r + 1)) 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } NR == r { print $k }' "$tmp/cpb")
            if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then ok
            else bad "cartpole row $r out.$s: batch '$got', the run's last CSV row '$want' (rc $rc; $hdr)"; fi
        done
    done
else bad "cannot build $CP"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
