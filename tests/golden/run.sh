#!/bin/sh
# run.sh - golden tests of the parser: each tests/golden/**/NAME.pk is
# compiled with --emit=ast and its output compared with NAME.ast beside it
# (diff -u).  When NAME.err exists, the input has syntax errors: the exit
# status must be 1 and stderr must equal NAME.err; otherwise the exit
# status must be 0 and stderr empty.  The kernels (kernels/*/NAME.pk) are
# checked the same way against tests/golden/kernels/NAME.ast.
#
# Paths are given to pallasc relative to the source tree, so diagnostics
# in .err files are stable.  With REGEN=1 the expected files are rewritten
# instead (scripts/regen-golden); review the diff before committing it.
#
# Environment: PALLASC, top_srcdir (set by make check).
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
cd "$top_srcdir" || exit 99

fail=0
total=0

# check INPUT EXPECTED-AST [EXPECTED-ERR]
check() {
	total=$((total + 1))
	"$PALLASC" --emit=ast -fdiagnostics-color=never "$1" \
		>"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ "${REGEN:-0}" = 1 ]; then
		cp "$tmp/out" "$2"
		rm -f "${2%.ast}.err"
		if [ $status -ne 0 ] || [ -s "$tmp/err" ]; then
			cp "$tmp/err" "${2%.ast}.err"
		fi
		echo "wrote $2"
		return
	fi
	if [ -f "$3" ]; then
		want=1
	else
		want=0
	fi
	if [ $status -ne $want ]; then
		echo "FAIL: $1: exit status $status, expected $want"
		cat "$tmp/err"
		fail=$((fail + 1))
		return
	fi
	if [ ! -f "$2" ]; then
		echo "FAIL: $1: no expected dump $2"
		fail=$((fail + 1))
		return
	fi
	if ! diff -u "$2" "$tmp/out"; then
		echo "FAIL: $1: AST differs from $2"
		fail=$((fail + 1))
		return
	fi
	if [ $want = 1 ]; then
		if ! diff -u "$3" "$tmp/err"; then
			echo "FAIL: $1: diagnostics differ from $3"
			fail=$((fail + 1))
		fi
	elif [ -s "$tmp/err" ]; then
		echo "FAIL: $1: unexpected diagnostics"
		cat "$tmp/err"
		fail=$((fail + 1))
	fi
}

for pk in $(find tests/golden -name '*.pk' ! -path 'tests/golden/tile/*' |
    LC_ALL=C sort); do
	check "$pk" "${pk%.pk}.ast" "${pk%.pk}.err"
