#!/bin/sh
# tests/e2e.sh - a .pk kernel all the way down: pallasc compiles
# examples/axpb.pk to an object and a header, cc links them with the
# runtime, and the program runs on the simulated machine (every check on)
# and compares with plain C.  Under the v4 and the small preset; and
# kernels/matmul/matmul.pk with examples/matmul.c (small); and a func with
# a kernel in one object (examples/toyprog.pk: the toy program's fusions
# as one top-level program) under v4 and small; and the toy program's
# HLO text (tests/golden/hlo/toy.hlo) compiled to an object (v4).
set -u
src=${top_srcdir:-.}
bld=${top_builddir:-.}
cc=${CC:-cc}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
flags=$(PKG_CONFIG_PATH="$bld" pkg-config --cflags --libs pallas) || exit 99
pass=0
fail=0
for preset in v4 small; do
	if ! "$bld/pallasc" --preset $preset "$src/examples/axpb.pk" \
	    -o "$tmp/axpb.o" -H "$tmp/axpb.h"; then
		echo "FAIL: $preset: pallasc"; fail=$((fail + 1)); continue
	fi
	# shellcheck disable=SC2086
	if ! $cc ${SAN_CFLAGS:-} -I"$tmp" -o "$tmp/axpb" \
	    "$src/examples/axpb_main.c" "$tmp/axpb.o" $flags -lm; then
		echo "FAIL: $preset: cc"; fail=$((fail + 1)); continue
	fi
	if PALLAS_PRESET=$preset "$tmp/axpb" > "$tmp/out" &&
	    grep -q ': 0 of 8192 values wrong' "$tmp/out" &&
	    grep -q "^preset $preset" "$tmp/out"; then
		pass=$((pass + 1))
		head -3 "$tmp/out"
	else
		echo "FAIL: $preset: run"; cat "$tmp/out"; fail=$((fail + 1))
	fi
done
# a program built for small refuses a v4 device
if PALLAS_PRESET=v4 "$tmp/axpb" > "$tmp/out" 2>&1; then
	echo "FAIL: a small program ran on v4"; fail=$((fail + 1))
elif grep -q "built for preset 'small'" "$tmp/out"; then
	pass=$((pass + 1))
else
	echo "FAIL: wrong-preset message"; cat "$tmp/out"; fail=$((fail + 1))
fi
# matmul.pk on the MXU: bf16 and f32 exports of the small preset
if "$bld/pallasc" --preset small "$src/kernels/matmul/matmul.pk" \
    -o "$tmp/matmul.o" -H "$tmp/matmul.h" &&
    $cc ${SAN_CFLAGS:-} -I"$tmp" -o "$tmp/matmul" \
    "$src/examples/matmul.c" "$tmp/matmul.o" $flags -lm &&
    PALLAS_PRESET=small "$tmp/matmul" > "$tmp/out" &&
    grep -q ': 0 of 8192 values wrong' "$tmp/out" &&
    grep -q ': 0 of 4096 values wrong' "$tmp/out"; then
	pass=$((pass + 1))
	grep 'MXU utilisation' "$tmp/out"
else
	echo "FAIL: matmul"; cat "$tmp/out"; fail=$((fail + 1))
fi
# funcs and a kernel in one object: each func runs as one program, one
# calling the kernel
for preset in v4 small; do
	if "$bld/pallasc" --preset $preset "$src/examples/toyprog.pk" \
	    -o "$tmp/toyprog.o" -H "$tmp/toyprog.h" &&
	    $cc ${SAN_CFLAGS:-} -I"$tmp" -o "$tmp/toyprog" \
	    "$src/examples/toyprog_main.c" "$tmp/toyprog.o" $flags -lm &&
	    PALLAS_PRESET=$preset "$tmp/toyprog" > "$tmp/out" &&
	    grep -q ': 0 of 512 values out of tolerance' "$tmp/out" &&
	    grep -q "region 'multiply_reduce_fusion' x1" "$tmp/out" &&
	    grep -q '^axpb on f32\[64, 128\]: 0 of 8192 values wrong' \
	    "$tmp/out" &&
	    grep -q '^axpb_twice on f32\[64, 128\]: 0 of 8192 values wrong' \
	    "$tmp/out" &&
	    grep -q "region 'jit(axpb_twice)/second/pallas_call' x1" \
	    "$tmp/out"; then
		pass=$((pass + 1))
		grep 'values' "$tmp/out"
	else
		echo "FAIL: $preset: toyprog"; cat "$tmp/out"
		fail=$((fail + 1))
	fi
done
# the toy program's HLO text compiled the same way, called from C
if "$bld/pallasc" --preset v4 "$src/tests/golden/hlo/toy.hlo" \
    -o "$tmp/toyhlo.o" -H "$tmp/toyhlo.h" &&
    $cc ${SAN_CFLAGS:-} -DTOY_HLO -I"$tmp" -o "$tmp/toyhlo" \
    "$src/examples/toyprog_main.c" "$tmp/toyhlo.o" $flags -lm &&
    PALLAS_PRESET=v4 "$tmp/toyhlo" > "$tmp/out" &&
    grep -q ': 0 of 512 values out of tolerance' "$tmp/out" &&
    grep -q "region 'jit(toy)/matmul_2/dot_general' x1" "$tmp/out"; then
	pass=$((pass + 1))
	head -1 "$tmp/out"
else
	echo "FAIL: toy.hlo"; cat "$tmp/out"; fail=$((fail + 1))
fi
echo "e2e: $pass passed, $fail failed"
[ $fail = 0 ]
