#!/usr/bin/env bash
# bench_scaling.sh - how the chain (models/chain.lua -D N=...) scales with N: generation and -O2
# compile time of the generated C, us per step of every formulation (generated code on its plan,
# the generic evaluator on SuiteSparse KLU side by side), the log-log slope of us/step against N,
# and us per right-hand side of baumgarte. Called by `make bench-scaling`; writes
# $RESULTS/scaling.txt and stdout. Not a test: timing never fails anything.
#
# Each N is generated into $BUILD/scaling/<form>/ (never generated/), compiled, and linked with
# bench/bench_generic.c in its --scaling mode (the runtime's API directly: no output cost). When
# mbgen has a --linalg option, every form it lists is measured (e.g. compact and unrolled);
# otherwise the one form mbgen writes ("compact").
#
# env (make passes them): BUILD, RESULTS, CC, RT_OBJ, RT_LIBS, GNR_CFLAGS, SCALING_N, SCALING_INSTR
set -u
build=${BUILD:-build}
res=${RESULTS:-results}
cc=${CC:-cc}
rt_obj=${RT_OBJ:?RT_OBJ: the runtime objects (make bench-scaling sets it)}
rt_libs=${RT_LIBS:?RT_LIBS: the runtime libraries (make bench-scaling sets it)}
gnr_cflags=${GNR_CFLAGS:-"-std=c99 -Wall -Wextra -Werror -Iruntime -Igenerator -I/usr/include/suitesparse"}
ns=${SCALING_N:-10 30 100 300 1000}
model_cflags="-std=c99 -Wall -Wextra -Werror -pedantic -Iruntime -O2"   # what is timed
dir=$build/scaling
out=$res/scaling.txt
mkdir -p "$dir" "$res" || exit 1
start=$SECONDS

die() { echo "bench_scaling.sh: $*" >&2; exit 1; }
[ -x "$build/mbgen" ] || die "$build/mbgen is missing (make $build/mbgen)"
[ -f "$build/generic/mb_generic.o" ] || die "$build/generic/mb_generic.o is missing"

