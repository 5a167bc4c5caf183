#!/bin/bash
# run-units-listed.sh - every unit file in data/systemd/ is in the list of its meson.build,
# so that the package ships it (a listed file that is missing stops meson setup already).
set -u
dir=${SBCDISK_SRCDIR:?}/data/systemd
status=0 n=0
for f in "$dir"/*; do
	u=$(basename "$f")
	[ "$u" = meson.build ] && continue
	n=$((n + 1))
	if ! grep -qE "^ *'$u',?\$" "$dir/meson.build"; then
		echo "FAIL: data/systemd/$u is not in the systemd_units list of data/systemd/meson.build"
		status=1
	fi
done
echo "$n unit files checked"
exit "$status"
