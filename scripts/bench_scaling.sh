#!/usr/bin/env bash
# bench_scaling.sh - how the chain (models/chain.lua -D N=...) scales with N: generation and -O2
# compile time of the generated C, us per step of every formulation (generated code on its plan,
# the generic evaluator on SuiteSparse KLU side by side), the log-log slope of us/step against N,
# and us per right-hand side of baumgarte; then the Simbody peer (bench/bench_simbody.cpp): the
# chain and the parallelogram chain (models/parallelogram_chain.lua, closed loops) at N =
# SIMBODY_N, Simbody's acceleration evaluation against our baumgarte right-hand side, side by
# side in one program after a check that both give the same accelerations. Called by `make
# bench-scaling`; writes $RESULTS/scaling.txt and stdout. Not a test: timing never fails anything.
#
# Each N is generated into $BUILD/scaling/<form>/ (never generated/), compiled, and linked with
# bench/bench_generic.c in its --scaling mode (the runtime's API directly: no output cost). When
# mbgen has a --linalg option, every form it lists is measured (e.g. compact and unrolled);
# otherwise the one form mbgen writes ("compact").
#
# env (make passes them): BUILD, RESULTS, CC, CXX, RT_OBJ, RT_LIBS, GNR_CFLAGS, SCALING_N,
# SCALING_INSTR, SIMBODY_N (empty: no peer)
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
# glibc's memset and memcpy switch to rep stosb / rep movsb above 2 KB / 4 KB, and callgrind
# counts such an instruction once per byte it moves: a copy of the N = 1000 chain's 3000
# velocities counted 24 000 instructions, a vector loop's 1 500, and at N = 1000 these counts
# were 10 % of alf-explicit's step (none at N = 10), bending the slopes by 0.02-0.03. Under
# callgrind glibc keeps its vector loops at every size (its thresholds raised), which counts what
# the processor executes; the timed runs are not affected.
cg_tunables=glibc.cpu.x86_rep_stosb_threshold=1000000000:glibc.cpu.x86_rep_movsb_threshold=1000000000
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
                    GLIBC_TUNABLES=$cg_tunables valgrind --tool=callgrind --collect-atstart=no --toggle-collect=mb_sim_step \
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

# The Simbody peer: for each model and N, our model generated with mbgen's defaults (--linalg
# auto) into $dir/peer/, linked with bench/bench_simbody.cpp; its "check" lines say whether the
# accelerations agree, its "peer" line has the timings (scripts read by the report below), and
# under callgrind (SCALING_INSTR) the instructions of SIMBODY_INSTR_CALLS evaluations per side.
peer_ns=${SIMBODY_N-10 20 50 100}
peer_calls=${SIMBODY_INSTR_CALLS:-5}
cxx=${CXX:-g++}
pdir=$dir/peer
peer=$dir/peer.txt          # peer model N ours_ns spread sb_ns spread ratio spread calls_o calls_s mob constr, then form
peer_chk=$dir/peer_check.txt
peer_ins=$dir/peer_instr.txt   # model N side instructions calls
: >"$peer"; : >"$peer_chk"; : >"$peer_ins"
peer_why=
if [ -z "$peer_ns" ]; then
    peer_why="SIMBODY_N is empty"
elif ! pkg-config --exists simbody 2>/dev/null; then
    peer_why="Simbody is not installed (scripts/deps.sh simbody installs libsimbody-dev)"
elif ! command -v "$cxx" >/dev/null 2>&1; then
    peer_why="no C++ compiler $cxx (scripts/deps.sh simbody installs g++)"
