#!/bin/sh
# passes.sh - the HLO pass pipeline keeps meaning: every module of
# tests/hlo/, every func of kernels/graph/ and 300 random modules of
# hlogen.py go through --emit=hlo-opt --check-passes (evaluated before
# the passes and after each one that changes it) on the small and v6e
# presets, and the optimised text reads back and prints identically.
#
# Environment: PALLASC, top_srcdir (set by make check); PYTHON (python3),
# HLOGEN_COUNT (300), HLOGEN_SEED (1) to run more or other random modules,
# PASSES_FULL=1 to check the attention func at its full size (minutes).
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/passes.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

# one FILE PRESET SEED: attention.pk's [8,2048,2048] scores take half a
# minute per evaluation, so by default its evaluations run at H = 2,
# S = 256 (the same graph), and at full size only with PASSES_FULL=1
one() {
	n=$((n + 1))
	check="--check-passes --input=random:$3"
	case $1 in
	*/attention.pk)
		if [ -z "${PASSES_FULL:-}" ]; then
			one_run "$1" "$2" "$check -DH=2 -DS=256" || return
			check=
		fi ;;
	esac
	one_run "$1" "$2" "$check"
}

# one_run FILE PRESET FLAGS: optimise, then read the result back
one_run() {
	# shellcheck disable=SC2086
	if ! "$PALLASC" -m "$2" --emit=hlo-opt $3 "$1" >"$tmp/opt.hlo" \
	    2>"$tmp/err"; then
		bad "$1 ($2, $3): $(head -c 400 "$tmp/err")"
		return 1
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
# random modules, alternating presets
mkdir "$tmp/g" || exit 99
count=${HLOGEN_COUNT:-300} seed=${HLOGEN_SEED:-1}
"${PYTHON:-python3}" "$top_srcdir/tests/hlo/hlogen.py" "$seed" "$count" \
    "$tmp/g" || exit 99
k=0
for f in "$tmp"/g/g*.hlo; do
	k=$((k + 1))
	if [ $((k % 2)) -eq 0 ]; then p=small; else p=v6e; fi
	one "$f" $p 3
	if [ -s "$tmp/err" ] && grep -q "not checked" "$tmp/err"; then
		bad "$f: cannot be evaluated: $(head -c 300 "$tmp/err")"
	fi
done
echo "passes: $n runs, $fail failed"
[ "$fail" -eq 0 ]
