#!/usr/bin/env bash
# make_help.sh - what `make help` prints: the "## target: text" comments of the given make
# files (Makefile, mk/*.mk), one target a line, in the order found.
set -eu
sed -n 's/^## \([^:]*\): \(.*\)$/\1\t\2/p' "$@" |
    awk -F'\t' '{ printf "  make %-16s %s\n", $1, $2 }'