else
    mkdir -p "$pdir" || exit 1
    sb_cflags=$(pkg-config --cflags simbody | sed 's/-I/-isystem /g')   # its headers warn under -Wextra
    $cxx $sb_cflags -std=c++11 -O2 -Wall -Wextra -Werror -Ibench -c bench/bench_simbody.cpp \
        -o "$pdir/bench_simbody.o" || die "cannot compile bench/bench_simbody.cpp"
    for model in chain parallelogram_chain; do
        for n in $peer_ns; do
            name=$model$n
            echo "== Simbody peer: $model N=$n: generate, compile, check, measure" >&2
            rm -f "$pdir/$name.c" "$pdir/$name.h" "$pdir/${name}_data.c"
            "$build/mbgen" "models/$model.lua" -D "N=$n" --name "$name" -o "$pdir" >"$dir/last.log" 2>&1 ||
                { cat "$dir/last.log" >&2; die "mbgen failed for $model N=$n"; }
            pform=$(grep -m 1 -o '[a-z]* form (runtime' "$pdir/$name.c" | cut -d' ' -f1)
            $cc $model_cflags -c "$pdir/$name.c" -o "$pdir/$name.o" || die "cc failed for $name.c"
            $cc $gnr_cflags -O2 -DOURS_MODEL="${name}_model" -c bench/bench_simbody_ours.c \
                -o "$pdir/ours_$name.o" || die "cannot compile bench/bench_simbody_ours.c for $name"
            $cxx "$pdir/bench_simbody.o" "$pdir/ours_$name.o" "$pdir/$name.o" $rt_obj $rt_libs \
                $(pkg-config --libs simbody) -o "$pdir/bench_$name" || die "cannot link the Simbody peer for $name"
            "$pdir/bench_$name" "$model" "$n" >"$dir/last.log" 2>&1
            rc=$?
            sed -n "s/^check /$model $n /p" "$dir/last.log" >>"$peer_chk"
            if [ "$rc" = 0 ]; then
                sed -n "s/^peer \(.*\)$/\1 ${pform:-?}/p" "$dir/last.log" >>"$peer"
            else
                cat "$dir/last.log" >&2
                echo "$model $n differ" >>"$peer"
                continue
            fi
            if [ "$instr" = 1 ]; then
                for side in ours simbody; do
                    cg=$dir/callgrind.out
                    rm -f "$cg"
                    GLIBC_TUNABLES=$cg_tunables valgrind --tool=callgrind --collect-atstart=no --toggle-collect="bs_${side}_calls" \
                        --callgrind-out-file="$cg" "$pdir/bench_$name" "$model" "$n" --instr "$side" \
                        "$peer_calls" >"$dir/last.log" 2>&1
                    ir=$(sed -n 's/^summary: *//p' "$cg" 2>/dev/null)
                    if grep -q "^instr $model $n $side" "$dir/last.log" && [ -n "$ir" ]; then
                        echo "$model $n $side $ir $peer_calls" >>"$peer_ins"
                    else
                        echo "$model $n $side fail" >>"$peer_ins"
                    fi
                done
            fi
        done
    done
fi
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
echo "## shared machine's noise, but blind to cache misses (the large unrolled forms'); glibc's memset and memcpy"
echo "## in their vector loops (GLIBC_TUNABLES: callgrind counts a rep stosb / rep movsb once per byte)"
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
     printf "baumgarte (rk4), N = 100, %s: %.1f us per right-hand side generated (goal <= 25 us), %.1f us generic on KLU\n",
         $1, $4 / 1e3 / $11, $6 / 1e3 / $16 }' "$data"
echo
echo "## The Simbody peer (bench/bench_simbody.cpp): one evaluation of the accelerations from a state"
echo
if [ -n "$peer_why" ]; then
    echo "not measured: $peer_why"
