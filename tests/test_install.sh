#!/usr/bin/env bash
# test_install.sh - make install / make uninstall (mk/install.mk) into temporary prefixes:
#  - the installed tree: mbgen, its modules and templates, the headers (each compiles alone but
#    mb_sim_fields.h, a struct's member list),
#    libmbrt.a and libmbrt_float.a, mbrt.pc and mbrt_float.pc, the runtime's sources (exactly
#    the files of runtime/ and of docs/embedding.md's firmware copy list) and the firmware
#    example's solver.[ch], the man page (which names every option of mbgen --help);
#  - the installed mbgen run from another directory on a model file elsewhere generates what the
#    source tree's mbgen generates; it still works copied alone or with its prefix moved;
#    MBGEN_DATADIR overrides, and a wrong one is reported;
#  - README.md's program (the ```c block starting "/* main.c") built with README's exact
#    compile lines from the installed files plus the generated model, in an empty directory, no
#    header or library of the source tree among its dependencies: in double (mbrt.pc) and in
#    float (mbrt_float.pc), run, each output the one README states; README's in-tree line
#    (runtime sources, -DMB_NO_LAPACKE) gives the same; a float program on libmbrt.a and a
#    double one on libmbrt_float.a get MB_ERR_BUILD with nothing written;
#  - a firmware-style build from the installed runtime sources and solver.[ch] alone, with the
#    host cc and the lean switches (scripts/mcu/fw_params.sh fw_lean), double and float, runs;
#    the same lean application on libmbrt.a gets MB_ERR_BUILD;
#  - the models installed are the shipped list (not a user's file saved in models/);
#  - the Python module mbsim imported from PREFIX/lib/pythonX.Y/dist-packages builds a model with
#    the installed mbgen and runtime sources alone (the source tree hidden) and simulates it to
#    the same numbers, bit for bit, as the tree's module; uninstall removes its byte code too;
#  - the installed mbgen packs an FMU (--fmu) with the installed packer and wrapper;
#  - DESTDIR staging: files only under DESTDIR, the .pc files naming PREFIX, a build through
#    PKG_CONFIG_SYSROOT_DIR;
#  - make uninstall removes exactly what make install installed: into an empty prefix (and an
#    empty DESTDIR) only the prefix's standard directories remain; into a prefix holding other
#    software (and a file of the user's in share/mbgen/runtime) the tree is afterwards exactly
#    what it was before; bad PREFIX refused.
# Ends with "N passed, N failed".
# run.sh: alone - it saves a file in models/, which other tests list
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
for f in bin/mbgen lib/libmbrt.a lib/libmbrt_float.a lib/pkgconfig/mbrt.pc lib/pkgconfig/mbrt_float.pc \
         share/man/man1/mbgen.1 share/mbgen/generator/main.lua share/mbgen/templates/model.h.in \
         share/mbgen/models/andrews.lua share/mbgen/runtime/mb_sim.c share/mbgen/firmware/solver.c \
         include/mb/mb_sim.h include/mb/mb_model.h include/mb/mb_version.h include/mb/mb_embed.h; do
    [ -f "$P/$f" ] && ok || bad "not installed: $f"
done
# the runtime for firmware builds: every file of runtime/ (those git tracks), the same as the tree's,
# and exactly docs/embedding.md's copy list (step 2; examples/firmware/solver.[ch] in firmware/)
rt_inst=$(ls "$P/share/mbgen/runtime" | LC_ALL=C sort)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    [ "$rt_inst" = "$(git ls-files 'runtime/*' | sed 's|^runtime/||' | LC_ALL=C sort)" ] && ok ||
        bad "share/mbgen/runtime differs from the runtime/ git tracks: $(echo $rt_inst)"
fi
for f in $rt_inst; do cmp -s "runtime/$f" "$P/share/mbgen/runtime/$f" || bad "installed runtime/$f differs from the tree's"; done
step2=$(awk '/^2\. Copy into the project/ { on = 1 } /^3\. In `solver\.c`/ { on = 0 } on' docs/embedding.md)
doc_rt=$(grep -o 'mb_[a-z0-9_]*\.\(\[ch\]\|[ch]\)' <<<"$step2" | sed 's/^\(.*\)\.\[ch\]$/\1.c \1.h/' | tr ' ' '\n' |
    LC_ALL=C sort -u)
