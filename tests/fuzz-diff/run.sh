#!/bin/sh
# run.sh - the differential fuzzer's check-time run: a fixed set of
# generated kernels (seeds FUZZ_CHECK_SEED.., FUZZ_CHECK_COUNT of them)
# on the small and v4 presets, compiled runs against interpret mode,
# then the saved regression cases (tests/fuzz-diff/cases, see
# cases/README).  Fails on a DIVERGE or a CRASH; REFUSED kernels (the
# backend's known gaps) and REJECTED ones (sema refusing a generated
# kernel) are counted and printed only.  Cases listed as known-failing
# in their .run file must still fail as listed.
#
# Generator options for constructs whose bugs are known and not fixed
# yet (KNOWN below): the fixed seeds leave them out, so that the run
# guards everything else; `make fuzz-diff` keeps them in.
#
# Environment: PALLASC, top_srcdir (set by make check); PYTHON.
: "${PALLASC:?PALLASC must name the pallasc binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"
py=${PYTHON:-python3}
dir=$top_srcdir/tests/fuzz-diff

# KNOWN: pkgen.py avoid-list names of constructs with open bugs, each
# with a regression case in cases/ (see doc/design.md).  Delete a name
# once its case agrees.
KNOWN=

if ! command -v "$py" >/dev/null 2>&1; then
	echo "fuzz-diff: no $py; skipped"
	exit 77
fi
fail=0
FUZZ_AVOID=$KNOWN "$py" "$dir/pkfuzz.py" run --check \
	--seed "${FUZZ_CHECK_SEED:-1}" --count "${FUZZ_CHECK_COUNT:-24}" ||
	fail=1
"$py" "$dir/pkfuzz.py" replay "$dir/cases" || fail=1
[ $fail = 0 ]