else
echo "Simbody:  $(pkg-config --modversion simbody) (Debian libsimbody-dev; its dense factorizations on $(basename "$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || echo libblas.so.3)")),"
echo "          realize(state, Stage::Acceleration) after a change of q: tree kinematics, gravity, the"
echo "          constraint multipliers, udot (what its integrators pay per right-hand side); a tree of Pin"
echo "          mobilizers, each parallelogram loop closed by two Constraint::PointInPlane (2 equations, as"
echo "          our revolute). Compiled with $cxx -O2."
echo "ours:     the baumgarte right-hand side called directly (rk4's call), the generated model with mbgen's"
echo "          defaults (--linalg auto: its form below), model code $cc -O2"
echo "timing:   process CPU time at the assembled start, median of 9 side-by-side measurements of about"
echo "          20 ms each per side; spread = (max - min) / median; ratio = Simbody / ours, median of the"
echo "          9 ratios. Models: chain N (N bodies, no constraints in Simbody's coordinates) and"
echo "          parallelogram_chain N (2N + 1 bodies, N loops, 1 degree of freedom)"
echo
echo "physics check (largest relative difference of the accelerations, Simbody against our exact"
echo "index-1 accelerations and our baumgarte right-hand side; at the start and at a moving state):"
awk '{ rel = ""; for (i = 1; i <= NF; i++) if ($i == "relative") rel = $(i + 1); sub(/:$/, "", rel); sub(/:$/, "", $3)
       v = $NF; k = $1 " " $2; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
       line[k] = line[k] sprintf("  %s %s %s", $3, rel, v) }
     END { for (i = 1; i <= nk; i++) printf "  %-22s%s\n", keys[i], line[keys[i]] }' "$peer_chk"
echo
printf '%-20s %5s %5s %6s %-8s %10s %6s %12s %6s %12s %6s\n' model N mob constr form "ours us" spread "Simbody us" spread "Simbody/ours" spread
awk 'NF >= 13 { printf "%-20s %5d %5d %6d %-8s %10.2f %5.0f%% %12.2f %5.0f%% %11.1fx %5.0f%%\n", $1, $2, $11, $12, $13, $3 / 1e3, 100 * $4, $5 / 1e3, 100 * $6, $7, 100 * $8 }
     NF < 13 { printf "%-20s %5d   (the accelerations differ: no timing, see the check above)\n", $1, $2 }' "$peer"
echo
awk "$slopes_awk"'
NF >= 13 { key = $1; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
           c = ++cnt[key]; x[key, c] = $2; o[key, c] = $3; sb[key, c] = $5; r[key, c] = $7 }
END {
    for (k = 1; k <= nk; k++) {
        key = keys[k]
        print sprintf("slope %-20s ours         ", key) slopes(key, o)
        print sprintf("slope %-20s Simbody      ", key) slopes(key, sb)
        print sprintf("slope %-20s Simbody/ours ", key) slopes(key, r)
    }
}' "$peer"
if [ -s "$peer_ins" ]; then
echo
echo "instructions per evaluation (valgrind --tool=callgrind, $peer_calls evaluations per side at the start, inside"
echo "bs_ours_calls / bs_simbody_calls): deterministic, free of the machine's noise, blind to cache misses"
echo
printf '%-20s %5s %14s %14s %12s\n' model N "ours instr" "Simbody instr" "Simbody/ours"
awk '{ key = $1 " " $2; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
       v[key, $3] = $4 == "fail" ? -1 : $4 / $5 }
     function f(x) { return x < 0 ? sprintf("%14s", "(failed)") : sprintf("%14.0f", x) }
     END { for (k = 1; k <= nk; k++) { split(keys[k], kf, " "); a = v[keys[k], "ours"]; b = v[keys[k], "simbody"]
           r = a > 0 && b > 0 ? sprintf("%11.1fx", b / a) : sprintf("%12s", "-")
           printf "%-20s %5d %s %s %s\n", kf[1], kf[2], f(a), f(b), r } }' "$peer_ins"
echo
awk "$slopes_awk"'
$4 != "fail" { key = $1 " " $3; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
               c = ++cnt[key]; x[key, c] = $2; y[key, c] = $4 / $5 }
END { for (k = 1; k <= nk; k++) { split(keys[k], kf, " ")
      print "instr slope " sprintf("%-20s %-8s", kf[1], kf[2]) slopes(keys[k], y) } }' "$peer_ins"
fi
fi
echo "(whole target: $((SECONDS - start)) s)"
} | tee "$out"
