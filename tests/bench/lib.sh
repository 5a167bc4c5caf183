# lib.sh - shared by the bench test scripts: a temp dir, the binary, checks that count.
# Sourced; sets tmp, src, bin, run (the qemu prefix or empty) and the helpers below.
set -u
src=${SBCDISK_SRCDIR:?} bin=${SBCDISK:?} run=${SBCDISK_RUN:-}
tmp=$(mktemp -d) || exit 1
failures=0
checks=0
cleanups=()
cleanup() {
	# a subshell killed before it resets its traps runs this too: only the script cleans up
	[ "$BASHPID" = "$$" ] || return 0
	local c
	for c in "${cleanups[@]}"; do eval "$c" >/dev/null 2>&1; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# loop_detach DEV: detaches a loop device of ours, one whose backing file (or, for a loop
# over a loop device, that device's) is under $tmp. Anything else is left alone: once a test
# has detached its device, the number may be another test's, running beside it, and a second
# `losetup -d` of the number (in the cleanups, say) would detach that one under its feet.
loop_detach() {
	local back
	back=$(losetup -nO BACK-FILE "$1" 2>/dev/null)
	case $back in
	/dev/loop*) back=$(losetup -nO BACK-FILE "$back" 2>/dev/null) ;;
	esac
	case $back in
	"$tmp"/*) losetup -d "$1" ;;
	*) return 0 ;;
	esac
}

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { checks=$((checks + 1)); }
# check DESCRIPTION COMMAND...: the command must succeed
check() { local d=$1; shift; if "$@"; then ok; else fail "$d"; fi; }

# sb ARGS...: run the binary (under qemu in the cross run); output in $tmp/out, $tmp/err, rc.
# --no-save: the result store is not ours to write (tests/store tests it)
sb() {
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	timeout 120 $run "$bin" "$@" --no-save >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# expect_rc N DESCRIPTION: the last sb exited with N
expect_rc() {
	if [ "$rc" -eq "$1" ]; then ok; else
		fail "$2: exit $rc, expected $1"; sed 's/^/  err: /' "$tmp/err" | head -5
	fi
}

# json PYTHON-EXPR DESCRIPTION: the expression on d (the JSON of $tmp/out) is true
json() {
	if python3 -c "import json,sys; d=json.load(open('$tmp/out')); sys.exit(0 if ($1) else 1)"
	then ok; else fail "$2"; fi
}

grep_out() { if grep -q -- "$1" "$tmp/$2"; then ok; else fail "$3: no '$1' in $2"; fi; }

# tty_run CMD...: CMD with its stderr on a pseudo-terminal (so that sbcdisk shows its progress
# line); stdout in $tmp/out, what the terminal got in $tmp/tty, the exit status in rc
tty_run() {
	timeout 120 python3 "$src/tests/bench/ptyrun.py" "$tmp" -- "$@"
	rc=$?
}

finish() {
	echo "$checks checks, $failures failed"
	[ "$failures" -eq 0 ]
	exit $?
}

# io_uring is there natively unless the kernel refuses it; never under qemu-user
have_uring() {
	[ -z "$run" ] || return 1
	python3 - <<'PY'
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
p = ctypes.create_string_buffer(120)
fd = libc.syscall(425, 2, p)
sys.exit(0 if fd >= 0 else 1)
PY
}
