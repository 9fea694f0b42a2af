#!/bin/sh
# run.sh - pallasc --interpret --run end to end: inputs written as .npy
# files (tests/interp/npycheck), the kernel run by the driver with
# --input-file and --save-dir, the saved outputs checked against the
# plain-C references; then the driver's checksums, error exits and
# usage errors.
#
# Environment: PALLASC, top_srcdir, top_builddir (set by make check).
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"
: "${top_builddir:?top_builddir must name the build tree}"
check=$top_builddir/tests/interp/npycheck

tmp=$(mktemp -d "${TMPDIR:-/tmp}/interp.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

# 1. matmul_f32 with inputs from .npy files, output saved and checked.
"$check" gen-matmul "$tmp" 256 256 256 7 || exit 99
"$PALLASC" --interpret --run "$top_srcdir/tests/interp/matmul_small.pk" \
	--entry matmul_f32_small --input-file x="$tmp/x.npy" \
	--input-file=y="$tmp/y.npy" --save-dir "$tmp" >"$tmp/out" 2>&1 ||
	bad "matmul_f32_small: exit status $?: $(cat "$tmp/out")"
grep -q "wrote $tmp/z.npy" "$tmp/out" || bad "matmul: no 'wrote' line"
"$check" matmul "$tmp" 1e-6 || bad "matmul_f32_small: wrong result"

# 2. Splash with the causal tables from the host helper.
mkdir "$tmp/s" || exit 99
"$check" gen-splash "$tmp/s" 2 1 256 128 3 || exit 99
"$PALLASC" --interpret --run "$top_srcdir/kernels/splash/splash.pk" \
	--entry splash_fwd_small --splash-causal --input-file q="$tmp/s/q.npy" \
	--input-file k="$tmp/s/k.npy" --input-file v="$tmp/s/v.npy" \
	--save-dir "$tmp/s" --shuffle=5 >"$tmp/out" 2>&1 ||
	bad "splash_fwd_small: exit status $?: $(cat "$tmp/out")"
"$check" splash "$tmp/s" 1e-5 || bad "splash_fwd_small: wrong result"

# 2b. --splash-mask builds the tables of the mask the export applies;
# the tables of another mask are refused (they would give wrong numbers),
# as is a mask that does not parse.
shapes=$top_srcdir/tests/interp/splash_shapes.pk
"$PALLASC" --interpret --run "$shapes" --entry splash_local_20_36 \
	--splash-mask=local:20,36,3 >"$tmp/out" 2>&1 ||
	bad "--splash-mask=local:20,36,3: exit status $?: $(cat "$tmp/out")"
for m in causal local:20,36 chunked:7; do
	"$PALLASC" --interpret --run "$shapes" --entry splash_local_20_36 \
		--splash-mask=$m >"$tmp/out" 2>&1
	status=$?
	[ $status -ne 0 ] || bad "--splash-mask=$m on a local export: exit 0"
	grep -q "splash-mask=$m builds the tables of .*, but 'splash_fwd' \
applies local:20,36,3: its tables would give wrong numbers" "$tmp/out" ||
		bad "--splash-mask=$m on a local export: $(cat "$tmp/out")"
done
"$PALLASC" --interpret --run "$shapes" --entry splash_local_20_36 \
	--splash-mask=local:20 >"$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q "error: --splash-mask=local:20: column" "$tmp/out" ||
	bad "--splash-mask=local:20: $(cat "$tmp/out")"

# 2c. With --splash-mask, other SMEM tables still come from --smem: a
# WITH_SINKS export's sinks, which rows with no key (the first 40 of
# causal:-40) have alone, so their lse is the sink, in both modes.
"$check" table "$tmp/sinks.npy" f32 1.5 -2.0 || exit 99
for mode in --interpret ""; do
	# shellcheck disable=SC2086
	"$PALLASC" -m small $mode --run "$shapes" --entry splash_sinks \
		--splash-mask=causal:-40 --smem sinks="$tmp/sinks.npy" \
		>"$tmp/out" 2>&1 || bad "splash_sinks $mode: exit status $?"
	grep -A1 "^lse:" "$tmp/out" | grep -q "first: 1.5 1.5 1.5 1.5 " ||
		bad "splash_sinks $mode: empty rows' lse: $(cat "$tmp/out")"
done

# refused ENTRY MASK TEXT: --splash-mask=MASK on ENTRY (small, interpret
# mode) fails, with TEXT in its message.
refused() {
	"$PALLASC" -m small --interpret --run "$shapes" --entry "$1" \
		--splash-mask="$2" >"$tmp/out" 2>&1 && bad "--splash-mask=$2 on $1: exit 0"
	grep -q "$3" "$tmp/out" || bad "--splash-mask=$2 on $1: $(cat "$tmp/out")"
}

# 2d. A SEGMENTS export takes its ids from the files --splash-mask names:
# with one segment it keeps every pair, as splash_full on the same
# inputs (small: both are H 2, S 256, D 32), in both modes.
# shellcheck disable=SC2046
"$check" table "$tmp/one.npy" $(awk 'BEGIN { for (i = 0; i < 256; i++)
	printf "0 " }') || exit 99
"$check" table "$tmp/short.npy" 0 0 0 || exit 99
for mode in --interpret ""; do
	# shellcheck disable=SC2086
	"$PALLASC" -m small $mode --run "$shapes" --entry splash_full \
		--splash-mask=full >"$tmp/full" 2>&1 ||
		bad "splash_full $mode: exit status $?"
	# shellcheck disable=SC2086
	"$PALLASC" -m small $mode --run "$shapes" --entry splash_segments \
		--splash-mask="segments:$tmp/one.npy,$tmp/one.npy" \
		>"$tmp/out" 2>&1 || bad "splash_segments $mode: exit $?"
	grep -A1 "^o:" "$tmp/full" >"$tmp/o1"
	grep -A1 "^o:" "$tmp/out" >"$tmp/o2"
	[ -s "$tmp/o1" ] && cmp -s "$tmp/o1" "$tmp/o2" ||
		bad "splash_segments $mode, one segment: $(cat "$tmp/out")"
done
for m in causal "segments:$tmp/one.npy" "segments:$tmp/one.npy,$tmp/none.npy" \
    "segments:$tmp/one.npy,$tmp/short.npy"; do
	"$PALLASC" -m small --interpret --run "$shapes" \
		--entry splash_segments --splash-mask="$m" >"$tmp/out" 2>&1
	[ $? -eq 1 ] || bad "--splash-mask=$m on segments: $(cat "$tmp/out")"
done
grep -q "error: --splash-mask: .*256" "$tmp/out" ||
	bad "segment ids of the wrong length: $(cat "$tmp/out")"
refused splash_segments causal "'splash_fwd' applies segment ids: give them with --splash-mask=segments:Q.npy,KV.npy"
refused splash_segments "segments:$tmp/one.npy" "segments takes two .npy files"
refused splash_full "segments:$tmp/one.npy,$tmp/one.npy" "builds the tables of segments:<256,256 ids>, but 'splash_fwd' applies full"

# 2e. A DENSE export takes its blocks from the mask --splash-mask=dense
# names: keys alternately dropped and kept make one distinct partial
# block; compiled and interpreted agree; a mask of another block count
# is refused, naming the count the export needs.
# agree ENTRY MASK: ENTRY with --splash-mask=MASK on small gives the same
# o and lse compiled and interpreted.
agree() {
	for mode in --interpret ""; do
		rm -rf "$tmp/a$mode" && mkdir "$tmp/a$mode" || exit 99
		# shellcheck disable=SC2086
		"$PALLASC" -m small $mode --run "$shapes" --entry "$1" \
			--splash-mask="$2" --save-dir "$tmp/a$mode" \
			>"$tmp/out" 2>&1 || bad "$1 $mode: $(cat "$tmp/out")"
	done
	for x in o lse; do
		"$check" same "$tmp/a--interpret/$x.npy" "$tmp/a/$x.npy" 1e-5 ||
			bad "$1: compiled and interpreted $x differ"
	done
}
"$check" iseq "$tmp/checker.npy" 256 256 0 2 || exit 99
agree splash_dense_1 "dense:$tmp/checker.npy"
refused splash_dense_1 "heads(local:20,36,3)" "the mask has 4 distinct partial blocks of 32 x 32, but 'splash_fwd' stores at most 1: export it with DENSE(4)"
refused splash_dense causal "'splash_fwd' applies a mask from stored blocks: give a dense mask, a mask per head or the and/or of masks"

# 2f. It applies any mask made of several the same way: a mask per head,
# and/or of masks, a dense one and segment ids from files inside them,
# with fewer distinct blocks than the export has room for (splash_stored
# on small: 4 heads of 128, room for 21); compiled and interpreted agree.
# shellcheck disable=SC2046
"$check" table "$tmp/one128.npy" $(awk 'BEGIN { for (i = 0; i < 128; i++)
	printf "0 " }') || exit 99
"$check" iseq "$tmp/checker128.npy" 128 128 0 2 || exit 99
agree splash_stored "heads(causal;or(chunked:64;local:8,0,-100);and(local:48,0;segments:$tmp/one128.npy,$tmp/one128.npy);dense:$tmp/checker128.npy)"
refused splash_stored "heads(causal;causal)" "the heads mask has 2 masks, not H = 4"

# 3. Checksums of the toy func with inputs of ones: every row of h is
# constant, so softmax gives 1/64 everywhere and p @ w2 is exactly 1.
"$PALLASC" --interpret --run "$top_srcdir/tests/interp/toy.pk" --input=ones \
	>"$tmp/out" 2>&1 || bad "toy: exit status $?"
grep -q "^toy: f32\[16, 32\] sum=512 abs=512$" "$tmp/out" ||
	bad "toy checksum: $(cat "$tmp/out")"
grep -q "first: 1 1 1 1 1 1 1 1$" "$tmp/out" || bad "toy values"

# 4. A runtime error exits 1 with the diagnostic: the table makes the
# output revisit a block.
"$check" table "$tmp/t.npy" 0 1 0 1 || exit 99
"$PALLASC" --interpret --run "$top_srcdir/tests/interp/checks.pk" \
	--entry gather_rows --smem t="$tmp/t.npy" -fdiagnostics-color=never \
	>"$tmp/out" 2>"$tmp/err"
status=$?
[ $status -eq 1 ] || bad "revisit: exit status $status"
grep -q "error: output 'y' revisits block (0, 0)" "$tmp/err" ||
	bad "revisit: $(cat "$tmp/err")"

# 5. Compiled runs (--run without --interpret): the same matmul on the
# simulator, inputs from the same .npy files, checked the same way; the
# counters follow the outputs.
mkdir "$tmp/c" || exit 99
"$PALLASC" --run "$top_srcdir/tests/interp/matmul_small.pk" \
	--entry matmul_f32_small --input-file x="$tmp/x.npy" \
	--input-file=y="$tmp/y.npy" --save-dir "$tmp/c" \
	--trace "$tmp/c/trace.json" >"$tmp/out" 2>&1 ||
	bad "compiled matmul_f32_small: exit status $?: $(cat "$tmp/out")"
cp "$tmp/x.npy" "$tmp/y.npy" "$tmp/c/" || exit 99
"$check" matmul "$tmp/c" 1e-6 || bad "compiled matmul_f32_small: wrong result"
grep -q "^simulated v4: [0-9]* cycles" "$tmp/out" ||
	bad "compiled matmul: no counters: $(cat "$tmp/out")"
grep -q '"traceEvents"' "$tmp/c/trace.json" || bad "compiled matmul: no trace"
# 5a. A func runs on the simulator too, its kernels (the fusion
# emitter's) as the steps of one top-level program: the same result as
# interpret mode on small and v4, a region per fusion in the counters.
for p in small v4; do
	for mode in --interpret ""; do
		rm -rf "$tmp/f$mode" && mkdir "$tmp/f$mode" || exit 99
		# shellcheck disable=SC2086
		"$PALLASC" -m $p $mode --run "$top_srcdir/tests/interp/toy.pk" \
			--save-dir "$tmp/f$mode" >"$tmp/out" 2>&1 ||
			bad "toy $p $mode: $(cat "$tmp/out")"
	done
	"$check" same "$tmp/f--interpret/toy.npy" "$tmp/f/toy.npy" 1e-5 ||
		bad "toy on $p: compiled and interpreted differ"
	grep -q "^func toy: 4 kernels in one top-level program, HBM scratch [1-9][0-9]* bytes$" \
		"$tmp/out" || bad "toy on $p: no program line: $(cat "$tmp/out")"
	grep -q "^simulated $p: [1-9][0-9]* cycles" "$tmp/out" ||
		bad "toy on $p: no counters: $(cat "$tmp/out")"
	grep -q "^  region 'jit(toy)/matmul_2/dot_general' x1:$" "$tmp/out" ||
		bad "toy on $p: no op_name region: $(cat "$tmp/out")"
	grep -q "^  region 'multiply_reduce_fusion' x1:$" "$tmp/out" ||
		bad "toy on $p: no fusion region: $(cat "$tmp/out")"
done
# At S 1024 the naive attention's fusions exceed v4's VMEM whole: the
# emitter adds a row grid (4 blocks of 256 query rows a head), v6e keeps
# them whole; both give the same result, and interpret mode's within the
# MXU's accumulation order.
"$PALLASC" -m v4 --emit=fusions -DH=2 -DS=1024 \
	"$top_srcdir/kernels/graph/attention.pk" >"$tmp/out" 2>&1 ||
	bad "attention fusions v4: $(cat "$tmp/out")"
grep -q "^grid (b: 2, i: [2-9])$" "$tmp/out" ||
	bad "attention at S 1024 on v4: no row grid: $(grep '^grid' "$tmp/out")"
for p in v4 v6e --interpret; do
	rm -rf "$tmp/r$p" && mkdir "$tmp/r$p" || exit 99
	case $p in --*) m=$p ;; *) m="-m $p" ;; esac
	# shellcheck disable=SC2086
	"$PALLASC" $m --run -DH=2 -DS=1024 \
		"$top_srcdir/kernels/graph/attention.pk" \
		--save-dir "$tmp/r$p" >"$tmp/out" 2>&1 ||
		bad "attention S 1024 $p: $(cat "$tmp/out")"
