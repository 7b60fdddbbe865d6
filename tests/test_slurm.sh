#!/usr/bin/env bash
# test_slurm.sh - make sweep's Slurm engine (SWEEP_ENGINE=slurm, docs/sweeps.md) on a Slurm
# brought up for the test on this machine: munged, slurmctld and slurmd (Debian munge and
# slurm-wlm) with their configuration, state and sockets in a temporary directory and their own
# ports, started here and stopped at the end (only the processes this test started, by pid).
# Needs root (slurmd runs jobs as their user and is started as root); bounded: every wait is
# limited and the whole test stops after TEST_SLURM_TIMEOUT seconds (default 180).
# Checks:
#  - a sweep of 5 rows in chunks of 2 runs as an array of 3 tasks and a dependent gather job:
#    summary.csv has every row, the failed row (a value breaking a rule) is reported with its
#    parameters and the rest completes; the plot exists;
#  - a re-run with that row fixed runs only it (an array of 1 task) and ends with all rows ok;
#  - the results equal those of the GNU parallel engine on the same table.
# Not in make test (it needs root and starts daemons): make test-slurm, run by .ci/run. The job
# scripts themselves are also checked without Slurm by tests/test_sweep.sh (a stand-in sbatch).
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
BUILD=${BUILD:-build}
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }
SIM=$BUILD/suspension_sim
[ -x "$SIM" ] || { bad "$SIM is not built (make $SIM)"; finish; }
[ "$(id -u)" -eq 0 ] || { bad "needs root (slurmd), run as root or use a real cluster"; finish; }
for c in munged slurmctld slurmd sbatch sinfo squeue; do
    command -v $c >/dev/null || { bad "$c missing: scripts/deps.sh slurm"; finish; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_slurm.XXXXXX")
chmod 755 "$tmp"
pids=()
stop() {
    [ -n "${SLURM_CONF:-}" ] && scancel --quiet -u root >/dev/null 2>&1
    for f in "$tmp"/slurmd.pid "$tmp"/slurmctld.pid "$tmp"/munge/munged.pid; do
        [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
    done
    sleep 1
    for f in "$tmp"/slurmd.pid "$tmp"/slurmctld.pid "$tmp"/munge/munged.pid; do
        [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap stop EXIT
# the whole test is time-bounded: a watchdog ends it (the trap stops the daemons)
limit=${TEST_SLURM_TIMEOUT:-180}
# (its output goes nowhere: an open pipe would keep tests/run.sh waiting for it)
( sleep "$limit" && kill -TERM $$ ) >/dev/null 2>&1 &
watchdog=$!
trap 'pkill -P $watchdog sleep 2>/dev/null; kill $watchdog 2>/dev/null; stop' EXIT
trap 'echo "FAIL: test_slurm.sh: over ${limit}s, stopped" >&2; echo "$pass passed, $((fail + 1)) failed"; exit 1' TERM

# ---- munge: its own key, socket and files
mkdir -p "$tmp/munge" && chmod 700 "$tmp/munge"
head -c 1024 /dev/urandom > "$tmp/munge/munge.key" && chmod 400 "$tmp/munge/munge.key"
sock=$tmp/munge/munge.sock
munged --force --socket="$sock" --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/munged.pid" \
    --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" 2>"$tmp/munged.err" ||
    { bad "munged did not start: $(cat "$tmp/munged.err" "$tmp/munge/munged.log" 2>/dev/null | tail -3)"; finish; }
ok

# ---- slurm: one node (this machine), one partition, ports away from the defaults
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$tmp/state" "$tmp/spool"
export SLURM_CONF=$tmp/slurm.conf
cat > "$SLURM_CONF" <<CONF
ClusterName=mbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${TEST_SLURM_PORT:-16817}
SlurmdPort=$(( ${TEST_SLURM_PORT:-16817} + 1 ))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=mbtest Nodes=$host Default=YES MaxTime=10 State=UP
CONF
slurmctld -f "$SLURM_CONF" 2>"$tmp/ctld.err" || { bad "slurmctld did not start: $(tail -3 "$tmp/ctld.err" "$tmp/slurmctld.log" 2>/dev/null)"; finish; }
slurmd -f "$SLURM_CONF" 2>"$tmp/slurmd.err" || { bad "slurmd did not start: $(tail -3 "$tmp/slurmd.err" "$tmp/slurmd.log" 2>/dev/null)"; finish; }
up=0
for _ in $(seq 1 60); do
    st=$(sinfo -h -o %T 2>/dev/null | head -n 1)
    case "$st" in idle*|mixed*|allocated*) up=1; break ;; esac
    sleep 1
done
if [ $up -eq 1 ]; then ok
else bad "the node did not come up (sinfo: '$st'): $(tail -5 "$tmp/slurmctld.log" "$tmp/slurmd.log" 2>/dev/null)"; finish; fi

# ---- a sweep through the array: 5 rows in chunks of 2 (3 tasks), row 3 breaks a rule
printf 'k,c,t_end\n12000,500,0.3\n16000,500,0.3\n-5,500,0.3\n24000,2000,0.3\n28000,2000,0.3\n' > "$tmp/p.csv"
out=$tmp/sweep_slurm
SWEEP_ENGINE=slurm SWEEP_CHUNK=2 scripts/sweep.sh "$SIM" "$tmp/p.csv" "$out" > "$tmp/o" 2> "$tmp/e"
rc=$?
if [ $rc -eq 1 ] && [ -f "$out/summary.csv" ] && [ "$(wc -l < "$out/summary.csv")" -eq 6 ]; then ok
else bad "slurm sweep: rc=$rc $(cat "$tmp/e") $(ls "$out/slurm" 2>/dev/null)"; fi
ntask=$(ls "$out"/slurm/task_*.log 2>/dev/null | wc -l)
if [ "$ntask" -eq 3 ]; then ok; else bad "expected 3 array task logs, found $ntask"; fi
if grep -q 'row 3 (k=-5 c=500 t_end=0.3) failed (exit 2).*spring "susp" k >= 0' "$tmp/e"; then ok
else bad "the failed row is not reported with its parameters: $(cat "$tmp/e")"; fi
if [ "$(grep -c ',ok,' "$out/summary.csv")" -eq 4 ] && grep -q '^3,-5,500,0.3,failed,2,' "$out/summary.csv"; then ok
else bad "summary.csv: $(cut -c1-80 "$out/summary.csv")"; fi
if [ -s "$out/plot.png" ]; then ok; else bad "no plot.png"; fi

# ---- the re-run: row 3 fixed, only it runs (one task)
printf 'k,c,t_end\n12000,500,0.3\n16000,500,0.3\n20000,500,0.3\n24000,2000,0.3\n28000,2000,0.3\n' > "$tmp/p.csv"
rm -f "$out"/slurm/task_*.log
SWEEP_ENGINE=slurm SWEEP_CHUNK=2 scripts/sweep.sh "$SIM" "$tmp/p.csv" "$out" > "$tmp/o" 2> "$tmp/e"
rc=$?
ntask=$(ls "$out"/slurm/task_*.log 2>/dev/null | wc -l)
if [ $rc -eq 0 ] && grep -q ': 1 to run (4 kept' "$tmp/e" && [ "$ntask" -eq 1 ] &&
   [ "$(grep -c ',ok,' "$out/summary.csv")" -eq 5 ]; then ok
else bad "re-run: rc=$rc tasks=$ntask $(cat "$tmp/e")"; fi

# ---- the same table through GNU parallel gives the same results (wall_s aside)
if command -v parallel >/dev/null; then
    scripts/sweep.sh "$SIM" "$tmp/p.csv" "$tmp/sweep_par" > /dev/null 2>&1
    strip() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") w = i } { $w = ""; print }' OFS=, "$1"; }
    if [ -f "$tmp/sweep_par/summary.csv" ] && [ "$(strip "$out/summary.csv")" = "$(strip "$tmp/sweep_par/summary.csv")" ]; then ok
    else bad "slurm and parallel summaries differ"; fi
fi
finish
