# fw_params.sh - the firmware example's per-case -D flags, shared by mcu-test.sh, measure.sh and
# firmware.sh so the measured cases are exactly the tested ones. Source it; then:
#   fw_params MODEL FORMULATION PRECISION [DIR]   -> -D flags (model, formulation, parameters)
# MODEL: the model's C name; DIR holds its generated header MODEL.h (default generated). The
# step and the formulation's parameters are the model file's (its simulate { ... }: the header's
# <NAME>_SIM_H and <NAME>_SIM_<FORMULATION>_<PARAM> macros), the rest mb_params_default's. In
# float, <NAME>_SIM_<FORMULATION>_FLOAT_<PARAM> come first; alpha and tol without them are the
# runtime's own float choice from the model's scales (mb_params_default's 0: runtime/mb_sim.c,
# auto_penalty), not the file's double values (docs/embedding.md, "Single precision").
fw_params() {
    local name=$1 form=$2 real=$3 hdr=${4:-generated}/$1.h U F p k v
    U=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')
    F=$(printf '%s' "$form" | tr '[:lower:]-' '[:upper:]_')
    p="-DFW_MODEL=$name -DFW_PREFIX=$U"
    case "$form" in
        alf-trapezoid) p="$p -DFW_FORMULATION=MB_ALF_TRAPEZOID -DFW_INTEGRATOR=MB_TRAPEZOID" ;;
        baumgarte) p="$p -DFW_FORMULATION=MB_BAUMGARTE -DFW_INTEGRATOR=MB_RK4" ;;
    esac
    # a macro's value: MB_R(<number>) or an integer, nothing else reaches the compiler
    fw_mac() {
        sed -n "s/^#define ${U}_SIM_$1 \(MB_R([0-9.eE+-]*)\|[0-9][0-9]*\)\$/\1/p" "$hdr" 2>/dev/null | head -n 1
    }
    v=$(fw_mac H)
    [ -n "$v" ] && p="$p -DFW_H=$v"
    for k in ALPHA XI OMEGA TOL MAX_ITER; do
        v=""
        if [ "$real" = float ]; then
            v=$(fw_mac "${F}_FLOAT_$k")
            case "$k" in ALPHA|TOL) [ -n "$v" ] && p="$p -DFW_$k=$v"; continue ;; esac
        fi
        [ -z "$v" ] && v=$(fw_mac "${F}_$k")
        [ -n "$v" ] && p="$p -DFW_$k=$v"
    done
    echo "$p"
}

# fw_lean FORMULATION MODEL [DIR] -> the lean embedded build's -D flags (docs/embedding.md,
# "Building only what the firmware uses"): only the formulation and integrator in use, 8-bit
# model indices (16-bit when an index does not fit), no named points (drawing data the firmware
# never asks for), no info part (names: tools only), for a model without tunables and inputs (its
# header's <NAME>_NPAR 0, <NAME>_NIN 0) no room for them in mb_sim, and in double our sin, cos and hypot
# (runtime/mb_math.h: no libm reduction of huge arguments; link runtime/mb_math.c). measure.sh
# and mcu-test.sh's lean case.
fw_lean() {
    local p="" U
    U=$(printf '%s' "$2" | tr '[:lower:]' '[:upper:]')
    grep -q "^#define ${U}_NPAR 0\$" "${3:-generated}/$2.h" 2>/dev/null &&
        ! grep -q "^#define ${U}_NIN [1-9]" "${3:-generated}/$2.h" 2>/dev/null && p="-DMB_WITH_TUNABLES=0"
    case "$1" in
        alf-trapezoid) p="$p -DMB_ONLY_ALF_TRAPEZOID -DMB_WITH_FULL_JACOBIAN=0 -DMB_WITH_DENSE=0 -DMB_WITH_TRAPEZOID_ADAPTIVE=0 -DMB_WITH_REDUNDANT_ROWS=0 -DMB_OMIT_GAMMA" ;;
        baumgarte) p="$p -DMB_ONLY_BAUMGARTE -DMB_WITH_DOPRI5=0 -DMB_WITH_DOP853=0 -DMB_WITH_DENSE=0" ;;
    esac
    # 8-bit indices unless the model's C says an index does not fit (mbgen's #error for MB_INDEX8)
    if grep -q '^#if MB_INDEX8$' "${3:-generated}/$2.c" 2>/dev/null; then p="$p -DMB_INDEX16"; else p="$p -DMB_INDEX8"; fi
    echo "$p -DMB_OMIT_POINTS -DMB_OMIT_INFO -DMB_MATH_HEADER=\"mb_math.h\""
}
