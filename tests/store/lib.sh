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

# chromium_or_skip WHAT: returns when Chromium is here; else exits 1 when it is missing but
# installable (tools/setup installs it), 77 where no Chromium package exists (WHAT: what
# is then not done), so that a missing browser cannot hide behind a skip
chromium_or_skip() {
	command -v chromium >/dev/null && return 0
	if apt-cache policy chromium 2>/dev/null | grep -q 'Candidate: [0-9]'; then
		echo "FAIL: chromium is not installed but can be: run tools/setup (apt-get install" \
			"chromium)"
		exit 1
	fi
	echo "SKIP: no chromium, and no chromium package for this system (apt-cache policy" \
		"chromium has no candidate): $1"
	exit 77
}

# chrome ARGS...: headless Chromium with a profile of its own; its stderr in $tmp/chrome.err
chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$tmp/chrome.XXXXXX")" "$@" 2>"$tmp/chrome.err"
}

finish() {
	[ "$failures" = 0 ] && echo "ok" && exit 0
	exit 1
}
