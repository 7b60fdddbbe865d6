#!/usr/bin/env bash
# test_plot_paths.sh - the plotting scripts take any file name: a quote, a double quote, a
# backtick, a dollar or a backslash in the CSV's path, --outdir, --compare or --label never ends
# a gnuplot string early (a "run'1.csv" once overwrote the file "run") nor runs a command; a
# path that no gnuplot string can carry (a line break) is refused with a message naming it. The
# io plot: a panel per input and sensor (up to 8), else two shared panels.
# Synthetic CSVs (no simulator): scripts/plot.sh, scripts/plot_analysis.sh (bode, modes).
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0
ok() { if [ "$1" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2" >&2; fi; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }
command -v gnuplot >/dev/null || { echo "FAIL: gnuplot missing (scripts/deps.sh plots)" >&2; fail=1; finish; }
here=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# a run's CSV: the monitors and one point's coordinates
awk 'BEGIN { print "t,energy_dev,phi_norm,phid_norm,B.P.x,B.P.y"
             for (i = 0; i <= 20; i++) { t = i / 20; printf "%g,%g,%g,%g,%g,%g\n", t, 1e-9 * t, 1e-12 * (1 + t), 1e-10 * (1 + t), cos(t), sin(t) } }' > x.csv
: > x.csv.info

# the audit's reproducer: "run'1.csv" next to an unrelated file "run"
echo precious > run
cp x.csv "run'1.csv"
"$here/scripts/plot.sh" "run'1.csv" > out.txt 2> err.txt
ok $? "plot.sh run'1.csv: $(head -n 2 err.txt)"
ok "$([ "$(cat run)" = precious ] && echo 0 || echo 1)" "the file 'run' was overwritten by plot.sh run'1.csv"
for s in energy constraints trace; do
    [ -s "run'1_$s.png" ]; ok $? "run'1_$s.png written"
done
grep -qxF "./run'1_energy.png" out.txt; ok $? "plot.sh prints the PNGs it wrote ($(head -n 1 out.txt))"

# a double quote, a backtick command, a dollar and a backslash: no command runs, no stray file
for name in 'q"uote' 'tick`touch PWNED`' 'dollar$(touch PWNED)' 'back\slash' "both'\""; do
    rm -rf o; mkdir o
    cp x.csv "$name.csv"
    "$here/scripts/plot.sh" --outdir "o/$name" --label "l'a\"b\`touch PWNED\`" "$name.csv" > out.txt 2> err.txt
    ok $? "plot.sh on '$name.csv': $(head -n 2 err.txt)"
    [ -s "o/$name/${name}_energy.png" ] && [ -s "o/$name/${name}_trace.png" ]; ok $? "PNGs of '$name.csv' where expected: $(ls o/"$name" 2>&1 | tr '\n' ' ')"
    [ ! -e PWNED ] && [ ! -e o/PWNED ]; ok $? "no command ran from the name '$name' or the label"
    [ "$(ls o)" = "$name" ]; ok $? "only o/$name written: $(ls o | tr '\n' ' ')"
done

# --compare with a quote in the prefix and in the labels
"$here/scripts/plot.sh" --compare "cmp'x" "run'1.csv:it's" "x.csv:b\`touch PWNED\`" > out.txt 2> err.txt
ok $? "plot.sh --compare cmp'x: $(head -n 2 err.txt)"
[ -s "cmp'x_energy.png" ] && [ -s "cmp'x_phi.png" ] && [ -s "cmp'x_phid.png" ]; ok $? "compare PNGs written"
[ "$(cat run)" = precious ] && [ ! -e PWNED ] && [ ! -e cmp ]; ok $? "compare: nothing else written, no command ran"

# a line break: refused, naming the path, nothing written
nl=$'a\nb'
cp x.csv "$nl.csv"
"$here/scripts/plot.sh" "$nl.csv" > out.txt 2> err.txt
rc=$?
[ $rc -eq 1 ]; ok $? "a line break in the CSV's name: exit 1 (got $rc)"
grep -q "line break" err.txt && grep -qF 'a\nb' err.txt; ok $? "the message names the path: $(cat err.txt)"
[ -z "$(ls | grep '_energy.png' | grep -v -e "run'1" -e "cmp'x")" ]; ok $? "no PNG written for it"
"$here/scripts/plot.sh" --outdir "$nl" x.csv > /dev/null 2> err.txt
[ $? -eq 1 ] && [ ! -e "$nl" ] && grep -q -- "--outdir" err.txt; ok $? "a line break in --outdir: exit 1, nothing created ($(cat err.txt))"

# the io plot: each input and sensor a panel of its own scale (a 0.01 m next to 1.7 rad looked
# flat on a shared axis), up to 8; more columns share two panels (inputs, sensors). The script
# gnuplot is given is read through a stand-in that keeps it and passes it on.
mkdir gpbin
printf '#!/bin/sh\ntee -a %s | %s\n' "$tmp/gp.txt" "$(command -v gnuplot)" > gpbin/gnuplot
chmod +x gpbin/gnuplot
io_csv() {   # io_csv N: x.csv's columns, in.u and N sensors out.y1 .. (0.01 m and 1.7 rad)
    awk -v n="$1" 'BEGIN { printf "t,energy_dev,phi_norm,phid_norm,B.P.x,B.P.y,in.u"
                           for (k = 1; k <= n; k++) printf ",out.y%d", k; print ""
                           for (i = 0; i <= 20; i++) { t = i / 20; printf "%g,0,0,0,%g,%g,1", t, cos(t), sin(t)
                               for (k = 1; k <= n; k++) printf ",%g", (k % 2 ? 0.01 : 1.7) * t; print "" } }'
}
io_csv 3 > io3.csv; : > io3.csv.info
: > gp.txt; PATH=$tmp/gpbin:$PATH "$here/scripts/plot.sh" io3.csv > out.txt 2> err.txt
[ $? -eq 0 ] && [ -s io3_io.png ] && grep -q "multiplot layout 4,1" gp.txt && [ "$(grep -c "^plot .*column('out.y[0-9]')" gp.txt)" -eq 3 ]
ok $? "io plot: 1 input and 3 sensors in 4 panels ($(grep -o 'multiplot layout [0-9]*,1' gp.txt | tr '\n' ' ')$(head -n 2 err.txt))"
io_csv 8 > io8.csv; : > io8.csv.info
: > gp.txt; PATH=$tmp/gpbin:$PATH "$here/scripts/plot.sh" io8.csv > out.txt 2> err.txt
[ $? -eq 0 ] && [ -s io8_io.png ] && grep -q "multiplot layout 2,1" gp.txt
ok $? "io plot: 1 input and 8 sensors in 2 panels ($(grep -o 'multiplot layout [0-9]*,1' gp.txt | tr '\n' ' ')$(head -n 2 err.txt))"

