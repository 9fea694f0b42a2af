#!/bin/sh
# tests/hlo/run.sh - round-trip goldens of the HLO text reader and printer.
#
# For each NAME.hlo here, NAME.out is the expected printer output:
#     pallasc --emit=hlo NAME.hlo            must equal NAME.out, and
#     pallasc --emit=hlo NAME.out            must print NAME.out again
# (print(parse(x)) is the golden; print(parse(print(parse(x)))) is stable).
# Both runs must exit 0 with nothing on stderr.
#
#     run.sh            check every case
#     run.sh --regen    rewrite every NAME.out from the current printer
#                       (then review the diff before committing it)
set -u
here=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/hlo
pallasc=${PALLASC:-$(pwd)/pallasc}
regen=0
[ "${1:-}" = --regen ] && regen=1
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=87
export ASAN_OPTIONS UBSAN_OPTIONS
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
cd "$here" || exit 99
for src in *.hlo; do
	name=${src%.hlo}
	"$pallasc" -fdiagnostics-color=never --emit=hlo "$src" \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $regen = 1 ]; then
		[ $rc = 0 ] && cp "$tmp/out" "$name.out" ||
			echo "note: $name exits $rc"
		continue
	fi
	if [ $rc != 0 ] || [ -s "$tmp/err" ]; then
		echo "FAIL: $name: exit status $rc"
		sed 's/^/    /' "$tmp/err" | head -20
		fail=$((fail + 1))
		continue
	fi
	if ! diff -u "$name.out" "$tmp/out" >"$tmp/diff"; then
		echo "FAIL: $name: printed text differs from $name.out"
		head -40 "$tmp/diff"
		fail=$((fail + 1))
		continue
	fi
	# The printed text must read back and print identically.
	cp "$tmp/out" "$tmp/again.hlo"
	"$pallasc" -fdiagnostics-color=never --emit=hlo "$tmp/again.hlo" \
		>"$tmp/out2" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc != 0 ] || ! cmp -s "$tmp/out" "$tmp/out2"; then
		echo "FAIL: $name: the printed text does not round-trip (exit $rc)"
		sed 's/^/    /' "$tmp/err" | head -20
		diff -u "$tmp/out" "$tmp/out2" | head -40
		fail=$((fail + 1))
		continue
	fi
	pass=$((pass + 1))
done
[ $regen = 1 ] && exit 0
echo "hlo round trips: $pass passed, $fail failed"
[ $fail = 0 ]
