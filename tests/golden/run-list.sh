#!/bin/bash
# run-list.sh - golden test of `sbcdisk list` (table and --json) on one generated sysroot tree.
# usage: run-list.sh TREE   (tests/sysroots/TREE.desc; UPDATE_GOLDEN=1 rewrites the goldens)
# Skips (77) while the tree has no golden file yet, unless the run crashed.
set -u
tree=${1:?usage: run-list.sh TREE}
. "$(dirname "$0")/lib.sh"
tree_build "$tree"

status=0 missing=0
for mode in txt json; do
	list_run "$mode"
	if [ ! -f "$golden/$tree.$mode" ] && [ "${UPDATE_GOLDEN:-}" != 1 ] && [ "$rc" -le 1 ]; then
		echo "no golden file tests/golden/list/$tree.$mode (create it with UPDATE_GOLDEN=1," \
			"review it)"
		missing=1
		continue
	fi
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: $tree ($mode): exit $rc"
		cat "$tmp/err"
		status=1
		continue
	fi
	output_check "$tree" "$mode" || { cat "$tmp/err"; status=1; }
	golden_diff "$tree" "$mode" || status=1
done
[ "$status" -eq 0 ] && [ "$missing" -eq 1 ] && exit 77
exit "$status"
