#!/bin/sh
# tests/pass-doc.sh - doc/passes.md's generated excerpts (what each HLO
# pass does to the toy program) must match what the passes do now:
# regenerate them into a temporary file and compare.  Fix a failure with
# scripts/gen-pass-doc --write SRCDIR PALLASC (then review the diff).
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
: "${PALLASC:?PALLASC must name the pallasc binary}"
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skip"; exit 77; }
tmp=${TMPDIR:-/tmp}/pass-doc.$$
trap 'rm -f "$tmp"' EXIT
python3 "$top/scripts/gen-pass-doc" "$top" "$PALLASC" > "$tmp" || exit 1
if ! diff -u "$top/doc/passes.md" "$tmp"; then
	echo "doc/passes.md is stale: run scripts/gen-pass-doc --write"
	exit 1
fi
echo "doc/passes.md matches the passes"
