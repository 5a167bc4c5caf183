#!/bin/bash
# run-completion.sh - the bash completion (data/completion/sbcdisk.bash), sourced in bash and
# called as bash calls it (COMP_WORDS, COMP_CWORD): commands, options, profiles, finding
# levels, devices of a sysroot tree, run ids of a store; and the zsh one with compadd and
# _files stood in for, when zsh is there. Native only: the completion runs the binary.
. "$(dirname "$0")/lib.sh"
completion_setup
# offers WHAT WORD...: every word is offered
offers() {
	local what=$1 w
	shift
	for w in "$@"; do
		grep -qxF -- "$w" "$tmp/comp" || fail "$what: '$w' is not offered (got: $(tr '\n' ' ' <"$tmp/comp"))"
		ok
	done
}
# exactly WHAT WORD...: these words and no others
exactly() {
	local what=$1
	shift
	if [ "$(printf '%s\n' "$@" | sort -u)" = "$(cat "$tmp/comp")" ]; then ok; else
		fail "$what: offered '$(tr '\n' ' ' <"$tmp/comp")', expected '$*'"
	fi
}

# the commands, as the global help lists them
sb --help
mapfile -t cmds < <(sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p' "$tmp/out")
check "the help lists commands" [ "${#cmds[@]}" -ge 8 ]
comp ""
exactly "sbcdisk <tab>" "${cmds[@]}"
comp hi
exactly "sbcdisk hi<tab>" history

# options: every option line of each command's --help, and the global ones
for c in "${cmds[@]}"; do
	sb "$c" --help
	mapfile -t opts < <(help_opts "$tmp/out")
	comp "$c" -
	offers "sbcdisk $c -<tab>" "${opts[@]}" --sysroot --json --version
done
comp bench --pro
exactly "bench --pro<tab>" --profile
comp boot time --re
exactly "boot time --re<tab>" --record
comp history --bo
exactly "history --bo<tab>" --boot

# profiles, as --profile help lists them
sb bench --profile help
mapfile -t profiles < <(sed -n 's/^  \([a-z0-9-]*\)  .*/\1/p' "$tmp/out")
check "bench --profile help lists profiles" [ "${#profiles[@]}" -ge 5 ]
comp bench --profile ""
exactly "bench --profile <tab>" "${profiles[@]}"
comp bench --profile sd
exactly "bench --profile sd<tab>" sdcard

comp doctor --fail-on ""
exactly "doctor --fail-on <tab>" error warning info
comp bench --engine ""
exactly "bench --engine <tab>" io_uring psync null
# metrics --textfile takes a directory (nothing was offered)
mkdir "$tmp/textfile-dir"
comp metrics --textfile "$tmp/textfile-d"
exactly "metrics --textfile DIR<tab>" "$tmp/textfile-dir"
comp doctor --fail-on w
exactly "doctor --fail-on w<tab>" warning

# subcommands from the usage lines, then devices from the sysroot's /sys/block
comp fix ""
exactly "fix <tab>" uas pcie-gen usb-current sd-cqe nvme-apst undo verify
comp boot ""
exactly "boot <tab>" check order time
python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi4-jms567-usb3-uas.desc" "$tmp/root" ||
	exit 1
mapfile -t devs < <(ls "$tmp/root/sys/block")
check "the tree has block devices" [ "${#devs[@]}" -ge 1 ]
comp --sysroot "$tmp/root" fix uas ""
exactly "--sysroot TREE fix uas <tab>" "${devs[@]}"
comp --sysroot "$tmp/root" fix uas sd
exactly "--sysroot TREE fix uas sd<tab>" sda
comp --sysroot "$tmp/root" bench /dev/sd
offers "--sysroot TREE bench /dev/sd<tab>" /dev/sda
comp --sysroot "$tmp/root" list -o MOD
exactly "list -o MOD<tab>" MODEL

# run ids from the store named by --db (none before the import: no database is made)
comp compare --db "$tmp/r.db" ""
exactly "compare (no database) <tab>"
check "completing made no database" [ ! -e "$tmp/r.db" ]
sb history --db "$tmp/r.db" --import "$src/data/seed-results/seed-runs.json"
expect_rc 0 "history --import"
comp compare --db "$tmp/r.db" ""
exactly "compare --db DB <tab>" $(seq 1 18)
comp report --db "$tmp/r.db" 1
exactly "report --db DB 1<tab>" 1 10 11 12 13 14 15 16 17 18

# zsh: the same function logic, with compadd and _files printing what they are given
if command -v zsh >/dev/null; then
	zcomp() {
		SB=$bin SRC=$src zsh -f -c '
			compadd() { local p= a; [[ $1 == -a ]] || return; shift
				[[ $1 == -p ]] && { p=$2; shift 2 }
				for a in ${(P)1}; do print -r -- "$p$a"; done }
			_files() { print -r -- "<files>" }
			words=($SB "$@"); CURRENT=$#words
			source $SRC/data/completion/_sbcdisk' zcomp "$@" | sort -u >"$tmp/comp"
	}
	zcomp ""
	exactly "zsh: sbcdisk <tab>" "${cmds[@]}"
	zcomp bench --profile ""
	exactly "zsh: bench --profile <tab>" "${profiles[@]}"
	zcomp --sysroot "$tmp/root" fix uas ""
	exactly "zsh: --sysroot TREE fix uas <tab>" "${devs[@]}"
	zcomp compare --db "$tmp/r.db" ""
	exactly "zsh: compare --db DB <tab>" $(seq 1 18)
	zcomp doctor -
	offers "zsh: doctor -<tab>" --kmsg --fail-on --json --sysroot
else
	echo "note: no zsh, its completion is not tried"
fi

finish