done
"$check" same "$tmp/rv4/attention.npy" "$tmp/rv6e/attention.npy" 1e-5 ||
	bad "attention S 1024: row-tiled v4 and whole v6e differ"
"$check" same "$tmp/r--interpret/attention.npy" "$tmp/rv4/attention.npy" \
	1e-3 || bad "attention S 1024: v4 and interpret mode differ"
# Funcs calling kernels (tests/interp/calls.pk): an SMEM table from a
# func parameter, a generic kernel at two sizes; each step a region.
for e in scaled two_sizes; do
	for mode in --interpret ""; do
		rm -rf "$tmp/f$mode" && mkdir "$tmp/f$mode" || exit 99
		# shellcheck disable=SC2086
		"$PALLASC" -m small $mode --run --entry $e \
			"$top_srcdir/tests/interp/calls.pk" \
			--save-dir "$tmp/f$mode" >"$tmp/out" 2>&1 ||
			bad "calls $e $mode: $(cat "$tmp/out")"
	done
	"$check" same "$tmp/f--interpret/$e.npy" "$tmp/f/$e.npy" 1e-5 ||
		bad "calls $e: compiled and interpreted differ"
	grep -q "^  region 'jit($e)/pallas_call' x[1-9]:$" "$tmp/out" ||
		bad "calls $e: no call region: $(cat "$tmp/out")"
