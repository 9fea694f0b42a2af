#!/bin/sh
# tests/hlo/machine.sh - every module of tests/hlo (the importer's corpus,
# with the real XLA modules of ../shared/hlo-corpus among them) compiled
# and run on the simulator (pallasc --run: its entry as a top-level
# program, every simulator check on) on small and v4, against the
# reference evaluator (--interpret --run, the MXU's precision) on the
# same inputs.  A module the machine cannot run yet must be refused
# with a located error (exit 1), never a crash or an internal error;
# the ones that run must give the evaluator's results.  At least 8 of
# the modules run on small and 9 on v4 (what runs today), so a
# regression that refuses them fails too.
# Environment: PALLASC, top_srcdir, top_builddir (set by make check).
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"
check=${top_builddir:-.}/tests/interp/npycheck
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlomachine.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}
for p in small v4; do
	ran=0
	refused=0
	for f in "$top_srcdir"/tests/hlo/*.hlo; do
		n=$(basename "$f" .hlo)
		rm -rf "$tmp/c" "$tmp/i" && mkdir "$tmp/c" "$tmp/i" || exit 99
		"$PALLASC" -m $p --run "$f" --save-dir "$tmp/c" \
			>"$tmp/out" 2>&1
		status=$?
		if [ $status = 1 ]; then
			grep -q "^[^ ].*error: " "$tmp/out" ||
				bad "$n on $p: exit 1 without an error"
			refused=$((refused + 1))
			continue
		fi
		[ $status = 0 ] || { bad "$n on $p: exit status $status:" \
			"$(head -3 "$tmp/out")"; continue; }
		"$PALLASC" --interpret --run "$f" --save-dir "$tmp/i" \
			>/dev/null 2>&1 || { bad "$n: interpret mode fails"; continue; }
		for npy in "$tmp"/i/*.npy; do
			"$check" same "$npy" "$tmp/c/$(basename "$npy")" 1e-4 ||
				bad "$n on $p: $(basename "$npy") differs"
		done
		ran=$((ran + 1))
	done
	echo "hlo on $p: $ran modules run compiled as the evaluator does," \
		"$refused refused with an error"
	want=9
	[ $p = small ] && want=8
	[ $ran -ge $want ] || bad "only $ran modules run on $p"
done
[ $fail = 0 ]