[ -n "$doc_rt" ] && [ "$rt_inst" = "$doc_rt" ] && ok ||
    bad "share/mbgen/runtime is not docs/embedding.md's copy list: only installed: $(comm -23 <(echo "$rt_inst") <(echo "$doc_rt") | tr '\n' ' ')only listed: $(comm -13 <(echo "$rt_inst") <(echo "$doc_rt") | tr '\n' ' ')"
grep -q 'examples/firmware/solver\.\[ch\]' <<<"$step2" && grep -q 'share/mbgen/runtime' <<<"$step2" &&
    grep -q 'share/mbgen/firmware' <<<"$step2" && ok ||
    bad "docs/embedding.md's step 2 does not name solver.[ch] and the installed share/mbgen/runtime, share/mbgen/firmware"
[ "$(ls "$P/share/mbgen/firmware" | tr '\n' ' ')" = "solver.c solver.h " ] &&
    cmp -s examples/firmware/solver.c "$P/share/mbgen/firmware/solver.c" && ok ||
    bad "share/mbgen/firmware is not examples/firmware/solver.[ch]: $(ls "$P/share/mbgen/firmware" | tr '\n' ' ')"
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
    # (mb_sim_fields.h is a member list, the body of a struct: mb_sim.h includes it there)
    [ "$(basename "$h")" = mb_sim_fields.h ] && continue
    if printf '#include "%s"\ntypedef int probe_nonempty;\n' "$(basename "$h")" |
        cc -std=c99 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$P/include/mb" -x c - 2>"$tmp/err"; then ok
    else bad "installed $(basename "$h") does not compile alone: $(head -n 3 "$tmp/err")"; fi
    # after <complex.h> (its macro I; lapacke.h includes it): no parameter name a standard
    # header's macro can take
    if printf '#include <complex.h>\n#include "%s"\ntypedef int probe_nonempty;\n' "$(basename "$h")" |
        cc -std=c99 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$P/include/mb" -x c - 2>"$tmp/err"; then ok
    else bad "installed $(basename "$h") does not compile after <complex.h>: $(head -n 3 "$tmp/err")"; fi
done
# (memcpy, memmove, memset, memcmp: what GCC requires of a freestanding environment too)
for lib in libmbrt libmbrt_float; do
    nm -u "$P/lib/$lib.a" | awk 'NF == 2 { print $2 }' | sort -u |
        grep -v -x -e 'mb_.*' -e 'mbi_.*' -e memcpy -e memset -e memmove -e memcmp -e strcmp \
            -e 'sqrtf\{0,1\}' -e 'powf\{0,1\}' -e 'fabsf\{0,1\}' -e 'sinf\{0,1\}' -e 'cosf\{0,1\}' -e 'hypotf\{0,1\}' \
            -e '__stack_chk_fail' >"$tmp/undef"
    [ ! -s "$tmp/undef" ] && ok || bad "$lib.a needs more than libc and libm: $(tr '\n' ' ' <"$tmp/undef")"
done
# the float library is float: its objects refer to single-precision libm functions
nm -u "$P/lib/libmbrt_float.a" | grep -q ' sqrtf$' && ! nm -u "$P/lib/libmbrt.a" | grep -q ' sqrtf$' && ok ||
    bad "libmbrt_float.a does not call sqrtf, or libmbrt.a does"
export PATH="$P/bin:$PATH" PKG_CONFIG_PATH="$P/lib/pkgconfig"
unset CPATH C_INCLUDE_PATH LIBRARY_PATH PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR
[ "$(pkg-config --cflags mbrt | sed 's/ *$//')" = "-I$P/include/mb" ] && ok || bad "pkg-config --cflags mbrt: $(pkg-config --cflags mbrt)"
[ "$(pkg-config --libs mbrt | sed 's/ *$//')" = "-L$P/lib -lmbrt -lm" ] && ok || bad "pkg-config --libs mbrt: $(pkg-config --libs mbrt)"
[ "$(pkg-config --cflags mbrt_float | sed 's/ *$//')" = "-I$P/include/mb -DMB_FLOAT" ] && ok ||
    bad "pkg-config --cflags mbrt_float: $(pkg-config --cflags mbrt_float)"
