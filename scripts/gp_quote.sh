# gp_quote.sh - safe gnuplot string literals for the plotting scripts (sourced by
# scripts/plot.sh, plot_analysis.sh, sweep_gather.sh). A path or a title pasted into a gnuplot
# script between quotes could end the string early ("run'1.csv" made `set output 'run'...`
# overwrite the file "run") or run a command (gnuplot expands `...` inside double quotes).
#   gp_str TEXT    a single-quoted literal: gnuplot expands nothing inside '', a ' is doubled
#   gp_dq TEXT     a double-quoted literal for titles (backslash escapes such as \362 stay
#                  active): \ " and ` escaped, a line break becomes a space
#   gp_check_path WHAT PATH   refuse (message naming the path, exit 1) a path that no gnuplot
#                  literal can carry: a line break or a carriage return
gp_str() { local s=${1//\'/\'\'}; printf "'%s'" "$s"; }
gp_dq() {
    local s=${1//\\/\\\\}
    s=${s//\"/\\\"}; s=${s//\`/\\\`}; s=${s//$'\n'/ }; s=${s//$'\r'/ }
    printf '"%s"' "$s"
}
gp_check_path() {
    case "$2" in
        *$'\n'*|*$'\r'*)
            printf '%s: %s %q contains a line break, which gnuplot cannot take in a file name: rename it\n' \
                "$(basename "$0")" "$1" "$2" >&2
            exit 1 ;;
    esac
}
