# fw_params.sh - the firmware example's per-case -D flags, shared by mcu-test.sh and measure.sh
# so the measured cases are exactly the tested ones. Source it; then:
#   fw_params MODEL FORMULATION PRECISION   -> -D flags (model, formulation, float parameters)
# MODEL: the model's C name; the shipped ones have their parameters here, any other gets the
# defaults of mb_params_default (and, in float, alpha 1e4, tol 1e-4: docs/embedding.md).
fw_params() {
    local p=""
    case "$1" in
        andrews) p="-DFW_MODEL=andrews -DFW_PREFIX=ANDREWS -DFW_H=MB_R(1e-5)" ;;
        double_pendulum) p="-DFW_MODEL=double_pendulum -DFW_PREFIX=DOUBLE_PENDULUM" ;;
        *) p="-DFW_MODEL=$1 -DFW_PREFIX=$(printf '%s' "$1" | tr '[:lower:]' '[:upper:]')" ;;
    esac
    case "$2" in
        alf-trapezoid) p="$p -DFW_FORMULATION=MB_ALF_TRAPEZOID -DFW_INTEGRATOR=MB_TRAPEZOID" ;;
        baumgarte) p="$p -DFW_FORMULATION=MB_BAUMGARTE -DFW_INTEGRATOR=MB_RK4" ;;
    esac
    # float cannot carry the thesis' alpha (docs/embedding.md): smaller penalty and tolerance
    if [ "$2" = alf-trapezoid ] && [ "$3" = float ]; then
        case "$1" in
            andrews) p="$p -DFW_ALPHA=MB_R(1e4) -DFW_TOL=MB_R(1e-7)" ;;
            # any other model: a start after docs/embedding.md ("Single precision"): alpha
            # 1e4 (1e5 already fails the 3-link chain's first step), tol 1e-4 (O(1) m states)
            *) p="$p -DFW_ALPHA=MB_R(1e4) -DFW_TOL=MB_R(1e-4)" ;;
        esac
    fi
    echo "$p"
}
