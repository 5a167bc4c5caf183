#!/bin/bash
# run-list.sh - golden test of `sbcdisk list` (table and --json) on one generated sysroot tree.
# usage: run-list.sh TREE   (tests/sysroots/TREE.desc; UPDATE_GOLDEN=1 rewrites the goldens)
# A tree without its golden files fails: a test that cannot compare must not pass or skip.
set -u
tree=${1:?usage: run-list.sh TREE}
. "$(dirname "$0")/lib.sh"
tree_build "$tree"

status=0
for mode in txt json; do
	list_run "$mode"
	if [ ! -f "$golden/$tree.$mode" ] && [ "${UPDATE_GOLDEN:-}" != 1 ]; then
		echo "FAIL: no golden file tests/golden/list/$tree.$mode (create it with" \
			"UPDATE_GOLDEN=1 and review it)"
		status=1
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
exit "$status"
