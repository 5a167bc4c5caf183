#!/bin/bash
# run-hostile.sh - `sbcdisk list` on a hostile sysroot tree must end on its own (exit 0 or 1,
# never a signal or a hang), without sanitizer reports, within 20 s; unusable roots get
# exactly one line on stderr. When tests/golden/list/TREE.{txt,json} exist they are diffed too.
# usage: run-hostile.sh TREE [unusable]
set -u
tree=${1:?usage: run-hostile.sh TREE [unusable]}
unusable=${2:-}
src=${SBCDISK_SRCDIR:?} bin=${SBCDISK:?} run=${SBCDISK_RUN:-}
golden=$src/tests/golden/list
tmp=$(mktemp -d) || exit 1
[ "${UPDATE_GOLDEN:-}" = 1 ] && mkdir -p "$golden"
trap 'rm -rf "$tmp"' EXIT

python3 "$src/tools/mksysroot" "$src/tests/sysroots/$tree.desc" "$tmp/root" || exit 1

status=0
for mode in txt json; do
	args=(list)
	[ "$mode" = json ] && args+=(--json)
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	timeout 20 $run "$bin" --sysroot "$tmp/root" "${args[@]}" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	sed -i "s|$tmp/root|SYSROOT|g" "$tmp/out" "$tmp/err"
	if [ "$rc" -eq 124 ]; then
		echo "FAIL: $tree ($mode): still running after 20 s"
		status=1
	elif [ "$rc" -gt 1 ]; then
		echo "FAIL: $tree ($mode): exit $rc (only 0 or 1 are allowed; >128 is a signal)"
		status=1
	fi
	if grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error:' \
		"$tmp/err"; then
		echo "FAIL: $tree ($mode): sanitizer report"
		status=1
	fi
	if [ -n "$unusable" ]; then
		lines=$(wc -l <"$tmp/err")
		if [ "$rc" -ne 1 ] || [ "$lines" -ne 1 ] || [ -s "$tmp/out" ]; then
			echo "FAIL: $tree ($mode): an unusable sysroot needs exit 1, one stderr line" \
				"and no output (got exit $rc, $lines lines)"
			status=1
		fi
	fi
	want=$golden/$tree.$mode
	if [ "${UPDATE_GOLDEN:-}" = 1 ] && [ -z "$unusable" ]; then
		cp "$tmp/out" "$want"
	elif [ -f "$want" ] && ! diff -u --label "expected $tree.$mode" --label actual \
		"$want" "$tmp/out"; then
		echo "FAIL: $tree ($mode) differs from its golden file"
		status=1
	fi
	if [ "$status" -ne 0 ]; then
		echo "--- stderr ($mode) ---"
		head -c 4000 "$tmp/err"
	fi
done
exit "$status"
