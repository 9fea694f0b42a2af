#!/bin/sh
# bench/bench_splash.sh - Splash attention's figures (make bench): figures,
# not tests.  Causal, H = 8 query heads over 8 KV heads, S = 2048,
# D = 128, f32, the forward kernel and the two backward kernels
# (kernels/splash/splash.pk) with 128- and 512-row blocks, compiled and
# run on the simulated v4 and v6e.  For each: the cycles; the MXU flops
# of the blocks that run against the preset's peak over those cycles
# (the causal roofline counts only the blocks that run); the HBM bytes
# read and written against the compulsory bytes (each operand read once,
# each output written once).
# Environment: PALLASC (default ./pallasc), top_srcdir (default .),
# BENCH_PRESETS (default "v4 v6e").
set -u
pallasc=${PALLASC:-./pallasc}
src=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
H=8 KVH=8 S=2048 D=128

# the exports: one per kernel and block size
src_abs=$(cd "$src" && pwd)
{
	echo "#include \"$src_abs/kernels/splash/splash.pk\""
	for b in 128 512; do
		for k in fwd bwd_dq bwd_dkv; do
			echo "export splash_$k<$H, $KVH, $S, $S, $D, $D, $b, $b, CAUSAL(0)> as ${k}_b$b;"
		done
	done
} > "$tmp/splash_bench.pk"

# compulsory bytes read and written, f32: (q|k|v|o|do: H*S*D or
# KVH*S*D; lse|di: H*S) times 4
qb=$((H * S * D * 4)) kb=$((KVH * S * D * 4)) rb=$((H * S * 4))
need() {
	case $1 in
	fwd) echo "$((qb + 2 * kb)) $((qb + rb))" ;;
	bwd_dq) echo "$((3 * qb + 2 * kb + rb)) $((qb + rb))" ;;
	bwd_dkv) echo "$((2 * qb + 2 * kb + 2 * rb)) $((2 * kb))" ;;
	esac
}

echo "== Splash causal, H=$H KVH=$KVH S=$S D=$D, f32 (precision highest)"
printf '%-5s %-12s %10s %8s %14s %14s\n' preset kernel cycles "MXU/peak" \
    "HBM read/need" "written/need"
for p in ${BENCH_PRESETS:-v4 v6e}; do
	for b in 128 512; do
		for k in fwd bwd_dq bwd_dkv; do
			out=$("$pallasc" -m "$p" --run --splash-mask=causal \
			    --entry "${k}_b$b" "$tmp/splash_bench.pk" 2>&1) ||
			    { echo "$out" >&2; echo "failed: ${k}_b$b on $p" >&2;
			    exit 1; }
			set -- $(need $k)
			echo "$out" | awk -v p="$p" -v k="${k}_b$b" \
			    -v nr="$1" -v nw="$2" '
			/^simulated/ { cyc = $3; rd = $(NF - 4); wr = $(NF - 1) }
			/^MXU:/ { pk = $4 }
			END { printf "%-5s %-12s %10d %8s %13.2fx %13.2fx\n",
			    p, k, cyc, pk, rd / nr, wr / nw }'
		done
	done
done