[ "$(pkg-config --libs mbrt_float | sed 's/ *$//')" = "-L$P/lib -lmbrt_float -lm" ] && ok ||
    bad "pkg-config --libs mbrt_float: $(pkg-config --libs mbrt_float)"
ver=$("$root/build/mbgen" --version | awk '{ print $2 }')
for pc in mbrt mbrt_float; do
    [ "$(pkg-config --modversion $pc)" = "$ver" ] && ok || bad "$pc.pc version $(pkg-config --modversion $pc), mbgen $ver"
done
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

# ---- README's program, with README's compile lines, from the installed files only: an empty
# directory, the installed mbgen, pkg-config on the installed .pc files (no CPATH, no -I or -L
# into the source tree: cc -M shows what a compile reads)
W=$tmp/readme
mkdir -p "$W"
awk '/^```c$/ { getline; if ($0 ~ /^\/\* main\.c - /) { p = 1 } } p && /^```$/ { exit } p' README.md >"$W/main.c"
[ -s "$W/main.c" ] && ok || bad "README.md has no \`\`\`c block starting with /* main.c"
cline=$(grep -m 1 '^cc .*\$(pkg-config --cflags mbrt) .*\$(pkg-config --libs mbrt)' README.md | sed 's/ *#.*//')
want=$(grep -m 1 '^\./andrews_demo ' README.md | sed 's/^[^#]*# *//')
fline=$(grep -m 1 '^cc .*\$(pkg-config --cflags mbrt_float) .*\$(pkg-config --libs mbrt_float)' README.md | sed 's/ *#.*//')
fwant=$(grep -m 1 '^\./andrews_float ' README.md | sed 's/^[^#]*# *//')
mline=$(grep -m 1 '^mbgen /usr/local/share/mbgen/models/andrews.lua -o \.' README.md | sed 's/ *#.*//')
if [ -n "$cline" ] && [ -n "$want" ] && [ -n "$fline" ] && [ -n "$fwant" ] && [ -n "$mline" ]; then ok
else bad "README.md lacks the mbgen line, a cc line for mbrt or mbrt_float, or ./andrews_demo, ./andrews_float"; fi
(cd "$W" && eval "${mline//\/usr\/local/$P}") >"$tmp/out" 2>&1 && ok || bad "README's mbgen line: $(cat "$tmp/out")"
# from_prefix WHAT DIR ARGS...: the compile of ARGS (cc -M) in DIR reads installed headers and none
# of the source tree
from_prefix() {
    local what=$1 dir=$2
    shift 2
    (cd "$dir" && cc -M "$@") >"$tmp/deps" 2>&1
    if grep -q "$P/.*/mb_sim\.h" "$tmp/deps" && ! grep -qF "$root/" "$tmp/deps"; then ok
    else bad "$what: not (only) from $P: $(grep -oE "[^ ]*($root|$P)/[^ ]*" "$tmp/deps" | head -n 3 | tr '\n' ' ')$(head -n 2 "$tmp/deps")"; fi
}
for v in double float; do
    if [ "$v" = double ]; then line=$cline exe=andrews_demo expect=$want pc=mbrt; else line=$fline exe=andrews_float expect=$fwant pc=mbrt_float; fi
    if (cd "$W" && eval "$line") >"$tmp/out" 2>&1; then ok
    else bad "README's $v compile line failed in $W: $line: $(head -n 5 "$tmp/out")"; fi
    got=$(cd "$W" && "./$exe" 2>&1)
    [ "$got" = "$expect" ] && ok || bad "README's program in $v printed '$got', README says '$expect'"
    from_prefix "README's $v program" "$W" $(pkg-config --cflags $pc) main.c andrews.c
    # the link takes the installed library
    (cd "$W" && eval "${line/#cc /cc -Wl,--trace }") >"$tmp/trace" 2>&1
    grep -q "$P/lib/lib$pc\.a" "$tmp/trace" && ! grep -qF "$root/" "$tmp/trace" && ok ||
        bad "README's $v program does not link $P/lib/lib$pc.a alone: $(grep -m 3 'libmbrt' "$tmp/trace")"
