#!/bin/sh
# tests/embed.sh - kernels embedded in C (doc/embedded.md), end to end:
# examples/embed.c built with plain cc and pkg-config (the JIT) and with
# `pallasc app.c -o app-kernels.o` linked in (AOT): the same results and
# counters, and zero run-time compiles for the AOT binary.  Then the disk
# cache (a second process reuses it, a damaged file is recompiled, an
# unwritable directory falls back to memory), the JIT under 8 threads,
# the API's misuse, and pallasc's levels on a C input.
set -u
src=${top_srcdir:-.}
bld=${top_builddir:-.}
pallasc=${PALLASC:-$bld/pallasc}
cc=${CC:-cc}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

if PKG_CONFIG_PATH=$bld pkg-config --exists pallas 2>/dev/null; then
	lib=$(PKG_CONFIG_PATH=$bld pkg-config --cflags --libs pallas)
else
	lib="-I$src/include -L$bld/.libs -Wl,-rpath,$bld/.libs -lpallas -lpallasrt"
fi
# build OUT C-FILE [OBJECT...]: with the build's compiler and sanitizers
build() {
	out=$1
	shift
	# shellcheck disable=SC2086
	$cc ${SAN_CFLAGS:-} -std=c11 -Wall -Wextra -Werror -o "$tmp/$out" \
	    "$@" $lib -lpthread -lm
}
export PALLAS_PRESET=small

# --- the example, JIT and AOT
build embed-jit "$src/examples/embed.c" || exit 1
"$pallasc" -m small "$src/examples/embed.c" -o "$tmp/embed-kernels.o" \
    -H "$tmp/embed-kernels.h" || exit 1
build embed-aot "$src/examples/embed.c" "$tmp/embed-kernels.o" || exit 1
PALLAS_CACHE=0 "$tmp/embed-jit" > "$tmp/jit.out" 2>&1 ||
	{ cat "$tmp/jit.out"; bad "the JIT build"; }
PALLAS_CACHE=0 "$tmp/embed-aot" > "$tmp/aot.out" 2>&1 ||
	{ cat "$tmp/aot.out"; bad "the AOT build"; }
cat "$tmp/jit.out"
grep -q ' 0 of 131072 values wrong' "$tmp/jit.out" && ok || bad "JIT results"
grep -q '^jit: 2 compiles, 0 from the disk cache, 0 bound' "$tmp/jit.out" &&
	ok || bad "the JIT build compiles each module once"
grep -q '^jit: 0 compiles, 0 from the disk cache, 2 bound' "$tmp/aot.out" &&
	ok || bad "the AOT build compiles nothing at run time"
grep -q 'compiled ahead of time' "$tmp/aot.out" && ok || bad "AOT binding"
# everything but how the modules were obtained is the same
sed -e '/^module /d' -e '/^jit: /d' "$tmp/jit.out" > "$tmp/jit.cmp"
sed -e '/^module /d' -e '/^jit: /d' "$tmp/aot.out" > "$tmp/aot.cmp"
cmp -s "$tmp/jit.cmp" "$tmp/aot.cmp" && ok ||
	{ diff "$tmp/jit.cmp" "$tmp/aot.cmp"; bad "JIT and AOT differ"; }
# the header's typed entry points name the module and export
grep -q 'scale_scale2(' "$tmp/embed-kernels.h" && ok || bad "header entry"

# --- an AOT object for another preset: the JIT compiles instead
"$pallasc" -m v4 "$src/examples/embed.c" -o "$tmp/v4-kernels.o" || exit 1
build embed-v4 "$src/examples/embed.c" "$tmp/v4-kernels.o" || exit 1
PALLAS_CACHE=0 "$tmp/embed-v4" > "$tmp/v4.out" 2>&1
grep -q '^jit: 2 compiles, 0 from the disk cache, 0 bound' "$tmp/v4.out" &&
	ok || bad "an AOT program for another preset is not used"

