#!/usr/bin/env bash
# deps.sh - install the Debian packages this project needs that are missing.
# Usage: scripts/deps.sh [core|plots|browser|mcu|fuzz|tools|metis|bench|sweep|slurm]...   (default: core)
# Says what it installs; does nothing when everything is present.
set -eu
want=()
for group in "${@:-core}"; do
    case "$group" in
        core)  want+=(make gcc pkg-config liblua5.4-dev liblapacke-dev libsuitesparse-dev) ;;
        plots) want+=(gnuplot-nox libxml2-utils) ;;
        browser) want+=(chromium) ;;   # optional: headless screenshots of the animation
        mcu)   want+=(gcc-arm-none-eabi libnewlib-arm-none-eabi picolibc-arm-none-eabi qemu-system-arm) ;;
        fuzz)  want+=(clang libclang-rt-14-dev) ;;
        tools) want+=(valgrind) ;;
        metis) want+=(libmetis-dev) ;;   # optional: nested dissection, make bench-ordering only
        bench) want+=(libsundials-dev) ;;   # optional: the IDA baseline of make bench-wp only
        sweep) want+=(parallel gnuplot-nox) ;;   # make sweep: GNU parallel, the plot
        slurm) want+=(slurm-wlm munge) ;;   # make sweep SWEEP_ENGINE=slurm on this machine, make test-slurm
        *) echo "deps.sh: unknown group '$group'" >&2; exit 2 ;;
    esac
done
missing=()
for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps.sh: installing missing Debian packages: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
