#!/bin/sh
# tests/examples.sh - the C example links the runtime, loads an assembled
# program image and runs it: y = x + x for x = 0..127.
set -u
src=${top_srcdir:-.}
bld=${top_builddir:-.}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
"$bld/pallas-asm" as "$src/examples/twice.s" -o "$tmp/twice.pkimg" || exit 1
"$bld/examples/run_program" "$tmp/twice.pkimg" twice > "$tmp/out" || exit 1
cat "$tmp/out"
grep -q '^y\[0\.\.7\] = 0 2 4 6 8 10 12 14 \.\.\. y\[127\] = 254$' "$tmp/out" ||
	{ echo "FAIL: wrong results"; exit 1; }
grep -q 'cycles' "$tmp/out" || { echo "FAIL: no counters"; exit 1; }
# a missing image is an error, not a crash
"$bld/examples/run_program" "$tmp/none.pkimg" twice 2>/dev/null
[ $? = 1 ] || { echo "FAIL: missing image"; exit 1; }
echo "examples: 1 passed, 0 failed"
