#!/usr/bin/env bash
# mcu.sh - build, run and inspect bare-metal Cortex-M test programs under QEMU.
# Usage: mcu.sh build TARGET OUTDIR NAME [CFLAGS...] -- SOURCES... [LIBS.a...]
#                                       -> OUTDIR/NAME.elf (+ .map, objects and .su in obj-NAME/)
#        mcu.sh lib TARGET OUTDIR NAME [CFLAGS...] -- SOURCES...  -> OUTDIR/NAME.a (objects reused
#                                       while newer than their source and the headers they include)
#        mcu.sh run TARGET ELF          run under QEMU (semihosting, -icount), guest exit status
#        mcu.sh nmcheck FILES...        fail if an object or image names malloc/free/printf & co.
#        mcu.sh flags TARGET            print the compiler flags of TARGET
# TARGET: m4f (Cortex-M4F, hard float, QEMU mps2-an386) or m3 (Cortex-M3, QEMU mps2-an385).
# MCU_LTO=1 (environment): build images with link-time optimization (-flto -flto-partition=one
# -fconserve-stack and the pressure-bounded scheduling below at compile and link; one partition:
# one .su file, no serial-jobs warning).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${MCU_OPT:=-O2}"                     # optimisation level of embedded builds
: "${MCU_TIMEOUT:=120}"                 # seconds before a guest counts as hung
: "${MCU_LTO:=0}"                       # 1: build images with link-time optimization (-flto)
# -icount shift=7: every guest instruction advances virtual time by 128 ns; SysTick runs at the
# boards' 25 MHz (40 ns), so instructions = ticks * 40 / 128 (resolution below one instruction).
MCU_ICOUNT_SHIFT=7

cpu_flags() {
    case "$1" in
        m4f) echo "-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard" ;;
        m3)  echo "-mcpu=cortex-m3 -mthumb -mfloat-abi=soft" ;;
        *) echo "mcu.sh: unknown target '$1' (m4f or m3)" >&2; exit 2 ;;
    esac
}
machine() {
    case "$1" in
        m4f) echo mps2-an386 ;;
        m3)  echo mps2-an385 ;;
        *) echo "mcu.sh: unknown target '$1'" >&2; exit 2 ;;
    esac
}
# Same language rules as the host build so double results can match bit for bit.
common_flags="-std=c99 -ffp-contract=off -ffunction-sections -fdata-sections -Wall -Wextra -Werror -Wdouble-promotion"

cmd=${1:-}; [ $# -gt 0 ] && shift
case "$cmd" in
flags)
    echo "$(cpu_flags "$1") $common_flags $MCU_OPT"
    ;;
build|lib)
    target=$1 out=$2 name=$3; shift 3
    cflags=()
    # -fconserve-stack: without it LTO inlines the start-up's frames (solver_init's mb_params)
    # into main, on the stepping path too (Andrews lean double: 1296 B of stack instead of 948).
    # -fschedule-insns -fsched-pressure -fira-loop-pressure: the first scheduling pass, bounded by
    # register pressure, and loops allocated by it: fewer spilled software-double temporaries
    # (Andrews lean double -Os: the trapezoid step's frame 312 -> 288 B, the model's phi 192 ->
    # 176 B, 48 B less stack painted; same instructions per step within 0.1 %; no effect on results)
    lto=(); [ "$MCU_LTO" = 1 ] && [ "$cmd" = build ] &&
        lto=(-flto -flto-partition=one -fconserve-stack -fschedule-insns -fsched-pressure -fira-loop-pressure)
    while [ $# -gt 0 ] && [ "$1" != -- ]; do cflags+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    mkdir -p "$out/obj-$name"
    # Flags changed since the last build: start the object directory afresh.
    stamp="$out/obj-$name/flags"
    echo "$(cpu_flags "$target") $common_flags $MCU_OPT ${lto[*]} ${cflags[*]}" > "$stamp.new"
    if ! cmp -s "$stamp" "$stamp.new"; then rm -f "$out/obj-$name"/*.o "$out/obj-$name"/*.su; fi
    mv "$stamp.new" "$stamp"
    objs=() libs=()
    for src in "$@"; do
        case "$src" in *.a) libs+=("$src"); continue ;; esac
        obj="$out/obj-$name/$(basename "${src%.c}").o"
        if [ "$cmd" = lib ] && [ -f "$obj" ] && [ -f "${obj%.o}.d" ] &&
                [ -z "$(find $(sed -e 's/^[^:]*://' -e 's/\\$//' "${obj%.o}.d") -newer "$obj" 2>/dev/null)" ]; then
            objs+=("$obj"); continue
        fi
        # -fstack-usage writes <obj>.su next to the object, used by the stack report.
        arm-none-eabi-gcc $(cpu_flags "$target") $common_flags $MCU_OPT --specs=picolibc.specs \
            -fstack-usage -MMD "${lto[@]}" "${cflags[@]}" -c "$src" -o "$obj"
        objs+=("$obj")
    done
    if [ "$cmd" = lib ]; then
        rm -f "$out/$name.a"
        arm-none-eabi-ar rcs "$out/$name.a" "${objs[@]}"
    else
        # -flto: the code is generated here, so the link gets the compile flags too; its frames
        # (-fstack-usage) land next to the image and go to the objects' for stack.sh
        [ ${#lto[@]} -gt 0 ] && lto+=($common_flags $MCU_OPT -fstack-usage)
        rm -f "$out/$name".elf.ltrans*.su
        arm-none-eabi-gcc $(cpu_flags "$target") --specs=picolibc.specs -nostartfiles \
            -T"$here/mps2.ld" -Wl,--gc-sections -Wl,-Map="$out/$name.map" "${lto[@]}" \
            "${objs[@]}" "${libs[@]}" -lm -o "$out/$name.elf"
        for su in "$out/$name".elf.ltrans*.su; do
            if [ -f "$su" ]; then mv "$su" "$out/obj-$name/$(basename "$su")"; fi
        done
    fi
    ;;
run)
    target=$1 elf=$2
    # The chardev binding sends semihosting output to stdout (otherwise QEMU writes it to stderr).
    timeout "$MCU_TIMEOUT" qemu-system-arm -M "$(machine "$target")" -nographic -monitor none \
        -serial none -icount shift=$MCU_ICOUNT_SHIFT,sleep=off -chardev stdio,id=shc \
        -semihosting-config enable=on,target=native,chardev=shc -kernel "$elf"
    ;;
nmcheck)
    # Allocation and formatted printing must not exist in embedded code (STYLE.md); checks both
    # references (objects) and definitions (linked images, which pull them from libc).
    bad='^(malloc|free|calloc|realloc|reallocarray|aligned_alloc|posix_memalign|memalign|_malloc_r|_free_r|_calloc_r|_realloc_r|printf|fprintf|sprintf|snprintf|vprintf|vfprintf|vsprintf|vsnprintf|puts|fputs|putchar|iprintf|siprintf|_printf_r|_vfprintf_r|__d_vfprintf|__f_vfprintf|__i_vfprintf)$'
    status=0
    for o in "$@"; do
        # (an -flto object of a source that compiles to nothing has "no symbols": not an error)
        hits=$({ arm-none-eabi-nm "$o" 2>&1 1>&3 | grep -v ': no symbols$' >&2; } 3>&1 |
               awk '{print $NF}' | grep -E "$bad" || true)
        if [ -n "$hits" ]; then
            echo "nmcheck: $o references: $(echo $hits)" >&2
            status=1
        fi
    done
    exit $status
    ;;
*)
    sed -n '2,8p' "$0" >&2; exit 2 ;;
esac
