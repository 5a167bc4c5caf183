# lib.sh - helpers for the store's golden scripts: a temp dir, running the binary (through
# $SBCDISK_RUN, qemu-aarch64 in the cross run), golden comparison with UPDATE_GOLDEN=1.
tmp=$(mktemp -d)
failures=0
cleanup() {
	# a subshell killed before it resets its traps runs this too: only the script cleans up
	[ "$BASHPID" = "$$" ] || return 0
	mountpoint -q "$tmp/mnt" 2>/dev/null && umount "$tmp/mnt"
	rm -rf "$tmp"
}
trap cleanup EXIT
golden_dir=$SBCDISK_SRCDIR/tests/golden/store

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# run ARGS...: the binary's stdout in $tmp/out, stderr in $tmp/err, exit code in $rc
run() {
	${SBCDISK_RUN:-} "$SBCDISK" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

expect_rc() {
	[ "$rc" = "$1" ] || fail "exit $rc, expected $1 (stderr: $(head -3 "$tmp/err"))"
}

# golden NAME: compare $tmp/out with the golden file (UPDATE_GOLDEN=1 rewrites it)
golden() {
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$tmp/out" "$golden_dir/$1"
	elif ! diff -u "$golden_dir/$1" "$tmp/out" >"$tmp/diff"; then
		fail "golden $1 differs:"
		head -40 "$tmp/diff" >&2
	fi
}

finish() {
	[ "$failures" = 0 ] && echo "ok" && exit 0
	exit 1
}
