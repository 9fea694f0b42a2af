#!/bin/sh
# tests/diag/run.sh - a diagnostics corpus: tests/diag (the .pk
# frontend and sema) by default, or another directory (tests/hlo-diag).
#
# Each case is NAME.err (the exact expected stderr) beside its input,
# NAME.pk, NAME.hlo or NAME.c.  The compiler runs in the corpus directory, so
# messages name files as the user typed them:
#     pallasc -fsyntax-only NAME.pk          (or the words in NAME.args)
# The exit status must be 1 (or the number in NAME.status); a crash, a
# sanitizer report or an internal error (70) always fails.
#
#     run.sh [--dir tests/X]            check every case
#     run.sh [--dir tests/X] --regen    rewrite every NAME.err from the
#                       current compiler (then review the diff)
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
pallasc=${PALLASC:-$(pwd)/pallasc}
dir=tests/diag
regen=0
while [ $# -gt 0 ]; do
	case $1 in
	--regen) regen=1 ;;
	--dir) dir=$2; shift ;;
	*) echo "usage: run.sh [--dir DIR] [--regen]" >&2; exit 99 ;;
	esac
	shift
done
here=$top/$dir
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
	elif [ -f "$name.hlo" ]; then
		args="-fsyntax-only $name.hlo"
	elif [ -f "$name.c" ]; then
		args="-fsyntax-only $name.c"
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
echo "$dir: $pass passed, $fail failed"
[ $fail = 0 ]
