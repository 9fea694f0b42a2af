#!/bin/sh
# tests/hlo-diag/run.sh - the HLO diagnostics corpus: malformed HLO text
# modules (NAME.hlo) and the exact diagnostics (NAME.err) that the reader
# and verifier give.  The runner is the one of tests/diag.
top=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
exec sh "$top/tests/diag/run.sh" --dir tests/hlo-diag "$@"
