#!/bin/sh
# run.sh - the run-time checks of index maps that SMEM tables feed, and
# of dynamic indices in bodies (dyn.pk, below):
# tests/bounds/tbl.pk compiled and run on the simulator (small and v4)
# with a table that sends x's block out of range must exit 1 with the
# error at the map naming 'x', the grid point and the value (as interpret
# mode reports it, exit 1); with an in-range table the outputs equal
# interpret mode's; -fno-bounds-check takes the check out (the run then
# succeeds with garbage); a table read through the table checks the
# outer index.  Integer divisors known only at run time (div.pk) are
# checked likewise, and check statements (check.pk).  Then the C path: the generated header's entry point
# returns PALLAS_ECHECK, not PALLAS_OK (tests/bounds/driver.c).
#
# Environment: PALLASC, top_srcdir, top_builddir (set by make check), CC.
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"
: "${top_builddir:?top_builddir must name the build tree}"
check=$top_builddir/tests/interp/npycheck
here=$top_srcdir/tests/bounds
cc=${CC:-cc}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bounds.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

cp "$here/tbl.pk" "$tmp/" || exit 99
cd "$tmp" || exit 99
"$check" table good.npy 3 1 2 0 || exit 99
"$check" table bad.npy 0 7 1 2 || exit 99
"$check" table bad2.npy 0 1 9 0 || exit 99
msg="tbl.pk:8:26: error: at grid point (i=1) the block index 7 of 'x' dim 0"
msg="$msg is outside \[0, 4)"
for preset in small v4; do
	# run ENTRY TABLE [ARGS...]: the status in $status, stderr in err
	run() {
		e=$1
		t=$2
		shift 2
		"$PALLASC" -m $preset --run tbl.pk --entry "$e" --smem t="$t" \
		    -fdiagnostics-color=never "$@" >out 2>err
		status=$?
	}
	run tbl bad.npy
	[ $status -eq 1 ] || bad "$preset: bad table: exit status $status"
	grep -q "^$msg$" err || bad "$preset: bad table: $(cat err)"
	grep -q "run-time check of the compiled kernel 'tbl'" err ||
		bad "$preset: bad table: no note: $(cat err)"
	run tbl bad.npy --interpret
	[ $status -eq 1 ] && grep -q "'x' is out of range" err ||
		bad "$preset: interpret mode accepts the bad table: $(cat err)"
	run tbl bad.npy -fno-bounds-check
	[ $status -eq 0 ] ||
		bad "$preset: -fno-bounds-check: status $status: $(cat err)"
	run tbl2 bad2.npy
	[ $status -eq 1 ] && grep -q "at grid point (i=2) the index 9 of SMEM \
table 't' dim 0 is outside \[0, 4)" err ||
		bad "$preset: table index: exit status $status: $(cat err)"
	for e in tbl tbl2; do
		mkdir -p "$preset/$e/c" "$preset/$e/i" || exit 99
		run $e good.npy --save-dir "$preset/$e/c"
		[ $status -eq 0 ] || bad "$preset $e: good table: $(cat err)"
		run $e good.npy --interpret --save-dir "$preset/$e/i"
		[ $status -eq 0 ] || bad "$preset $e: interpret: $(cat err)"
		cmp -s "$preset/$e/c/z.npy" "$preset/$e/i/z.npy" ||
			bad "$preset $e: compiled and interpreted z differ"
	done
done

# Only what interval arithmetic cannot prove is checked: tbl's x (the
# table's value) at point 0 and per step, not z (affine) nor the table
# index i; tbl2 also the outer table index; none with -fno-bounds-check.
"$PALLASC" --emit=tile --entry tbl tbl.pk >tile 2>err || bad "tile: $(cat err)"
[ "$(grep -c ' trap ' tile)" = 2 ] && ! grep -q "of 'z'" tile &&
	! grep -q "SMEM table" tile || bad "tbl: checks: $(grep ' trap ' tile)"
"$PALLASC" --emit=tile --entry tbl2 tbl.pk >tile 2>err || bad "tile: $(cat err)"
[ "$(grep -c "trap .*of SMEM table 't' dim 0 is outside \[0, 4)" tile)" = 2 ] ||
	bad "tbl2: table checks: $(grep ' trap ' tile)"
"$PALLASC" --emit=tile --entry tbl -fno-bounds-check tbl.pk >tile 2>err &&
	! grep -q ' trap ' tile || bad "-fno-bounds-check: $(grep trap tile)"
