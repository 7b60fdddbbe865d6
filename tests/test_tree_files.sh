#!/usr/bin/env bash
# test_tree_files.sh - the tree holds only files the build, the docs or the tests name: every
# file git tracks must be named by one of Makefile, mk/*.mk, README.md, docs/*.md, .ci/run, the
# scripts or the tests (a 41 KB benchmark output named "--help" sat at the root, committed by
# mistake). A name is a path token in one of those files, read from the repository root or from
# that file's directory (docs' links: "img/x.png"); a token with * or % (make's pattern), or
# $(...)/${...} in it, names every file it matches. Also: no tracked name starts with '-' (it
# reads as an option) or holds white space or a control character.
# Skipped, with a message, outside a git checkout. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
if ! command -v git >/dev/null || ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "test_tree_files.sh: skipped: not a git checkout (the tracked files are what it checks)"
    echo "0 passed, 0 failed"; exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_tree_files.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

git ls-files -z | tr '\0' '\n' > "$tmp/files"
[ "$(wc -l < "$tmp/files")" -ge 100 ] && ok || bad "git ls-files lists only $(wc -l < "$tmp/files") files"

# ---- names: no leading '-', no white space or control characters
LC_ALL=C awk -F/ '{ for (i = 1; i <= NF; i++) if ($i ~ /^-/) { print; next } }' "$tmp/files" > "$tmp/dash"
[ ! -s "$tmp/dash" ] && ok || bad "tracked files whose name starts with '-' (git rm -- NAME): $(tr '\n' ' ' < "$tmp/dash")"
LC_ALL=C grep -n '[[:space:][:cntrl:]]' "$tmp/files" > "$tmp/odd"
[ ! -s "$tmp/odd" ] && ok || bad "tracked files with white space or control characters in their names: $(cat "$tmp/odd")"

# ---- every tracked file is named
sources=$(grep -xE 'Makefile|mk/[^/]+\.mk|README\.md|docs/[^/]+\.md|\.ci/run|(scripts|tests)/.+\.(sh|lua|py)|[a-z]+/.+\.[ch]' "$tmp/files" |
          grep -v '^generated/')
[ "$(printf '%s\n' "$sources" | grep -c .)" -ge 50 ] && ok || bad "too few files to read names from: $sources"
# every token, as written and resolved from the naming file's directory; $(...) ${...} % -> *
# (grep -H: "file:token"; a token holds no ':')
# shellcheck disable=SC2086
LC_ALL=C grep -aoHE '(\$\([^)]*\)|\$\{[^}]*\}|"?\$[A-Za-z_][A-Za-z0-9_]*"?|[A-Za-z0-9._/+@%*-])+' $sources | LC_ALL=C sort -u | LC_ALL=C awk '
    function norm(p,   n, a, out, i, k) {
        n = split(p, a, "/"); k = 0
        for (i = 1; i <= n; i++) {
            if (a[i] == "" || a[i] == ".") continue
            if (a[i] == "..") { if (k > 0) k--; continue }
            out[++k] = a[i]
        }
        p = ""; for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
        return p
    }
    {
        c = index($0, ":"); s = substr($0, 1, c - 1); t = substr($0, c + 1)
        d = s; if (!sub(/\/[^\/]*$/, "", d)) d = "."
        gsub(/\$\([^)]*\)|\$\{[^}]*\}|"?\$[A-Za-z_][A-Za-z0-9_]*"?|%/, "*", t)
        sub(/\.+$/, "", t)
        if (t == "") next
        print norm(t)
        if (d != ".") print norm(d "/" t)
    }' | LC_ALL=C sort -u > "$tmp/names"
# the files no name or pattern matches (a pattern's * matches any text; a pattern counts when
# its directory is written out and its last part is more than * (generated/*.c, not */*.c or
# tests/*), or two directories are (tests/fuzz/corpus/*/*: the fuzzers' seeds))
LC_ALL=C awk '
    FNR == NR { if (index($0, "*") == 0) { named[$0] = 1; next }
                if ($0 !~ /^[^*]*\// || ($0 !~ /[^*\/][^\/]*$/ && $0 !~ /^[^*\/]+\/[^*\/]+\//)) next
                g = $0; gsub(/[][\\.+?^${}()|]/, "\\\\&", g); gsub(/\*/, ".*", g)
                ng++; pre[ng] = substr($0, 1, index($0, "*") - 1); globs[ng] = "^" g "$"
                next }
    $0 in named || $0 == ".gitignore" || $0 == ".gitattributes" { next }   # (git'"'"'s own)
    { for (i = 1; i <= ng; i++) if (substr($0, 1, length(pre[i])) == pre[i] && $0 ~ globs[i]) next; print }
' "$tmp/names" "$tmp/files" > "$tmp/unnamed"
[ ! -s "$tmp/unnamed" ] && ok ||
    bad "tracked files no build file, document or test names (a stray output? git rm -- FILE, or name it where it is used): $(tr '\n' ' ' < "$tmp/unnamed")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
