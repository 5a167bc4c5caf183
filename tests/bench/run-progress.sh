#!/bin/bash
# run-progress.sh - the progress line: on stderr when it is a terminal (test, run i/N, live
# MB/s, time left), nothing on stderr when it is not, and never on stdout or in the JSON.
. "$(dirname "$0")/lib.sh"

d=$tmp/d
mkdir "$d"

# on_tty ARGS...: sbcdisk with its stderr on a pseudo-terminal (lib.sh tty_run)
on_tty() {
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	tty_run $run "$bin" "$@" --no-save
}

on_tty bench "$d" --engine psync --size 8m --test rw=randread,bs=4k,time=1.5s,runs=2
expect_rc 0 "on a terminal"
check "progress: redrawn in place" grep -q $'\r\033\\[K' "$tmp/tty"
grep_out "RND4K Q1T1 randread  run 1/2  [0-9.]* MB/s  [0-9]* s left" tty "progress: run 1/2"
grep_out "RND4K Q1T1 randread  run 2/2  [0-9.]* MB/s  [0-9]* s left" tty "progress: run 2/2"
grep_out "^RND4K Q1T1 " out "the table is on stdout"
check "stdout has no progress" [ "$(grep -c $'\r' "$tmp/out")" -eq 0 ]

on_tty bench "$d" --engine psync --size 8m --test rw=randread,bs=4k,time=1s --json
expect_rc 0 "--json on a terminal"
json "d['tests'][0]['ios'] > 0" "the JSON is whole"
grep_out "RND4K Q1T1 randread" tty "progress with --json goes to the terminal"

on_tty bench "$d" --engine psync --size 8m --profile hdparm --time 0.2s --interval 1s
expect_rc 0 "hdparm on a terminal"
grep_out "buffered disk reads read  letting I/O settle for 1 s first, as hdparm does" tty \
	"progress: hdparm's pause"

sb bench "$d" --engine psync --size 8m --test rw=randread,bs=4k,time=1s
expect_rc 0 "not on a terminal"
check "no progress when stderr is not a terminal" [ ! -s "$tmp/err" ]
check "nothing left" [ -z "$(ls -A "$d")" ]

finish
