#!/bin/sh
# bench/bench_graph.sh - the seed's two programs on the machine (make
# bench): figures, not tests.  The toy program (kernels/graph/toy.pk)
# and the naive attention at the seed's [8, 2048, 2048]
# (kernels/graph/attention.pk), each compiled as one top-level program
# for v4 and v6e and run on the simulator: its fusions (the HLO
# pipeline's count), the kernels the program runs, the static bundles of
# the program, cycles, HBM bytes read and written and the HBM scratch
# the program's buffers take (the attention's is the [8, 2048, 2048]
# score matrix that Splash never writes: bench/bench_splash.sh).
# Environment: PALLASC (default ./pallasc), top_srcdir (default .),
# BENCH_PRESETS (default "v4 v6e").
set -u
pallasc=${PALLASC:-./pallasc}
src=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

printf '%-10s %-5s %8s %8s %9s %11s %13s %13s %13s\n' program preset \
    fusions kernels bundles cycles "HBM read" "HBM written" "HBM scratch"
for f in toy attention; do
	for p in ${BENCH_PRESETS:-v4 v6e}; do
		pk=$src/kernels/graph/$f.pk
		nf=$("$pallasc" -m "$p" --emit=hlo-stats "$pk" 2>/dev/null |
		    sed -n 's/^fusions: \([0-9]*\) .*/\1/p')
		if ! "$pallasc" -m "$p" --run "$pk" --save-dir "$tmp" \
		    >"$tmp/out" 2>&1; then
			echo "$f on $p: $(head -1 "$tmp/out")"
			continue
		fi
		sed -n 's/^func [^:]*: \([0-9]*\) kernels\{0,1\} in one top-level program, HBM scratch \([0-9]*\) bytes$/\1 \2/p' \
		    "$tmp/out" >"$tmp/prog"
		sed -n 's/^simulated [^:]*: \([0-9]*\) cycles.* of \([0-9]*\) in the program;.*HBM \([0-9]*\) bytes read, \([0-9]*\) written$/\1 \2 \3 \4/p' \
		    "$tmp/out" >"$tmp/sim"
		read -r nk scratch <"$tmp/prog"
		read -r cyc nb rd wr <"$tmp/sim"
		printf '%-10s %-5s %8s %8s %9s %11s %13s %13s %13s\n' "$f" \
		    "$p" "$nf" "$nk" "$nb" "$cyc" "$rd" "$wr" "$scratch"
	done
done
echo "XLA on v6e, from the seed's compiler dumps:"
echo "  toy: 5 fusions, one multi-output; 250 bundles in the fusions, 174 in" \
    "the top-level program"
echo "  naive attention (bf16 q, k, v; a 32 MiB mask constant): 3 fusions," \
    "10,275 bundles, est. 722,780 cycles; scores f32[8, 2048, 2048]" \
    "(134,217,728 B) in HBM, ~468 MiB of HBM traffic"
