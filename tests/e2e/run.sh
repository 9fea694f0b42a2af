#!/bin/sh
# run.sh - the end-to-end suite linked from C, under the small preset and
# v4: pallasc compiles each tests/e2e/FEATURE.pk to an object and a
# header, cc links them with tests/e2e/driver.c and the runtime, and the
# driver calls every export (raw and _checked forms) on the simulator
# with every check on, checks the outputs against plain C, and saves its
# inputs and outputs as .npy.  Then pallasc --interpret --run runs each
# export on the same inputs and its outputs must match the simulator's.
# Prints the cycles of every export on every preset.
#
# Environment: PALLASC, top_srcdir, top_builddir (set by make check), CC,
# SAN_CFLAGS; E2E_PENDING=run runs the pending features too.
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"
: "${top_builddir:?top_builddir must name the build tree}"
cc=${CC:-cc}
e2e=$top_srcdir/tests/e2e

# PENDING: features the backend does not lower yet.  They are only
# checked to still fail with "not supported by the compiled path yet" on some
# preset; once one compiles everywhere that check fails: delete it here
# (and from PENDING in tests/unit/check_e2e.c) to enable it.
# (Example: PENDING="reduce bf16".)
PENDING=
FEATURES="elementwise eup iota control matmul squeeze squeeze_mid smem
scratch buffering views dma reduce broadcast transpose roll bf16 divide
narrow unaligned"

[ "${E2E_PENDING:-}" = run ] && PENDING=
enabled=
for f in $FEATURES; do
	case " $PENDING " in
	*" $f "*) ;;
	*) enabled="$enabled $f" ;;
	esac
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/e2e.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
flags=$(PKG_CONFIG_PATH="$top_builddir" pkg-config --cflags --libs pallas) ||
	exit 99
fail=0
pass=0

bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

for preset in small v4; do
	case $preset in
	small) lanes=16 ;;
	*) lanes=128 ;;
	esac
	dir=$tmp/$preset
	mkdir -p "$dir/out" || exit 99

	# pending features still refused, with the backend's message
	for f in $PENDING; do
		if "$PALLASC" -m $preset "$e2e/$f.pk" -o "$dir/$f.o" \
		    -H "$dir/$f.h" 2>"$dir/err"; then
			refused=no
			for p in small v4; do
				"$PALLASC" -m $p "$e2e/$f.pk" -o "$dir/$f.o" \
				    -H "$dir/$f.h" 2>/dev/null || refused=yes
			done
			[ $refused = yes ] ||
				bad "$f compiles on every preset now: remove" \
				    "it from PENDING in tests/e2e/run.sh and" \
				    "tests/unit/check_e2e.c"
		elif grep -q "not supported by the compiled path yet" "$dir/err"; then
			echo "pending $f on $preset:" \
			    "$(grep -m1 -o 'not supported by the compiled path yet.*' \
			    "$dir/err")"
		else
			bad "$f on $preset: $(cat "$dir/err")"
		fi
	done

	# compile and link the enabled features
	objs=
	defs=
	for f in $enabled; do
		if "$PALLASC" -m $preset "$e2e/$f.pk" -o "$dir/$f.o" \
		    -H "$dir/$f.h" 2>"$dir/err"; then
			objs="$objs $dir/$f.o"
			defs="$defs -DE2E_HAVE_$f"
		else
			bad "$f on $preset: pallasc: $(cat "$dir/err")"
		fi
	done
	# shellcheck disable=SC2086
	if ! $cc ${SAN_CFLAGS:-} -I"$dir" -I"$e2e" -DLN=$lanes $defs \
	    -o "$dir/driver" "$e2e/driver.c" $objs $flags -lm; then
		bad "$preset: cc"
		continue
	fi
	PALLAS_PRESET=$preset "$dir/driver" run "$dir/out" >"$dir/log" 2>&1 ||
		bad "$preset: the driver: exit status $?"
	cat "$dir/log"

	# interpret mode on the same inputs
	for d in "$dir"/out/*/; do
		d=${d%/}
		e=${d##*/}
		f=$(cat "$d/feature")
		mkdir -p "$d/interp" || exit 99
		# shellcheck disable=SC2046
		if ! "$PALLASC" -m $preset --interpret --run --entry "$e" \
		    $(cat "$d/args") --save-dir "$d/interp" "$e2e/$f.pk" \
		    >"$dir/err" 2>&1; then
			bad "$e on $preset: interpret mode: $(cat "$dir/err")"
			continue
		fi
		ok=yes
		while read -r name tol; do
			"$dir/driver" cmp "$d/$name.npy" "$d/interp/$name.npy" \
			    "$tol" || ok=no
		done <"$d/outs"
		if [ $ok = yes ]; then
			pass=$((pass + 1))
		else
			bad "$e on $preset: the simulator and interpret mode" \
			    "disagree"
		fi
	done
done
echo "e2e: $pass exports agree with interpret mode (and C), $fail failed"
[ $fail = 0 ]
