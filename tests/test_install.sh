#!/usr/bin/env bash
# test_install.sh - make install / make uninstall (mk/install.mk) into temporary prefixes:
#  - the installed tree: mbgen, its modules and templates, the headers (each compiles alone),
#    libmbrt.a, mbrt.pc, the man page (which names every option of mbgen --help);
#  - the installed mbgen run from another directory on a model file elsewhere generates what the
#    source tree's mbgen generates; it still works copied alone or with its prefix moved;
#    MBGEN_DATADIR overrides, and a wrong one is reported;
#  - README.md's program (the ```c block starting "/* main.c") built with README's exact
#    compile line from the installed files plus the generated model, run, its output the one
#    README states; README's in-tree line (runtime sources, -DMB_NO_LAPACKE) gives the same;
#  - the models installed are the shipped list (not a user's file saved in models/);
#  - DESTDIR staging: files only under DESTDIR, mbrt.pc naming PREFIX, a build through
#    PKG_CONFIG_SYSROOT_DIR; make uninstall leaves no file behind; bad PREFIX refused.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
MAKE=${MAKE:-make}
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_install.XXXXXX")
# a user's own model file saved in models/: never installed as a shipped model
stray=models/zz_test_install_user_$$.lua
cp models/double_pendulum.lua "$stray"
trap 'rm -rf "$tmp"; rm -f "$stray"' EXIT
# a make of its own (not the jobserver of a calling make)
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "$MAKE" --no-print-directory -C "$root" "$@"; }

P=$tmp/prefix
if mk install PREFIX="$P" >"$tmp/install.log" 2>&1; then ok
else bad "make install PREFIX=$P failed: $(tail -n 5 "$tmp/install.log")"; echo "$pass passed, $fail failed"; exit 1; fi

# ---- the installed tree
for f in bin/mbgen lib/libmbrt.a lib/pkgconfig/mbrt.pc share/man/man1/mbgen.1 \
         share/mbgen/generator/main.lua share/mbgen/templates/model.h.in share/mbgen/models/andrews.lua \
         include/mb/mb_sim.h include/mb/mb_model.h include/mb/mb_version.h include/mb/mb_embed.h; do
    [ -f "$P/$f" ] && ok || bad "not installed: $f"
done
[ -x "$P/bin/mbgen" ] && ok || bad "bin/mbgen not executable"
rm -f "$stray"
# the models installed: exactly the shipped ones (Makefile MODELS, the files git tracks)
shipped=$(sed -n 's/^MODELS *:= *//p' Makefile | tr ' ' '\n' | grep . | sed 's/$/.lua/' | LC_ALL=C sort)
[ "$(ls "$P/share/mbgen/models" | LC_ALL=C sort)" = "$shipped" ] && ok ||
    bad "installed models differ from the shipped list: $(ls "$P/share/mbgen/models" | tr '\n' ' ')"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    [ "$(git ls-files 'models/*.lua' | sed 's|^models/||' | LC_ALL=C sort)" = "$shipped" ] && ok ||
        bad "Makefile MODELS and the models git tracks differ: $(git ls-files 'models/*.lua' | tr '\n' ' ')"