done
[ "$(cd "$W" && ./andrews_demo)" != "$(cd "$W" && ./andrews_float)" ] && ok ||
    bad "the float program printed what the double one did: is it float?"
# a program compiled in one precision on the other's library: MB_ERR_BUILD, nothing written
cat >"$W/mix.c" <<'EOC'
#include <stdio.h>
#include <string.h>
#include "andrews.h"
#include "mb_sim.h"
static struct { mb_sim_storage sim; unsigned char guard[512]; } g;   /* the guard: a bigger mb_sim */
static unsigned char before[sizeof g];
static double work[8192];
int main(void)
{
    mb_params p;
    memset(&p, 0, sizeof p);
    memset(&g, 0xa5, sizeof g);
    memcpy(before, &g, sizeof g);
    mb_params_default(&p, MB_ALF_TRAPEZOID);
    int st = mb_sim_init(mb_sim_of(&g.sim), &andrews_model, &p, work, sizeof work);
    printf("init %d build %d written %d\n", st, st == MB_ERR_BUILD, memcmp(before, &g, sizeof g) != 0);
    return 0;
}
EOC
mix() {   # cflags' pc, libs' pc: mix.c's line of output
    (cd "$W" && cc -std=c99 -Wall -Wextra -Werror $(pkg-config --cflags "$1") mix.c andrews.c \
        $(pkg-config --libs "$2") -o "mix_$1_$2" && "./mix_$1_$2") 2>&1
}
[ "$(mix mbrt_float mbrt)" = "init -14 build 1 written 0" ] && ok ||
    bad "a float program on libmbrt.a: '$(mix mbrt_float mbrt)', want MB_ERR_BUILD and nothing written"
[ "$(mix mbrt mbrt_float)" = "init -14 build 1 written 0" ] && ok ||
    bad "a double program on libmbrt_float.a: '$(mix mbrt mbrt_float)', want MB_ERR_BUILD and nothing written"
[ "$(mix mbrt_float mbrt_float)" = "init 0 build 0 written 1" ] && ok ||
    bad "a float program on libmbrt_float.a: '$(mix mbrt_float mbrt_float)', want init 0"
# the in-tree line: the runtime's sources, -DMB_NO_LAPACKE (run where runtime/ and generated/ are)
tline=$(grep -m 1 '^cc .*-DMB_NO_LAPACKE .*runtime/\*\.c' README.md)
mkdir -p "$tmp/tree"; ln -s "$root/runtime" "$tmp/tree/runtime"; ln -s "$root/generated" "$tmp/tree/generated"
cp "$W/main.c" "$tmp/tree/"
if [ -n "$tline" ] && (cd "$tmp/tree" && eval "$tline") >"$tmp/out" 2>&1 &&
   [ "$(cd "$tmp/tree" && ./andrews_demo)" = "$want" ]; then ok
else bad "README's in-tree line: '$tline': $(head -n 5 "$tmp/out")"; fi

