#!/usr/bin/env bash
# model.sh - resolve the MODEL and DEFS of `make sim|run|mcu-build|mcu-measure` into the
# model file, its C name and where its generated C lives. Called by mk/tools.mk; prints shell
# assignments for the recipe to eval, or an error naming the file and exits 1 (nothing written).
#
# Usage: scripts/model.sh MODEL [DEFS [MBGEN_FLAGS]]
#   MODEL  a name (models/NAME.lua), a file NAME.lua (./NAME.lua, else models/NAME.lua) or a path
#          (relative to this directory or absolute; ".lua" may be left out)
#   DEFS   "NAME=VALUE ..." generation parameters (mbgen -D), e.g. "N=100"
#   MBGEN_FLAGS  more mbgen options: --redundant report|remove, --linalg unrolled|compact|auto,
#          --no-fused, --fused (others are refused); like DEFS they make a variant, named after them
#          ("--redundant remove" -> andrews_redundant_remove)
# Env: MBGEN (default build/mbgen), BUILD (default build), SHIPPED (the shipped models' names),
#      TESTSIMS (the names of the test suite's own simulators, $BUILD/<name>_sim).
# Prints:
#   MODEL_FILE=<the model file>  MODEL_BASE=<its name statement, else its file name>
#   MODEL_NAME=<the C name>: MODEL_BASE, or with DEFS MODEL_BASE_<NAME><VALUE>... (the variant:
#              "N=100" -> chain_N100; in values '-' is written m, '.' p, '+' dropped), then
#              _<flag words> for MBGEN_FLAGS
#   MODEL_DIR=<where its C is>: generated (a shipped model as committed: models/<m>.lua, no DEFS,
#              unchanged since git's HEAD) or $BUILD/models (any other model file, an edited
#              shipped model, every variant: generated/ is never touched)
#   MODEL_OPTS=<mbgen options>: the -D options, and --name MODEL_NAME for a variant
set -u -f   # -f: DEFS words are never globs
mbgen=${MBGEN:-build/mbgen}
build=${BUILD:-build}
shipped=" ${SHIPPED:-} "
testsims=" ${TESTSIMS:-} "
die() { echo "make: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 3 ] || { echo "usage: scripts/model.sh MODEL [DEFS [MBGEN_FLAGS]]" >&2; exit 2; }
model=$1 defs=${2:-} flags=${3:-}
[ -n "$model" ] || die "MODEL is empty (a name in models/, a .lua file or a path)"
[ -x "$mbgen" ] || die "$mbgen is not built (make $mbgen)"

# ---- the file
case "$model" in
    */*) file=$model
         [ -e "$file" ] || [ ! -e "$file.lua" ] || file=$file.lua
         [ -e "$file" ] || die "$file not found (MODEL=$model)" ;;
    *.lua) if [ -e "$model" ]; then file=$model
           elif [ -e "models/$model" ]; then file=models/$model
           else die "$model not found (nor models/$model)"; fi ;;
    *)  file=models/$model.lua
        if [ ! -e "$file" ]; then
            avail=$(ls models 2>/dev/null | sed -n 's/\.lua$//p' | tr '\n' ' ')
            die "$file not found (MODEL=$model: a name in models/, a .lua file or a path; models/ has: ${avail% })"
        fi ;;
esac
[ -f "$file" ] || die "$file is not a regular file"
[ -r "$file" ] || die "$file is not readable"
# make takes file names as words: no space, no $ : % # * ? ~ ; = quotes or backslashes
case "$file" in
    *[!A-Za-z0-9._/+@-]*) die "$file: make cannot take this path (only letters, digits and ._/+@- pass); copy the file to models/, or run $mbgen on it directly (docs/cli.md)" ;;
esac

# ---- the generation parameters
opts=() tag=""
if [ -n "$defs" ]; then
    sorted=$(printf '%s\n' $defs | LC_ALL=C sort)
    for d in $sorted; do
        name=${d%%=*} value=${d#*=}
        [ "$name" != "$d" ] || die "DEFS: '$d' is not NAME=VALUE"
        [[ "$name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "DEFS: '$name' is not an identifier"
        [[ "$value" =~ ^[-+.0-9A-Za-z]+$ ]] || die "DEFS: $name=$value is not a number"
        opts+=(-D "$name=$value")
        v=${value//-/m}; v=${v//./p}; v=${v//+/}
        tag=${tag}_$name$v
    done
fi

# ---- more mbgen options (MBGEN_FLAGS): those that change the generated code, each checked
if [ -n "$flags" ]; then
    set -- $flags
    while [ $# -gt 0 ]; do
        case "$1" in
            --redundant|--linalg)
                [ $# -ge 2 ] || die "MBGEN_FLAGS: $1 needs a value"
                case "$1 $2" in
                    "--redundant report"|"--redundant remove"|"--linalg unrolled"|"--linalg compact"|"--linalg auto") ;;
                    *) die "MBGEN_FLAGS: $1 $2: expected --redundant report|remove or --linalg unrolled|compact|auto" ;;
                esac
                opts+=("$1" "$2"); tag=${tag}_${1#--}_$2; shift 2 ;;
            --no-fused) opts+=("$1"); tag=${tag}_no_fused; shift ;;
            --fused) opts+=("$1"); tag=${tag}_fused; shift ;;
            *) die "MBGEN_FLAGS: '$1' is not one of --redundant MODE, --linalg FORM, --no-fused, --fused (DEFS gives -D; make chooses -o and --name)" ;;
        esac
    done
fi

# ---- the name the model declares (mbgen checks the file and the parameters; its errors name
# the file and line)
out=$("$mbgen" "$file" "${opts[@]}" --check) || exit 1
base=${out%%:*}
[[ "$base" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "$file: unexpected mbgen --check output: $out"
cname=$base$tag
if [ -n "$tag" ]; then
    "$mbgen" "$file" "${opts[@]}" --name "$cname" --check >/dev/null || exit 1
    opts+=(--name "$cname")
fi

# ---- committed or built. A shipped model's own file uses generated/ only when it is the
# committed file (git: unchanged since HEAD; without git: not newer than generated/<m>.c);
# an edited one is generated into $build/models like any other file: only `make generate`
# writes generated/ from an edited model.
unchanged() {   # 1: models/<m>.lua as generated/ was made from it
    local f=models/$1.lua
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && git ls-files --error-unmatch -- "$f" >/dev/null 2>&1; then
        git diff --quiet HEAD -- "$f" 2>/dev/null
    else
        [ -e "generated/$1.c" ] && [ ! "$f" -nt "generated/$1.c" ]
    fi
}
dir=$build/models
if [ -z "$tag" ] && [[ "$shipped" == *" $base "* ]] && [ -e "models/$base.lua" ] &&
   [ "$(realpath -- "$file")" = "$(realpath -- "models/$base.lua")" ]; then
    if unchanged "$base"; then dir=generated
    else echo "make: models/$base.lua differs from the committed model: generated into $build/models (make generate updates generated/)" >&2; fi
elif [[ "$shipped" == *" $cname "* ]]; then
    die "$file declares the name '$cname' of the shipped model models/$cname.lua; its C and $build/${cname}_sim would be taken for the shipped model's: give it another name statement"
elif [[ "$testsims" == *" $cname "* ]]; then
    die "$file declares the name '$cname' of a test model; $build/${cname}_sim is the test suite's simulator (make test): give it another name statement"
fi

printf 'MODEL_FILE=%s\nMODEL_BASE=%s\nMODEL_NAME=%s\nMODEL_DIR=%s\nMODEL_OPTS="%s"\n' \
    "$file" "$base" "$cname" "$dir" "${opts[*]}"
