#!/bin/bash
# run-signal.sh - SIGINT and SIGTERM stop a run: the test file is gone, what was measured is
# printed, and the exit status is 130 or 143.
. "$(dirname "$0")/lib.sh"

d=$tmp/d
mkdir "$d"

# wait_stopped PID: wait up to 10 s for it to end; its exit status in rc, tenths waited in waited
wait_stopped() {
	waited=0
	while kill -0 "$1" 2>/dev/null && [ $waited -lt 100 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	wait "$1"
	rc=$?
}
for sig in INT TERM; do
	want=130
	[ $sig = TERM ] && want=143
	# shellcheck disable=SC2086
	$run "$bin" bench "$d" --no-save --engine psync --size 8m --runs 3 \
		--test rw=randread,bs=4k,qd=2,time=20s >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	sleep 2
	kill -$sig $pid
	wait_stopped $pid
	expect_rc $want "SIG$sig"
	check "SIG$sig: stopped within 10 s" [ $waited -lt 100 ]
	check "SIG$sig: test file removed" [ -z "$(ls -A "$d")" ]
	grep_out "interrupted" out "SIG$sig: says it was interrupted"
	grep_out "RND4K Q2T1" out "SIG$sig: prints what was measured"
done

# --json after a signal: a valid document that says so
# shellcheck disable=SC2086
$run "$bin" bench "$d" --no-save --json --engine psync --size 8m \
	--test rw=randread,bs=4k,time=20s \
	>"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
expect_rc 130 "SIGINT with --json"
json "d['interrupted'] is True and d['tests'][0]['ios'] > 0" "JSON after SIGINT"
check "test file removed (json)" [ -z "$(ls -A "$d")" ]

# SIGINT during hdparm's pause before a disk read: it stops there, and no disk read is timed
# shellcheck disable=SC2086
$run "$bin" bench "$d" --no-save --json --engine psync --size 8m --profile hdparm \
	--time 0.2s --interval 20s >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 2
kill -INT $pid
wait_stopped $pid
expect_rc 130 "SIGINT in hdparm's pause"
check "SIGINT in hdparm's pause: stopped within 10 s" [ $waited -lt 100 ]
json "d['interrupted'] is True and d['tests'][0]['ios'] > 0 and d['tests'][1]['ios'] == 0" \
	"SIGINT in hdparm's pause: cached reads kept, no disk read timed"
check "test file removed (hdparm)" [ -z "$(ls -A "$d")" ]

finish
