# shellcheck shell=bash
# lib.sh - the one library of the shell tests: the binary, a temporary directory removed at
# exit after a stack of cleanups, checks that count, skips. Each tests/AREA/lib.sh sources it
# and adds what only its area needs; a test that needs nothing more sources it alone.
#
# Sets src (SBCDISK_SRCDIR), bin (SBCDISK), run (SBCDISK_RUN: the qemu-user prefix of a
# cross run, or empty), tmp, and failures and checks (both 0). Set tmp_base before sourcing
# to make $tmp under that directory (the golden trees use /dev/shm). Sourcing it a second
# time (an area's lib.sh after another's) changes nothing.
#
#   fail MESSAGE...         print "FAIL: MESSAGE" and count a failure
#   ok                      count a check that held
#   check DESCRIPTION CMD... CMD must succeed
#   expect_rc N [DESCRIPTION] the last sb exited with N
#   grep_out PATTERN FILE DESCRIPTION  $tmp/FILE has a line matching PATTERN
#   json PYTHON-EXPR DESCRIPTION  the expression on d (the JSON of $tmp/out) is true
#   finish                  print "N checks, M failed"; exit 1 after any failure, else 0
#   skip REASON...          print "SKIP: REASON" and exit 77 (what is missing, say so)
#   at_exit COMMAND         run COMMAND (eval'd, output dropped) at exit, before the ones
#                           registered earlier: a loop device after the file system on it
#   sb ARGS...              the binary (through $run, 120 s at most): stdout in $tmp/out,
#                           stderr in $tmp/err, the exit status in rc
#   bin_run SECONDS ARGS... the same with another bound
#   tty_run CMD...          CMD with its stderr on a pseudo-terminal (so that sbcdisk shows
#                           its progress line): stdout in $tmp/out, the terminal's in
#                           $tmp/tty, the exit status in rc
#   native_only WHAT        skip unless this is the native pass (no qemu-user, no sanitizer):
#                           WHAT, a subject, says what ("the kernel cases run")
#   need_loop               skip unless loop devices can be made here
#   loop_detach DEV         detach a loop device of ours (below)
[ -n "${tests_lib_sourced:-}" ] && return 0
tests_lib_sourced=1
set -u
src=${SBCDISK_SRCDIR:?} bin=${SBCDISK:?} run=${SBCDISK_RUN:-}
tmp=$(mktemp -d ${tmp_base:+-p "$tmp_base"}) || exit 1
failures=0
checks=0
# the commands at_exit registered, the latest first
cleanups=()
cleanup() {
	# a subshell killed before it resets its traps runs this too: only the script cleans up
	[ "$BASHPID" = "$$" ] || return 0
	local c
	for c in ${cleanups[@]+"${cleanups[@]}"}; do eval "$c" >/dev/null 2>&1; done
	rm -rf "$tmp"
}
trap cleanup EXIT

at_exit() { cleanups=("$1" ${cleanups[@]+"${cleanups[@]}"}); }

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { checks=$((checks + 1)); }
check() { local d=$1; shift; if "$@"; then ok; else fail "$d"; fi; }
skip() { echo "SKIP: $*"; exit 77; }

finish() {
	echo "$checks checks, $failures failed"
	[ "$failures" -eq 0 ]
	exit $?
}

bin_run() {
	local t=$1
	shift
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	timeout "$t" $run "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
sb() { bin_run 120 "$@"; }

expect_rc() {
	if [ "$rc" -eq "$1" ]; then ok; else
		fail "${2:+$2: }exit $rc, expected $1"; sed 's/^/  err: /' "$tmp/err" | head -5
	fi
}

grep_out() { if grep -q -- "$1" "$tmp/$2"; then ok; else fail "$3: no '$1' in $2"; fi; }

json() {
	if python3 -c "import json,sys; d=json.load(open('$tmp/out')); sys.exit(0 if ($1) else 1)"
	then ok; else fail "$2"; fi
}

tty_run() {
	timeout 120 python3 "$src/tests/bench/ptyrun.py" "$tmp" -- "$@"
	rc=$?
}

native_only() {
	[ -z "$run" ] || skip "$1 in the native pass only (not under $run)"
	[ "${SBCDISK_SANITIZE:-none}" = none ] ||
		skip "$1 in the native pass only (not under ${SBCDISK_SANITIZE})"
}

need_loop() {
	[ -z "$run" ] || skip "no loop devices under qemu-user"
	[ "$(id -u)" = 0 ] || skip "loop devices need root"
	command -v losetup >/dev/null || skip "losetup missing (util-linux)"
	[ -e /dev/loop-control ] || skip "no /dev/loop-control: the kernel has no loop devices"
}

# loop_detach DEV: detaches a loop device of ours, one whose backing file (or, for a loop
# over a loop device or a partition of one, that device's) is under $tmp. Anything else is left alone: once a test
# has detached its device, the number may be another test's, running beside it, and a second
# `losetup -d` of the number (in the cleanups, say) would detach that one under its feet.
loop_detach() {
	local back
	back=$(losetup -nO BACK-FILE "$1" 2>/dev/null)
	# over another loop device, or over a partition of one (loop3p1): that one's file (in a
	# chroot whose /dev is another mount the kernel names it /loop3p1)
	[[ $back =~ ^(/dev)?/loop([0-9]+)(p[0-9]+)?$ ]] &&
		back=$(losetup -nO BACK-FILE "/dev/loop${BASH_REMATCH[2]}" 2>/dev/null)
	case $back in
	"$tmp"/*) losetup -d "$1" ;;
	*) return 0 ;;
	esac
}
