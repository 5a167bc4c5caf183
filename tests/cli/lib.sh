# shellcheck shell=bash
# lib.sh - shared by the cli test scripts: tests/lib.sh (tmp, src, bin, run, sb and the checks
# that count), plus the option words of a help text and the bash completion. Sourced.
# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# The option words that start the option lines of a --help text ("  -o, --output COLS ...").
help_opts() {
	awk '/^  -/ { for (i = 1; i <= NF; i++) { w = $i; sub(/,$/, "", w)
		if (w !~ /^--?[A-Za-z0-9]/) break; print w } }' "$1" | sort -u
}

# completion_setup: source the bash completion (data/completion/sbcdisk.bash), or exit 77
# under SBCDISK_RUN: the completion runs the binary itself. Then comp WORD... completes the
# last word as bash does (COMP_WORDS, COMP_CWORD); the offers, one a line, in $tmp/comp.
completion_setup() {
	[ -z "$run" ] || skip "the completion runs the binary itself, not through $run"
	# shellcheck source=../../data/completion/sbcdisk.bash
	. "$src/data/completion/sbcdisk.bash"
}
comp() {
	COMP_WORDS=("$bin" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_sbcdisk
	printf '%s\n' "${COMPREPLY[@]}" | sort -u >"$tmp/comp"
}
