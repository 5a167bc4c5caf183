#!/bin/bash
# run-options.sh - every command's option table against what the user sees: each option of
# the table (`sbcdisk __complete options CMD`) is on an option line of CMD's --help and is
# offered by the bash completion of `sbcdisk CMD -`; an unknown option, long or short, and
# a missing value of each option that takes one are exit 2 with the same message form for
# every command. A new command or option fails here until its table, help and completion
# agree.
. "$(dirname "$0")/lib.sh"
completion_setup

# usage_error WHAT MESSAGE: exit 2, and standard error is exactly the message and the hint
usage_error() {
	expect_rc 2 "$1"
	printf 'sbcdisk: %s\nTry '\''sbcdisk %s --help'\''.\n' "$2" "$c" >"$tmp/want"
	if cmp -s "$tmp/want" "$tmp/err"; then ok; else
		fail "$1: said '$(head -c 300 "$tmp/err")', expected '$(head -1 "$tmp/want")'"
	fi
}

sb __complete commands
mapfile -t cmds <"$tmp/out"
check "the command table has commands (got ${#cmds[@]})" [ "${#cmds[@]}" -ge 8 ]

for c in "${cmds[@]}"; do
	sb __complete options "$c"
	expect_rc 0 "__complete options $c"
	mapfile -t opts <"$tmp/out"
	check "$c: its table has options" [ "${#opts[@]}" -ge 1 ]
	sb "$c" --help
	expect_rc 0 "$c --help"
	help_opts "$tmp/out" >"$tmp/help"
	comp "$c" -
	for o in "${opts[@]}"; do
		grep -qxF -- "$o" "$tmp/help" && ok || fail "$c: '$o' is in its table but not in --help"
		grep -qxF -- "$o" "$tmp/comp" && ok ||
			fail "$c: '$o' is in its table but the completion of '$c -' does not offer it"
	done

	sb "$c" --no-such-option
	usage_error "$c --no-such-option" "$c: unknown option '--no-such-option'"
	sb "$c" -Z
	usage_error "$c -Z" "$c: unknown option '-Z'"
	sb __complete value-options "$c"
	mapfile -t valopts <"$tmp/out"
	for o in "${valopts[@]}"; do
		sb "$c" "$o"
		usage_error "$c $o (no value)" "$c: option '$o' needs a value"
	done
	# a flag given a value: the long form of the first option that takes none
	for o in "${opts[@]}"; do
		case " ${valopts[*]} " in *" $o "*) continue ;; esac
		[[ $o == --* && $o != --json ]] || continue
		sb "$c" "$o=x"
		usage_error "$c $o=x" "$c: option '$o' takes no value"
		break
	done
done

# --db is one shared entry: an empty one is the same usage error everywhere
for c in "${cmds[@]}"; do
	sb __complete options "$c"
	grep -qxF -- --db "$tmp/out" || continue
	sb "$c" --db ''
	usage_error "$c --db ''" "$c: option '--db' needs a value"
done

# names_all WHERE: $tmp/names (one word a line) holds every profile and engine of the tables
names_all() {
	local list n
	for list in profiles engines; do
		sb __complete $list
		while read -r n; do
			grep -qxF -- "$n" "$tmp/names" && ok || fail "$1 does not name the $list entry '$n'"
		done <"$tmp/out"
	done
}
# bench's --help names every profile and engine of their tables ...
sb bench --help
sed -n '/^  --profile/,/^  --[a-oq-z]/p; /^  --engine/p' "$tmp/out" | tr -s ' \n,' '\n' >"$tmp/names"
names_all "bench --help"
# ... and so does the man page, whose lists are written by hand
sed -n '/^\*--profile\* /,/^$/p; /^\*--engine\* /,/^$/p' "$src/doc/sbcdisk.8.scd" |
	tr -s ' \t\n,.:()' '\n' >"$tmp/names"
names_all "the man page"

finish