done
for pk in kernels/*/*.pk; do
	name=$(basename "$pk" .pk)
	check "$pk" "tests/golden/kernels/$name.ast" \
		"tests/golden/kernels/$name.err"
done

# The checked kernels: --emit=sema of each kernel under the default preset
# (tests/golden/sema/NAME.sema) and the small one (NAME-small.sema).
# check_level LEVEL KERNEL EXPECTED [PALLASC-ARGS...]
check_level() {
	total=$((total + 1))
	level=$1
	pk=$2
	want=$3
	shift 3
	"$PALLASC" --emit="$level" -fdiagnostics-color=never "$@" "$pk" \
		>"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ "${REGEN:-0}" = 1 ]; then
		cp "$tmp/out" "$want"
		echo "wrote $want"
		return
	fi
	if [ $status -ne 0 ] || [ -s "$tmp/err" ]; then
		echo "FAIL: $pk $*: exit status $status or diagnostics"
		cat "$tmp/err"
		fail=$((fail + 1))
	elif ! diff -u "$want" "$tmp/out"; then
		echo "FAIL: $pk $*: --emit=$level differs from $want"
		fail=$((fail + 1))
	fi
}
# The funcs of kernels/graph with --interpret: the checked funcs alone,
# at the seed's sizes, where the naive attention's fusions do not fit
# VMEM (-fsyntax-only says so; tests/diag/check-func-vmem).
for pk in kernels/*/*.pk; do
	name=$(basename "$pk" .pk)
	case $pk in kernels/graph/*) mode=--interpret ;; *) mode= ;; esac
	# shellcheck disable=SC2086
	check_level sema "$pk" "tests/golden/sema/$name.sema" $mode
	# shellcheck disable=SC2086
	check_level sema "$pk" "tests/golden/sema/$name-small.sema" \
		--preset small $mode
done

# The funcs lowered to HLO: --emit=hlo of each kernels/graph/NAME.pk
# against tests/golden/hlo/NAME.hlo, and the golden must read back and
# print to itself (a round trip through the HLO reader).
# check_hlo FUNC-FILE EXPECTED
check_hlo() {
	check_level hlo "$1" "$2"
	[ "${REGEN:-0}" = 1 ] && return
	if ! "$PALLASC" --emit=hlo "$2" >"$tmp/rt" 2>"$tmp/err" ||
	    ! cmp -s "$2" "$tmp/rt"; then
		echo "FAIL: $2: does not read back to itself"
		cat "$tmp/err"
		diff -u "$2" "$tmp/rt"
		fail=$((fail + 1))
	fi
}
for pk in kernels/graph/*.pk; do
	check_hlo "$pk" "tests/golden/hlo/$(basename "$pk" .pk).hlo"
done

# The same funcs after the HLO pass pipeline for v6e (the seed dumps'
# machine): --emit=hlo-opt against tests/golden/hlo-opt/NAME.hlo, which
# must read back to itself too.
for pk in kernels/graph/*.pk; do
	want=tests/golden/hlo-opt/$(basename "$pk" .pk).hlo
	check_level hlo-opt "$pk" "$want" -m v6e
	[ "${REGEN:-0}" = 1 ] && continue
	if ! "$PALLASC" --emit=hlo "$want" >"$tmp/rt" 2>"$tmp/err" ||
	    ! cmp -s "$want" "$tmp/rt"; then
		echo "FAIL: $want: does not read back to itself"
		cat "$tmp/err"
		fail=$((fail + 1))
	fi
done

# The same funcs' fusions for v6e, as the fusion emitter writes them
# (.pk kernels, and one per instruction left outside fusions):
# --emit=fusions against tests/golden/fusions/NAME.fusions.
for pk in kernels/graph/*.pk; do
	check_level fusions "$pk" \
		"tests/golden/fusions/$(basename "$pk" .pk).fusions" -m v6e
done

# The top-level programs of the same funcs for v6e (their steps, the
# buffers they bind, the HBM footprint): --emit=tlp against
# tests/golden/tlp/NAME.tlp; attention at H 2, S 128, where its fusions
# fit VMEM.
check_level tlp kernels/graph/toy.pk tests/golden/tlp/toy.tlp -m v6e
check_level tlp kernels/graph/attention.pk tests/golden/tlp/attention.tlp \
	-m v6e -DH=2 -DS=128

# The pipeline plans: --emit=pipeline of each kernel under the default
# preset and the small one (tests/golden/pipeline/NAME[-small].pipeline),
# Splash with its causal tables (--splash-causal: concrete skips) and
# without them (NAME-symbolic: copies decided at run time).
check_level pipeline kernels/matmul/matmul.pk tests/golden/pipeline/matmul.pipeline
check_level pipeline kernels/matmul/matmul.pk \
	tests/golden/pipeline/matmul-small.pipeline --preset small
check_level pipeline kernels/splash/splash.pk \
	tests/golden/pipeline/splash.pipeline --splash-causal
check_level pipeline kernels/splash/splash.pk \
	tests/golden/pipeline/splash-small.pipeline --preset small \
	--splash-causal
check_level pipeline kernels/splash/splash.pk \
	tests/golden/pipeline/splash-symbolic.pipeline --preset small

# The tile IR of small kernels exercising each op: --emit=tile of
# tests/golden/tile/NAME.pk against NAME.tile (default preset).
for pk in tests/golden/tile/*.pk; do
	check_level tile "$pk" "${pk%.pk}.tile"
done

# The whole kernels in tile IR (pipeline and body), on v4 and small.
for name in matmul splash; do
	check_level tile "kernels/$name/$name.pk" \
		"tests/golden/tile/kernels/$name.tile"
	check_level tile "kernels/$name/$name.pk" \
		"tests/golden/tile/kernels/$name-small.tile" --preset small
done

# The scheduled, allocated bundles (-S, --emit=asm): the elementwise
# example on both presets and the matmuls of the small preset
# (tests/golden/asm/NAME[-small].s).
check_level asm examples/axpb.pk tests/golden/asm/axpb.s
check_level asm examples/axpb.pk tests/golden/asm/axpb-small.s --preset small
check_level asm kernels/matmul/matmul.pk tests/golden/asm/matmul-small.s \
	--preset small

if [ "${REGEN:-0}" = 1 ]; then
	echo "regenerated $total golden files; review them with git diff"
	exit 0
fi
echo "golden: $total checked, $fail failed"
[ $fail -eq 0 ]
