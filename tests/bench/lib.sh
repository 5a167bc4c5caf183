# shellcheck shell=bash
# lib.sh - shared by the bench test scripts: tests/lib.sh (tmp, src, bin, run, the checks
# that count, the cleanups, loop_detach), with sb that never saves and have_uring. Sourced.
# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# sb ARGS...: tests/lib.sh's, with --no-save: the result store is not ours to write
# (tests/store tests it)
sb() { bin_run 120 "$@" --no-save; }

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
