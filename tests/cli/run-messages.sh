#!/bin/bash
# run-messages.sh - bytes from the command line never reach the terminal raw: every message
# that echoes an argument (unknown command, usage errors, getopt's findings, the domain's
# refusals) shows control bytes and invalid UTF-8 as '?', and a huge argument is cut.
. "$(dirname "$0")/lib.sh"

# clean WHAT: stderr and stdout hold no control byte but newline, and valid UTF-8 only
clean() {
	local f
	for f in "$tmp/out" "$tmp/err"; do
		if LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$f" ||
			! iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1; then
			fail "$1: $(basename "$f"): $(od -An -c "$f" | head -c 300)"
			return
		fi
	done
	ok
}

esc=$'\e[2Jx' osc=$'\e]0;pwn\a' bad=$'\xff\xfe'
sb "$esc"
expect_rc 2 "an unknown command"
clean "an unknown command with an escape"
grep_out "'?\[2Jx' is not a command" err "the command is shown sanitised"

for a in "$esc" "$osc" "$bad"; do
	sb fix uas "$a"
	expect_rc 1 "fix uas (hostile name)"
	clean "fix uas $(printf %q "$a")"
	grep_out "cannot find the USB id of '" err "fix uas names the device"
	sb fix pcie-gen "$a"
	expect_rc 2 "fix pcie-gen (hostile)"
	clean "fix pcie-gen $(printf %q "$a")"
	sb list "--$a"
	expect_rc 2 "list --(hostile)"
	clean "an unknown option $(printf %q "$a")"
	sb history --since "$a"
	expect_rc 2 "history --since (hostile)"
	clean "history --since $(printf %q "$a")"
	sb --sysroot "$tmp/$a"
	expect_rc 1 "--sysroot (hostile)"
	clean "--sysroot $(printf %q "$a")"
	sb bench --test "rw=$a"
	expect_rc 2 "bench --test rw=(hostile)"
	clean "bench --test rw=$(printf %q "$a")"
done

# the longest argument the kernel passes (128 KiB less one): one short line, cut with "…"
long=$(head -c 131071 /dev/zero | tr '\0' a)
sb "$long"
expect_rc 2 "a 128 KiB command name"
size=$(wc -c <"$tmp/err")
check "a 128 KiB argument is cut (stderr has $size bytes)" [ "$size" -lt 1200 ]
grep_out "…" err "the cut is shown"
check "two lines: the message and the hint" [ "$(wc -l <"$tmp/err")" -eq 2 ]
sb fix uas "${long:0:4000}$esc"
size=$(wc -c <"$tmp/err")
check "fix uas: a 4 KB device name is cut (stderr has $size bytes)" [ "$size" -lt 1200 ]

# getopt's own messages are never printed (opterr = 0); ours name the right word
sb list -zb
expect_rc 2 "list -zb"
grep_out "unknown option '-z'" err "a bundle names the unknown letter"
not_in() { ! grep -q -- "$1" "$tmp/$2"; }
check "getopt's own message is not printed" not_in "invalid option" err
sb list -o
grep_out "option '-o' needs a value" err "a missing value"
sb list --bytes=3
grep_out "option '--bytes' takes no value" err "a value for a flag"
sb doctor "--kmsg=$esc" --bogus
grep_out "unknown option '--bogus'" err "the unknown option, not the one before"
finish
