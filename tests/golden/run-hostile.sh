#!/bin/bash
# run-hostile.sh - `sbcdisk list` on a hostile sysroot tree must end on its own (exit 0 or 1,
# never a signal or a hang), within 20 s, without sanitizer reports, with valid JSON; an
# unusable root gets exactly one line on stderr, exit 1 and no output; "# expect: PATH =
# JSON" lines of the description name values the JSON must carry (tests/golden/expect.py),
# words on "# forbid: WORD" lines must not appear in the output. When
# tests/golden/list/TREE.{txt,json} exist they are diffed too.
# usage: run-hostile.sh TREE [unusable]
set -u
tree=${1:?usage: run-hostile.sh TREE [unusable]}
unusable=${2:-}
. "$(dirname "$0")/lib.sh"
tree_build "$tree"

status=0
for mode in txt json; do
	list_run "$mode"
	ok=1
	if [ "$rc" -eq 124 ]; then
		echo "FAIL: $tree ($mode): still running after 20 s"
		ok=0
	elif [ "$rc" -gt 1 ]; then
		echo "FAIL: $tree ($mode): exit $rc (only 0 or 1 are allowed; >128 is a signal)"
		ok=0
	fi
	output_check "$tree" "$mode" || ok=0
	# "# expect: PATH = JSON" lines: values the JSON must carry (null rather than a guess),
	# whatever the exit code: an exit 1 with half a document fails here, not quietly
	if [ "$mode" = json ] && [ -z "$unusable" ] && ! python3 "$src/tests/golden/expect.py" \
		"$src/tests/sysroots/$tree.desc" "$tmp/out"; then
		ok=0
	fi
	# "# forbid: WORD" lines of the description: host data a confined reader cannot see
	while read -r word; do
		if grep -qF -- "$word" "$tmp/out" "$tmp/err"; then
			echo "FAIL: $tree ($mode): output shows '$word' (read outside the sysroot?)"
			ok=0
		fi
	done < <(sed -n 's/^# forbid: //p' "$src/tests/sysroots/$tree.desc")
	if [ -n "$unusable" ]; then
		lines=$(wc -l <"$tmp/err")
		if [ "$rc" -ne 1 ] || [ "$lines" -ne 1 ] || [ -s "$tmp/out" ]; then
			echo "FAIL: $tree ($mode): an unusable sysroot needs exit 1, one stderr line" \
				"and no output (got exit $rc, $lines lines)"
			ok=0
		fi
	elif [ -f "$golden/$tree.$mode" ] || [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		golden_diff "$tree" "$mode" || ok=0
	fi
	if [ "$ok" -eq 0 ]; then
		echo "--- stderr ($mode) ---"
		head -c 4000 "$tmp/err"
		status=1
	fi
done
exit "$status"