# ---- a firmware-style build from the installed runtime sources and solver.[ch] alone (docs/
# embedding.md, "Dropping the example into a firmware project"), with the host cc and the lean
# switches of the firmware builds (scripts/mcu/fw_params.sh: only -D flags come from the tree)
F=$tmp/fw; R=$P/share/mbgen/runtime; FW=$P/share/mbgen/firmware
mkdir -p "$F"
mbgen "$P/share/mbgen/models/double_pendulum.lua" -o "$F" >"$tmp/out" 2>&1 && ok || bad "installed mbgen for the firmware: $(cat "$tmp/out")"
cat >"$F/app.c" <<'EOC'
/* a host stand-in for the firmware's periodic task */
#include <stdio.h>
#include "solver.h"
int main(void)
{
    int st = solver_init();
    if (st < 0) { printf("init %d%s\n", st, st == MB_ERR_BUILD ? " MB_ERR_BUILD" : ""); return 1; }
    for (int k = 0; k < 1000; k++) {
        st = solver_step();
        if (st < 0) { printf("step %d: %d\n", k, st); return 1; }
    }
    printf("ok dU %g\n", (double)mb_embed_energy_dev(solver_sim()));
    return 0;
}
EOC
. scripts/mcu/fw_params.sh
fwflags=(-std=c99 -Wall -Wextra -Werror -pedantic -DMB_NO_LAPACKE -ffunction-sections -fdata-sections)
for real in double float; do
    # (word splitting wanted: the -D flags, '-DMB_MATH_HEADER="mb_math.h"' one word with its quotes)
    # shellcheck disable=SC2207
    lean=($(fw_params double_pendulum alf-trapezoid $real "$F") $(fw_lean alf-trapezoid double_pendulum "$F"))
    [ "$real" = float ] && lean+=(-DMB_FLOAT)
    printf '%s\n' "${lean[@]}" | grep -qx -e -DMB_ONLY_ALF_TRAPEZOID && ok || bad "fw_lean gave no lean switches: ${lean[*]}"
    if (cd "$F" && cc "${fwflags[@]}" "${lean[@]}" -Wl,--gc-sections -I. -I"$FW" -I"$R" app.c double_pendulum.c "$FW/solver.c" "$R"/*.c \
            -lm -o "fw_$real") >"$tmp/out" 2>&1 && (cd "$F" && "./fw_$real") >>"$tmp/out" 2>&1 && grep -q '^ok dU' "$tmp/out"; then ok
    else bad "the installed runtime built lean in $real: $(head -n 5 "$tmp/out")"; fi
    from_prefix "the lean firmware build in $real" "$F" "${fwflags[@]}" "${lean[@]}" -I. -I"$FW" -I"$R" app.c double_pendulum.c \
        "$FW/solver.c" "$R"/*.c
done
# the same lean application (double) on the installed double library: its start refuses
lean=($(fw_params double_pendulum alf-trapezoid double "$F") $(fw_lean alf-trapezoid double_pendulum "$F"))
(cd "$F" && cc "${fwflags[@]}" "${lean[@]}" -I. -I"$FW" $(pkg-config --cflags mbrt) app.c double_pendulum.c "$FW/solver.c" \
    $(pkg-config --libs mbrt) -o fw_mix && ./fw_mix) >"$tmp/out" 2>&1
grep -qx 'init -14 MB_ERR_BUILD' "$tmp/out" && ok || bad "a lean application on libmbrt.a: $(head -n 3 "$tmp/out"), want MB_ERR_BUILD"

# ---- the Python module from the prefix: the installed mbgen and runtime, not the tree's
pyver=$( { /usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' ||
           python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])'; } 2>/dev/null)
pydir=lib/python$pyver/dist-packages
pyrun='import mbsim, sys; m = mbsim.Model(sys.argv[1]); r = m.simulate(0.05); print(mbsim.__file__); print(m.library); print(" ".join("%.17g" % x for x in r.q[-1]))'
for f in __init__.py _build.py _shim.c; do
    cmp -s "python/mbsim/$f" "$P/$pydir/mbsim/$f" && ok || bad "not installed as in the tree: $pydir/mbsim/$f"
done
mkdir -p "$tmp/pyrun"
(cd "$tmp/pyrun" && env -u MBSIM_MBGEN -u MBSIM_RUNTIME -u MBGEN_DATADIR -u PYTHONDONTWRITEBYTECODE PYTHONPATH="$P/$pydir" MBSIM_CACHE="$tmp/pycache" \
    /usr/bin/python3 -c "$pyrun" "$P/share/mbgen/models/cartpole.lua") >"$tmp/py_inst" 2>&1 &&
(cd "$tmp/pyrun" && PYTHONPATH="$root/python" MBSIM_CACHE="$tmp/pycache_tree" PYTHONDONTWRITEBYTECODE=1 \
    /usr/bin/python3 -c "$pyrun" "$root/models/cartpole.lua") >"$tmp/py_tree" 2>&1 &&
[ "$(sed -n 1p "$tmp/py_inst")" = "$P/$pydir/mbsim/__init__.py" ] && [ -n "$(sed -n 3p "$tmp/py_inst")" ] &&
[ "$(sed -n 3p "$tmp/py_inst")" = "$(sed -n 3p "$tmp/py_tree")" ] && ok ||
    bad "the installed Python module: $(tail -n 3 "$tmp/py_inst" | tr '\n' ' ') against the tree's: $(tail -n 1 "$tmp/py_tree")"
[ -d "$P/$pydir/mbsim/__pycache__" ] && ok || bad "python3 left no byte code in the installed module (the uninstall checks below would not see its removal)"

# ---- the FMU tooling: the installed mbgen packs an FMU with the installed packer (docs/fmi.md)
mkdir -p "$tmp/fmurun"
(cd "$tmp/fmurun" && env -u MBGEN_DATADIR "$P/bin/mbgen" "$P/share/mbgen/models/cartpole.lua" -o gen --fmu cartpole.fmu) \
    >"$tmp/fmu_out" 2>&1 && unzip -l "$tmp/fmurun/cartpole.fmu" | grep -q ' binaries/linux64/cartpole\.so$' && ok ||
    bad "the installed mbgen --fmu: $(tail -n 3 "$tmp/fmu_out" | tr '\n' ' ')"

# ---- the prefix moved: mbgen finds share/mbgen beside itself
mv "$P" "$tmp/moved"
"$tmp/moved/bin/mbgen" models/double_pendulum.lua --check >"$tmp/out" 2>&1 && ok || bad "moved prefix: $(cat "$tmp/out")"
mv "$tmp/moved" "$P"

# ---- uninstall: exactly what was installed
# listing DIR: every entry under DIR with its type (f file, d directory, l link)
listing() { (cd "$1" && find . -printf '%y %p\n' | LC_ALL=C sort); }
# the prefix's standard directories (kept: other software's too), ours (share/mbgen, include/mb) gone
std_dirs=$(LC_ALL=C sort <<EOF2
d .
d ./bin
d ./include
d ./lib
d ./lib/pkgconfig
d ./lib/python$pyver
d ./$pydir
d ./share
d ./share/man
d ./share/man/man1
EOF2
)
nfiles=$(find "$P" -type f -not -path "*/__pycache__/*" | wc -l)   # (the byte code: python3's, not installed)
mk uninstall PREFIX="$P" >"$tmp/uninstall.log" 2>&1 && ok || bad "make uninstall failed: $(tail -n 5 "$tmp/uninstall.log")"
grep -qx "make uninstall: removing the $nfiles files make install installs under $P" "$tmp/uninstall.log" && ok ||
    bad "make install installed $nfiles files, make uninstall says: $(head -n 1 "$tmp/uninstall.log")"
[ "$(listing "$P")" = "$std_dirs" ] && ok || bad "make uninstall into an empty prefix left: $(listing "$P" | tr '\n' ' ')"
# a prefix holding other software, and a file of the user's among ours: afterwards exactly as before
mkdir -p "$P/share/doc/other" "$P/share/mbgen/runtime"
for f in bin/other lib/libother.a lib/pkgconfig/other.pc include/other.h share/man/man1/other.1 share/doc/other/README \
         share/mbgen/runtime/my_board_port.c; do echo other >"$P/$f"; done
before=$(listing "$P")
mk install PREFIX="$P" >"$tmp/install.log" 2>&1 && ok || bad "make install over other software: $(tail -n 5 "$tmp/install.log")"
[ "$(cat "$P/share/mbgen/runtime/my_board_port.c")" = other ] && [ -f "$P/share/mbgen/runtime/mb_sim.c" ] && ok ||
    bad "make install over a user's file in share/mbgen/runtime"
mk uninstall PREFIX="$P" >"$tmp/uninstall.log" 2>&1 && ok || bad "make uninstall: $(tail -n 5 "$tmp/uninstall.log")"
[ "$(listing "$P")" = "$before" ] && ok ||
    bad "make uninstall did not restore the prefix: $(diff <(echo "$before") <(listing "$P") | grep '^[<>]' | head -n 5 | tr '\n' ' ')"
grep -qx "make uninstall: $P/share/mbgen/runtime holds other files, kept" "$tmp/uninstall.log" && ok ||
    bad "make uninstall does not say why share/mbgen/runtime is kept: $(tail -n 3 "$tmp/uninstall.log")"
for f in $(sed -n 's/^f \.\///p' <<<"$before"); do [ "$(cat "$P/$f")" = other ] || bad "make uninstall changed $f"; done
rm -rf "$P"

# ---- DESTDIR staging
D=$tmp/stage; SP=/opt/mbgen-test-$$
mk install DESTDIR="$D" PREFIX="$SP" >"$tmp/install.log" 2>&1 && ok || bad "make install DESTDIR: $(tail -n 5 "$tmp/install.log")"
[ ! -e "$SP" ] && ok || bad "make install DESTDIR=$D wrote $SP"
[ -f "$D$SP/bin/mbgen" ] && [ -f "$D$SP/lib/libmbrt.a" ] && [ -f "$D$SP/lib/libmbrt_float.a" ] &&
    [ -f "$D$SP/include/mb/mb_sim.h" ] && [ -f "$D$SP/share/mbgen/runtime/mb_sim.c" ] && ok ||
    bad "DESTDIR install incomplete: $(cd "$D" && find . -type f | head)"
for pc in mbrt mbrt_float; do
    grep -qx "prefix=$SP" "$D$SP/lib/pkgconfig/$pc.pc" && ok || bad "$pc.pc under DESTDIR: $(head -n 1 "$D$SP/lib/pkgconfig/$pc.pc")"
done
"$D$SP/bin/mbgen" models/double_pendulum.lua -o "$tmp/staged" >"$tmp/out" 2>&1 && [ -f "$tmp/staged/double_pendulum.c" ] &&
    ok || bad "the staged mbgen: $(cat "$tmp/out")"
# the staged tree through pkg-config's sysroot
(cd "$W" && rm -f andrews_demo && export PKG_CONFIG_SYSROOT_DIR="$D" PKG_CONFIG_PATH="$D$SP/lib/pkgconfig" && eval "$cline") \
    >"$tmp/out" 2>&1 && [ "$(cd "$W" && ./andrews_demo)" = "$want" ] && ok ||
    bad "README's line against the staged tree (PKG_CONFIG_SYSROOT_DIR): $(head -n 5 "$tmp/out")"
(cd "$W" && rm -f andrews_float && export PKG_CONFIG_SYSROOT_DIR="$D" PKG_CONFIG_PATH="$D$SP/lib/pkgconfig" && eval "$fline") \
    >"$tmp/out" 2>&1 && [ "$(cd "$W" && ./andrews_float)" = "$fwant" ] && ok ||
    bad "README's float line against the staged tree (PKG_CONFIG_SYSROOT_DIR): $(head -n 5 "$tmp/out")"
mk uninstall DESTDIR="$D" PREFIX="$SP" >"$tmp/uninstall.log" 2>&1 && ok || bad "make uninstall DESTDIR: $(tail -n 5 "$tmp/uninstall.log")"
# an empty DESTDIR: PREFIX's path and its standard directories remain, nothing else
want_d=$( (d=.; for c in $(tr / ' ' <<<"$SP"); do d=$d/$c; echo "d $d"; done; sed "s|^d \.|d .$SP|" <<<"$std_dirs"; echo "d .") |
    LC_ALL=C sort -u)
[ "$(listing "$D")" = "$want_d" ] && ok || bad "make uninstall DESTDIR left: $(diff <(echo "$want_d") <(listing "$D") | grep '^[<>]' | head -n 5 | tr '\n' ' ')"

# ---- PREFIX that make or a C string cannot carry: refused, nothing written
for bp in "relative/dir" "$tmp/with space" "$tmp/q\"uote"; do
    mk install PREFIX="$bp" >"$tmp/out" 2>&1
    rc=$?
    [ "$rc" -ne 0 ] && grep -q "make install: PREFIX" "$tmp/out" && [ ! -e "$bp" ] && ok ||
        bad "make install PREFIX='$bp': exit $rc: $(tail -n 2 "$tmp/out")"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
