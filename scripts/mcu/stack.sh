#!/usr/bin/env bash
# stack.sh - worst-case stack of a linked Cortex-M image: the deepest call-graph path from ROOT.
# Usage: stack.sh ELF OBJDIRS [ROOT [INDIRECT_REGEX [IRQ_HANDLER IRQ_FRAME_BYTES]]]
#        (OBJDIRS ':'-separated; ROOT default mcu_reset)
# Frames: GCC's -fstack-usage (.su files in OBJDIR; with -flto the link's, mcu.sh) for our code, the prologue (push, vpush, sub sp)
# for library code; edges: bl and tail-call branches in the disassembly. An indirect call (blx rN)
# may reach any function matching INDIRECT_REGEX (the generated model functions, called through
# the mb_model descriptor and its plan, and the formulation table's rows). Prints "stack_bound <bytes>" and the path; "unbounded" on recursion.
# With IRQ_HANDLER, also "stack_bound_irq": the bound plus one exception (hardware frame of
# IRQ_FRAME_BYTES, 32 or 104 with the FPU context, plus the handler's own deepest path).
# STACK_TABLE (env, optional) = CALLERS_REGEX@TARGETS_REGEX[;CALLERS_REGEX@TARGETS_REGEX...]: an
# indirect call in a function matching a pair's CALLERS_REGEX may also reach its TARGETS_REGEX
# (the formulation and integrator tables' rows, each called from a few functions only: resolving
# them from every indirect call would make false cycles).
set -eu
table=${STACK_TABLE:-}
elf=$1 objdirs=$2 root=${3:-mcu_reset} indirect=${4:-^$} irq=${5:-} irqframe=${6:-0}
tmp="${elf%.elf}.stack.in"
: > "$tmp"
IFS=: read -r -a dirs <<< "$objdirs"
for d in "${dirs[@]}"; do
    cat "$d"/*.su 2> /dev/null | awk -F'\t' '{ n = split($1, a, ":"); print "SU", a[n], $2, $3 }' >> "$tmp"
done
arm-none-eabi-objdump -d --no-show-raw-insn "$elf" >> "$tmp"
awk -v root="$root" -v indirect="$indirect" -v irq="$irq" -v irqframe="$irqframe" \
    -v table="$table" '
BEGIN { np = table == "" ? 0 : split(table, pair, ";")
        for (k = 1; k <= np; k++) { tc[k] = pair[k]; sub(/@.*/, "", tc[k]); tt[k] = pair[k]; sub(/^[^@]*@/, "", tt[k]) } }
function table_hit(g, h,    k) { for (k = 1; k <= np; k++) if (g ~ tc[k] && h ~ tt[k]) return 1; return 0 }
$1 == "SU" { su[$2] = ($2 in su && su[$2] > $3) ? su[$2] : $3; if ($4 != "static") dyn[$2] = 1; next }
/^[0-9a-f]+ <[^>]+>:$/ { f = $2; gsub(/[<>:]/, "", f); funcs[f] = 1; prolog = 1; frame[f] = 0; next }
f != "" && /^ +[0-9a-f]+:\t/ {
    split($0, p, "\t"); op = p[2]; arg = p[3]
    if (prolog) {
        if (op ~ /^(push|push\.w|stmdb|stmdb\.w)$/ && (op ~ /^push/ || arg ~ /^sp!/)) {
            r = arg; sub(/^[^{]*\{/, "", r); sub(/\}.*/, "", r); frame[f] += 4 * (gsub(/,/, ",", r) + 1)
        } else if (op ~ /^(vpush|vstmdb)/) {
            r = arg; sub(/^[^{]*\{/, "", r); sub(/\}.*/, "", r)
            if (r ~ /-/) { split(r, q, "-"); a = substr(q[1], 2) + 0; b = substr(q[2], 2) + 0
                           frame[f] += (b - a + 1) * (r ~ /^d/ ? 8 : 4) }
            else frame[f] += (gsub(/,/, ",", r) + 1) * (r ~ /^d/ ? 8 : 4)
        } else if (op ~ /^sub(\.w|w)?$/ && arg ~ /^sp, (sp, )?#/) {
            n = arg; sub(/.*#/, "", n); frame[f] += n + 0
        } else if (op ~ /^sub/ && arg ~ /^sp, /) { unknown[f] = 1
        } else prolog = 0
    }
    if (op ~ /^bl(\.w)?$/ || op ~ /^b(eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?(\.w|\.n)?$/ ||
        op ~ /^cbn?z$/) {
        t = arg; if (t !~ /</) next
        sub(/^[^<]*</, "", t); sub(/>.*/, "", t)
        if (t ~ /\+0x/ || t == f) next             # a branch inside the function
        edge[f, ++ne[f]] = t
    } else if (op ~ /^blx$/ && arg ~ /^r/) ind[f] = 1
    else if (op ~ /^bx$/ && arg !~ /lr/) ind[f] = 1
}
function cost(g,    i, c, best, bestp, h) {
    if (g in memo) return memo[g]
    if (g in onpath) { recursive = recursive " " g; return 0 }
    onpath[g] = 1
    best = 0; bestp = ""
    for (i = 1; i <= ne[g]; i++) { c = cost(edge[g, i]); if (c > best) { best = c; bestp = path[edge[g, i]] } }
    if (g in ind) for (h in funcs) if (h ~ indirect || table_hit(g, h)) {
        c = cost(h); if (c > best) { best = c; bestp = path[h] } }
    delete onpath[g]
    # a function renamed by link-time optimization: its .su names a local made global
    # (f.lto_priv.0) f, a clone (f.constprop.0) f.constprop (the largest of such clones counts)
    gs = g; gsub(/\.lto_priv\.[0-9]+/, "", gs); sub(/\.[0-9]+$/, "", gs)
    own = (g in su) ? su[g] : (gs in su) ? su[gs] : frame[g]
    if (g in dyn || g in unknown) uncertain = uncertain " " g
    memo[g] = own + best; path[g] = g "(" own ")" (bestp == "" ? "" : " > " bestp)
    return memo[g]
}
END {
    total = cost(root)
    if (recursive != "") { print "stack_bound unbounded (recursion:" recursive ")"; exit 1 }
    print "stack_bound " total
    if (irq != "") print "stack_bound_irq " total + irqframe + cost(irq)
    print "stack_path " path[root]
    if (uncertain != "") print "stack_uncertain" uncertain
}' "$tmp"
