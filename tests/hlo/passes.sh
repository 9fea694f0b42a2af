#!/bin/sh
# passes.sh - the HLO pass pipeline keeps meaning: every module of
# tests/hlo/ and every func of kernels/graph/ goes through
# --emit=hlo-opt --check-passes (evaluated before the passes and after
# each one that changes it, on two input seeds) on the small and v6e
# presets, and the optimised text reads back and prints identically.
#
# Environment: PALLASC, top_srcdir (set by make check).
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/passes.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

# one FILE PRESET SEED
one() {
	n=$((n + 1))
	if ! "$PALLASC" -m "$2" --emit=hlo-opt --check-passes \
	    --input=random:"$3" "$1" >"$tmp/opt.hlo" 2>"$tmp/err"; then
		bad "$1 ($2, seed $3): $(head -c 400 "$tmp/err")"
		return
	fi
	# modules that cannot be evaluated (custom-calls) still round-trip
	if ! "$PALLASC" --emit=hlo "$tmp/opt.hlo" >"$tmp/back.hlo" \
	    2>"$tmp/err" || ! cmp -s "$tmp/opt.hlo" "$tmp/back.hlo"; then
		bad "$1 ($2): the optimised module does not read back: \
$(head -c 400 "$tmp/err")"
	fi
}

for f in "$top_srcdir"/tests/hlo/*.hlo "$top_srcdir"/kernels/graph/*.pk; do
	for p in small v6e; do
		for s in 1 2; do
			one "$f" $p $s
		done
	done
done
echo "passes: $n runs, $fail failed"
[ "$fail" -eq 0 ]