# --- a stale object: the module's text changed after pallasc ran; that
# module compiles at run time (its new text), the other binds
sed 's/x\[\.\.\.\] \* 2\.0/x[...] * 3.0/' "$src/examples/embed.c" > "$tmp/stale.c"
cmp -s "$src/examples/embed.c" "$tmp/stale.c" && bad "stale.c is not changed"
build embed-stale -I"$src/include" "$tmp/stale.c" "$tmp/embed-kernels.o" || exit 1
PALLAS_CACHE=0 "$tmp/embed-stale" > "$tmp/stale.out" 2>&1
grep -q '^jit: 1 compiles, 0 from the disk cache, 1 bound' "$tmp/stale.out" &&
	grep -q '^module scale: compiled at run time' "$tmp/stale.out" && ok ||
	{ cat "$tmp/stale.out"; bad "a stale AOT program is not used"; }

# --- the disk cache
cache="$tmp/cache"
PALLAS_CACHE_DIR=$cache "$tmp/embed-jit" > "$tmp/c1.out" 2>&1
PALLAS_CACHE_DIR=$cache "$tmp/embed-jit" > "$tmp/c2.out" 2>&1
grep -q '^jit: 2 compiles, 0 from the disk cache' "$tmp/c1.out" && ok ||
	bad "first process compiles"
grep -q '^jit: 0 compiles, 2 from the disk cache' "$tmp/c2.out" && ok ||
	bad "second process reuses the disk cache"
grep -q ' 0 of 131072 values wrong' "$tmp/c2.out" && ok ||
	bad "results from the disk cache"
