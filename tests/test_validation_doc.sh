#!/usr/bin/env bash
# test_validation_doc.sh - docs/validation.md before section 10 is what tests/runtime_validation.sh
# (make validation) writes: its text, line for line, with the measured values left out. The
# script's --text mode runs nothing and writes every measured value as @V@ (any text, not empty;
# in a table row no '|' but an escaped '\|') and the warnings table's rows as @ROWS@ (any number
# of table rows); the commands' temporary directory is compared as $TMP. A hand edit of the
# doc's sections 1-9 that the script lacks, or a change of the script's text not written into the
# doc, fails here.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# match TEXT DOC: print the first line where DOC differs from the pattern TEXT (nothing if none)
match() {
    awk -v T="$1" '
    function like(pat, s,   n, p, k, pos, gap, tbl) {
        n = split(pat, p, "@V@")
        if (n == 1) return pat == s
        tbl = substr(pat, 1, 1) == "|"
        if (substr(s, 1, length(p[1])) != p[1]) return 0
        s = substr(s, length(p[1]) + 1)
        for (k = 2; k <= n; k++) {
            if (k < n) { pos = index(s, p[k]); if (p[k] == "" || pos == 0) return 0 }
            else {      # the last piece ends the line
                pos = length(s) - length(p[k]) + 1
                if (pos < 1 || substr(s, pos) != p[k]) return 0
            }
            gap = substr(s, 1, pos - 1)
            if (tbl) gsub(/\\\|/, "", gap)     # an escaped \| is text in a cell
            if (gap == "" || (tbl && index(gap, "|"))) return 0
            s = substr(s, pos + length(p[k]))
        }
        return 1
    }
    BEGIN { while ((getline l < T) > 0) t[++n] = l }
    { d[++m] = $0 }
    END {
        j = 1
        for (i = 1; i <= n; i++) {
            if (t[i] == "@ROWS@") { while (j <= m && substr(d[j], 1, 1) == "|") j++; continue }
            if (j > m) { printf "doc ends at line %d; the script writes: %s\n", m, t[i]; exit }
            if (!like(t[i], d[j])) { printf "doc line %d: %s\nthe script writes (line %d): %s\n", j, d[j], i, t[i]; exit }
            j++
        }
        if (j <= m) printf "doc line %d is not written by the script: %s\n", j, d[j]
    }' "$2"
}
# the doc before section 10, its temporary directory as $TMP
doc_head() { sed -n '/^## 10\. /q; p' "$1" | sed -E 's#/tmp/tmp\.[A-Za-z0-9]+/#$TMP/#g'; }

if tests/runtime_validation.sh --text "$tmp/text.md" >/dev/null; then ok; else bad "runtime_validation.sh --text failed"; fi
sed -i -E 's#/tmp/tmp\.[A-Za-z0-9]+/#$TMP/#g' "$tmp/text.md"
doc_head docs/validation.md > "$tmp/doc.md"
if grep -q '^## 10\. ' docs/validation.md && [ "$(wc -l < "$tmp/doc.md")" -gt 100 ]; then ok
else bad "docs/validation.md has no section 10 or too little before it"; fi
r=$(match "$tmp/text.md" "$tmp/doc.md")
if [ -z "$r" ]; then ok; else bad "docs/validation.md differs from what tests/runtime_validation.sh writes (make validation):"; echo "$r" >&2; fi

# negative controls: a changed word in the prose, a changed static cell, a dropped line, an extra
# line and a missing measured value are each found
neg() {  # neg NAME SED-EXPRESSION
    sed -e "$2" "$tmp/doc.md" > "$tmp/neg.md"
    if ! cmp -s "$tmp/neg.md" "$tmp/doc.md" && [ -n "$(match "$tmp/text.md" "$tmp/neg.md")" ]; then ok
    else bad "negative control '$1' not found"; fi
}
neg "prose"       '/^The seed works the first implicit step/s/seed/sead/'
neg "static cell" 's/^| modal: bar pendulum |/| modal: a bar pendulum |/'
neg "dropped"     '/^Linear algebra: LAPACKE/d'
neg "extra"       '/^## 7\. /a\
a line of hand-written history'
neg "value"       's/^\(| 1e-3 | 1e4 | \)[^|]*|/\1|/'
neg "table cell"  's/^\(| 1e-3 | 1e4 | \)[^|]*|/\1 1 | 2 |/'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
