#!/usr/bin/env bash
# test_python.sh - the Python module mbsim (python/mbsim, docs/python.md): the pytest suite
# tests/python/ on the package as make python copies it to $BUILD/python, with the models' shared
# libraries cached in $BUILD/python-cache (keyed by content: a change rebuilds). Needs
# python3-numpy and python3-pytest (scripts/deps.sh python); the interpreter is $PYTHON, else the
# first of python3 and /usr/bin/python3 that imports both. Prints pytest's report and
# "N passed, N failed" from its summary; exits non-zero when a test fails or pytest cannot run.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
py=${PYTHON:-}
if [ -z "$py" ]; then
    for c in python3 /usr/bin/python3; do
        if "$c" -c 'import numpy, pytest' 2>/dev/null; then py=$c; break; fi
    done
fi
if [ -z "$py" ]; then
    echo "test_python.sh: no python3 with numpy and pytest (scripts/deps.sh python installs them)"
    echo "0 passed, 1 failed"; exit 1
fi
if [ ! -f "$BUILD/python/mbsim/__init__.py" ]; then
    echo "test_python.sh: $BUILD/python/mbsim missing (make python)"
    echo "0 passed, 1 failed"; exit 1
fi
case $BUILD in /*) abuild=$BUILD ;; *) abuild=$(pwd)/$BUILD ;; esac
out=$(PYTHONPATH="$abuild/python" MBSIM_CACHE="$abuild/python-cache" BUILD="$abuild" \
      PYTHONDONTWRITEBYTECODE=1 "$py" -m pytest -q -p no:cacheprovider tests/python 2>&1)
rc=$?
printf '%s\n' "$out"
line=$(printf '%s\n' "$out" | grep -E '^(=+ )?[0-9]+ (passed|failed|errors?)' | tail -n 1)
passed=$(printf '%s\n' "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || true)
failed=$(printf '%s\n' "$line" | grep -oE '[0-9]+ (failed|errors?)' | awk '{ s += $1 } END { print s + 0 }')
passed=${passed:-0}; failed=${failed:-0}
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
