#!/bin/bash
# run-version.sh - --version says what was built: `git describe --tags --always --dirty` of
# the checkout when built from git, the project version of meson.build otherwise. (The
# package version of a package build is checked by tests/package/run-deb.sh.)
. "$(dirname "$0")/lib.sh"
sb --version
expect_rc 0 "--version"
if [ -e "$src/.git" ] && command -v git >/dev/null; then
	want="sbcdisk $(git -C "$src" describe --tags --always --dirty)"
else
	want="sbcdisk $(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$src/meson.build" | head -1)"
fi
check "--version says '$want' (got '$(cat "$tmp/out")')" [ "$(cat "$tmp/out")" = "$want" ]
check "-V is --version" sh -c "$run '$bin' -V | cmp -s - '$tmp/out'"
finish
