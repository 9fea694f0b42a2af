#!/bin/sh
# tables.sh FILE DIR NPYCHECK - the SMEM tables that FILE's lines
#     // table NAME [i8|bool|f32] V...
# give, written as DIR/NAME.npy by NPYCHECK (tests/interp/npycheck):
# lines naming a table again continue its values, the dtype on the
# first.  Used by tests/contract/run.sh and tests/budget/run.sh.
[ $# -eq 3 ] || { echo "usage: tables.sh FILE DIR NPYCHECK" >&2; exit 99; }
grep '^// table ' "$1" | awk '{ n = $3; $1 = $2 = $3 = ""
    if (!(n in v)) o[++k] = n; v[n] = v[n] $0 }
    END { for (i = 1; i <= k; i++)
    print "// table", o[i], v[o[i]] }' |
    while read -r _ _ name vals; do
	# shellcheck disable=SC2086
	"$3" table "$2/$name.npy" $vals || exit 99
done