# damage one entry: one byte in the middle of the file
f=$(ls "$cache"/*.pkc | head -n 1)
size=$(wc -c < "$f")
printf 'X' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
PALLAS_CACHE_DIR=$cache "$tmp/embed-jit" > "$tmp/c3.out" 2>&1
grep -q '^jit: 1 compiles, 1 from the disk cache' "$tmp/c3.out" && ok ||
	{ cat "$tmp/c3.out"; bad "a damaged cache file is recompiled"; }
grep -q ' 0 of 131072 values wrong' "$tmp/c3.out" && ok ||
	bad "results after a damaged cache file"
# a cache directory that cannot be made (under a regular file)
: > "$tmp/file"
PALLAS_CACHE_DIR=$tmp/file/cache "$tmp/embed-jit" > "$tmp/c4.out" 2>&1
grep -q '^jit: 2 compiles' "$tmp/c4.out" &&
	grep -q ' 0 of 131072 values wrong' "$tmp/c4.out" && ok ||
	{ cat "$tmp/c4.out"; bad "an unwritable cache falls back to memory"; }
PALLAS_CACHE=0 PALLAS_CACHE_DIR=$tmp/off "$tmp/embed-jit" > /dev/null 2>&1
[ ! -e "$tmp/off" ] && ok || bad "PALLAS_CACHE=0 writes nothing"

# --- threads and misuse
build threads "$src/tests/embed/threads.c" || exit 1
PALLAS_CACHE=0 "$tmp/threads" > "$tmp/th.out" 2>&1 && ok ||
	{ cat "$tmp/th.out"; bad "the JIT under threads"; }
cat "$tmp/th.out"
build misuse "$src/tests/embed/misuse.c" || exit 1
PALLAS_CACHE=0 "$tmp/misuse" > "$tmp/mis.out" 2>&1 && ok ||
	{ cat "$tmp/mis.out"; bad "API misuse"; }

# the program's own xmalloc or diag_error never replace the compiler's
build interpose "$src/tests/embed/interpose.c" || exit 1
PALLAS_CACHE=0 "$tmp/interpose" > "$tmp/ip.out" 2>&1 && ok ||
	{ cat "$tmp/ip.out"; bad "the compiler calls the program's functions"; }

# --- two C files of one program; PK_PP(#include) and run-time -D flags
build multi "$src/tests/embed/multi.c" "$src/tests/embed/other.c" || exit 1
PALLAS_CACHE=0 "$tmp/multi" > "$tmp/multi.out" 2>&1 &&
	grep -q '^jit: 3 compiles, 0 bound' "$tmp/multi.out" && ok ||
	{ cat "$tmp/multi.out"; bad "two C files, JIT"; }
# flags are the object's: flag_mod's object is built with the -D the
# program passes at run time, inc_mod's without
"$pallasc" -m small --module inc_mod "$src/tests/embed/multi.c" \
    -o "$tmp/inc-k.o" &&
    "$pallasc" -m small --module flag_mod -DOFFSET=0.5 \
    "$src/tests/embed/multi.c" -o "$tmp/flag-k.o" &&
    "$pallasc" -m small "$src/tests/embed/other.c" -o "$tmp/other-k.o" &&
    "$pallasc" -m small --module flag_mod -DOFFSET=0.25 \
    "$src/tests/embed/multi.c" -o "$tmp/flag-k2.o" ||
	bad "pallasc on multi.c and other.c"
build multi-aot "$src/tests/embed/multi.c" "$src/tests/embed/other.c" \
    "$tmp/inc-k.o" "$tmp/flag-k.o" "$tmp/other-k.o" || exit 1
PALLAS_CACHE=0 "$tmp/multi-aot" > "$tmp/multi-aot.out" 2>&1 &&
	grep -q '^jit: 0 compiles, 3 bound' "$tmp/multi-aot.out" && ok ||
	{ cat "$tmp/multi-aot.out"; bad "two C files, AOT"; }
# an object built with other -D flags than the program asks for
build multi-aot2 "$src/tests/embed/multi.c" "$src/tests/embed/other.c" \
    "$tmp/inc-k.o" "$tmp/flag-k2.o" "$tmp/other-k.o" || exit 1
PALLAS_CACHE=0 "$tmp/multi-aot2" > "$tmp/multi-aot2.out" 2>&1 &&
	grep -q '^jit: 1 compiles, 2 bound' "$tmp/multi-aot2.out" &&
	grep -q '^flag_mod: at run time, 0 wrong' "$tmp/multi-aot2.out" && ok ||
	{ cat "$tmp/multi-aot2.out"; bad "AOT flags differ: that module JIT"; }

# --- pallasc's levels on a C input
for lvl in ast sema tile llo; do
	"$pallasc" -m small --emit=$lvl --module scale \
	    "$src/examples/embed.c" > "$tmp/lvl.out" 2>&1 && [ -s "$tmp/lvl.out" ] &&
		ok || { cat "$tmp/lvl.out"; bad "--emit=$lvl on a C file"; }
done
"$pallasc" -m small -S --module square "$src/examples/embed.c" \
    -o "$tmp/sq.s" && [ -s "$tmp/sq.s" ] && ok || bad "-S on a C file"
"$pallasc" -m small -fsyntax-only "$src/examples/embed.c" && ok ||
	bad "-fsyntax-only on a C file"
"$pallasc" -m small --run --module scale "$src/examples/embed.c" \
    > "$tmp/run.out" && "$pallasc" -m small --interpret --run --module scale \
    "$src/examples/embed.c" > "$tmp/irun.out" &&
    grep '^y:' "$tmp/run.out" > "$tmp/r1" && grep '^y:' "$tmp/irun.out" > "$tmp/r2" &&
    cmp -s "$tmp/r1" "$tmp/r2" && ok || bad "--run and --interpret --run of a C module"
"$pallasc" -m small --emit=ast --module nosuch "$src/examples/embed.c" \
    > /dev/null 2> "$tmp/err"
[ $? = 1 ] && grep -q "no module 'nosuch' (its modules: scale, square)" \
    "$tmp/err" && ok || { cat "$tmp/err"; bad "--module of a missing module"; }

echo "embed: $pass passed, $fail failed"
[ "$fail" = 0 ]
