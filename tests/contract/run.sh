#!/bin/sh
# run.sh - the contract: a kernel that the checks accept for a preset
# compiles for it and gives interpret mode's results.  Each
# tests/contract/*.pk names its cases in lines
#     // case ENTRY TOL PRESET... [-- PALLASC-ARGS...]
# and each case is run compiled on the simulator (pallasc --run) and in
# interpret mode (pallasc --interpret --run) on the same inputs; every
# output must agree, bit for bit when TOL is 0, else within TOL
# (relative: reductions and the MXU sum in another order).  Lines
#     // table NAME [i8|bool|f32] V...
# write an SMEM table's values as TABLES/NAME.npy (lines naming a table
# again continue its values, the dtype on the first), where a case's
# arguments name it: -- --smem t=%T/NAME.npy (SMEM tables are zeros
# unless given).
#
# Environment: PALLASC, top_srcdir, top_builddir (set by make check).
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"
: "${top_builddir:?top_builddir must name the build tree}"
check=$top_builddir/tests/interp/npycheck

tmp=$(mktemp -d "${TMPDIR:-/tmp}/contract.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0

bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

# one case: file entry tol preset args...
run_case() {
	f=$1 e=$2 tol=$3 p=$4
	shift 4
	d=$tmp/$e.$p
	mkdir -p "$d/c" "$d/i" || exit 99
	# shellcheck disable=SC2068
	if ! "$PALLASC" -m "$p" --run --entry "$e" "$f" --save-dir "$d/c" \
	    $@ >"$d/out" 2>&1; then
		bad "$e on $p: compiled: $(head -3 "$d/out")"
		return
	fi
	# shellcheck disable=SC2068
	if ! "$PALLASC" -m "$p" --interpret --run --entry "$e" "$f" \
	    --save-dir "$d/i" $@ >"$d/out" 2>&1; then
		bad "$e on $p: interpret mode: $(head -3 "$d/out")"
		return
	fi
	n=0
	for o in "$d"/i/*.npy; do
		[ -e "$o" ] || continue
		n=$((n + 1))
		"$check" same "$d/c/${o##*/}" "$o" "$tol" 2>"$d/err" || {
			bad "$e on $p: ${o##*/}: $(head -2 "$d/err")"
			return
		}
	done
	[ $n -gt 0 ] || { bad "$e on $p: no outputs saved"; return; }
	pass=$((pass + 1))
}

for f in "$top_srcdir"/tests/contract/*.pk; do
	grep '^// case ' "$f" >"$tmp/cases" || { bad "$f: no cases"; continue; }
	tab=$tmp/tables/${f##*/}
	mkdir -p "$tab" || exit 99
	sh "$top_srcdir/tests/contract/tables.sh" "$f" "$tab" "$check" ||
	    exit 99
	while read -r _ _ e tol rest; do
		presets=${rest%%--*}
		args=
		case $rest in *--*) args=${rest#*--} ;; esac
		args=$(echo "$args" | sed "s|%T|$tab|g")
		for p in $presets; do
			# shellcheck disable=SC2086
			run_case "$f" "$e" "$tol" "$p" $args
		done
	done <"$tmp/cases"
done
echo "contract: $pass passed, $fail failed"
[ $fail = 0 ]
