#!/usr/bin/env bash
# gallery.sh - what `make gallery` runs after `make run` (Andrews) and `make plots-compare`:
# the README's images in docs/img (docs/img/andrews_*.png: make run's plots of Andrews' squeezer;
# docs/img/double_pendulum_compare_*.png: the formulations side by side) and, when Chromium is
# installed, a screenshot of the animation.   scripts/gallery.sh "FORMULATION..."
# Environment: RESULTS (default results).
set -eu
cd "$(dirname "$0")/.."
RESULTS=${RESULTS:-results}
mkdir -p docs/img
scripts/plot.sh --outdir docs/img --size 720x450 --trace OF.F \
    --label "alf-trapezoid, h = 1e-5 s" "$RESULTS/andrews.csv"
csvs=()
for f in $1; do csvs+=("$RESULTS/compare/double_pendulum_$f.csv:$f"); done
scripts/plot.sh --size 720x450 --label "double pendulum, 5 s, h = 1e-3 s" \
    --compare docs/img/double_pendulum_compare "${csvs[@]}"
if command -v chromium >/dev/null; then
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=760,640 \
        --virtual-time-budget=2500 --screenshot=docs/img/andrews_anim.png \
        "file://$PWD/$RESULTS/andrews.html" >/dev/null 2>&1 && echo docs/img/andrews_anim.png
else
    echo "gallery: chromium absent (scripts/deps.sh browser), no animation screenshot"
fi
