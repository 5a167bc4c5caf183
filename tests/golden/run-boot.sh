#!/bin/bash
# run-boot.sh - golden test of `sbcdisk boot` and `boot check` (table and --json) on one
# generated sysroot tree; goldens in tests/golden/boot/TREE.{txt,json,check.txt,check.json}.
# usage: run-boot.sh TREE   (UPDATE_GOLDEN=1 rewrites the goldens; a missing one fails)
set -u
tree=${1:?usage: run-boot.sh TREE}
. "$(dirname "$0")/lib.sh"
golden=$src/tests/golden/boot
[ "${UPDATE_GOLDEN:-}" = 1 ] && mkdir -p "$golden"
tree_build "$tree"

status=0
for mode in txt json check.txt check.json; do
	args=(boot)
	case $mode in check.*) args+=(check) ;; esac
	case $mode in *json) args+=(--json) ;; esac
	tree_run "${args[@]}"
	if [ ! -f "$golden/$tree.$mode" ] && [ "${UPDATE_GOLDEN:-}" != 1 ]; then
		echo "FAIL: no golden file tests/golden/boot/$tree.$mode (create it with" \
			"UPDATE_GOLDEN=1 and review it)"
		status=1
		continue
	fi
	# boot check exits 3 when a disk will not boot: that is an answer, not a failure
	if [ "$rc" -ne 0 ] && ! { [ "$rc" -eq 3 ] && [[ $mode == check.* ]]; }; then
		echo "FAIL: $tree ($mode): exit $rc"
		cat "$tmp/err"
		status=1
		continue
	fi
	if [[ $mode == check.* ]] && grep -q '"result": "fail"\|  FAIL  ' "$tmp/out" &&
		[ "$rc" -ne 3 ]; then
		echo "FAIL: $tree ($mode): a FAIL check but exit $rc, not 3"
		status=1
	fi
	output_check "$tree" "${mode#check.}" || { cat "$tmp/err"; status=1; }
	golden_diff "$tree" "$mode" || status=1
done
exit "$status"