fi
for h in "$P"/include/mb/*.h; do
    if printf '#include "%s"\ntypedef int probe_nonempty;\n' "$(basename "$h")" |
        cc -std=c99 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$P/include/mb" -x c - 2>"$tmp/err"; then ok
    else bad "installed $(basename "$h") does not compile alone: $(head -n 3 "$tmp/err")"; fi
done
# (memcpy, memmove, memset, memcmp: what GCC requires of a freestanding environment too)
nm -u "$P/lib/libmbrt.a" | awk 'NF == 2 { print $2 }' | sort -u |
    grep -v -x -e 'mb_.*' -e 'mbi_.*' -e memcpy -e memset -e memmove -e memcmp -e strcmp -e sqrt -e pow -e fabs \
        -e sin -e cos -e hypot -e '__stack_chk_fail' >"$tmp/undef"
[ ! -s "$tmp/undef" ] && ok || bad "libmbrt.a needs more than libc and libm: $(tr '\n' ' ' <"$tmp/undef")"
export PATH="$P/bin:$PATH" PKG_CONFIG_PATH="$P/lib/pkgconfig"
[ "$(pkg-config --cflags mbrt | sed 's/ *$//')" = "-I$P/include/mb" ] && ok || bad "pkg-config --cflags mbrt: $(pkg-config --cflags mbrt)"
[ "$(pkg-config --libs mbrt | sed 's/ *$//')" = "-L$P/lib -lmbrt -lm" ] && ok || bad "pkg-config --libs mbrt: $(pkg-config --libs mbrt)"
ver=$("$root/build/mbgen" --version | awk '{ print $2 }')
[ "$(pkg-config --modversion mbrt)" = "$ver" ] && ok || bad "mbrt.pc version $(pkg-config --modversion mbrt), mbgen $ver"
# the man page: renders, names the version and every option of --help
if command -v man >/dev/null && MANWIDTH=100 man -l "$P/share/man/man1/mbgen.1" >"$tmp/man.txt" 2>"$tmp/err"; then ok
else bad "man -l mbgen.1 failed: $(head -n 3 "$tmp/err")"; fi
grep -q "^\.TH MBGEN 1 \"\" \"mbgen $ver\"" "$P/share/man/man1/mbgen.1" && ok || bad "mbgen.1 is not for mbgen $ver"
mbgen --help >"$tmp/help" 2>&1 && ok || bad "installed mbgen --help failed"
for o in $(grep -oE '^  (-[A-Za-z]|--[a-z-]+)' "$tmp/help") _data.c MBGEN_DATADIR; do
    grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$P/share/man/man1/mbgen.1" && ok || bad "mbgen.1 lacks $o"
done
grep -q "_data.c" "$tmp/help" && grep -q "uses$" "$tmp/help" && grep -qx "  *$P/share/mbgen" "$tmp/help" && ok ||
    bad "installed mbgen --help does not name _data.c and its data directory $P/share/mbgen: $(tail -n 4 "$tmp/help")"

# ---- the installed mbgen from another directory, on a model file elsewhere
mkdir -p "$tmp/elsewhere" "$tmp/work/sub"
cp models/andrews.lua "$tmp/elsewhere/my squeezer.lua"
(cd "$tmp/work/sub" && mbgen "../../elsewhere/my squeezer.lua" -o .. >"$tmp/out" 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ -f "$tmp/work/andrews.c" ] && [ -f "$tmp/work/andrews.h" ] && [ -f "$tmp/work/andrews_data.c" ]; then ok
else bad "installed mbgen from another directory: exit $rc: $(cat "$tmp/out")"; fi
for f in andrews.c andrews.h andrews_data.c; do   # the same files as the tree's, but the banner's path
    cmp -s <(grep -v '^ \* Generated by mbgen' "$tmp/work/$f") <(grep -v '^ \* Generated by mbgen' "generated/$f") &&
        ok || bad "installed mbgen wrote a different $f than generated/$f"
    grep -q "^ \* Generated by mbgen $ver from ../../elsewhere/my squeezer.lua (options: none)\.$" "$tmp/work/$f" &&
        ok || bad "$f: banner: $(grep -m 1 'Generated by' "$tmp/work/$f")"
done
# copied alone: the compiled-in PREFIX/share/mbgen
mkdir -p "$tmp/lone"; cp "$P/bin/mbgen" "$tmp/lone/mbgen"
"$tmp/lone/mbgen" models/double_pendulum.lua --check >"$tmp/out" 2>&1 && ok || bad "a copy of the installed mbgen: $(cat "$tmp/out")"
# MBGEN_DATADIR: an override that works, and one that does not (exit 2, the path named)
MBGEN_DATADIR=$root mbgen models/double_pendulum.lua --check >"$tmp/out" 2>&1 && ok || bad "MBGEN_DATADIR=$root: $(cat "$tmp/out")"
MBGEN_DATADIR=$tmp/nowhere mbgen models/double_pendulum.lua --check >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q "cannot find the generator's Lua modules (no $tmp/nowhere/generator/main.lua); set MBGEN_DATADIR" "$tmp/out" &&
    ok || bad "MBGEN_DATADIR without a generator: exit $rc: $(cat "$tmp/out")"

# ---- README's program, with README's compile line, from the installed files only
awk '/^```c$/ { getline; if ($0 ~ /^\/\* main\.c - /) { p = 1 } } p && /^```$/ { exit } p' README.md >"$tmp/work/main.c"
[ -s "$tmp/work/main.c" ] && ok || bad "README.md has no \`\`\`c block starting with /* main.c"
cline=$(grep -m 1 '^cc .*\$(pkg-config --cflags mbrt) .*\$(pkg-config --libs mbrt)' README.md | sed 's/ *#.*//')
want=$(grep -m 1 '^\./andrews_demo ' README.md | sed 's/^[^#]*# *//')
mline=$(grep -m 1 '^mbgen /usr/local/share/mbgen/models/andrews.lua -o \.' README.md | sed 's/ *#.*//')
if [ -n "$cline" ] && [ -n "$want" ] && [ -n "$mline" ]; then ok; else bad "README.md lacks the mbgen, cc or ./andrews_demo line"; fi
rm -f "$tmp/work"/andrews*.[ch]
(cd "$tmp/work" && eval "${mline//\/usr\/local/$P}") >"$tmp/out" 2>&1 && ok || bad "README's mbgen line: $(cat "$tmp/out")"
if (cd "$tmp/work" && eval "$cline") >"$tmp/out" 2>&1; then ok
else bad "README's compile line failed in $tmp/work: $cline: $(head -n 5 "$tmp/out")"; fi
got=$(cd "$tmp/work" && ./andrews_demo 2>&1)
[ "$got" = "$want" ] && ok || bad "README's program printed '$got', README says '$want'"
# the in-tree line: the runtime's sources, -DMB_NO_LAPACKE (run where runtime/ and generated/ are)
tline=$(grep -m 1 '^cc .*-DMB_NO_LAPACKE .*runtime/\*\.c' README.md)
mkdir -p "$tmp/tree"; ln -s "$root/runtime" "$tmp/tree/runtime"; ln -s "$root/generated" "$tmp/tree/generated"
cp "$tmp/work/main.c" "$tmp/tree/"
if [ -n "$tline" ] && (cd "$tmp/tree" && eval "$tline") >"$tmp/out" 2>&1 &&
   [ "$(cd "$tmp/tree" && ./andrews_demo)" = "$want" ]; then ok
