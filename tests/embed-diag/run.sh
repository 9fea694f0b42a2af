#!/bin/sh
# tests/embed-diag/run.sh - the diagnostics corpus of C inputs: each
# NAME.err is checked twice, against `pallasc -fsyntax-only NAME.c` (the
# AOT path) and against the JIT's messages for the same modules
# (tests/embed/jitdiag), so both name the C file's lines and columns the
# same way.  NAME.jit absent: the case is pallasc's alone (scanner
# errors, which a C compiler would stop at first).
#     run.sh [--regen]
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
bld=${top_builddir:-$(pwd)}
jitdiag=$(cd "$bld" && pwd)/tests/embed/jitdiag
[ "${1:-}" = --regen ] && exec sh "$top/tests/diag/run.sh" \
    --dir tests/embed-diag --regen
sh "$top/tests/diag/run.sh" --dir tests/embed-diag || exit 1
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
cd "$top/tests/embed-diag" || exit 99
pass=0
fail=0
for jit in *.jit; do
	[ -f "$jit" ] || continue
	name=${jit%.jit}
	PALLAS_CACHE=0 "$jitdiag" "$name.c" > /dev/null 2> "$tmp/err"
	got=$?
	if [ "$got" != 1 ]; then
		echo "FAIL: $name (JIT): exit status $got, expected 1"
		fail=$((fail + 1))
	elif ! diff -u "$name.err" "$tmp/err"; then
		echo "FAIL: $name (JIT): messages differ from pallasc's"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
echo "tests/embed-diag (JIT): $pass passed, $fail failed"
[ "$fail" = 0 ]
