#!/usr/bin/env bash
# plot.sh - PNG plots of simulator results with gnuplot (Debian: gnuplot-nox).
# One run:  energy deviation, constraint violation (log), sigma norm, a point's trajectory.
# Compare:  the same quantities for several runs in one figure each (thesis figures 11-13).
set -eu

usage() {
    cat <<'EOF'
usage: scripts/plot.sh [options] RESULTS.csv
       scripts/plot.sh --compare PREFIX RUN1.csv[:LABEL] RUN2.csv[:LABEL] ...

One run: writes next to RESULTS.csv (or into --outdir)
  <base>_energy.png       energy deviation dU = T + V - E0 - W_nc against time
  <base>_constraints.png  |Phi| and |dPhi/dt| against time, log scale
  <base>_sigma.png        |sigma| (alf formulations; skipped when the column is absent)
  <base>_trace.png        x(t), y(t) and the path y(x) of one named point
  <base>_io.png           the model's inputs (in.* columns) and sensors (out.*) against time,
                          a panel each (more than 8: one for the inputs, one for the sensors)
                          (skipped when the CSV has none)
  <base>_cams.png         each cam's normal force (C.normal columns) against time, with the
                          zero line below which a follower held by a spring would leave the
                          cam (skipped when the CSV has none)
Compare: writes PREFIX_energy.png, PREFIX_phi.png, PREFIX_phid.png with one curve per run.

options:
  --outdir DIR         where the PNGs go (default: the CSV's directory)
  --trace BODY.POINT   point for the trajectory plot, or a PARTICLE by name (default: the
                       moving point or particle whose path is longest; 'none' skips the plot)
  --label TEXT         added to every title (e.g. "alf-trapezoid, h = 1e-5 s")
  --size WxH           image size in pixels (default 900x560)
  --help               this text
exit status: 0 plots written, 1 bad input or gnuplot failed, 2 bad command line
EOF
}

die() { echo "plot.sh: $*" >&2; exit 1; }
# gnuplot string literals (scripts/gp_quote.sh): gs for paths and column names, gq for titles
. "$(dirname "$0")/gp_quote.sh"
gs() { gp_str "$1"; }
gq() { gp_dq "$1"; }

command -v gnuplot >/dev/null 2>&1 ||
    die "gnuplot not found; install it with: scripts/deps.sh plots"

# pngcairo draws antialiased text; plain png is the fallback of minimal builds.
if gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1; then
    term="pngcairo enhanced font 'sans,11' linewidth 1.5"
else
    term="png enhanced font 'sans,11'"
fi

outdir="" trace="" label="" size="900,560" compare="" runs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --help|-h) usage; exit 0 ;;
        --outdir) [ $# -ge 2 ] || { usage >&2; exit 2; }; outdir=$2; shift 2 ;;
        --trace)  [ $# -ge 2 ] || { usage >&2; exit 2; }; trace=$2; shift 2 ;;
        --label)  [ $# -ge 2 ] || { usage >&2; exit 2; }; label=$2; shift 2 ;;
        --size)   [ $# -ge 2 ] || { usage >&2; exit 2; }; size=${2/x/,}; shift 2 ;;
        --compare) [ $# -ge 2 ] || { usage >&2; exit 2; }; compare=$2; shift 2 ;;
        -*) echo "plot.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
        *) runs+=("$1"); shift ;;
    esac
