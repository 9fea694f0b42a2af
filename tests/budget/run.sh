#!/bin/sh
# run.sh - the one VMEM/SMEM budget, asserted: every kernel export in
# the tree (kernels/*/*.pk, tests/e2e/*.pk, tests/contract/*.pk,
# tests/fuzz-diff/cases/*.pk) runs compiled (pallasc --run, every
# simulator check on) on the small and v4 presets, and the run's VMEM
# and SMEM high water (the highest byte touched + 1) must be at most what
# the program declares for the export (the backend's allocation with
# its spill areas; pallasc -S prints the same figures), and the
# checks' own table (blocks and scratch) must be at most the backend's
# VMEM total (--emit=sema prints both).  The fuzzer's
# generated kernels get the same check in tests/fuzz-diff/pkfuzz.py.
#
# Inputs: pallasc's generator (random:0), SMEM tables zero, except
#   kernels/splash         --splash-causal (the causal block tables)
#   tests/contract         the presets and the arguments after '--' of
#                          the export's '// case' line, with the file's
#                          '// table' lines as SMEM tables (%T)
#   tests/fuzz-diff/cases  NAME.smem tables, NAME.run's presets and input
#                          seed; a preset with an 'expect' line (a known
#                          failure) is skipped
# Skipped: func exports (the budget is the kernels'; a func's fusion
# kernels are checked as they compile), so kernels/graph/*.pk, which
# holds funcs only, is not run.
#
# Environment: PALLASC, top_srcdir, top_builddir (set by make check).
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"
: "${top_builddir:?top_builddir must name the build tree}"
src=$top_srcdir
npycheck=$top_builddir/tests/interp/npycheck

tmp=$(mktemp -d "${TMPDIR:-/tmp}/budget.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
skip=0

bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

# The extra pallasc arguments of export $2 of file $1 on preset $3, in
# $args; returns 1 when the export is not run on that preset.
inputs() {
	args=
	case $1 in
	*/kernels/graph/*) return 1 ;;
	*/kernels/splash/*) args=--splash-causal ;;
	*/tests/contract/*)
		# the presets its cases name (any case when $2 is empty)
		line=$(grep -E "^// case ${2:-[A-Za-z_0-9]+} .* $3( |\$)" \
		    "$1" | head -1)
		[ -n "$line" ] || return 1
		case $line in *" -- "*) args=${line#* -- } ;; esac
		# the SMEM tables its '// table' lines give (%T in args)
		tab=$tmp/tables/${1##*/}
		if [ ! -d "$tab" ]; then
			mkdir -p "$tab" || exit 99
			sh "$src/tests/contract/tables.sh" "$1" "$tab" \
			    "$npycheck" || exit 99
		fi
		args=$(echo "$args" | sed "s|%T|$tab|g")
		;;
	*/tests/fuzz-diff/cases/*)
		base=${1%.pk}
		if [ -f "$base.run" ]; then
			ps=$(sed -n 's/^presets //p' "$base.run")
			case " ${ps:-small v4} " in
			*" $3 "*) ;;
			*) return 1 ;;
			esac
			grep -q "^expect $3 " "$base.run" && return 1
			seed=$(sed -n 's/^input //p' "$base.run")
			[ -n "$seed" ] && args="--input=random:$seed"
		fi
		if [ -f "$base.smem" ]; then
			while IFS='=' read -r name file; do
				case $name in ''|'#'*) continue ;; esac
				args="$args --smem $name=${1%/*}/$file"
			done <"$base.smem"
		fi
		;;
	esac
	return 0
}

# One export: file, export, preset.
check() {
	f=$1 e=$2 p=$3
	what="${f#"$src"/} $e on $p"
	# shellcheck disable=SC2086
	if ! "$PALLASC" -m "$p" -fdiagnostics-color=never --run --entry "$e" \
	    "$f" $args >"$tmp/out" 2>&1; then
		bad "$what: the compiled run failed: $(head -3 "$tmp/out")"
		return
	fi
	# "  vmem high water N bytes of D declared, smem N bytes of D
	# declared" (printed once, for the whole call)
	# shellcheck disable=SC2046
	set -- $(awk '/^  vmem high water / && NF == 14 && $6 == "of" &&
	    $12 == "of" { print $4, $7, $10, $13; exit }' "$tmp/out")
	if [ $# != 4 ]; then
		bad "$what: no declared VMEM/SMEM figures in the counters"
		return
	fi
	if [ "$2" = 0 ] || [ "$4" = 0 ]; then
		bad "$what: the program declares no VMEM or SMEM"
	elif [ "$1" -gt "$2" ]; then
		bad "$what: VMEM high water $1 bytes, over the $2 declared"
	elif [ "$3" -gt "$4" ]; then
		bad "$what: SMEM high water $3 bytes, over the $4 declared"
	else
		pass=$((pass + 1))
		case $f in
		*/kernels/*) echo "$what: VMEM $1 of $2, SMEM $3 of $4" ;;
		esac
	fi
}

# The checks' budget table (blocks and scratch) is a lower bound of
# what the backend allocates: per export of --emit=sema's output in
# $tmp/sema, the first table's VMEM total is at most the compiled one's.
lower_bound() {
	awk -v what="${1#"$src"/} on $2" '
	/^export [A-Za-z_0-9]+ = kernel / { e = $2; next }
	/^compiled [A-Za-z_0-9]+ \(/ { c = $2; next }
	/^    vmem [0-9]+ of [0-9]+ bytes/ {
		if (c != "") comp[c] = $2
		else if (e != "" && !(e in sema)) sema[e] = $2
	}
	END {
		for (x in comp)
			if ((x in sema) && sema[x] + 0 > comp[x] + 0)
				printf "%s: export %s: the checks count %d " \
				    "bytes of VMEM, the backend %d\n",
				    what, x, sema[x], comp[x]
	}' "$tmp/sema" >"$tmp/lb"
	while read -r line; do
		bad "$line"
	done <"$tmp/lb"
}

for f in "$src"/kernels/*/*.pk "$src"/tests/e2e/*.pk \
    "$src"/tests/contract/*.pk "$src"/tests/fuzz-diff/cases/*.pk; do
	[ -f "$f" ] || continue
	for p in small v4; do
		if ! "$PALLASC" -m "$p" --emit=sema "$f" >"$tmp/sema" \
		    2>"$tmp/err"; then
			inputs "$f" "" "$p" || continue
			bad "${f#"$src"/} on $p: the checks refuse it:" \
			    "$(head -1 "$tmp/err")"
			continue
		fi
		sed -n 's/^export \([A-Za-z_0-9]*\) = \([a-z]*\) .*/\1 \2/p' \
		    "$tmp/sema" >"$tmp/exports"
		lower_bound "$f" "$p"
		while read -r e kind; do
			if [ "$kind" != kernel ]; then
				skip=$((skip + 1))
				continue
			fi
			inputs "$f" "$e" "$p" || { skip=$((skip + 1)); continue; }
			check "$f" "$e" "$p" </dev/null
		done <"$tmp/exports"
	done
done
echo "budget: $pass exports within their declared VMEM and SMEM," \
    "$fail failed, $skip skipped (funcs; presets a case leaves out)"
[ $fail = 0 ] && [ $pass -gt 0 ]
