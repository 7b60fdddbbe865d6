#!/usr/bin/env bash
# sweep_gather.sh - the gather step of a parameter sweep (docs/sweeps.md): DIR/summary.csv from
# the rows' results (DIR/runs/N.*) and DIR/plot.png, one summary quantity against one column.
# Run by scripts/sweep.sh after GNU parallel, and as the dependent job after the Slurm array.
#
# Usage: scripts/sweep_gather.sh DIR [X [Y]]
#   X  the column to plot along (default: the first column of params.csv)
#   Y  the summary quantity (default: max_energy_dev; any field of the simulator's summary line)
# summary.csv: row, the columns of params.csv, status (ok | error: the run reported a fault |
# failed: the simulator refused the row, e.g. a value breaking a rule | missing: not run yet),
# exit, the summary line's fields, message (the first line on stderr of a row that did not
# succeed). Prints one line per row that did not succeed, with its parameters. Exit status: 0
# when every row succeeded, 1 otherwise (summary.csv and the plot are written either way).
set -u
dir=$1
X=${2:-} Y=${3:-max_energy_dev}
[ -f "$dir/params.csv" ] && [ -x "$dir/mb_sweep" ] || { echo "sweep_gather: $dir is not a sweep directory" >&2; exit 2; }
hdr=$(head -n 1 "$dir/params.csv")
[ -n "$X" ] || X=${hdr%%,*}
# summary.csv and a line per row that did not succeed (tools/mb_sweep_main.c: one process for
# every row); "ROWS OK" on stdout
read -r n nok < <("$dir/mb_sweep" gather "$dir") && [ -n "${nok:-}" ] || exit 2
bad=$(( nok < n ? 1 : 0 ))

# the plot: Y against X over the rows that succeeded (gnuplot; skipped with a note without it).
# An earlier sweep's plot.png is removed first: a plot that is there is this gather's.
. "$(dirname "$0")/gp_quote.sh"
rm -f "$dir/plot.png" "$dir/plot.dat" "$dir/plot.keys"
plot() {
    local xi yi
    if [ "$nok" -eq 0 ]; then echo "sweep: no plot: no row succeeded" >&2; return 0; fi
    xi=$(head -n 1 "$dir/summary.csv" | tr , '\n' | grep -nx -- "$X" | cut -d: -f1 | head -n 1)
    yi=$(head -n 1 "$dir/summary.csv" | tr , '\n' | grep -nx -- "$Y" | cut -d: -f1 | head -n 1)
    if [ -z "$xi" ]; then
        echo "sweep: no plot: SWEEP_X=$X is not a column of summary.csv" >&2; return 0
    fi
    if [ -z "$yi" ]; then
        echo "sweep: no plot: SWEEP_Y=$Y is not a column of summary.csv (a field of the simulator's summary line)" >&2; return 0
    fi
    # one series per combination of the other parameter columns (2 .. ncol + 1 of summary.csv)
    local ncol; ncol=$(printf '%s\n' "$hdr" | awk -F, '{ print NF }')
    # (each point "series x y", one sort for all of them: a sweep of 100000 rows takes a second)
    awk -F, -v x="$xi" -v y="$yi" -v nc="$ncol" '
        NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
        $(nc + 2) == "ok" && $x + 0 == $x && $y + 0 == $y {
            k = ""; for (i = 2; i <= nc + 1; i++) if (i != x) k = k (k == "" ? "" : ",") h[i] "=" $i
            if (!(k in seen)) { seen[k] = ++nk; keys[nk] = k }
            print seen[k], $x, $y }
        END { for (j = 1; j <= nk; j++) printf "%s%s", (j > 1 ? " " : ""), keys[j] > "/dev/stderr" }' \
        "$dir/summary.csv" 2> "$dir/plot.keys" | LC_ALL=C sort -k1,1n -k2,2g |
        awk '$1 != s && NR > 1 { printf "\n\n" } { print $2, $3; s = $1 } END { if (NR) printf "\n\n" }' > "$dir/plot.dat"
    if [ ! -s "$dir/plot.dat" ]; then echo "sweep: no plot: no successful row with numbers in $X and $Y" >&2; return 0; fi
    if ! command -v gnuplot >/dev/null; then echo "sweep: no plot: gnuplot missing (scripts/deps.sh sweep)" >&2; return 0; fi
    local name; name=$(basename "$dir")
    # every path and name a single-quoted gnuplot literal (scripts/gp_quote.sh: nothing expands)
    gnuplot <<GP 2>"$dir/.gnuplot.err" || { echo "sweep: gnuplot failed: $(head -n 3 "$dir/.gnuplot.err")" >&2; rm -f "$dir/plot.png"; return 0; }
set terminal pngcairo size 800,500 noenhanced
set output $(gp_str "$dir/plot.png")
set title $(gp_str "${name#sweep_}: $Y against $X")
set xlabel $(gp_str "$X")
set ylabel $(gp_str "$Y")
set grid
# tick labels with the digits that tell ticks apart: a quantity that varies in its 5th digit
# (max_energy_dev from 2.2531e-5 to 2.2555e-5) showed 0.00002255 twice with the default format;
# %g with 6 significant digits, more when the axis spans less than 1e-4 of its magnitude
digits(lo, hi) = (hi > lo) ? int(ceil(log10((abs(lo) > abs(hi) ? abs(lo) : abs(hi)) / (hi - lo)))) + 2 : 6
fmt(lo, hi) = sprintf("%%.%dg", digits(lo, hi) < 6 ? 6 : digits(lo, hi) > 15 ? 15 : digits(lo, hi))
stats $(gp_str "$dir/plot.dat") using 1 nooutput
set format x fmt(STATS_min, STATS_max)
stats $(gp_str "$dir/plot.dat") using 2 nooutput
set format y fmt(STATS_min, STATS_max)
keys = $(gp_str "$(cat "$dir/plot.keys")")
set key outside right
if (strlen(keys) == 0) plot $(gp_str "$dir/plot.dat") using 1:2 with linespoints pt 7 notitle; \
else plot for [i = 1:words(keys)] $(gp_str "$dir/plot.dat") index (i - 1) using 1:2 with linespoints pt 7 title word(keys, i)
GP
    rm -f "$dir/.gnuplot.err" "$dir/plot.keys"
}
plot
shown="$dir/summary.csv"
[ -s "$dir/plot.png" ] && shown+=", $dir/plot.png ($Y against $X)"
echo "sweep: $n rows, $nok ok: $shown" >&2
exit $bad
