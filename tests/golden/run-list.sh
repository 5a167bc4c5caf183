#!/bin/bash
# run-list.sh - golden test of `sbcdisk list` (table and --json) on one generated sysroot tree.
# usage: run-list.sh TREE   (tests/sysroots/TREE.desc; UPDATE_GOLDEN=1 rewrites the goldens)
set -u
tree=${1:?usage: run-list.sh TREE}
src=${SBCDISK_SRCDIR:?} bin=${SBCDISK:?} run=${SBCDISK_RUN:-}
golden=$src/tests/golden/list
tmp=$(mktemp -d) || exit 1
[ "${UPDATE_GOLDEN:-}" = 1 ] && mkdir -p "$golden"
trap 'rm -rf "$tmp"' EXIT

python3 "$src/tools/mksysroot" "$src/tests/sysroots/$tree.desc" "$tmp/root" || exit 1

status=0
missing=0
for mode in txt json; do
	args=(list)
	[ "$mode" = json ] && args+=(--json)
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	timeout 20 $run "$bin" --sysroot "$tmp/root" "${args[@]}" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	# the temporary sysroot path never belongs in a golden file
	sed -i "s|$tmp/root|SYSROOT|g" "$tmp/out" "$tmp/err"
	want=$golden/$tree.$mode
	if [ ! -f "$want" ] && [ "${UPDATE_GOLDEN:-}" != 1 ] && [ "$rc" -le 1 ]; then
		# nothing to compare with yet: the list engineer creates and reviews the goldens
		echo "no golden file ${want#"$src"/} (create it with UPDATE_GOLDEN=1, review it)"
		missing=1
		continue
	fi
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: $tree ($mode): exit $rc"
		cat "$tmp/err"
		status=1
		continue
	fi
	if grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error:' \
		"$tmp/err"; then
		echo "FAIL: $tree ($mode): sanitizer report"
		cat "$tmp/err"
		status=1
	fi
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$tmp/out" "$want"
		echo "updated ${want#"$src"/}"
	elif ! diff -u --label "expected $tree.$mode" --label "actual" "$want" "$tmp/out"; then
		echo "FAIL: $tree ($mode) differs from its golden file"
		status=1
	fi
done
[ "$status" -eq 0 ] && [ "$missing" -eq 1 ] && exit 77
exit "$status"
