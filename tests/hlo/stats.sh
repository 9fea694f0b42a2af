#!/bin/sh
# stats.sh - --emit=hlo-stats on the seed's two programs (v6e): the
# toy's weights are prefetched into VMEM (w1 across programs), x stays
# in HBM with its reason; in the attention func a [8,2048,2048] score
# tensor is the largest intermediate left in HBM, too big for VMEM.
#
# Environment: PALLASC, top_srcdir (set by make check).
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/stats.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

# has FILE PATTERN: a line of FILE matches the extended regexp
has() {
	grep -Eq -- "$2" "$1" || bad "$(basename "$1"): no line matches '$2'"
}

g="$top_srcdir/kernels/graph"
"$PALLASC" -m v6e --emit=hlo-stats "$g/toy.pk" >"$tmp/toy" 2>&1 ||
	bad "toy.pk: $(head -c 400 "$tmp/toy")"
has "$tmp/toy" '^module jit_toy, preset v6e$'
has "$tmp/toy" '^instructions: entry [0-9]+ before, [0-9]+ after'
has "$tmp/toy" '^fusions: [0-9]+ \(kLoop [0-9]+, kInput [0-9]+, kOutput'
has "$tmp/toy" '^HBM bytes \(estimated from shapes\): unfused [0-9]+, fused'
has "$tmp/toy" '^msa: Arg_1\.2 f32\[64,64\].* -> S\(1\) .*cross-program'
has "$tmp/toy" '^msa: Arg_2\.3 f32\[64,32\].* -> S\(1\) .*prefetch: copy-start'
has "$tmp/toy" '^msa: Arg_0\.1 .* stays in HBM: live range too short'

"$PALLASC" -m v6e --emit=hlo-stats "$g/attention.pk" >"$tmp/att" 2>&1 ||
	bad "attention.pk: $(head -c 400 "$tmp/att")"
has "$tmp/att" '^largest intermediate in HBM: [^ ]+ f32\[8,2048,2048\]'
has "$tmp/att" 'f32\[8,2048,2048\].* stays in HBM: 134217728 B is more than'

# the copies of the optimised toy read back
"$PALLASC" -m v6e --emit=hlo-opt "$g/toy.pk" >"$tmp/toy.hlo" 2>&1 ||
	bad "toy.pk --emit=hlo-opt: $(head -c 400 "$tmp/toy.hlo")"
[ "$(grep -c ' copy-start(' "$tmp/toy.hlo")" -eq 2 ] ||
	bad "toy.pk: not two copy-starts"
echo "stats: $fail failed"
[ "$fail" -eq 0 ]