"$PALLASC" --emit=tile "$top_srcdir/kernels/matmul/matmul.pk" >tile 2>err &&
	! grep -q ' trap ' tile || bad "matmul has checks: $(grep trap tile)"

# Dynamic indices in a body (dyn.pk): each bad table stops the compiled
# kernel with interpret mode's message at the index (plus the grid
# point), exit 1; a good one gives interpret mode's outputs; the starts
# interval arithmetic proves (proved) get no check.
cp "$here/dyn.pk" . || exit 99
"$check" table dgood.npy 16 8 1 0 || exit 99
"$check" table dbad.npy 32 8 1 0 || exit 99
"$check" table dodd.npy 4 8 1 0 || exit 99
"$check" table dbadw.npy 8 28 1 0 || exit 99
"$check" table dbadt.npy 8 8 9 0 || exit 99
for preset in small v4; do
	for c in "dbad|14:31|slice 32:40 is out of bounds for dimension 0 of 'x' (size 32)" \
	    "dodd|14:31|start 4 of dimension 0 of 'x' is not a multiple of 8, as multiple_of promised" \
	    "dbadw|17:22|slice 28:36 is out of bounds for dimension 0 of 'w' (size 32)" \
	    "dbadt|13:15|index 9 is out of bounds for dimension 0 of 't' (size 4)"; do
		t=${c%%|*}
		rest=${c#*|}
		at=${rest%%|*}
		what=${rest#*|}
		for mode in compiled interpret; do
			flag=
			want="dyn.pk:$at: error: at grid point (i=0) the $what"
			if [ $mode = interpret ]; then
				flag=--interpret
				want="dyn.pk:$at: error: $what"
			fi
			"$PALLASC" -m $preset $flag --run dyn.pk --entry dyn \
			    --smem t=$t.npy -fdiagnostics-color=never \
			    >out 2>err
			st=$?
			[ $st -eq 1 ] && grep -qF "$want" err ||
				bad "$preset $mode $t: status $st: $(cat err)"
		done
	done
	mkdir -p "$preset/dyn/c" "$preset/dyn/i" || exit 99
	"$PALLASC" -m $preset --run dyn.pk --entry dyn --smem t=dgood.npy \
	    --save-dir "$preset/dyn/c" 2>err || bad "$preset dyn: $(cat err)"
	"$PALLASC" -m $preset --interpret --run dyn.pk --entry dyn \
	    --smem t=dgood.npy --save-dir "$preset/dyn/i" 2>err ||
		bad "$preset dyn interpret: $(cat err)"
	for o in y w; do
		cmp -s "$preset/dyn/c/$o.npy" "$preset/dyn/i/$o.npy" ||
			bad "$preset dyn: compiled and interpreted $o differ"
	done
	"$PALLASC" -m $preset --run dyn.pk --entry dyn --smem t=dbad.npy \
	    -fno-bounds-check >out 2>err ||
		bad "$preset dyn -fno-bounds-check: $(cat err)"
done
# An index out of a vector (dyn.pk's ext): k[0] = 3 sends x's index to 4
# at i=1, stopping both modes at the index; k[0] = 2 runs.
"$check" table kbad.npy 3 0 0 0 0 0 0 0 || exit 99
"$check" table kgood.npy 2 0 0 0 0 0 0 0 || exit 99
for preset in small v4; do
	what="index 4 is out of bounds for dimension 0 of 'x' (size 4)"
	"$PALLASC" -m $preset --run dyn.pk --entry ext --input-file k=kbad.npy \
	    -fdiagnostics-color=never >out 2>err
	st=$?
	[ $st -eq 1 ] && grep -qF "dyn.pk:36:16: error: at grid point (i=1) \
the $what" err || bad "$preset ext compiled: status $st: $(cat err)"
	"$PALLASC" -m $preset --interpret --run dyn.pk --entry ext \
	    --input-file k=kbad.npy -fdiagnostics-color=never >out 2>err
	st=$?
	[ $st -eq 1 ] && grep -qF "dyn.pk:36:16: error: $what" err ||
		bad "$preset ext interpret: status $st: $(cat err)"
	mkdir -p "$preset/ext/c" "$preset/ext/i" || exit 99
	"$PALLASC" -m $preset --run dyn.pk --entry ext \
	    --input-file k=kgood.npy --save-dir "$preset/ext/c" 2>err ||
		bad "$preset ext: $(cat err)"
	"$PALLASC" -m $preset --interpret --run dyn.pk --entry ext \
	    --input-file k=kgood.npy --save-dir "$preset/ext/i" 2>err ||
		bad "$preset ext interpret: $(cat err)"
	cmp -s "$preset/ext/c/y.npy" "$preset/ext/i/y.npy" ||
		bad "$preset ext: compiled and interpreted y differ"
done
"$PALLASC" --emit=tile --entry dyn dyn.pk >tile 2>err || bad "$(cat err)"
[ "$(grep -c ' trap ' tile)" = 5 ] || bad "dyn: checks: $(grep ' trap ' tile)"
"$PALLASC" --emit=tile --entry proved dyn.pk >tile 2>err &&
	! grep -q ' trap ' tile || bad "proved has checks: $(grep trap tile)"

# Integer divisors (div.pk): a 0 stops the compiled kernel with
# interpret mode's message at the division (plus the grid point), in an
# index map, a scalar of the body, a vector, i8 and odd blocks; nonzero
# divisors give interpret mode's outputs; proved divisors get no check,
# and -fno-bounds-check takes the checks out.
cp "$here/div.pk" . || exit 99
"$check" table tgood.npy 1 1 1 1 || exit 99
"$check" table tzero.npy 1 1 0 1 || exit 99
# x, y: i32[32, 128] of values in [-999, 999], y's without 0 (yzero: one
# 0 in block 2); xo, yo, yozero: [24, 12], yozero's 0 in a padded tile
"$check" iseq x.npy 32 128 -999 1999 || exit 99
"$check" iseq ygood.npy 32 128 1 13 || exit 99
"$check" iseq yzero.npy 32 128 1 13 20,77=0 || exit 99
"$check" iseq xo.npy 24 12 -100 201 || exit 99
"$check" iseq yo.npy 24 12 1 5 || exit 99
"$check" iseq yozero.npy 24 12 1 5 23,11=0 || exit 99
for preset in small v4; do
	drun() {	# drun MODE ENTRY ARGS...: status in $st
		m=$1
		e=$2
		shift 2
		"$PALLASC" -m $preset $m --run div.pk --entry "$e" \
		    -fdiagnostics-color=never "$@" >out 2>err
		st=$?
	}
	for c in "mapdiv|10:26|--smem t=tzero.npy|the index map of 'x' divides by zero" \
	    "sdiv|17:22|--smem t=tzero.npy|integer division by zero" \
	    "vdiv|23:12|--input-file x=x.npy --input-file y=yzero.npy|integer division by zero" \
	    "odd|34:14|--input-file x=xo.npy --input-file y=yozero.npy|integer division by zero"; do
		e=${c%%|*}
		rest=${c#*|}
		at=${rest%%|*}
		rest=${rest#*|}
		args=${rest%%|*}
		what=${rest#*|}
		# shellcheck disable=SC2086
		drun "" $e $args
		[ $st -eq 1 ] && grep -qF "div.pk:$at: error: at grid point (i=" err &&
		    grep -qF "$what" err ||
			bad "$preset $e compiled: status $st: $(cat err)"
		# shellcheck disable=SC2086
		drun --interpret $e $args
		[ $st -eq 1 ] || bad "$preset $e interpret: status $st: $(cat err)"
		# without the check the quotient is undefined: mapdiv's block
		# index then trips the simulator's HBM check instead
		# shellcheck disable=SC2086
		drun -fno-bounds-check $e $args
		[ $st -eq 0 ] || { [ $e = mapdiv ] && [ $st -eq 1 ] &&
		    ! grep -qF "$what" err; } ||
			bad "$preset $e -fno-bounds-check: status $st: $(cat err)"
	done
	for c in "mapdiv|--smem t=tgood.npy" "sdiv|--smem t=tgood.npy" \
	    "vdiv|--input-file x=x.npy --input-file y=ygood.npy" \
	    "odd|--input-file x=xo.npy --input-file y=yo.npy" \
	    "proved|--smem t=tgood.npy --input-file x=x.npy"; do
		e=${c%%|*}
		args=${c#*|}
		rm -rf "$preset/$e" && mkdir -p "$preset/$e/c" "$preset/$e/i" ||
			exit 99
		# shellcheck disable=SC2086
		drun "" $e $args --save-dir "$preset/$e/c"
		[ $st -eq 0 ] || bad "$preset $e: $(cat err)"
		# shellcheck disable=SC2086
		drun --interpret $e $args --save-dir "$preset/$e/i"
		[ $st -eq 0 ] || bad "$preset $e interpret: $(cat err)"
		for f in "$preset/$e/i/"*.npy; do
			cmp -s "$f" "$preset/$e/c/${f##*/}" ||
				bad "$preset $e: compiled and interpreted ${f##*/} differ"
		done
	done
done
"$PALLASC" --emit=tile --entry proved div.pk >tile 2>err &&
	! grep -q ' trap ' tile || bad "proved has checks: $(grep trap tile)"
"$PALLASC" --emit=tile --entry vdiv div.pk >tile 2>err || bad "$(cat err)"
[ "$(grep -c ' trap .*integer division by zero' tile)" = 2 ] ||
	bad "vdiv: checks: $(grep ' trap ' tile)"

# check statements (check.pk): a false one stops both modes with the
# same message, its grid point and exit 1, also with -fno-bounds-check
# (the user's check, not a bounds check); true ones give interpret
# mode's outputs; a check that folds to true leaves no trap.
cp "$here/check.pk" . || exit 99
"$check" table cgood.npy 3 1 7 0 || exit 99
"$check" table cbad.npy 0 9 1 2 || exit 99
"$check" table cfive.npy 0 1 5 0 || exit 99
for preset in small v4; do
	for c in "tbl|16:5|--smem t=cbad.npy|check failed at grid point (h=0, i=1): t[i] is not a row of the block" \
	    "tbl|17:5|--smem t=cgood.npy --input=iota|check failed at grid point (h=0, i=1): x is too large" \
	    "flat|24:24|--smem t=cfive.npy|check failed: 100% sure t holds no 5"; do
		e=${c%%|*}
		rest=${c#*|}
		at=${rest%%|*}
		rest=${rest#*|}
		args=${rest%%|*}
		want="check.pk:$at: error: ${rest#*|}"
		for flag in "" --interpret -fno-bounds-check; do
			# shellcheck disable=SC2086
			"$PALLASC" -m $preset $flag --run check.pk --entry $e \
			    $args -fdiagnostics-color=never >out 2>err
			st=$?
			[ $st -eq 1 ] && grep -qxF "$want" err &&
			    [ "$(grep -c 'error:' err)" = 1 ] ||
				bad "$preset $e $flag: status $st: $(cat err)"
		done
	done
	for e in tbl flat; do
		mkdir -p "$preset/c$e/c" "$preset/c$e/i" || exit 99
		"$PALLASC" -m $preset --run check.pk --entry $e \
		    --smem t=cgood.npy --save-dir "$preset/c$e/c" 2>err ||
			bad "$preset check $e: $(cat err)"
		"$PALLASC" -m $preset --interpret --run check.pk --entry $e \
		    --smem t=cgood.npy --save-dir "$preset/c$e/i" 2>err ||
			bad "$preset check $e interpret: $(cat err)"
		cmp -s "$preset/c$e/c/z.npy" "$preset/c$e/i/z.npy" ||
			bad "$preset check $e: compiled and interpreted z differ"
	done
done
"$PALLASC" --emit=tile --entry tbl check.pk >tile 2>err || bad "$(cat err)"
[ "$(grep -c ' trap .*check failed' tile)" = 2 ] &&
	! grep -q 'blocks of 8 rows' tile ||
	bad "check tbl: traps: $(grep ' trap ' tile)"

# The C path: the header's entry point on both presets.
flags=$(PKG_CONFIG_PATH="$top_builddir" pkg-config --cflags --libs pallas) ||
	exit 99
for preset in small v4; do
	mkdir -p "$preset" || exit 99
	if ! "$PALLASC" -m $preset tbl.pk -o "$preset/tbl.o" \
	    -H "$preset/tbl.h" 2>err; then
		bad "$preset: pallasc -o: $(cat err)"
		continue
	fi
	# shellcheck disable=SC2086
	if ! $cc ${SAN_CFLAGS:-} -I"$preset" -o "$preset/driver" \
	    "$here/driver.c" "$preset/tbl.o" $flags -lm 2>err; then
		bad "$preset: cc: $(cat err)"
		continue
	fi
	PALLAS_PRESET=$preset "./$preset/driver" >out 2>err ||
		bad "$preset: the driver: $(cat out err)"
	cat out
done
echo "bounds: $fail failed"
[ $fail -eq 0 ]
