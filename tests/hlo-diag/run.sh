#!/bin/sh
# tests/hlo-diag/run.sh - the HLO diagnostics corpus: malformed HLO text
# modules and the exact diagnostics the reader and verifier give.
#
# Each case is NAME.err (the exact expected stderr) beside NAME.hlo (the
# input).  The compiler runs in this directory, so messages name files as
# the user typed them:
#     pallasc -fsyntax-only NAME.hlo         (or the words in NAME.args)
# The exit status must be 1 (or the number in NAME.status); a crash, a
# sanitizer report or an internal error (70) always fails.
#
#     run.sh            check every case
#     run.sh --regen    rewrite every NAME.err from the current compiler
#                       (then review the diff before committing it)
set -u
here=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/hlo-diag
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
	if [ -f "$name.args" ]; then
		args=$(cat "$name.args")
	else
		args="-fsyntax-only $name.hlo"
	fi
	want=1
	[ -f "$name.status" ] && want=$(cat "$name.status")
	# shellcheck disable=SC2086
	"$pallasc" -fdiagnostics-color=never $args >/dev/null 2>"$tmp/err" </dev/null
	got=$?
	if [ $regen = 1 ]; then
		cp "$tmp/err" "$name.err"
		[ "$got" = "$want" ] || echo "note: $name exits $got, expected $want"
		continue
	fi
	if [ ! -f "$name.err" ]; then
		echo "FAIL: $name: no $name.err"
		fail=$((fail + 1))
	elif [ "$got" != "$want" ]; then
		echo "FAIL: $name: exit status $got, expected $want"
		sed 's/^/    /' "$tmp/err" | head -20
		fail=$((fail + 1))
	elif ! diff -u "$name.err" "$tmp/err" >"$tmp/diff"; then
		echo "FAIL: $name: stderr differs"
		cat "$tmp/diff"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
[ $regen = 1 ] && exit 0
echo "hlo diagnostics corpus: $pass passed, $fail failed"
[ $fail = 0 ]
