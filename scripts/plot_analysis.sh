#!/usr/bin/env bash
# plot_analysis.sh - PNG plots of the analyses' CSVs with gnuplot (Debian: gnuplot-nox), as
# scripts/plot.sh does for dynamic runs (docs/analyses.md, "Plots").
#   modes: one picture per mode of a `--analysis modal` CSV: the mechanism (every body drawn as
#          a star from its CoM to its named points) at all the mode's frames in grey, at phase 0
#          in blue and at phase 1/2 in red, the ground points in black;
#   bode:  the Bode plot of a `--analysis frequency` CSV: magnitude (log-log) and phase.
set -eu

usage() {
    cat <<'EOF'
usage: scripts/plot_analysis.sh [options] modes MODAL.csv
       scripts/plot_analysis.sh [options] bode FREQUENCY.csv

modes: writes <base>_mode<k>.png for every mode k of the CSV (columns mode, phase)
bode:  writes <base>_bode.png (columns freq_hz, magnitude, phase_deg)
options:
  --outdir DIR   where the PNGs go (default: the CSV's directory)
  --label TEXT   added to every title
  --size WxH     image size in pixels (default 900x560; modes: 700x700)
  --help         this text
Prints the PNGs written, one a line.
exit status: 0 plots written, 1 bad input or gnuplot failed, 2 bad command line
EOF
}

die() { echo "plot_analysis.sh: $*" >&2; exit 1; }

outdir="" label="" size="" args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --help|-h) usage; exit 0 ;;
        --outdir) [ $# -ge 2 ] || { usage >&2; exit 2; }; outdir=$2; shift 2 ;;
        --label)  [ $# -ge 2 ] || { usage >&2; exit 2; }; label=$2; shift 2 ;;
        --size)   [ $# -ge 2 ] || { usage >&2; exit 2; }; size=${2/x/,}; shift 2 ;;
        -*) echo "plot_analysis.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
        *) args+=("$1"); shift ;;
    esac
done
[ ${#args[@]} -eq 2 ] || { usage >&2; exit 2; }
kind=${args[0]} csv=${args[1]}
case "$kind" in modes|bode) ;; *) echo "plot_analysis.sh: expected modes or bode, got '$kind'" >&2; exit 2 ;; esac
[ -r "$csv" ] || die "cannot read $csv"
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found; install it with: scripts/deps.sh plots"
if gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1; then
    term="pngcairo enhanced font 'sans,11' linewidth 1.5"
else
    term="png enhanced font 'sans,11'"
fi
[ -n "$outdir" ] || outdir=$(dirname "$csv")
. "$(dirname "$0")/gp_quote.sh"
gp_check_path "the CSV" "$csv"; gp_check_path "--outdir" "$outdir"
mkdir -p "$outdir"
base=$outdir/$(basename "$csv" .csv)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
has_col() { head -n 1 "$1" | tr -d '\r' | tr ',' '\n' | grep -qxF "$2"; }
# gnuplot string literals (scripts/gp_quote.sh): gs for paths, gq for titles
gs() { gp_str "$1"; }
gq() { gp_dq "$1"; }
gp_check_path "the temporary directory" "$tmp"
et() { printf '%s' "$1" | sed -e 's/[_^{}@&]/\\&/g'; }
suffix() { [ -n "$label" ] && printf ' (%s)' "$(et "$label")" || true; }

if [ "$kind" = bode ]; then
    for c in freq_hz magnitude phase_deg; do has_col "$csv" "$c" || die "$csv: no column '$c' (written by --analysis frequency?)"; done
    # rows with a magnitude (an undamped resonance leaves the fields empty)
    awk -F, 'NR > 1 && $5 != "" { print $1 "," $5 "," $6 }' "$csv" > "$tmp/frf.csv"
    [ -s "$tmp/frf.csv" ] || die "$csv: no FRF rows"
    gnuplot <<EOF || die "gnuplot failed"
set terminal $term size ${size:-900,700}
set datafile separator ','
set output $(gs "${base}_bode.png")
set multiplot layout 2,1 title $(gq "Frequency response$(suffix)")
set grid lc rgb '#dddddd'
set logscale x
set autoscale xfix
set logscale y
set format y '10^{%L}'
set ylabel 'magnitude |H|'
unset key
plot $(gs "$tmp/frf.csv") using 1:2 with lines lw 2 lc rgb '#1f77b4'
unset logscale y
set format y '%g'
set ylabel 'phase [deg]'
set xlabel 'frequency [Hz]'
plot $(gs "$tmp/frf.csv") using 1:3 with lines lw 2 lc rgb '#d62728'
unset multiplot
EOF
    echo "${base}_bode.png"
    exit 0