done
# The naive attention at H 2, S 128: its fusions keep the heads as a
# grid axis, so each step holds one head's [128, 128] scores.
for p in v4 v6e; do
	for mode in --interpret ""; do
		rm -rf "$tmp/f$mode" && mkdir "$tmp/f$mode" || exit 99
		# shellcheck disable=SC2086
		"$PALLASC" -m $p $mode --run -DH=2 -DS=128 \
			"$top_srcdir/kernels/graph/attention.pk" \
			--save-dir "$tmp/f$mode" >"$tmp/out" 2>&1 ||
			bad "attention $p $mode: $(cat "$tmp/out")"
	done
	"$check" same "$tmp/f--interpret/attention.npy" \
		"$tmp/f/attention.npy" 1e-5 ||
		bad "attention on $p: compiled and interpreted differ"
done
"$PALLASC" --run "$top_srcdir/tests/interp/toy.pk" --trace "$tmp/t.json" \
	>/dev/null 2>"$tmp/err"
[ $? -eq 0 ] && grep -q '"name":"jit(toy)/softmax/reduce_max"' "$tmp/t.json" ||
	bad "compiled func with --trace: $(cat "$tmp/err")"

# 5b. The backend's loop passes change the time, not the results: a
# chunk loop run with every pass and with -fno-* gives the same
# checksums in fewer cycles.
cat >"$tmp/loop.pk" <<'EOF2'
kernel scale<R>(x: f32[R, 128], out z: f32[R, 128])
grid (i: R / 256)
semantics (parallel)
blocks { x: [256, 128] at (i, 0); z: [256, 128] at (i, 0); }
{ z[...] = where(x[...] > 0.5, x[...] * 3.0, 1.0 - x[...]); }
export scale<512>;
EOF2
"$PALLASC" --run "$tmp/loop.pk" >"$tmp/on" 2>&1 || bad "loop: $(cat "$tmp/on")"
"$PALLASC" --run -fno-cse -fno-licm -fno-modulo-sched -fno-unroll-loops \
	"$tmp/loop.pk" \
	>"$tmp/off" 2>&1 || bad "loop -fno-*: $(cat "$tmp/off")"
