#!/bin/bash
# run-man-help.sh - the man page's source (doc/sbcdisk.8.scd) and the --help texts name the
# same options, both ways, for the global options and for every command of the command table
# (as `sbcdisk __complete commands` lists it): a new command fails here until the man page
# has a "## sbcdisk CMD" section with its options.
. "$(dirname "$0")/lib.sh"
scd=$src/doc/sbcdisk.8.scd

# The option words of the man page section whose heading is $1: the lines that start with
# *-x* or *--name* (the term of an option), each word between stars.
man_opts() {
	awk -v h="$1" '
		/^#/ { inside = ($0 == h); next }
		inside && /^\*-/ { line = $0
			while (match(line, /\*--?[A-Za-z0-9][A-Za-z0-9-]*\*/)) {
				print substr(line, RSTART + 1, RLENGTH - 2)
				line = substr(line, RSTART + RLENGTH) } }' "$scd" | sort -u
}

# compare WHAT HELP-FILE HEADING
compare() {
	local what=$1 help=$2 heading=$3 o
	if ! grep -qxF -- "$heading" "$scd"; then
		fail "$what: the man page has no section '$heading'"
		return
	fi
	help_opts "$help" >"$tmp/h"
	man_opts "$heading" >"$tmp/m"
	check "$what: --help shows options" [ -s "$tmp/h" ]
	while read -r o; do
		fail "$what: '$o' is in --help but not in the man page"
	done < <(comm -23 "$tmp/h" "$tmp/m")
	while read -r o; do
		fail "$what: '$o' is in the man page but not in --help"
	done < <(comm -13 "$tmp/h" "$tmp/m")
	ok
}

[ -f "$scd" ] || { echo "FAIL: no $scd"; exit 1; }

sb --help
expect_rc 0 "sbcdisk --help"
cp "$tmp/out" "$tmp/global-help"
# the global help's option lines, not its command list
sed -n '/^Global options:/,/^$/p' "$tmp/global-help" >"$tmp/global-opts"
compare "global options" "$tmp/global-opts" "# GLOBAL OPTIONS"

sb __complete commands
expect_rc 0 "sbcdisk __complete commands"
mapfile -t cmds <"$tmp/out"
check "the command table has commands (got ${#cmds[@]})" [ "${#cmds[@]}" -ge 8 ]
# the global help lists the same commands (hidden ones aside)
for c in "${cmds[@]}"; do
	grep_out "^  $c " global-help "the global --help lists '$c'"
done

for c in "${cmds[@]}"; do
	sb "$c" --help
	expect_rc 0 "$c --help"
	cp "$tmp/out" "$tmp/help-$c"
	compare "$c" "$tmp/help-$c" "## sbcdisk $c"
done

# every command section of the man page is a command of the table
while read -r c; do
	[ "$c" = "(no command)" ] && continue
	printf '%s\n' "${cmds[@]}" | grep -qxF -- "$c" ||
		fail "the man page has a section for '$c', which is not a command"
	ok
done < <(sed -n 's/^## sbcdisk \(.*\)/\1/p' "$scd")

# the exit codes of the global help are in the man page's EXIT STATUS
for code in $(sed -n 's/^Exit codes: //p' "$tmp/global-help" | grep -o '[0-9] [a-z]' | cut -c1); do
	grep -qx "\*$code\*" "$scd" || fail "exit code $code is not in the man page"
	ok
done

finish