else bad "README's in-tree line: '$tline': $(head -n 5 "$tmp/out")"; fi

# ---- the prefix moved: mbgen finds share/mbgen beside itself
mv "$P" "$tmp/moved"
"$tmp/moved/bin/mbgen" models/double_pendulum.lua --check >"$tmp/out" 2>&1 && ok || bad "moved prefix: $(cat "$tmp/out")"
mv "$tmp/moved" "$P"

# ---- uninstall: no file left, our directories gone
mk uninstall PREFIX="$P" >"$tmp/uninstall.log" 2>&1 && ok || bad "make uninstall failed: $(tail -n 5 "$tmp/uninstall.log")"
left=$(find "$P" \( -type f -o -type l \) 2>/dev/null)
[ -z "$left" ] && ok || bad "make uninstall left: $left"
[ ! -e "$P/share/mbgen" ] && [ ! -e "$P/include/mb" ] && ok || bad "make uninstall left share/mbgen or include/mb"

# ---- DESTDIR staging
D=$tmp/stage; SP=/opt/mbgen-test-$$
mk install DESTDIR="$D" PREFIX="$SP" >"$tmp/install.log" 2>&1 && ok || bad "make install DESTDIR: $(tail -n 5 "$tmp/install.log")"
[ ! -e "$SP" ] && ok || bad "make install DESTDIR=$D wrote $SP"
[ -f "$D$SP/bin/mbgen" ] && [ -f "$D$SP/lib/libmbrt.a" ] && [ -f "$D$SP/include/mb/mb_sim.h" ] && ok ||
    bad "DESTDIR install incomplete: $(cd "$D" && find . -type f | head)"
grep -qx "prefix=$SP" "$D$SP/lib/pkgconfig/mbrt.pc" && ok || bad "mbrt.pc under DESTDIR: $(head -n 1 "$D$SP/lib/pkgconfig/mbrt.pc")"
"$D$SP/bin/mbgen" models/double_pendulum.lua -o "$tmp/staged" >"$tmp/out" 2>&1 && [ -f "$tmp/staged/double_pendulum.c" ] &&
    ok || bad "the staged mbgen: $(cat "$tmp/out")"
# the staged tree through pkg-config's sysroot
(cd "$tmp/work" && rm -f andrews_demo && export PKG_CONFIG_SYSROOT_DIR="$D" PKG_CONFIG_PATH="$D$SP/lib/pkgconfig" && eval "$cline") \
    >"$tmp/out" 2>&1 && [ "$(cd "$tmp/work" && ./andrews_demo)" = "$want" ] && ok ||
    bad "README's line against the staged tree (PKG_CONFIG_SYSROOT_DIR): $(head -n 5 "$tmp/out")"
mk uninstall DESTDIR="$D" PREFIX="$SP" >"$tmp/uninstall.log" 2>&1 && ok || bad "make uninstall DESTDIR: $(tail -n 5 "$tmp/uninstall.log")"
left=$(find "$D" \( -type f -o -type l \) 2>/dev/null)
[ -z "$left" ] && ok || bad "make uninstall DESTDIR left: $left"

# ---- PREFIX that make or a C string cannot carry: refused, nothing written
for bp in "relative/dir" "$tmp/with space" "$tmp/q\"uote"; do
    mk install PREFIX="$bp" >"$tmp/out" 2>&1
    rc=$?
    [ "$rc" -ne 0 ] && grep -q "make install: PREFIX" "$tmp/out" && [ ! -e "$bp" ] && ok ||
        bad "make install PREFIX='$bp': exit $rc: $(tail -n 2 "$tmp/out")"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
