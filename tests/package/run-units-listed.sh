#!/bin/bash
# run-units-listed.sh - every unit file in data/systemd/ is in the list of its meson.build,
# so that the package ships it (a listed file that is missing stops meson setup already).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
dir=$src/data/systemd
n=0
for f in "$dir"/*; do
	u=$(basename "$f")
	[ "$u" = meson.build ] && continue
	n=$((n + 1))
	if ! grep -qE "^ *'$u',?\$" "$dir/meson.build"; then
		fail "data/systemd/$u is not in the systemd_units list of data/systemd/meson.build"
	fi
done
echo "$n unit files checked"
finish