[ "$(grep '^z:' "$tmp/on")" = "$(grep '^z:' "$tmp/off")" ] ||
	bad "loop: results differ with -fno-*"
on=$(sed -n 's/^simulated v4: \([0-9]*\) cycles.*/\1/p' "$tmp/on")
off=$(sed -n 's/^simulated v4: \([0-9]*\) cycles.*/\1/p' "$tmp/off")
[ -n "$on" ] && [ -n "$off" ] && [ "$on" -lt "$off" ] ||
	bad "loop: $on cycles with the passes, $off without"

# 5c. Budgets are per export: in a file whose export 'bad' needs more
# VMEM than preset small has, 'good' still compiles and runs alone, with
# the interpreter's results; the whole file and 'bad' itself fail.
mixed=$top_srcdir/tests/diag/sema-vmem-budget-export.pk
"$PALLASC" -m small --run --entry good "$mixed" >"$tmp/good" 2>&1 ||
	bad "mixed: --run --entry good: $(cat "$tmp/good")"
"$PALLASC" -m small --interpret --run --entry good "$mixed" \
	>"$tmp/igood" 2>&1 || bad "mixed: --interpret: $(cat "$tmp/igood")"
grep -q '^y: f32\[64, 128\] sum=' "$tmp/good" &&
	[ "$(grep -A1 '^y:' "$tmp/good")" = \
	    "$(grep -A1 '^y:' "$tmp/igood")" ] ||
	bad "mixed: compiled and interpreted 'good' differ"
