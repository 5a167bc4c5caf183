# lib.sh - sourced by the boot scripts: the binary and its runner, a temporary directory
# removed at exit, fail() and the exit status it sets.
set -u
src=${SBCDISK_SRCDIR:?} bin=${SBCDISK:?} run=${SBCDISK_RUN:-}
tmp=$(mktemp -d) || exit 1
trap '[ "$BASHPID" = "$$" ] && rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
