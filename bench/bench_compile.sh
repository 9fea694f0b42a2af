#!/bin/sh
# bench/bench_compile.sh - the compiler's benchmarks (make bench): figures,
# not tests.
#  1. matmul 2048 x 2048 x 2048, bf16 in, f32 out, on v4
#     (kernels/matmul/matmul.pk's matmul_2048, summing in its output
#     block, and matmul_2048_acc, with an accumulator scratch): compiled
#     and run on the simulator; prints the cycles, the fraction of the
#     MXU peak (2 M N K / (cycles x peak flops a cycle)) and the static
#     bundles.
#  2. compile time of pallasc for kernels/matmul/matmul.pk, for
#     kernels/splash/splash.pk, and for one file holding all the
#     end-to-end test kernels (tests/e2e/*.pk put together), to an
#     object: the best of five runs of wall-clock time.
#  3. the loop passes: bench/loops.pk's chunk loops and Splash (causal
#     mask) on v4,
#     with every pass, with -fno-modulo-sched (no software pipelining),
#     and with no LLO pass (-fno-cse -fno-licm -fno-modulo-sched
#     -fno-unroll-loops):
#     cycles, cycles stalled in DMA waits, bundles issued.
# Environment: PALLASC (default ./pallasc), top_srcdir (default .),
# BENCH_MATMUL=0 skips the 2048^3 run.
set -u
pallasc=${PALLASC:-./pallasc}
src=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# best wall-clock milliseconds of N runs of a command
best_ms() {
	n=$1
	shift
	best=
	i=0
	while [ $i -lt "$n" ]; do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
		t1=$(date +%s%N)
		ms=$(( (t1 - t0) / 1000000 ))
		if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
		i=$((i + 1))
	done
	echo "$best"
}

if [ "${BENCH_MATMUL:-1}" != 0 ]; then
	for e in matmul_2048 matmul_2048_acc; do
		echo "== $e: 2048^3 bf16 -> f32 on v4"
		t0=$(date +%s)
		"$pallasc" -m v4 --run --entry $e --input=random:1 \
		    "$src/kernels/matmul/matmul.pk" > "$tmp/mm" 2>&1 ||
		    { cat "$tmp/mm"; exit 1; }
		t1=$(date +%s)
		grep -E '^(simulated|MXU:)' "$tmp/mm"
		echo "simulation took $((t1 - t0)) s of wall-clock time"
	done
fi

echo "== compile time (best of 5, to an object)"
cat "$src"/tests/e2e/*.pk > "$tmp/e2e-all.pk"
for f in "$src/kernels/matmul/matmul.pk" "$src/kernels/splash/splash.pk" \
    "$tmp/e2e-all.pk"; do
	for p in v4 small; do
		ms=$(best_ms 5 "$pallasc" -m $p -I "$src/tests/e2e" "$f" \
		    -o "$tmp/x.o") || exit 1
		printf '%-14s %-6s %5d ms; %3d exports, %7d bytes of object\n' \
		    "$(basename "$f")" $p "$ms" \
		    "$("$pallasc" -m $p -I "$src/tests/e2e" --emit=header "$f" |
		    grep -c ": entry '")" "$(wc -c < "$tmp/x.o")"
	done
done

echo "== loop passes on v4: cycles (stalled in waits), bundles issued"
for spec in "bench/loops.pk select_2048" "bench/loops.pk select_wide" \
    "bench/loops.pk axpy_1024" \
    "kernels/splash/splash.pk splash_fwd_small --splash-causal" \
    "kernels/splash/splash.pk splash_fwd_h4_s512 --splash-causal"; do
	set -- $spec
	for flags in "" "-fno-modulo-sched" \
	    "-fno-cse -fno-licm -fno-modulo-sched -fno-unroll-loops"; do
		# shellcheck disable=SC2086
		line=$("$pallasc" -m v4 $flags --run ${3:-} \
		    --entry "$2" "$src/$1" |
		    grep '^simulated') || { echo "failed: $2 $flags" >&2; exit 1; }
		printf '%-19s %-55s %s\n' "$2" "${flags:-(every pass)}" \
		    "$(echo "$line" | sed -E 's/^simulated v4: ([0-9]+) cycles \(([0-9]+) stalled in waits\), ([0-9]+) bundles issued.*/\1 cycles (\2 stalled), \3 bundles/')"
	done
done
