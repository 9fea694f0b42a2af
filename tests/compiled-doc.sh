#!/bin/sh
# compiled-doc.sh - keeps doc/compiled.md true: every row that works
# names a kernel that compiles (-o) for the small and v4 presets (a
# contract kernel: for the presets its cases name), and
# every row not lowered yet names a diagnostics case that the compiler
# still refuses with a located 'not supported ... yet' / 'cannot ... yet'
# error (exit 1), both when compiled and by -fsyntax-only (the checks
# refuse what the backend does not lower).  When a row starts working, this test fails until the
# table says so.
#
# Environment: PALLASC, top_srcdir (set by make check).
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cdoc.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
rows=0

bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

grep '^| .* | tests/' "$top_srcdir/doc/compiled.md" >"$tmp/rows" || {
	echo "FAIL: no rows in doc/compiled.md"
	exit 1
}
while IFS='|' read -r _ what state file _; do
	file=$(echo "$file" | tr -d ' ')
	rows=$((rows + 1))
	src=$top_srcdir/$file
	[ -f "$src" ] || { bad "$file (row '$what'): no such file"; continue; }
	case $state in
	*"not yet"*)
		dir=${src%/*}
		name=${src##*/}
		name=${name%.pk}
		args="-m v4 -o $tmp/x.o $name.pk"
		[ -f "$dir/$name.args" ] && args=$(cat "$dir/$name.args")
		# shellcheck disable=SC2086
		(cd "$dir" && "$PALLASC" $args >/dev/null 2>"$tmp/err")
		st=$?
		[ $st = 1 ] && grep -q "not supported by the compiled path yet\|cannot .* yet" \
		    "$tmp/err" || bad "$file: expected to be refused (row" \
		    "'$what' says not yet), exit status $st: $(head -1 "$tmp/err")"
		# the contract: the checks refuse it too
		pre=$(echo "$args" | grep -o -- '-m [a-z0-9]*')
		# shellcheck disable=SC2086
		(cd "$dir" && "$PALLASC" ${pre:--m v4} -fsyntax-only $name.pk \
		    >/dev/null 2>"$tmp/err")
		st=$?
		[ $st = 1 ] && grep -q "not supported by the compiled path yet\|cannot .* yet" \
		    "$tmp/err" || bad "$file: -fsyntax-only accepts it (row" \
		    "'$what' says not yet), exit status $st: $(head -1 "$tmp/err")"
		;;
	*)
		# a contract kernel: the presets its cases name (a construct
		# some presets refuse, e.g. i8 dots); others: small and v4
		ps=$(sed -n 's|^// case [^ ]* [^ ]* \([^-]*\).*|\1|p' "$src" |
		    tr ' ' '\n' | sort -u | tr '\n' ' ')
		for p in ${ps:-small v4}; do
			"$PALLASC" -m $p -I "$top_srcdir/tests/e2e" "$src" \
			    -o "$tmp/x.o" 2>"$tmp/err" ||
				bad "$file on $p (row '$what'): $(head -1 "$tmp/err")"
		done
		;;
	esac
done <"$tmp/rows"
echo "compiled-doc: $rows rows, $fail failed"
[ $fail = 0 ]
