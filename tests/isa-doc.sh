#!/bin/sh
# tests/isa-doc.sh - doc/machine.md's generated tables (the ISA reference,
# the presets and the latencies) must match machine/isa.def,
# machine/targ.c and machine/machine.h: regenerate them into a temporary
# file and compare.  Fix a failure with: scripts/gen-isa-doc --write
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skip"; exit 77; }
tmp=${TMPDIR:-/tmp}/isa-doc.$$
trap 'rm -f "$tmp"' EXIT
python3 "$top/scripts/gen-isa-doc" "$top" > "$tmp" || exit 1
if ! diff -u "$top/doc/machine.md" "$tmp"; then
	echo "doc/machine.md is stale: run scripts/gen-isa-doc --write"
	exit 1
fi
echo "doc/machine.md matches the ISA table and the presets"
