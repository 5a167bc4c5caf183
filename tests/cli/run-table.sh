#!/bin/bash
# run-table.sh - what the command table promises: --help of every command (and of the health
# check) works without the system (a sysroot that does not exist) and exits 0; a command that
# reads the system says once that the sysroot is unusable; --json is refused by a command
# that does not take it; the store options are the same everywhere they are taken.
. "$(dirname "$0")/lib.sh"
nosys=$tmp/no-such-root

# the commands, as the global help lists them
sb --help
expect_rc 0 "sbcdisk --help"
mapfile -t cmds < <(sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p' "$tmp/out")
check "the help lists the commands (got ${#cmds[@]})" [ "${#cmds[@]}" -ge 7 ]

for c in "${cmds[@]}"; do
	for h in --help -h; do
		sb --sysroot "$nosys" "$c" "$h"
		expect_rc 0 "--sysroot (missing) $c $h"
		grep_out "^Usage: sbcdisk $c" out "$c $h prints its usage"
		check "$c $h: nothing on stderr" [ ! -s "$tmp/err" ]
	done
	# a usage error is found before the system is needed too
	sub=()
	[ "$c" = fix ] && sub=(undo)
	sb --sysroot "$nosys" "$c" "${sub[@]}" --no-such-option
	expect_rc 2 "--sysroot (missing) $c --no-such-option"
	grep_out "unknown option '--no-such-option'" err "$c names the unknown option"
done
sb --sysroot "$nosys" --help
expect_rc 0 "--sysroot (missing) --help"
# an empty sysroot is a mistake, not this machine
for a in "--sysroot=" "--sysroot ''"; do
	eval "sb $a list"
	expect_rc 2 "$a list"
	grep_out "option '--sysroot' needs a directory" err "$a is refused"
done
sb --sysroot "$nosys" --version
expect_rc 0 "--sysroot (missing) --version"

# commands that read the system: one line naming the sysroot, exit 1
for c in "" list doctor "fix undo" "fix pcie-gen 3" "bench --no-save" "verify $tmp"; do
	# shellcheck disable=SC2086 # the words of $c are the command and its arguments
	sb --sysroot "$nosys" $c
	expect_rc 1 "--sysroot (missing) '$c'"
	grep_out "cannot use sysroot '$nosys'" err "'$c' names the sysroot"
	check "'$c': one line" [ "$(wc -l <"$tmp/err")" -eq 1 ]
done
# commands that keep to the result store do not need the system at all
XDG_DATA_HOME=$tmp/xdg sb --sysroot "$nosys" history
expect_rc 0 "--sysroot (missing) history"
grep_out "no runs stored yet" err "history works without the system"

# the JSON flag: taken where the table says, refused elsewhere
sb --sysroot "$nosys" report --json
expect_rc 2 "report --json"
grep_out "report: --json is not an option of this command" err "report --json is refused"
XDG_DATA_HOME=$tmp/xdg sb history --json
expect_rc 0 "history --json"
check "history --json prints JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \
	"$tmp/out"

# the store options: --db and --no-save for bench, --db/--device/--last for the readers,
# parsed by one function (the same message for the same mistake)
for c in history compare report; do
	sb "$c" --last 0
	expect_rc 2 "$c --last 0"
	grep_out "'--last 0': a count from 1 to" err "$c: --last 0 is refused"
	sb "$c" --no-save
	expect_rc 2 "$c --no-save"
	grep_out "unknown option '--no-save'" err "$c takes no --no-save"
done
sb bench --last 3
expect_rc 2 "bench --last"
grep_out "unknown option '--last'" err "bench takes no --last"
sb bench --db
expect_rc 2 "bench --db without a value"
grep_out "option '--db' needs a value" err "bench --db needs a value"
finish