"$PALLASC" -m small -o "$tmp/mixed.o" -fdiagnostics-color=never "$mixed" \
	>/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "exported as 'bad'" "$tmp/err" &&
	[ ! -e "$tmp/mixed.o" ] || bad "mixed: -o: $(cat "$tmp/err")"
"$PALLASC" -m small --run --entry bad "$mixed" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "needs 1 MiB of VMEM" "$tmp/err" ||
	bad "mixed: --entry bad: $(cat "$tmp/err")"

# 5d. Host buffers of a user's size that do not fit the host's memory
# are an error (exit 1), not an internal one: 2 GiB of operands (they
# fit v4's HBM) with 1 GiB of address space, where x already fails.
# Skipped where the limit stops pallasc itself (sanitizer builds
# reserve much more).
cat >"$tmp/gig.pk" <<'EOF2'
kernel add<N>(x: f32[N, 1024], out y: f32[N, 1024])
grid (i: N / 8)
semantics (parallel)
blocks { x: [8, 1024] at (i, 0); y: [8, 1024] at (i, 0); }
{ y[...] = x[...] + 1.0; }
export add<262144>;
EOF2
if (ulimit -v 1048576 && "$PALLASC" --version) >/dev/null 2>&1; then
	for mode in --interpret ""; do
		# shellcheck disable=SC2086
		(ulimit -v 1048576 && exec "$PALLASC" -m v4 $mode --run \
			"$tmp/gig.pk") >/dev/null 2>"$tmp/err"
		status=$?
		[ $status -eq 1 ] && grep -q "out of host memory for 'x'" \
			"$tmp/err" || bad "gig$mode: $status: $(cat "$tmp/err")"
	done
fi

# 6. Usage errors exit 2; bad files exit 1.
toy=$top_srcdir/tests/interp/toy.pk
usage() {
	"$PALLASC" "$@" "$toy" >/dev/null 2>&1
	status=$?
	[ $status -eq 2 ] || bad "'$*': exit status $status, expected 2"
}
usage --trace t.json
usage --interpret --run --trace t.json
usage --interpret
usage --entry toy
usage --interpret --run --input=gauss
usage --interpret --run --input=zeros:3
usage --interpret --run --input-file x
usage --interpret --run --smem =f.npy
usage --interpret --run --shuffle=x
usage --interpret --run --save-dir
"$PALLASC" --interpret --run "$top_srcdir/tests/interp/toy.pk" \
	--input-file x="$tmp/missing.npy" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "cannot read" "$tmp/err" || bad "missing .npy"
"$PALLASC" --interpret --run "$top_srcdir/tests/interp/toy.pk" \
	--input-file w2="$tmp/x.npy" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "holds f32\[256, 256\], but 'w2' is f32\[64, 32\]" \
	"$tmp/err" || bad "wrong .npy shape: $(cat "$tmp/err")"
"$PALLASC" --interpret --run "$top_srcdir/tests/interp/toy.pk" \
	--input-file nope="$tmp/x.npy" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "names no input" "$tmp/err" || bad "unknown name"
"$PALLASC" --interpret --run "$top_srcdir/tests/interp/checks.pk" \
	>/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "choose one with --entry" "$tmp/err" ||
	bad "several exports: $(cat "$tmp/err")"

echo "interp driver: $fail failed"
[ $fail -eq 0 ]
