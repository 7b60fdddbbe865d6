#!/usr/bin/env bash
# measure_cartpole.sh - the closed loop's firmware figures for docs/control.md: the cart-pole
# balanced by its LQR controller (examples/cartpole/fw_main.c) on the Cortex-M4F, float and
# double, built lean with link-time optimization as a user would (scripts/mcu/fw_params.sh
# fw_lean; picolibc's libm, in double runtime/mb_math.c): flash, static RAM, workspace, stack,
# guest instructions per solver step (the controller's share included) and the real-time
# factor at 168 MHz with one cycle per instruction (simulated time / wall time; a CPI of 1.2-2
# divides it by as much: docs/embedding.md). Cost: instructions under `qemu -icount` (mcu.sh).
# Usage: scripts/mcu/measure_cartpole.sh [-O2|-Os] > table.md   (make mcu-measure-cartpole)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
mcu=scripts/mcu/mcu.sh
export MCU_OPT=${1:--O2}
export MCU_LTO=${MCU_LTO:-1}
out=build/mcu-measure-cartpole${MCU_OPT}
: "${MCU_GEN:=generated}"
steps=5000
runtime="runtime/mb_embed.c runtime/mb_sim.c runtime/mb_eval.c runtime/mb_forms.c runtime/mb_assembly.c runtime/mb_f3_alf.c runtime/mb_f4_trapezoid.c runtime/mb_trapezoid.c runtime/mb_trapezoid_control.c runtime/mb_linsys.c runtime/mb_sparse.c runtime/mb_monitor.c runtime/mb_event.c runtime/mb_input.c runtime/mb_status.c runtime/mb_math.c"
. "$(dirname "$0")/fw_params.sh"
val() { awk -v k="$1" '$1 == "M" && $2 == k { print $3 }' "$2"; }
sect() { arm-none-eabi-size -A "$1" | awk -v re="$2" '$1 ~ re { s += $2 } END { print s + 0 }'; }
h=$(sed -n 's/^#define CARTPOLE_SIM_H MB_R(\([0-9.eE+-]*\))$/\1/p' "$MCU_GEN/cartpole.h")
mkdir -p "$out"
echo "| target | real | opt | flash B | RAM static B | workspace B | stack painted B | instr/step | Newton it/step | real-time factor at 168 MHz, CPI 1 |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
for prec in double float; do
    pflag=""; [ "$prec" = float ] && pflag="-DMB_FLOAT"
    name="cartpole-lqr-$prec"
    $mcu build m4f "$out" "$name" $pflag $(fw_params cartpole alf-trapezoid "$prec" "$MCU_GEN") \
        $(fw_lean alf-trapezoid cartpole "$MCU_GEN") -DMB_NO_LAPACKE -DFW_STEPS=$steps \
        -Iruntime -I"$MCU_GEN" -Iscripts/mcu -Iexamples/firmware -Iexamples/cartpole -- \
        examples/cartpole/fw_main.c examples/cartpole/cartpole_control.c examples/firmware/solver.c \
        $runtime "$MCU_GEN/cartpole.c" scripts/mcu/mcu_port.c scripts/mcu/mcu_report.c
    $mcu nmcheck "$out/$name.elf" "$out/obj-$name"/*.o
    $mcu run m4f "$out/$name.elf" > "$out/$name.txt" || { echo "| m4f | $prec | $MCU_OPT | run failed (the pole not balanced or a step failed) |"; exit 1; }
    f="$out/$name.txt"
    flash=$(sect "$out/$name.elf" '^\.(text|ARM\.exidx|data)$')
    ram=$(sect "$out/$name.elf" '^\.(data|bss)$')
    n=$(val steps "$f")
    ins=$(awk -v t="$(val ticks_steps "$f")" -v n="$n" 'BEGIN { printf "%.0f", t * 40 / 128 / n }')
    its=$(awk -v i="$(val newton_iters "$f")" -v n="$n" 'BEGIN { printf "%.2f", i / n }')
    rtf=$(awk -v i="$ins" -v h="$h" 'BEGIN { printf "%.1f", 168e6 * h / i }')
    echo "| m4f | $prec | $MCU_OPT | $flash | $ram | $(val work_reserved "$f") | $(val stack_bytes "$f") | $ins | $its | $rtf |"
done
