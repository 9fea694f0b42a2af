#!/bin/sh
# bench/bench_splash.sh - Splash attention's figures (make bench): figures,
# not tests.  Causal, H = 8 query heads over 8 KV heads, S = 2048,
# D = 128, f32 and bf16 inputs, the forward kernel and the two backward kernels
# (kernels/splash/splash.pk) with 128- and 512-row blocks, compiled and
# run on the simulated v4 and v6e.  For each: the cycles; the MXU flops
# of the blocks that run against the preset's peak over those cycles
# (the causal roofline counts only the blocks that run); the HBM bytes
# read and written against the compulsory bytes (each operand read once,
# each output written once).  Then the masks given as data, bf16, blocks
# of 512: segment ids of four packed sequences (512, 768, 256 and 512
# positions: six blocks of sixteen run), the causal mask stored as a
# dense mask (one distinct partial block), a mask per head (causal and a
# window of 1024 keys in turn) and causal within each segment (the and
# of both), the last three applied from stored blocks, against causal
# itself.
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
	for t in f32 bf16; do
		for b in 128 512; do
			for k in fwd bwd_dq bwd_dkv; do
				echo "export splash_$k<$H, $KVH, $S, $S, $D, $D, $b, $b, CAUSAL(0), PLAIN, NO_SINKS, $(echo $t | tr a-z A-Z)> as ${k}_b${b}_$t;"
			done
		done
	done
} > "$tmp/splash_bench.pk"

# compulsory bytes read and written (kernel, input element bytes): q,
# k, v, do in the inputs' dtype (H*S*D or KVH*S*D elements); o, lse, di
# and the gradients in f32
need() {
	qi=$((H * S * D * $2)) ki=$((KVH * S * D * $2))
	qo=$((H * S * D * 4)) ko=$((KVH * S * D * 4)) r=$((H * S * 4))
	case $1 in
	fwd) echo "$((qi + 2 * ki)) $((qo + r))" ;;
	bwd_dq) echo "$((2 * qi + 2 * ki + qo + r)) $((qo + r))" ;;
	bwd_dkv) echo "$((2 * qi + 2 * ki + 2 * r)) $((2 * ko))" ;;
	esac
}

echo "== Splash causal, H=$H KVH=$KVH S=$S D=$D; f32 (precision highest) and bf16 inputs"
printf '%-5s %-17s %10s %8s %14s %14s\n' preset kernel cycles "MXU/peak" \
    "HBM read/need" "written/need"
for p in ${BENCH_PRESETS:-v4 v6e}; do
    for t in f32 bf16; do
	for b in 128 512; do
		for k in fwd bwd_dq bwd_dkv; do
			e=${k}_b${b}_$t
			out=$("$pallasc" -m "$p" --run --splash-mask=causal \
			    --entry "$e" "$tmp/splash_bench.pk" 2>&1) ||
			    { echo "$out" >&2; echo "failed: $e on $p" >&2;
			    exit 1; }
			set -- $(need $k $([ $t = f32 ] && echo 4 || echo 2))
			echo "$out" | awk -v p="$p" -v k="$e" \
			    -v nr="$1" -v nw="$2" '
			/^simulated/ { cyc = $3; rd = $(NF - 4); wr = $(NF - 1) }
			/^MXU:/ { pk = $4 }
			END { printf "%-5s %-17s %10d %8s %13.2fx %13.2fx\n",
			    p, k, cyc, pk, rd / nr, wr / nw }'
		done
	done
    done
done

# npy_header DESCR SHAPE: the header of a .npy 1.0 file of C-order data
npy_header() {
	h="{'descr': '$1', 'fortran_order': False, 'shape': ($2), }"
	n=$(( (64 - (10 + ${#h} + 1) % 64) % 64 ))
	h="$h$(printf '%*s' "$n" '')"
	len=$(( ${#h} + 1 ))
	# shellcheck disable=SC2059
	printf "\\223NUMPY\\001\\000\\$(printf '%03o' $((len % 256)))\\$(printf '%03o' $((len / 256)))"
	printf '%s\n' "$h"
}
{
	npy_header '<i4' "$S,"
	n=0
	for len in 512 768 256 512; do
		i=0
		while [ $i -lt $len ]; do
			# shellcheck disable=SC2059
			printf "\\00$n\\000\\000\\000"
			i=$((i + 1))
		done
		n=$((n + 1))
	done
} > "$tmp/seg.npy"
{
	npy_header '|b1' "$S, $S"
	q=0
	while [ $q -lt $S ]; do
		head -c $((q + 1)) /dev/zero | tr '\000' '\001'
		head -c $((S - q - 1)) /dev/zero
		q=$((q + 1))
	done
} > "$tmp/causal.npy"
{
	echo "#include \"$src_abs/kernels/splash/splash.pk\""
	for m in "SEGMENTS seg" "DENSE(1) dense" "DENSE(16) heads" \
	    "DENSE(16) segcausal" "CAUSAL(0) causal"; do
		set -- $m
		for k in fwd bwd_dq bwd_dkv; do
			echo "export splash_$k<$H, $KVH, $S, $S, $D, $D, 512, 512, $1, PLAIN, NO_SINKS, BF16> as ${k}_$2;"
		done
	done
} > "$tmp/splash_masks.pk"

# A mask per head: causal and a sliding window of 1024 keys in turn.
heads=heads
h=0
while [ $h -lt "$H" ]; do
	[ $((h % 2)) -eq 0 ] && w=causal || w=local:1024,0
	[ $h -eq 0 ] && heads="$heads($w" || heads="$heads;$w"
	h=$((h + 1))
done
heads="$heads)"

echo "== Splash masks as data, H=$H KVH=$KVH S=$S D=$D, bf16, blocks 512"
echo "   (seg: segment ids; dense: causal stored as a dense mask; heads: $heads;"
echo "   segcausal: causal within each segment, and(causal;segments))"
printf '%-5s %-17s %10s %8s %14s\n' preset kernel cycles "MXU/peak" "HBM read"
for p in ${BENCH_PRESETS:-v4 v6e}; do
	for m in "seg segments:$tmp/seg.npy,$tmp/seg.npy" \
	    "dense dense:$tmp/causal.npy" "heads $heads" \
	    "segcausal and(causal;segments:$tmp/seg.npy,$tmp/seg.npy)" \
	    "causal causal"; do
		set -- $m
		for k in fwd bwd_dq bwd_dkv; do
			out=$("$pallasc" -m "$p" --run --splash-mask="$2" \
			    --entry "${k}_$1" "$tmp/splash_masks.pk" 2>&1) ||
			    { echo "$out" >&2; echo "failed: ${k}_$1 on $p" >&2;
			    exit 1; }
			echo "$out" | awk -v p="$p" -v k="${k}_$1" '
			/^simulated/ { cyc = $3; rd = $(NF - 4) }
			/^MXU:/ { pk = $4 }
			END { printf "%-5s %-17s %10d %8s %14d\n", p, k, cyc,
			    pk, rd }'
		done
	done
done
