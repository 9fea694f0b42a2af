#!/bin/sh
# tests/diag/run.sh - the diagnostics corpus.
#
# Each case is NAME.err (the exact expected stderr) beside NAME.pk (the
# input).  The compiler runs in this directory, so messages name files as
# the user typed them:
#     pallasc -fsyntax-only NAME.pk          (or the words in NAME.args)
# The exit status must be 1 (or the number in NAME.status); a crash, a
# sanitizer report or an internal error (70) always fails.
#
#     run.sh            check every case
#     run.sh --regen    rewrite every NAME.err from the current compiler
#                       (then review the diff before committing it)
set -u
here=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/diag
pallasc=${PALLASC:-$(pwd)/pallasc}
regen=0
[ "${1:-}" = --regen ] && regen=1
# Make sanitizer reports distinguishable from user errors (exit 1).
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=87
export ASAN_OPTIONS UBSAN_OPTIONS
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
cd "$here" || exit 99
for err in *.err; do
	name=${err%.err}
	if [ -f "$name.args" ]; then
		args=$(cat "$name.args")
	else
		args="-fsyntax-only $name.pk"
	fi
	want=1
	[ -f "$name.status" ] && want=$(cat "$name.status")
	# shellcheck disable=SC2086
	"$pallasc" -fdiagnostics-color=never $args >/dev/null 2>"$tmp/err" </dev/null
	got=$?
	if [ $regen = 1 ]; then
		cp "$tmp/err" "$err"
		[ "$got" = "$want" ] || echo "note: $name exits $got, expected $want"
		continue
	fi
	if [ "$got" != "$want" ]; then
		echo "FAIL: $name: exit status $got, expected $want"
		sed 's/^/    /' "$tmp/err" | head -20
		fail=$((fail + 1))
	elif ! diff -u "$err" "$tmp/err" >"$tmp/diff"; then
		echo "FAIL: $name: stderr differs"
		cat "$tmp/diff"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
[ $regen = 1 ] && exit 0
echo "diagnostics corpus: $pass passed, $fail failed"
[ $fail = 0 ]