done
[ ${#runs[@]} -ge 1 ] || { usage >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# every path and name that reaches the gnuplot script (quoted by gs): refused when it cannot be
for r in "${runs[@]}"; do gp_check_path "the CSV" "$r"; done
gp_check_path "--outdir" "$outdir"; gp_check_path "--compare" "$compare"
gp_check_path "--trace" "$trace"; gp_check_path "the temporary directory" "$tmp"

# Data rows only: drop the simulator's key=value summary line and comments.
clean() { grep -v -e '=' -e '^#' "$1" > "$2" || true; }
# 1 if the CSV header ($1) has column $2.
has_col() { head -n 1 "$1" | tr -d '\r' | tr ',' '\n' | grep -qxF "$2"; }
# Escape gnuplot's enhanced-text markup (_ ^ { } @ &) in names: "double_pendulum".
et() { printf '%s' "$1" | sed -e 's/[_^{}@&]/\\&/g'; }
suffix() { [ -n "$label" ] && printf ' (%s)' "$(et "$label")" || true; }

# The moving point whose path is longest (point columns are "<body>.<point>.x", a particle's
# coordinates "<particle>.x").
longest_path() {
    awk -F, 'NR == 1 {
            for (i = 1; i <= NF; i++) { name[i] = $i; col[$i] = i }
            for (i = 1; i <= NF; i++)
                # a named point, or a particle (its coordinates "P.x", "P.y": no "P.phi")
                if ((name[i] ~ /^[^.]+\.[^.]+\.x$/ && name[i] !~ /^ground\./) ||
                    (name[i] ~ /^[^.]+\.x$/ && !((substr(name[i], 1, length(name[i]) - 2) ".phi") in col))) {
                    base = substr(name[i], 1, length(name[i]) - 2)
                    if ((base ".y") in col) { xs[base] = i; ys[base] = col[base ".y"] }
                }
            next }
        NF > 1 && $0 !~ /=/ {
            for (b in xs) {
                x = $(xs[b]); y = $(ys[b])
                if (NR > 2) len[b] += sqrt((x - px[b])^2 + (y - py[b])^2)
                px[b] = x; py[b] = y
            } }
        END { best = ""; for (b in len) if (best == "" || len[b] > len[best] || (len[b] == len[best] && b < best)) best = b
              print best }' "$1"
}

common="set terminal $term size $size
set datafile separator ','
set grid lc rgb '#dddddd'
set key top left box opaque
set xlabel 'time t [s]'
set format y '%g'"

if [ -n "$compare" ]; then
    # ---------------------------------------------------------- several runs
    plots_e="" plots_p="" plots_v="" i=0
    for r in "${runs[@]}"; do
        f=${r%%:*}; l=${r#*:}; [ "$l" = "$r" ] && l=$(basename "$f" .csv)
        [ -r "$f" ] || die "cannot read $f"
        for c in t energy_dev phi_norm phid_norm; do has_col "$f" "$c" || die "$f: no column '$c'"; done
        i=$((i + 1)); clean "$f" "$tmp/run$i.csv"
        sep=""; [ $i -gt 1 ] && sep=", "
        plots_e+="$sep$(gs "$tmp/run$i.csv") using 't':(abs(column('energy_dev')) > 0 ? abs(column('energy_dev')) : NaN) with lines title $(gq "$(et "$l")")"
        plots_p+="$sep$(gs "$tmp/run$i.csv") using 't':(column('phi_norm') > 0 ? column('phi_norm') : NaN) with lines title $(gq "$(et "$l")")"
        plots_v+="$sep$(gs "$tmp/run$i.csv") using 't':(column('phid_norm') > 0 ? column('phid_norm') : NaN) with lines title $(gq "$(et "$l")")"
    done
    mkdir -p "$(dirname "$compare")"
    gnuplot <<EOF || die "gnuplot failed"
$common
set logscale y
set format y '10^{%L}'
set key bottom right box opaque
set output $(gs "${compare}_energy.png")
set title $(gq "Energy deviation |{/Symbol D}U| = |T + V - E_0 - W_{nc}|$(suffix)")
set ylabel '|{/Symbol D}U| [J]'
plot $plots_e
set output $(gs "${compare}_phi.png")
set title $(gq "Position constraint violation |{/Symbol F}(q)|$(suffix)")
set ylabel '|{/Symbol F}| [m]'
plot $plots_p
set output $(gs "${compare}_phid.png")
set title $(gq "Velocity constraint violation |{/Symbol F}_q dq/dt|$(suffix)")
set ylabel '|d{/Symbol F}/dt| [m/s]'
plot $plots_v
EOF
    for s in energy phi phid; do echo "${compare}_$s.png"; done
    exit 0
fi

# -------------------------------------------------------------- one run
[ ${#runs[@]} -eq 1 ] || { echo "plot.sh: one CSV expected (or --compare)" >&2; exit 2; }
csv=${runs[0]}
[ -r "$csv" ] || die "cannot read $csv"
for c in t energy_dev phi_norm phid_norm; do has_col "$csv" "$c" || die "$csv: no column '$c'"; done
base=$(basename "$csv" .csv)
[ -n "$outdir" ] || outdir=$(dirname "$csv")
mkdir -p "$outdir"
clean "$csv" "$tmp/data.csv"
[ "$(wc -l < "$tmp/data.csv")" -ge 3 ] || die "$csv: fewer than 2 data rows"
d="$tmp/data.csv"
# One log-scale panel of column $1; a column that is zero throughout (a model without
# constraints) gets a note instead of a curve, which a log scale cannot show.
panel_nz() {  # 1 if column $1 of the data is non-zero somewhere
    awk -F, -v c="$1" 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == c) k = i; next}
        $k + 0 != 0 {n = 1; exit} END {print n + 0}' "$d"
}
panel() {
    if [ "$(panel_nz "$1")" = 1 ]; then
        echo "plot $(gs "$d") using 't':(column($(gs "$1")) > 0 ? column($(gs "$1")) : NaN) with lines lc rgb $2"
    else
        echo "set yrange [1e-16:1]; set label 1 'zero throughout (the model has no such constraints)' at graph 0.5, 0.5 center"
        echo "unset key; plot $(gs "$d") using 't':(1e-30) with lines notitle"
        echo "unset label 1; set yrange [*:*]; set key bottom right box opaque"
    fi
}
out="$outdir/$base"
written=("${out}_energy.png")

script="$common
set output $(gs "${out}_energy.png")
set title $(gq "$(et "$base"): energy deviation {/Symbol D}U = T + V - E_0 - W_{nc}$(suffix)")
set ylabel '{/Symbol D}U [J]'
set format y '%.2te%+03T'
plot $(gs "$d") using 't':'energy_dev' with lines lc rgb '#1f77b4' title '{/Symbol D}U'
set format y '%g'
"
if [ "$(panel_nz phi_norm)" = 0 ] && [ "$(panel_nz phid_norm)" = 0 ]; then
    echo "plot.sh: $base has no constraints: no constraint plot" >&2
else
    written+=("${out}_constraints.png")
    script+="
set terminal $term size ${size%,*},$(( ${size#*,} * 5 / 4 ))
set output $(gs "${out}_constraints.png")
set key bottom right box opaque
set multiplot layout 2,1 title $(gq "$(et "$base"): constraint violation$(suffix)")
set logscale y
set format y '10^{%L}'
set title 'position constraints'
set ylabel '|{/Symbol F}(q)| [m]'
$(panel phi_norm "'#d62728' title '|{/Symbol F}|'")
set title 'velocity constraints'
set ylabel '|{/Symbol F}_q dq/dt| [m/s]'
$(panel phid_norm "'#2ca02c' title '|d{/Symbol F}/dt|'")
unset multiplot
unset logscale y
set format y '%g'
set key top left box opaque
set terminal $term size $size
"
fi
if has_col "$csv" sigma_norm && [ "$(panel_nz sigma_norm)" = 1 ]; then  # zero: no multipliers
    written+=("${out}_sigma.png")
    script+="
set output $(gs "${out}_sigma.png")
set title $(gq "$(et "$base"): norm of {/Symbol s} = {/Symbol \\362}{/Symbol l} dt (augmented Lagrangian multipliers)$(suffix)")
set ylabel '|{/Symbol s}| [N s]'
plot $(gs "$d") using 't':'sigma_norm' with lines lc rgb '#9467bd' title '|{/Symbol s}|'
"
fi
[ -n "$trace" ] || trace=$(longest_path "$csv")
if [ -n "$trace" ] && [ "$trace" != none ]; then
    has_col "$csv" "$trace.x" && has_col "$csv" "$trace.y" ||
        die "$csv: no columns '$trace.x', '$trace.y' (--trace names a point as BODY.POINT, or a particle)"
    written+=("${out}_trace.png")
    # Millimetres for small mechanisms (Andrews' crank point moves within 7 mm).
    # Equal axes for the path unless it is nearly a straight line (a flat strip says nothing).
    read -r big flat < <(awk -F, -v cx="$trace.x" -v cy="$trace.y" '
        NR == 1 {for (i = 1; i <= NF; i++) {if ($i == cx) a = i; if ($i == cy) b = i}; next}
        NR == 2 {x0 = x1 = $a; y0 = y1 = $b}
        {v = $a < 0 ? -$a : $a; if (v > m) m = v; v = $b < 0 ? -$b : $b; if (v > m) m = v
         if ($a < x0) x0 = $a; if ($a > x1) x1 = $a; if ($b < y0) y0 = $b; if ($b > y1) y1 = $b}
        END {w = x1 - x0; h = y1 - y0; print (m >= 0.1), (w < 0.05 * h || h < 0.05 * w)}' "$d")
    if [ "$big" = 1 ]; then sc=1 unit=m; else sc=1000 unit=mm; fi
    ratio="set size ratio -1"
    [ "$flat" = 1 ] && ratio="set size noratio"
    script+="
set output $(gs "${out}_trace.png")
set multiplot layout 1,2 title $(gq "$(et "$base"): trajectory of point $(et "$trace")$(suffix)")
set title 'coordinates against time'
set ylabel 'position [$unit]'
set key top center horizontal box opaque
set offsets 0, 0, graph 0.18, 0
plot $(gs "$d") using 't':(column($(gs "$trace.x")) * $sc) with lines lc rgb '#1f77b4' title $(gq "x_{$(et "$trace")}"), \\
     '' using 't':(column($(gs "$trace.y")) * $sc) with lines lc rgb '#d62728' title $(gq "y_{$(et "$trace")}")
set title 'path in the plane'
set xlabel 'x [$unit]'
set ylabel 'y [$unit]'
$ratio
set offsets 0, 0, 0, 0
set key top right box opaque
plot $(gs "$d") using (column($(gs "$trace.x")) * $sc):(column($(gs "$trace.y")) * $sc) with lines lc rgb '#e0457b' title $(gq "$(et "$trace")")
unset multiplot
"
fi
# The model's inputs and sensors (columns in.<u>, out.<y>: docs/cli.md): a panel each, on its own
# scale (a cart's 0.01 m next to an angle's 1.7 rad looked flat on a shared axis); more than
# IO_PANELS columns: one panel for the inputs and one for the sensors.
IO_PANELS=8
io_cols() { head -n 1 "$csv" | tr -d '\r' | tr ',' '\n' | grep -E "^$1\\." || true; }
ins=$(io_cols in) outs=$(io_cols out)
if [ -n "$ins$outs" ]; then
    written+=("${out}_io.png")
    io_plot() {  # io_plot COLUMNS...: one curve per column, titled by its name
        local c sep="" p="plot"
        for c in "$@"; do
            p+="$sep $(gs "$d") using 't':(column($(gs "$c"))) with lines title $(gq "$(et "$c")")"
            sep=","
        done
        echo "$p"
    }
    # shellcheck disable=SC2086
    ncol=$(printf '%s\n' $ins $outs | grep -c .)
    if [ "$ncol" -le "$IO_PANELS" ]; then rows=$ncol
    else rows=0; [ -n "$ins" ] && rows=$((rows + 1)); [ -n "$outs" ] && rows=$((rows + 1)); fi
    h=$(( ${size#*,} * 5 / 4 )); [ $(( ${size#*,} * rows * 9 / 20 )) -le "$h" ] || h=$(( ${size#*,} * rows * 9 / 20 ))
    script+="
set terminal $term size ${size%,*},$h
set output $(gs "${out}_io.png")
set size noratio
set offsets 0, 0, 0, 0
set xlabel 'time t [s]'
set key top right box opaque
set multiplot layout $rows,1 title $(gq "$(et "$base"): inputs u and sensors y$(suffix)")
"
    if [ "$ncol" -le "$IO_PANELS" ]; then
        # (the curve's key names it; the time axis labelled once, under the last panel)
        script+="unset title
set xlabel ''
set lmargin 12
"
        k=0
        for c in $ins $outs; do
            k=$((k + 1))
            [ "$k" -eq "$ncol" ] && script+="set xlabel 'time t [s]'
"
            script+="set ylabel $(gq "$(et "${c#*.}")")
$(io_plot "$c")
"
        done
    else
        # shellcheck disable=SC2086
        [ -n "$ins" ] && script+="set title 'inputs u (in.*)'
set ylabel 'u'
$(io_plot $ins)
"
        # shellcheck disable=SC2086
        [ -n "$outs" ] && script+="set title 'sensors y (out.*)'
set ylabel 'y'
$(io_plot $outs)
"
    fi
    script+="unset multiplot
unset lmargin
set terminal $term size $size
"
fi
# The cams' normal forces (columns <cam>.normal: docs/analyses.md), one curve each, and zero.
cams=$(head -n 1 "$csv" | tr -d '\r' | tr ',' '\n' | grep -E '^[^.]+\.normal$' || true)
if [ -n "$cams" ]; then
    written+=("${out}_cams.png")
    p="plot 0 with lines lc rgb '#888888' dt 2 notitle"
    for c in $cams; do
        p+=", $(gs "$d") using 't':(column($(gs "$c"))) with lines lw 1.5 title $(gq "$(et "$c")")"
    done
    script+="
set output $(gs "${out}_cams.png")
set size noratio
set offsets 0, 0, 0, 0
set title $(gq "$(et "$base"): cam normal forces (the follower leaves where one is negative)$(suffix)")
set xlabel 'time t [s]'
set ylabel 'normal force [N]'
set key top right box opaque
$p
"
fi
# gnuplot warns about flat curves (a coordinate that never changes): not worth a word.
rc=0
printf '%s\n' "$script" | gnuplot 2> "$tmp/gnuplot.err" || rc=$?
grep -v -e '^Warning: empty [xy] range' -e '^ *$' "$tmp/gnuplot.err" >&2 || true
[ "$rc" -eq 0 ] || die "gnuplot failed"
printf '%s\n' "${written[@]}"
