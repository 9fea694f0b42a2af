#!/bin/sh
# tests/pallas-asm.sh - the pallas-asm tool: as, dis and run on the
# example of doc/machine.md (tests/fuzz/seed-asm/twice.s), exact output
# values and cycles, the disassembly round trip, and the exit statuses
# (1 input error or trap, 2 usage).
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${top_builddir:-.}/pallas-asm
tmp=${TMPDIR:-/tmp}/pallas-asm-test.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {	# check NAME CONDITION...
	name=$1
	shift
	if "$@"; then echo "ok: $name"; else echo "FAIL: $name"; fail=1; fi
}

src=$top/tests/fuzz/seed-asm/twice.s
"$bin" as "$src" -o "$tmp/a.pkimg"
check "as" test $? = 0 -a -s "$tmp/a.pkimg"
"$bin" dis "$tmp/a.pkimg" > "$tmp/a.s"
check "dis" test $? = 0
"$bin" as "$tmp/a.s" -o "$tmp/b.pkimg"
check "dis output assembles to the same image" cmp -s "$tmp/a.pkimg" "$tmp/b.pkimg"

"$bin" run "$tmp/a.pkimg" --in x=iota --stats > "$tmp/out" 2> "$tmp/err"
check "run" test $? = 0
check "run: y = 2x" grep -q '^ 0 2 4 6 8 10 12 14 16 18 20 22 24 26 28 30$' "$tmp/out"
check "run: last row" grep -q '^ 224 226 228 230 232 234 236 238 240 242 244 246 248 250 252 254$' "$tmp/out"
check "run: cycles" grep -q 'cycles 129,' "$tmp/err"
"$bin" run "$src" --in x=2 --out "y=$tmp/y.bin" --quiet
check "run --out writes raw bytes" test "$(wc -c < "$tmp/y.bin")" -eq 512
"$bin" run "$src" --trace "$tmp/t.json" --quiet
check "run --trace" grep -q 'traceEvents' "$tmp/t.json"

printf 'halt ; br x\n' > "$tmp/bad.s"
"$bin" as "$tmp/bad.s" -o "$tmp/bad.pkimg" 2> "$tmp/err"
check "errors exit 1" test $? = 1
check "errors name file:line:col" grep -q 'bad.s:1:11: error: undefined label' "$tmp/err"
printf '.preset small\n.entry main\nsld s1, [s0 + 4096]\nhalt\n' > "$tmp/trap.s"
"$bin" run "$tmp/trap.s" 2> "$tmp/err"
check "a trap exits 1" test $? = 1
check "a trap is reported" grep -q 'trap' "$tmp/err"
# The trap op: a failed check, its message filled from SMEM words; the
# disassembly reads back to the same image; an unguarded-off trap passes.
cat > "$tmp/check.s" <<'EOF2'
.preset small
.entry main
smovi s1, 64
smovi s2, 7
sst s2, [s1 + 4]
scmpi.gt p1, s2, 3 ; scmpi.gt p2, s2, 9
(p2) trap s1, "never"
(p1) trap s1, "value %1 of 'x' is outside [0, 4) (100%%)"
halt
EOF2
"$bin" as "$tmp/check.s" -o "$tmp/c.pkimg"
check "trap: as" test $? = 0
"$bin" dis "$tmp/c.pkimg" > "$tmp/c.s" && "$bin" as "$tmp/c.s" -o "$tmp/d.pkimg"
check "trap: dis output assembles to the same image" \
	cmp -s "$tmp/c.pkimg" "$tmp/d.pkimg"
"$bin" run "$tmp/c.pkimg" 2> "$tmp/err"
check "trap: a failed check exits 1" test $? = 1
check "trap: the message holds the value" grep -q \
	"check failed: value 7 of 'x' is outside \[0, 4) (100%); bundle 5" \
	"$tmp/err"
printf '.preset small\n.entry main\ntrap s0, 5\nhalt\n' > "$tmp/bad.s"
"$bin" as "$tmp/bad.s" -o "$tmp/bad.pkimg" 2> "$tmp/err"
check "trap: the message must be a string" grep -q 'must be a string' \
	"$tmp/err"
"$bin" frob > /dev/null 2>&1
check "usage errors exit 2" test $? = 2
"$bin" as > /dev/null 2>&1
check "missing file exits 2" test $? = 2
"$bin" --help | grep -q '^Usage: pallas-asm'
check "--help" test $? = 0
"$bin" --version | grep -q '^pallas-asm (pallas-c)'
check "--version" test $? = 0
exit $fail
