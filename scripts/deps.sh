#!/usr/bin/env bash
# deps.sh - install the Debian packages this project needs that are missing.
# Usage: scripts/deps.sh [core|plots|browser|mcu|fuzz|tools|metis|bench|simbody|sweep|slurm|python|fmu]...   (default: core)
# Says what it installs; does nothing when everything is present.
set -eu
usage() {
    cat <<'EOF'
usage: scripts/deps.sh [GROUP]...   (default: core)
Install the Debian packages of the groups named that are missing (apt-get, with sudo when not
root); says what it installs, does nothing when everything is present. Groups:
  core     make gcc pkg-config liblua5.4-dev liblapacke-dev libsuitesparse-dev (the build)
  plots    gnuplot-nox libxml2-utils (make run's plots, the animation test)
  browser  chromium (optional: headless screenshots of the animation)
  mcu      gcc-arm-none-eabi, newlib, picolibc, qemu-system-arm (make mcu-*)
  fuzz     clang libclang-rt-14-dev (make fuzz)
  tools    valgrind (make valgrind, bench-hht, bench-stiff)
  metis    libmetis-dev (optional: make bench-ordering's nested dissection)
  bench    libsundials-dev (optional: make bench-wp's IDA baseline)
  simbody  libsimbody-dev g++ (optional: make bench-scaling's Simbody peer, bench/bench_simbody.cpp)
  sweep    parallel gnuplot-nox (make sweep)
  slurm    slurm-wlm munge (make sweep SWEEP_ENGINE=slurm here, make test-slurm)
  python   python3-numpy python3-pytest (the Python module mbsim and its tests)
  fmu      zip unzip (make fmu packs the FMU, its test unpacks it as a master does)
Exit status: 0 done, 2 an unknown group, else apt-get's.
EOF
}
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
        simbody) want+=(libsimbody-dev g++) ;;   # optional: make bench-scaling's Simbody peer only
        sweep) want+=(parallel gnuplot-nox) ;;   # make sweep: GNU parallel, the plot
        slurm) want+=(slurm-wlm munge) ;;   # make sweep SWEEP_ENGINE=slurm on this machine, make test-slurm
        python) want+=(python3-numpy python3-pytest) ;;   # the mbsim module (docs/python.md), its tests
        fmu)   want+=(zip unzip) ;;   # make fmu (the archive), tests/test_fmu.c (unzip)
        -h|--help) usage; exit 0 ;;
        *) echo "deps.sh: unknown group '$group' (scripts/deps.sh --help lists them)" >&2; exit 2 ;;
    esac
done
find_missing() {
    missing=()
    for p in "${want[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
}
find_missing
[ ${#missing[@]} -eq 0 ] && exit 0
# make -j runs several of these at once (deps, plots-deps, ...): one installs at a time, and
# the others look again once it is done (apt-get fails on a held lock)
if command -v flock >/dev/null 2>&1 && { exec 9>>"${TMPDIR:-/tmp}/mb-deps.lock"; } 2>/dev/null; then
    flock 9
    find_missing
    [ ${#missing[@]} -eq 0 ] && exit 0
fi
echo "deps.sh: installing missing Debian packages: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
