# fw_params.sh - the firmware example's per-case -D flags, shared by mcu-test.sh and measure.sh
# so the measured cases are exactly the tested ones. Source it; then:
#   fw_params MODEL FORMULATION PRECISION   -> -D flags (model, formulation, float parameters)
fw_params() {
    local p=""
    case "$1" in
        andrews) p="-DFW_MODEL=andrews -DFW_PREFIX=ANDREWS -DFW_H=MB_R(1e-5)" ;;
        double_pendulum) p="-DFW_MODEL=double_pendulum -DFW_PREFIX=DOUBLE_PENDULUM" ;;
    esac
    case "$2" in
        alf-trapezoid) p="$p -DFW_FORMULATION=MB_ALF_TRAPEZOID -DFW_INTEGRATOR=MB_TRAPEZOID" ;;
        baumgarte) p="$p -DFW_FORMULATION=MB_BAUMGARTE -DFW_INTEGRATOR=MB_RK4" ;;
    esac
    # float cannot carry the thesis' alpha (docs/embedding.md): smaller penalty and tolerance
    if [ "$2" = alf-trapezoid ] && [ "$3" = float ]; then
        case "$1" in
            andrews) p="$p -DFW_ALPHA=MB_R(1e4) -DFW_TOL=MB_R(1e-7)" ;;
            double_pendulum) p="$p -DFW_ALPHA=MB_R(1e5) -DFW_TOL=MB_R(1e-4)" ;;
        esac
    fi
    echo "$p"
}