# mbgen --linalg FORM, if this mbgen has it: each of compact and unrolled that it accepts
# (probed with --check; "auto" picks one of the two per matrix, so it is not measured apart)
linalg_opt=0
forms=compact
if "$build/mbgen" --help 2>&1 | grep -q -- '--linalg'; then
    linalg_opt=1
    forms=
    for f in compact unrolled; do
        "$build/mbgen" models/chain.lua -D N=2 --linalg "$f" --check >/dev/null 2>&1 && forms="$forms $f"
    done
    forms=${forms# }
    [ -n "$forms" ] || die "mbgen lists --linalg but accepts neither compact nor unrolled"
fi
# generated C larger than this is not compiled (gcc -O2 on 10 MB of straight-line code takes far
# longer than the whole target should); a compile that runs past the timeout is reported as such
max_c_bytes=${SCALING_MAX_C_BYTES:-6000000}
cc_timeout=${SCALING_CC_TIMEOUT:-300}

# wall and CPU (user + sys, children included) seconds of a command: "wall cpu"; the command's
# own output goes to $dir/last.log
# (status: the command's; 124 from timeout)
timed() {
    local TIMEFORMAT='%R %U %S' t rc
    t=$( { time "$@" >"$dir/last.log" 2>&1; } 2>&1 )
    rc=$?
    if [ "$rc" != 0 ]; then
        [ "$rc" = 124 ] || cat "$dir/last.log" >&2
        return "$rc"
    fi
    awk '{ printf "%.2f %.2f", $1, $2 + $3 }' <<<"$t"
}

# instructions per step under callgrind too, when valgrind is installed (SCALING_INSTR=0: not)
instr=${SCALING_INSTR:-1}
command -v valgrind >/dev/null 2>&1 || instr=0
instr_steps=100       # bench_generic.c's SCALING_SEG: the timed segment
ins=$dir/instr.txt    # form N formulation side instructions steps
: >"$ins"
data=$dir/data.txt    # form N formulation gen_ns spread gnr_ns spread ratio spread steps rhs factor solves newton
                      # workspace_bytes, then the generic side's rhs factor solves newton
gen=$dir/gen.txt      # form N mbgen_wall mbgen_cpu cc_wall cc_cpu c_bytes text_bytes
: >"$data"
: >"$gen"
load0=$(cut -d' ' -f1-3 /proc/loadavg)

# the KLU back end once, for every driver
$cc $gnr_cflags -O2 -Itools -c tools/mb_linsys_klu.c -o "$dir/mb_linsys_klu.o" || die "cannot compile tools/mb_linsys_klu.c"

for form in $forms; do
    fdir=$dir/$form
    mkdir -p "$fdir" || exit 1
    opt=()
    [ "$linalg_opt" = 1 ] && opt=(--linalg "$form")
    for n in $ns; do
        name=chain$n
        echo "== $form N=$n: generate, compile, measure" >&2
        rm -f "$fdir/$name.c" "$fdir/$name.h" "$fdir/${name}_data.c"   # a real generation each time
        g=$(timed "$build/mbgen" models/chain.lua -D "N=$n" --name "$name" "${opt[@]}" -o "$fdir") ||
            die "mbgen failed for N=$n ($form)"
        bytes=$(wc -c <"$fdir/$name.c")
        if [ "$bytes" -gt "$max_c_bytes" ]; then
            echo "$form $n $g skip skip $bytes 0 not compiled: more than SCALING_MAX_C_BYTES = $max_c_bytes bytes of C" >>"$gen"
            continue
        fi
        c=$(timed timeout "$cc_timeout" $cc $model_cflags -c "$fdir/$name.c" -o "$fdir/$name.o")
        rc=$?
        if [ "$rc" = 124 ]; then
            echo "$form $n $g skip skip $bytes 0 not compiled: gcc -O2 ran past SCALING_CC_TIMEOUT = $cc_timeout s" >>"$gen"
            continue
        fi
        [ "$rc" = 0 ] || die "cc failed for $name.c ($form)"
        $cc $model_cflags -Ievaluator -c "$fdir/${name}_data.c" -o "$fdir/${name}_data.o" || die "cc failed for ${name}_data.c"
        echo "$form $n $g $c $bytes $(size "$fdir/$name.o" | awk 'NR == 2 { print $1 }')" >>"$gen"
        mkdir -p "$fdir/$name.inc" || exit 1
        echo "B($name, $n, 1)" >"$fdir/$name.inc/bench_models.h"
        $cc $gnr_cflags -O2 -DBENCH_SIM -Itests -Itools -I"$fdir/$name.inc" bench/bench_generic.c \
            "$fdir/$name.o" "$fdir/${name}_data.o" "$dir/mb_linsys_klu.o" "$build/generic/mb_generic.o" \
            $rt_obj $rt_libs -o "$fdir/bench_$name" || die "cannot link the driver for $name"
        "$fdir/bench_$name" --scaling | sed -n "s/^scaling /$form /p" >>"$data" || die "the driver for $name failed"
        # instructions per step (callgrind, inside mb_sim_step only: no set-up), the same first
        # SCALING_SEG steps as the timed segments; deterministic, so its slopes carry no noise
        if [ "$instr" = 1 ]; then
            for f in baumgarte canonical alf-explicit alf-trapezoid; do
                for side in generated generic; do
                    cg=$dir/callgrind.out
                    rm -f "$cg"
                    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=mb_sim_step \
                        --callgrind-out-file="$cg" "$fdir/bench_$name" --run "$name" "$f" "$side" \
                        "$instr_steps" >"$dir/last.log" 2>&1
                    ir=$(sed -n 's/^summary: *//p' "$cg" 2>/dev/null)
                    if grep -q ', status 0$' "$dir/last.log" && [ -n "$ir" ]; then
                        echo "$form $n $f $side $ir $instr_steps" >>"$ins"
                    else
                        echo "$form $n $f $side fail" >>"$ins"
                    fi
                done
            done
        fi
    done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

{
echo "# make bench-scaling: the chain (models/chain.lua -D N=...), scripts/bench_scaling.sh"
echo "machine:  $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) cores, shared with other jobs (load average $load0 at the start, $load1 at the end)"
echo "compiler: $($cc --version | head -n 1); model code timed with: $cc $model_cflags -c"
if [ "$linalg_opt" = 1 ]; then
    echo "mbgen:    --linalg $(tr ' ' '|' <<<"$forms"): every form measured (compact: index arrays and the loop kernels"
    echo "          of runtime/mb_sparse.c; unrolled: straight-line factorizations and solves in <name>.c)"
else
    echo "mbgen:    no --linalg option: the one form it writes (compact: the plan, runtime/mb_sparse.c's kernels)"
fi
echo "runs:     fixed step h = 1e-3 s, rk4 for baumgarte/canonical/alf-explicit, trapezoid for alf-trapezoid,"
echo "          mb_params_default's parameters; whole segments of 100 steps (the same t = 0 .. 0.1 s of motion at"
echo "          every N) from the assembled start, as many as make about 0.2 s of the generic side per measurement;"
echo "          the thread's CPU time, median of 9 side-by-side measurements after a warm-up; spread = (max - min)"
echo "          / median"
echo "          generated: the generated model on its plan; generic: the generic evaluator on SuiteSparse KLU"
echo
echo "## Generation and compilation, one run each (s: wall / CPU)"
echo
printf '%-9s %6s %16s %16s %12s %12s\n' form N "mbgen wall/cpu" "cc -O2 wall/cpu" ".c bytes" "text bytes"
awk '$5 != "skip" { printf "%-9s %6d %7.2f / %6.2f %7.2f / %6.2f %12d %12d\n", $1, $2, $3, $4, $5, $6, $7, $8 }
     $5 == "skip" { r = ""; for (i = 9; i <= NF; i++) r = r " " $i
                    printf "%-9s %6d %7.2f / %6.2f %16s %12d %12s  (%s)\n", $1, $2, $3, $4, "-", $7, "-", substr(r, 2) }' "$gen"
echo
echo "## us per step, generated on its plan (spread) and generic on KLU, generic / generated"
echo
printf '%-9s %-14s %6s %10s %6s %10s %6s %8s %8s\n' form formulation N "gen us" spread "gnr us" spread "gnr/gen" "steps"
awk 'NF >= 15 { printf "%-9s %-14s %6d %10.1f %5.0f%% %10.1f %5.0f%% %7.2fx %8d\n", $1, $3, $2, $4 / 1e3, 100 * $5, $6 / 1e3, 100 * $7, $8, $10 }
     NF < 15 { printf "%-9s %-14s %6d   (%s)\n", $1, $3, $2, $4 }' "$data"
# log-log slopes of y[key, 1..cnt[key]] against x[key, ...] (awk globals): between consecutive
# N, then the least-squares slope over all ("overall")
slopes_awk='
function ls(key, y,    i, lx, ly, sx, sy, sxx, sxy, m, d) {
    m = cnt[key]; sx = sy = sxx = sxy = 0
    for (i = 1; i <= m; i++) { lx = log(x[key, i]); ly = log(y[key, i]); sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly }
    d = m * sxx - sx * sx
    return d != 0 ? (m * sxy - sx * sy) / d : 0
}
function slopes(key, y,    i, s) {
    s = ""
    for (i = 2; i <= cnt[key]; i++)
        s = s sprintf("  %d-%d %.2f", x[key, i - 1], x[key, i], log(y[key, i] / y[key, i - 1]) / log(x[key, i] / x[key, i - 1]))
    if (cnt[key] >= 2) s = s sprintf("  overall %.2f", ls(key, y))
    return s
}'
echo
echo "## log-log slope of us/step against N (n = 3N): between consecutive N, and least squares over all"
echo
awk "$slopes_awk"'
NF >= 15 { key = $1 " " $3; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
           c = ++cnt[key]; x[key, c] = $2; g[key, c] = $4; h[key, c] = $6 }
END {
    for (k = 1; k <= nk; k++) {
        key = keys[k]; split(key, kf, " ")
        print sprintf("%-9s %-14s generated", kf[1], kf[2]) slopes(key, g)
        print sprintf("%-9s %-14s generic  ", kf[1], kf[2]) slopes(key, h)
    }
}' "$data"
if [ -s "$ins" ]; then
echo
echo "## instructions per step (valgrind --tool=callgrind, inside mb_sim_step: the first $instr_steps steps, the"
echo "## timed segment), generated and generic, and their log-log slopes against N: deterministic, free of the"
echo "## shared machine's noise, but blind to cache misses (the large unrolled forms')"
echo
printf '%-9s %-14s %6s %14s %14s %8s\n' form formulation N "gen instr" "gnr instr" "gnr/gen"
awk '{ key = $1 " " $3 " " $2; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
       if ($5 == "fail") v[key, $4] = -1; else v[key, $4] = $5 / $6 }
     function f(x) { return x < 0 ? sprintf("%14s", "(failed)") : sprintf("%14.0f", x) }
     END { for (k = 1; k <= nk; k++) { split(keys[k], kf, " "); a = v[keys[k], "generated"]; b = v[keys[k], "generic"]
           r = a > 0 && b > 0 ? sprintf("%7.2fx", b / a) : sprintf("%8s", "-")
           printf "%-9s %-14s %6d %s %s %s\n", kf[1], kf[2], kf[3], f(a), f(b), r } }' "$ins"
echo
awk "$slopes_awk"'
$5 != "fail" { key = $1 " " $3 " " $4; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
               c = ++cnt[key]; x[key, c] = $2; y[key, c] = $5 / $6 }
END {
    for (k = 1; k <= nk; k++) {
        key = keys[k]; split(key, kf, " ")
        print "instr slope " sprintf("%-9s %-14s %-9s", kf[1], kf[2], kf[3]) slopes(key, y)
    }
}' "$ins"
fi
echo
echo "## work per step (runtime monitor: generated side; the generic side's where it differs by more than"
echo "## 0.5 %), workspace, and us per right-hand side (step time / right-hand sides per step)"
echo
printf '%-9s %-14s %6s %8s %8s %8s %8s %10s %10s %10s\n' form formulation N rhs factor solves newton "us/rhs gen" "us/rhs gnr" "work B"
awk 'function differ(a, b) { d = a - b; if (d < 0) d = -d; return d > 0.005 * (a > b ? a : b) }
     NF >= 15 { r = sprintf("%10s %10s", "-", "-"); if ($11 > 0 && $16 > 0) r = sprintf("%10.2f %10.2f", $4 / 1e3 / $11, $6 / 1e3 / $16);
     g = ""; if (NF >= 19 && (differ($11, $16) || differ($12, $17) || differ($13, $18) || differ($14, $19)))
         g = sprintf("   generic: %.2f %.2f %.2f %.2f", $16, $17, $18, $19);
     printf "%-9s %-14s %6d %8.2f %8.2f %8.2f %8.2f %s %10d%s\n", $1, $3, $2, $11, $12, $13, $14, r, $15, g }' "$data"
echo
awk '$3 == "baumgarte" && $2 == 100 && NF >= 15 && $11 > 0 {
     printf "baumgarte (rk4), N = 100, %s: %.1f us per right-hand side generated (goal <= 25 us; Simbody'"'"'s O(N)\n", $1, $4 / 1e3 / $11
     printf "  recursive dynamics: 120-200 us for the same accelerations on this machine class), %.1f us generic on KLU\n", $6 / 1e3 / $16 }' "$data"
echo "(whole target: $((SECONDS - start)) s)"
} | tee "$out"
