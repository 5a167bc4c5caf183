#!/bin/bash
# run-readme.sh - the README is a front door that works: at most 400 lines, the two set-up
# commands in its first 40 (and .ci/run runs its test command), every link a file of the
# repository, its command table the binary's commands, and every command it shows one of them.
set -u
. "$SBCDISK_SRCDIR/tests/cli/lib.sh"
readme=$src/README.md

n=$(wc -l <"$readme")
[ "$n" -le 400 ] && ok || fail "README.md has $n lines, more than 400"
head -n 40 "$readme" | grep -q '^\./go\.sh run ' && head -n 40 "$readme" | grep -q '^\./go\.sh test ' &&
	ok || fail "the set-up commands ./go.sh run and ./go.sh test are not in the first 40 lines"
grep -q '^exec \./go\.sh test$' "$src/.ci/run" && ok || fail ".ci/run does not run ./go.sh test"

# links: [text](target) with a relative target resolve to a file or directory of the repo,
# from the README and from the guide it sends the reader to
for doc in README.md docs/guide.md; do
	dir=$(dirname "$src/$doc")
	while IFS= read -r target; do
		case $target in
		http://* | https://* | mailto:* | '#'*) continue ;;
		esac
		[ -e "$dir/${target%%#*}" ] && ok || fail "$doc links to $target, which is not in the repository"
	done < <(grep -o '\]([^)]*)' "$src/$doc" | sed 's/^](//; s/)$//')
done
grep -q '](docs/guide.md)' "$readme" && grep -q '](doc/sbcdisk.8.scd)' "$readme" && ok ||
	fail "the README does not link the guide and the man page"

# the command table: its rows are `NAME` | ...; the binary's commands are those of --help
# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
$run "$bin" --help | awk '/^Commands:/ { c = 1; next } c && /^$/ { exit } c { print $1 }' |
	sort >"$tmp/cmds"
[ -s "$tmp/cmds" ] && ok || fail "no commands in sbcdisk --help"
sed -n '/^## Commands/,/^## /p' "$readme" | grep -o '^| `[a-z]*` |' | tr -d '|` ' |
	grep -vx sbcdisk | sort >"$tmp/table"
[ -s "$tmp/table" ] && ok || fail "no command table under '## Commands' in the README"
missing=$(comm -23 "$tmp/cmds" "$tmp/table" | tr '\n' ' ')
[ -z "$missing" ] && ok || fail "commands not in the README's table: $missing"
extra=$(comm -13 "$tmp/cmds" "$tmp/table" | tr '\n' ' ')
[ -z "$extra" ] && ok || fail "the README's table names commands the binary lacks: $extra"

# every command shown in a code block (sbcdisk WORD, with sudo or a $ prompt) is a command,
# and its --help works (the subcommand's too: fix uas, boot order)
awk '/^```/ { c = !c; next } c' "$readme" |
	sed -n 's/^\(\$ \)\{0,1\}\(sudo \)\{0,1\}sbcdisk\( \|$\)//p' | sed 's/ *#.*//' >"$tmp/shown"
[ -s "$tmp/shown" ] && ok || fail "no sbcdisk command in the README's code blocks"
while read -r word sub _; do
	[ -z "$word" ] && continue
	case $word in -*) continue ;; esac
	grep -qx "$word" "$tmp/cmds" && ok || { fail "the README shows 'sbcdisk $word', no command"; continue; }
	case $sub in [a-z]*) ;; *) sub= ;; esac
	# shellcheck disable=SC2086 # the subcommand, when there is one
	$run "$bin" "$word" $sub --help >/dev/null 2>&1 && ok || fail "sbcdisk $word $sub --help fails"
done <"$tmp/shown"

finish
