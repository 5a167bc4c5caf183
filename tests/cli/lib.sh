# lib.sh - shared by the cli test scripts: a temp dir, the binary, checks that count.
# Sourced; sets tmp, src, bin, run (the qemu prefix or empty) and the helpers below.
set -u
src=${SBCDISK_SRCDIR:?} bin=${SBCDISK:?} run=${SBCDISK_RUN:-}
tmp=$(mktemp -d) || exit 1
# a subshell killed before it resets its traps runs this too: only the script itself cleans up
trap '[ "$BASHPID" = "$$" ] && rm -rf "$tmp"' EXIT
failures=0
checks=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { checks=$((checks + 1)); }
check() { local d=$1; shift; if "$@"; then ok; else fail "$d"; fi; }

# sb ARGS...: run the binary; output in $tmp/out, $tmp/err, the exit code in rc.
sb() {
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	timeout 120 $run "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

expect_rc() {
	if [ "$rc" -eq "$1" ]; then ok; else
		fail "$2: exit $rc, expected $1"; sed 's/^/  err: /' "$tmp/err" | head -5
	fi
}

grep_out() { if grep -q -- "$1" "$tmp/$2"; then ok; else fail "$3: no '$1' in $2"; fi; }

# done_checks: the summary line and the exit status
done_checks() {
	echo "$checks checks, $failures failed"
	[ "$failures" -eq 0 ]
}

# The option words that start the option lines of a --help text ("  -o, --output COLS ...").
help_opts() {
	awk '/^  -/ { for (i = 1; i <= NF; i++) { w = $i; sub(/,$/, "", w)
		if (w !~ /^--?[A-Za-z0-9]/) break; print w } }' "$1" | sort -u
}

# completion_setup: source the bash completion (data/completion/sbcdisk.bash), or exit 77
# under SBCDISK_RUN: the completion runs the binary itself. Then comp WORD... completes the
# last word as bash does (COMP_WORDS, COMP_CWORD); the offers, one a line, in $tmp/comp.
completion_setup() {
	if [ -n "$run" ]; then
		echo "SKIP: the completion runs the binary itself, not through $run"
		exit 77
	fi
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