# plot_analysis.sh: a Bode plot and a mode picture under quoted names
{ echo "freq_hz,re,im,x,magnitude,phase_deg"
  for i in 1 2 3 4 5 6; do echo "$i,0,0,0,$((10 - i)),-$((i * 10))"; done; } > "fr'q.csv"
"$here/scripts/plot_analysis.sh" bode "fr'q.csv" > out.txt 2> err.txt
ok $? "plot_analysis.sh bode fr'q.csv: $(head -n 2 err.txt)"
[ -s "fr'q_bode.png" ] && [ ! -e fr ]; ok $? "fr'q_bode.png written, nothing else"
{ echo "mode,phase,freq_hz,damping_ratio,B.x,B.y,B.vx,B.P.x,B.P.y,ground.O.x,ground.O.y"
  for ph in 0 0.25 0.5 0.75; do echo "1,$ph,1.5,0.01,0,$ph,0,1,$ph,0,0"; done; } > "mo'de.csv"
"$here/scripts/plot_analysis.sh" --outdir "o'd\`touch PWNED\`" modes "mo'de.csv" > out.txt 2> err.txt
ok $? "plot_analysis.sh modes mo'de.csv: $(head -n 2 err.txt)"
[ -s "o'd\`touch PWNED\`/mo'de_mode1.png" ] && [ ! -e PWNED ]; ok $? "mode picture written under the quoted --outdir, no command ran"
"$here/scripts/plot_analysis.sh" bode "$nl.csv" > /dev/null 2> err.txt
[ $? -eq 1 ] && grep -q "line break" err.txt; ok $? "plot_analysis.sh: a line break refused ($(cat err.txt))"
finish
