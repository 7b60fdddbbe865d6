#!/usr/bin/env bash
# test_doc_links.sh - every relative link in README.md and docs/*.md resolves to a file or
# directory in the tree (links to web addresses and to anchors in the same page are not
# followed; a "#anchor" after a path is dropped), and no document cites a path outside the
# repository (../shared, absolute paths). Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

for f in README.md docs/*.md examples/firmware/README.md; do
    [ -f "$f" ] || continue
    dir=$(dirname "$f")
    # [text](target) and ![alt](target), one per line; the target ends at ')' or a space
    while IFS= read -r target; do
        case "$target" in
            http://*|https://*|mailto:*|'#'*) continue ;;
        esac
        path=${target%%#*}
        if [ -e "$dir/$path" ]; then ok; else bad "$f: link to '$target' does not resolve"; fi
        case "$(realpath -m "$dir/$path")" in
            "$PWD"/*) ok ;;
            *) bad "$f: link to '$target' leaves the repository" ;;
        esac
    done < <(grep -oE '\]\([^) ]+' "$f" | sed 's/^](//')
    if grep -nE '\.\./shared|(^|[^A-Za-z0-9_./-])/work/' "$f"; then bad "$f: cites a path outside the repository"; else ok; fi
done
# the negative control: a broken link is found
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'see [x](nowhere.md)\n' >"$tmp/t.md"
t=$(grep -oE '\]\([^) ]+' "$tmp/t.md" | sed 's/^](//')
if [ "$t" = nowhere.md ] && [ ! -e "$tmp/$t" ]; then ok; else bad "the link scan misses a broken link"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
