#!/usr/bin/env bash
# measure.sh - the figures of docs/embedding.md: flash, RAM, stack and cost per step of the
# firmware example per target, model, formulation and precision, built as a user would build it
# (picolibc's libm; in double our runtime/mb_math.c, as fw_lean selects; not the test-only
# scripts/mcu/mcu_math.c), lean by default (MCU_LEAN=0: the whole runtime).
# Usage: scripts/mcu/measure.sh [-Os|-O2] > table.md
# Cost: guest instructions under `qemu -icount`, from the SysTick count (see mcu.sh).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
mcu=scripts/mcu/mcu.sh
export MCU_OPT=${1:--O2}
out=build/mcu-measure${MCU_OPT}
: "${MCU_MODELS=andrews double_pendulum}"
: "${MCU_TARGETS:=m4f m3}"
: "${MCU_GEN:=generated}"
# MCU_MBGEN_FLAGS (e.g. "--linalg compact --no-fused", the flash-lean generation): generate the
# models with these mbgen options into build/ and measure those instead of generated/
if [ -n "${MCU_MBGEN_FLAGS:-}" ]; then
    MCU_GEN=build/mcu-gen/$(printf '%s' "$MCU_MBGEN_FLAGS" | tr -c 'A-Za-z0-9' '_')
    mkdir -p "$MCU_GEN"
    # (MCU_MODEL_FILE, MCU_MODEL_OPTS: the file and mbgen options of a single model given by
    # make mcu-measure MODEL=...; else models/<m>.lua)
    for m in $MCU_MODELS; do
        build/mbgen "${MCU_MODEL_FILE:-models/$m.lua}" ${MCU_MODEL_OPTS:-} $MCU_MBGEN_FLAGS -o "$MCU_GEN" >/dev/null
    done
fi
: "${MCU_STEPS:=200}"
: "${MCU_LEAN:=1}"                      # 1: compile only what each case uses (MB_ONLY_*), 0: all
# link-time optimization (mcu.sh), 0: without; one of the build steps docs/embedding.md advises
export MCU_LTO=${MCU_LTO:-1}
runtime="runtime/mb_embed.c runtime/mb_sim.c runtime/mb_eval.c runtime/mb_forms.c runtime/mb_assembly.c runtime/mb_f1_baumgarte.c runtime/mb_f2_canonical.c runtime/mb_f3_alf.c runtime/mb_f4_trapezoid.c runtime/mb_trapezoid.c runtime/mb_trapezoid_control.c runtime/mb_hht.c runtime/mb_kkt.c runtime/mb_rk.c runtime/mb_bdf.c runtime/mb_linsys.c runtime/mb_sparse.c runtime/mb_monitor.c runtime/mb_event.c runtime/mb_status.c runtime/mb_math.c"
# the dense reference back end (mb_linalg.c) only in the full build: lean firmware is sparse only
[ "$MCU_LEAN" = 1 ] || runtime="$runtime runtime/mb_linalg.c"
# indirect calls through the formulation table (see stack.sh)
export STACK_TABLE='^(mb_sim_step|mb_sim_reset|mbi_rk_start|mbi_step_fixed|mbi_step_adaptive|rk_trial|rhs|accept|fixed_step_events)(\.|$)@^(rhs_|accept_|trap_start|step_trapezoid)(\.|$);^(mb_sim_step|fixed_step_events)(\.|$)@^(step_rk4|step_dopri5|step_dop853|bdf_step|hht_step|mbi_undo_step|bdf_undo|mbi_form_restart)(\.|$)'
inc="-Iruntime -I$MCU_GEN -Iscripts/mcu -Iexamples/firmware"
mkdir -p "$out"

# The per-case parameters of mcu-test.sh (fw_params.sh), plus the lean build flags.
. "$(dirname "$0")/fw_params.sh"
params() {  # params MODEL FORMULATION PRECISION -> -D flags
    local p
    p=$(fw_params "$1" "$2" "$3" "$MCU_GEN")
    # the lean embedded build (docs/embedding.md): only the formulation and integrator in use
    [ "$MCU_LEAN" = 1 ] && p="$p $(fw_lean "$2" "$1" "$MCU_GEN")"
    echo "$p -DFW_STEPS=$MCU_STEPS -DMB_NO_LAPACKE"
}
val() { awk -v k="$1" '$1 == "M" && $2 == k { print $3 }' "$2"; }
sect() { arm-none-eabi-size -A "$1" | awk -v re="$2" '$1 ~ re { s += $2 } END { print s + 0 }'; }

echo "| target | model | formulation | real | flash B | RAM static B | workspace B | stack painted B | stack bound B | instr/step | worst step | Newton it/step |"
echo "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for t in $MCU_TARGETS; do
    for form in alf-trapezoid baumgarte; do
        for prec in double float; do
            [ "$form" = baumgarte ] && [ "$prec" = float ] && continue
            pflag=""; [ "$prec" = float ] && pflag="-DMB_FLOAT"
            for m in $MCU_MODELS; do
                name="$m-$form-$prec"
                $mcu build "$t" "$out/$t" "$name" $pflag $(params "$m" "$form" "$prec") $inc -- \
                    examples/firmware/main.c examples/firmware/solver.c $runtime "$MCU_GEN/$m.c" \
                    scripts/mcu/mcu_port.c scripts/mcu/mcu_report.c
                $mcu nmcheck "$out/$t/$name.elf" "$out/$t/obj-$name"/*.o
                $mcu run "$t" "$out/$t/$name.elf" > "$out/$t/$name.txt" || {
                    echo "| $t | $m | $form | $prec | run failed |"; continue; }
                f="$out/$t/$name.txt"
                flash=$(sect "$out/$t/$name.elf" '^\.(text|ARM\.exidx|data)$')
                ram=$(sect "$out/$t/$name.elf" '^\.(data|bss)$')
                bound=$(scripts/mcu/stack.sh "$out/$t/$name.elf" "$out/$t/obj-$name" mcu_reset \
                        "^${m}_" | awk '$1 == "stack_bound" { print $2 }')
                steps=$(val steps "$f")
                # instructions = ticks * 40 ns / 2^7 ns (-icount shift=7, SysTick at 25 MHz)
                ins=$(awk -v t="$(val ticks_steps "$f")" -v n="$steps" 'BEGIN { printf "%.0f", t * 40 / 128 / n }')
                worst=$(awk -v t="$(val ticks_worst_step "$f")" 'BEGIN { printf "%.0f", t * 40 / 128 }')
                its=$(awk -v i="$(val newton_iters "$f")" -v n="$steps" 'BEGIN { printf "%.2f", i / n }')
                echo "| $t | $m | $form | $prec | $flash | $ram | $(val work_reserved "$f") | $(val stack_bytes "$f") | $bound | $ins | $worst | $its |"
            done
        done
    done
done
