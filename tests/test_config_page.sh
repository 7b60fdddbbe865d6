#!/usr/bin/env bash
# test_config_page.sh - runtime/mb_config.h is the one page of the build switches: every switch
# the sources read (MB_WITH_*, MB_ONLY_*, MB_OMIT_*, MB_FLOAT, MB_INDEX8/16, ...) is named on it,
# every [ABI] MB_WITH_* switch is a bit of MB_BUILD_CONFIG (the ABI guard: an application built
# with another value gets MB_ERR_BUILD), and no source tests a switch by presence (#ifdef,
# #ifndef, defined()) apart from the page's own defaults: -DNAME=0 must mean off everywhere.
# Negative controls: a page with a bit taken out of MB_BUILD_CONFIG, a source with #ifdef, and a
# switch the page does not name are each reported. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_config_page.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
page=runtime/mb_config.h
SW='MB_(WITH_[A-Z0-9_]+|ONLY_[A-Z_]+|OMIT_[A-Z]+|FLOAT|INDEX8|INDEX16|NO_LAPACKE|KEEP_SLP|POISON_WORK|LAYOUT_NO_SHARE|DESCRIPTOR_ONLY)'
# the sources that read switches (generated/ too: mbgen's output)
srcs() { git ls-files 'runtime/*.[ch]' 'tools/*.[ch]' 'tests/*.[ch]' 'examples/*.[ch]' 'scripts/mcu/*.[ch]' \
             'templates/*' 'generated/*.[ch]' 'bench/*.[ch]' 'evaluator/*.[ch]' 2>/dev/null ||
         find runtime tools tests examples scripts/mcu templates generated bench evaluator -name '*.[ch]'; }

# the switches the page names: defined with a default, or named in a comment line "/* NAME  [tag]"
named() { grep -oE "^(#ifndef |/\* )$SW +(/\* )?\[" "$1" | grep -oE "$SW" | sort -u; }
# the switches a set of files reads in preprocessor lines
read_sw() { grep -hE '^\s*#\s*(if|ifdef|ifndef|elif)\b' "$@" | grep -oE "\b$SW\b" | sort -u; }
# MB_WITH_* tagged [ABI] on the page, and those MB_BUILD_CONFIG shifts in
abi_with() { grep -E "^#ifndef MB_WITH_[A-Z0-9_]+ +/\* \[ABI\]" "$1" | grep -oE 'MB_WITH_[A-Z0-9_]+' | sort -u; }
guard() { sed -n '/^#define MB_BUILD_CONFIG/,/^$/p' "$1" | grep -oE 'MB_WITH_[A-Z0-9_]+' | sort -u; }
# presence tests of a switch outside the page's "#ifndef NAME  /* ... */ ... #define NAME" defaults
presence() {
    awk -v sw="$SW" '
        FNR == 1 { pend = "" }
        pend != "" { if ($0 ~ "^#define " pend "( |$)") { pend = ""; next } if ($0 !~ /^ +[^#]/) { print FILENAME ":" pline; pend = "" } }
        $0 ~ "^[ \t]*#[ \t]*ifndef[ \t]+" sw "([ \t]|$)" { pend = $2; pline = FNR ": " $0; next }
        $0 ~ "^[ \t]*#[ \t]*ifdef[ \t]+" sw "([ \t]|$)" { print FILENAME ":" FNR ": " $0; next }
        $0 ~ "^[ \t]*#[ \t]*(if|elif)[ \t]" && $0 ~ "defined[ \t(]*" sw { print FILENAME ":" FNR ": " $0 }
    ' "$@"
}

srcs > "$tmp/srcs"
[ "$(wc -l < "$tmp/srcs")" -ge 50 ] && ok || bad "too few sources found: $(wc -l < "$tmp/srcs")"
named "$page" > "$tmp/named"
[ "$(wc -l < "$tmp/named")" -ge 30 ] && ok || bad "the page names only $(wc -l < "$tmp/named") switches"

# ---- every switch read anywhere is on the page
# shellcheck disable=SC2046
read_sw $(cat "$tmp/srcs") > "$tmp/read"
comm -23 "$tmp/read" "$tmp/named" > "$tmp/missing"
[ ! -s "$tmp/missing" ] && ok || bad "switches read but not on $page: $(tr '\n' ' ' < "$tmp/missing")"

# ---- every [ABI] MB_WITH_* is in MB_BUILD_CONFIG (and the guard names no other)
abi_with "$page" > "$tmp/abi"
[ "$(wc -l < "$tmp/abi")" -ge 17 ] && ok || bad "only $(wc -l < "$tmp/abi") [ABI] MB_WITH_* switches found on the page"
guard "$page" > "$tmp/guard"
if cmp -s "$tmp/abi" "$tmp/guard"; then ok; else
    bad "MB_BUILD_CONFIG and the [ABI] MB_WITH_* switches differ: $(diff "$tmp/abi" "$tmp/guard" | grep '^[<>]' | tr '\n' ' ')"; fi
grep -q 'sizeof(mb_real) == sizeof(float)' "$page" && grep -q 'sizeof(mb_index) == 1' "$page" &&
    grep -q 'sizeof(mb_index) == 2' "$page" && ok || bad "MB_BUILD_CONFIG lacks the precision or the index width"

# ---- no presence tests outside the page's defaults
# shellcheck disable=SC2046
presence $(cat "$tmp/srcs") > "$tmp/presence"
[ ! -s "$tmp/presence" ] && ok || bad "switches tested by presence (use #if NAME): $(head -5 "$tmp/presence")"

# ---- negative controls
sed '/^#define MB_BUILD_CONFIG/,/^$/s/ | (unsigned long)MB_WITH_HHT << 9//' "$page" > "$tmp/page_nohht.h"
guard "$tmp/page_nohht.h" > "$tmp/g2"
! cmp -s "$tmp/abi" "$tmp/g2" && ok || bad "negative control: MB_WITH_HHT taken out of MB_BUILD_CONFIG is not seen"
printf '#ifdef MB_ONLY_BAUMGARTE\n#endif\n#if defined(MB_FLOAT)\n#endif\n' > "$tmp/bad.c"
[ "$(presence "$tmp/bad.c" | wc -l)" -eq 2 ] && ok || bad "negative control: #ifdef / defined() not reported"
printf '#if MB_WITH_NOTHING_SUCH\n#endif\n' > "$tmp/new.c"
read_sw "$tmp/new.c" | comm -23 - "$tmp/named" | grep -q MB_WITH_NOTHING_SUCH && ok ||
    bad "negative control: a switch not on the page is not reported"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
