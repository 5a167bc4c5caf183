# shellcheck shell=bash
# lib.sh - shared by the golden runners: tests/lib.sh with $tmp on tmpfs, then build a sysroot
# tree, run sbcdisk on it, check the output for sanitizer reports and JSON validity. Sourced.

# trees are many small files: tmpfs (/dev/shm) is much faster than a busy disk
tmp_base=${TMPDIR:-}
[ -z "$tmp_base" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && tmp_base=/dev/shm
# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
golden=$src/tests/golden/list
[ "${UPDATE_GOLDEN:-}" = 1 ] && mkdir -p "$golden"

# tree_build TREE: tests/sysroots/TREE.desc -> $tmp/root
tree_build() {
	python3 "$src/tools/mksysroot" "$src/tests/sysroots/$1.desc" "$tmp/root" || exit 1
}

# tree_run ARGS...: sbcdisk ARGS on $tmp/root, bounded to 20 s; stdout in $tmp/out, stderr
# in $tmp/err, exit code in $rc. The temporary root path is replaced by SYSROOT: it never
# belongs in a golden file.
tree_run() {
	bin_run 20 --sysroot "$tmp/root" "$@"
	sed -i "s|$tmp/root|SYSROOT|g" "$tmp/out" "$tmp/err"
}

# list_run MODE: tree_run list (MODE txt) or list --json (MODE json)
list_run() {
	local args=(list)
	[ "$1" = json ] && args+=(--json)
	tree_run "${args[@]}"
}

# output_check TREE MODE: 0 when stderr has no sanitizer report, a table holds no raw
# control characters and JSON output parses as UTF-8 JSON (whatever the exit code, when
# anything was printed; always after exit 0); prints the reason otherwise.
output_check() {
	if grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error:' \
		"$tmp/err"; then
		echo "FAIL: $1 ($2): sanitizer report"
		return 1
	fi
	# a table must not pass raw control characters (terminal escapes) through
	if [ "$2" = txt ] && LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$tmp/out"; then
		echo "FAIL: $1 ($2): raw control characters in the table"
		return 1
	fi
	if [ "$2" = json ] && { [ "$rc" -eq 0 ] || [ -s "$tmp/out" ]; } && ! python3 -c 'import json, sys
try:
    json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
except ValueError as e:
    sys.exit("FAIL: stdout is not valid UTF-8 JSON: %s" % e)' "$tmp/out"; then
		return 1
	fi
	return 0
}

# golden_diff TREE MODE: compare (or with UPDATE_GOLDEN=1 rewrite) the golden file.
golden_diff() {
	local want=$golden/$1.$2
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$tmp/out" "$want"
		echo "updated ${want#"$src"/}"
	elif ! diff -u --label "expected $1.$2" --label actual "$want" "$tmp/out"; then
		echo "FAIL: $1 ($2) differs from its golden file"
		return 1
	fi
	return 0
}
