#!/bin/sh
# lower.sh - the graph path through the driver: the toy func lowered with
# --emit=hlo, the HLO module run with --interpret --run, and the func
# run in interpret mode directly must print the same checksums (within
# the printed precision), for generated inputs and for .npy inputs named
# by parameter name, index and instruction name; then the errors.
#
# Environment: PALLASC, top_srcdir, top_builddir (set by make check).
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"
: "${top_builddir:?top_builddir must name the build tree}"
toy=$top_srcdir/kernels/graph/toy.pk
npy=$top_builddir/tests/interp/npycheck

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lower.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

# same A B: the same lines, numbers equal to 1e-6 relative.
same() {
	awk 'NR == FNR { a[FNR] = $0; n = FNR; next }
	{
		if (!(FNR in a)) exit 1
		k = split(a[FNR], x, /[ =]/); m = split($0, y, /[ =]/)
		if (k != m) exit 1
		for (i = 1; i <= k; i++) {
			if (x[i] == y[i]) continue
			if (x[i] !~ /^-?[0-9.]+(e[-+][0-9]+)?$/) exit 1
			d = x[i] - y[i]; if (d < 0) d = -d
			s = (x[i] < 0 ? -x[i] : x[i]) + (y[i] < 0 ? -y[i] : y[i])
			if (d > 1e-6 * s + 1e-12) exit 1
		}
	}
	END { if (FNR != n) exit 1 }' "$1" "$2"
}

"$PALLASC" --emit=hlo "$toy" >"$tmp/toy.hlo" || bad "--emit=hlo: $?"
for input in iota random:5 ones zeros; do
	"$PALLASC" "$tmp/toy.hlo" --interpret --run --input=$input \
		>"$tmp/hlo.out" 2>&1 || bad "toy.hlo $input: $(cat "$tmp/hlo.out")"
	"$PALLASC" "$toy" --interpret --run --input=$input \
		>"$tmp/pk.out" 2>&1 || bad "toy.pk $input: $(cat "$tmp/pk.out")"
	grep -q "^toy: f32\[16, 32\] sum=" "$tmp/hlo.out" ||
		bad "toy.hlo $input: $(cat "$tmp/hlo.out")"
	same "$tmp/pk.out" "$tmp/hlo.out" ||
		bad "checksums differ for --input=$input:" \
		"$(cat "$tmp/pk.out" "$tmp/hlo.out")"
done

# .npy inputs: by the func's parameter name, the index, the HLO name.
"$npy" gen-matmul "$tmp" 16 64 64 3 && mkdir "$tmp/b" &&
	"$npy" gen-matmul "$tmp/b" 64 64 32 4 || exit 99
"$PALLASC" "$toy" --interpret --run --input-file x="$tmp/x.npy" \
	--input-file w1="$tmp/y.npy" --input-file w2="$tmp/b/y.npy" \
	>"$tmp/pk.out" 2>&1 || bad "toy.pk with files: $(cat "$tmp/pk.out")"
"$PALLASC" "$tmp/toy.hlo" --interpret --run --input-file x="$tmp/x.npy" \
	--input-file 1="$tmp/y.npy" --input-file Arg_2.3="$tmp/b/y.npy" \
	>"$tmp/hlo.out" 2>&1 || bad "toy.hlo with files: $(cat "$tmp/hlo.out")"
same "$tmp/pk.out" "$tmp/hlo.out" ||
	bad "checksums differ with files: $(cat "$tmp/pk.out" "$tmp/hlo.out")"
mkdir "$tmp/s" || exit 99
"$PALLASC" "$tmp/toy.hlo" --interpret --run --save-dir "$tmp/s" \
	>"$tmp/out" 2>&1 && [ -s "$tmp/s/toy.npy" ] ||
	bad "--save-dir: $(cat "$tmp/out")"

# Errors: a file naming no parameter, a kernel call (no evaluator for
# it), an .hlo input with a .pk-only level, --entry of a kernel.
"$PALLASC" "$tmp/toy.hlo" --interpret --run --input-file w9="$tmp/x.npy" \
	>/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "names no parameter" "$tmp/err" ||
	bad "unknown --input-file: $(cat "$tmp/err")"
"$PALLASC" --emit=hlo "$top_srcdir/tests/interp/checks.pk" \
	--entry twice_plus_one >"$tmp/call.hlo" 2>"$tmp/err" ||
	bad "kernel call --emit=hlo: $(cat "$tmp/err")"
grep -q 'custom_call_target="double_rows"' "$tmp/call.hlo" ||
	bad "no custom-call: $(cat "$tmp/call.hlo")"
"$PALLASC" "$tmp/call.hlo" --interpret --run >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "custom-call" "$tmp/err" ||
	bad "custom-call run: $(cat "$tmp/err")"
"$PALLASC" "$tmp/toy.hlo" --emit=sema >/dev/null 2>&1
[ $? -eq 2 ] || bad ".hlo with --emit=sema"
"$PALLASC" --emit=hlo "$top_srcdir/tests/interp/checks.pk" \
	--entry gather_rows >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "is a kernel" "$tmp/err" ||
	bad "--entry of a kernel: $(cat "$tmp/err")"

echo "lower: $fail failed"
[ $fail -eq 0 ]
