# shellcheck shell=bash
# lib.sh - helpers for the store's golden scripts: tests/lib.sh (tmp, sb, the checks that
# count), golden comparison with UPDATE_GOLDEN=1, and headless Chromium for the reports.
# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
golden_dir=$src/tests/golden/store

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
	skip "no chromium, and no chromium package for this system (apt-cache policy" \
		"chromium has no candidate): $1"
}

# chrome ARGS...: headless Chromium with a profile of its own; its stderr in $tmp/chrome.err
chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$tmp/chrome.XXXXXX")" "$@" 2>"$tmp/chrome.err"
}
