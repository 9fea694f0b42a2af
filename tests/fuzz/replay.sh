#!/bin/sh
# tests/fuzz/replay.sh - inputs that once crashed or hung the frontend
# (found by the fuzz targets) must now be rejected or accepted cleanly:
# exit status 0 or 1, never a crash, a sanitizer report or an internal error.
set -u
dir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/fuzz/regress
pallasc=${PALLASC:-$(pwd)/pallasc}
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=87
export ASAN_OPTIONS UBSAN_OPTIONS
pass=0
fail=0
for f in "$dir"/*; do
	[ -f "$f" ] || continue
	"$pallasc" -fsyntax-only -fdiagnostics-color=never "$f" >/dev/null 2>&1 </dev/null
	rc=$?
	if [ $rc = 0 ] || [ $rc = 1 ]; then
		pass=$((pass + 1))
	else
		echo "FAIL: $(basename "$f"): exit status $rc"
		fail=$((fail + 1))
	fi
done
echo "fuzz regressions: $pass passed, $fail failed"
[ $fail = 0 ]