fi

# modes: the mechanism's segments per frame, from the header's bodies (<b>.vx) and points
# (<b>.<p>.x, .y); gnuplot data blocks: index 0 all frames, 1 phase 0, 2 phase 1/2, 3 ground
for c in mode phase freq_hz damping_ratio; do has_col "$csv" "$c" || die "$csv: no column '$c' (written by --analysis modal?)"; done
nm=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "mode") c = i; next } $c > m { m = $c } END { print m + 0 }' "$csv")
[ "$nm" -gt 0 ] || die "$csv: no mode rows"
for k in $(seq 1 "$nm"); do
    awk -F, -v K="$k" -v out="$tmp/m$k" 'NR == 1 {
            for (i = 1; i <= NF; i++) col[$i] = i
            for (i = 1; i <= NF; i++) if ($i ~ /\.vx$/) { b = substr($i, 1, length($i) - 3); nb++; body[nb] = b }
            for (i = 1; i <= NF; i++)
                if ($i ~ /^[^.]+\.[^.]+\.x$/) {
                    p = substr($i, 1, length($i) - 2); split(p, s, ".")
                    if ((p ".y") in col) { np[s[1]]++; px[s[1], np[s[1]]] = i; py[s[1], np[s[1]]] = col[p ".y"] }
                }
            next }
        $col["mode"] != K { next }
        function box(x, y) { if (!nbox++) { x0 = x1 = x; y0 = y1 = y }
            if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y }
        function draw(f) {
            for (j = 1; j <= nb; j++) { b = body[j]; cx = $col[b ".x"]; cy = $col[b ".y"]; box(cx, cy)
                if (np[b] == 0) { print cx, cy > f; print "" > f }
                for (i = 1; i <= np[b]; i++) { print cx, cy > f; print $(px[b, i]), $(py[b, i]) > f; print "" > f
                                               box($(px[b, i]), $(py[b, i])) } }
        }
        { draw(out ".all"); ph = $col["phase"] + 0
          if (ph == 0) draw(out ".p0")
          if (ph == 0.5) draw(out ".p5")
          if (!title) { title = sprintf("mode %d: %.6g Hz, damping ratio %.3g", K, $col["freq_hz"], $col["damping_ratio"])
                        for (i = 1; i <= np["ground"]; i++) { print $(px["ground", i]), $(py["ground", i]) > (out ".gnd")
                                                              box($(px["ground", i]), $(py["ground", i])) } } }
        END { print title > (out ".title")
              # a square view around everything drawn, with a margin
              sp = x1 - x0 > y1 - y0 ? x1 - x0 : y1 - y0; sp = sp > 0 ? 1.2 * sp : 1
              printf "set xrange [%.9g:%.9g]\nset yrange [%.9g:%.9g]\n", (x0 + x1 - sp) / 2, (x0 + x1 + sp) / 2,
                     (y0 + y1 - sp) / 2, (y0 + y1 + sp) / 2 > (out ".range") }' "$csv"
    touch "$tmp/m$k.p5" "$tmp/m$k.gnd"
    plots="$(gs "$tmp/m$k.all") with lines lc rgb '#c8c8c8' lw 1 title 'one cycle', $(gs "$tmp/m$k.p0") with linespoints lc rgb '#1f77b4' lw 2 pt 7 ps 0.6 title 'phase 0'"
    [ -s "$tmp/m$k.p5" ] && plots+=", $(gs "$tmp/m$k.p5") with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.6 title 'phase 1/2'"
    [ -s "$tmp/m$k.gnd" ] && plots+=", $(gs "$tmp/m$k.gnd") with points lc rgb 'black' pt 5 ps 1 title 'ground'"
    gnuplot <<EOF || die "gnuplot failed"
set terminal $term size ${size:-700,700}
set output $(gs "${base}_mode$k.png")
set title $(gq "$(et "$(cat "$tmp/m$k.title")")$(suffix)")
set size ratio -1
set grid lc rgb '#eeeeee'
set key outside bottom center horizontal
set xlabel 'x [m]'
set ylabel 'y [m]'
$(cat "$tmp/m$k.range")
plot $plots
EOF
    echo "${base}_mode$k.png"
done
