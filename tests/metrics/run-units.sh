#!/bin/bash
# run-units.sh - the shipped sbcdisk-metrics units: systemd-analyze verify accepts them (with the
# program at the path they name replaced by the one built here), the timer fires every 5
# minutes, and the service's own command line, run on a sysroot tree with the directory
# replaced, writes sbcdisk.prom into node_exporter's textfile directory.
set -u
. "$SBCDISK_SRCDIR/tests/golden/lib.sh"
units=$src/data/systemd
dir=/var/lib/prometheus/node-exporter # node_exporter's default textfile directory (Debian)
status=0

exec_start=$(sed -n 's/^ExecStart=//p' "$units/sbcdisk-metrics.service")
case "$exec_start" in
"/usr/bin/sbcdisk "*" metrics --textfile $dir") ;;
*) echo "FAIL: ExecStart is '$exec_start'"; status=1 ;;
esac
if ! grep -qx 'OnUnitActiveSec=5min' "$units/sbcdisk-metrics.timer"; then
	echo "FAIL: the timer does not fire every 5 minutes"
	status=1
fi

# the command line itself, on a tree, into a directory of ours
tree_build pi4-jms567-usb3-uas
mkdir "$tmp/textfile"
read -r -a words <<<"$exec_start"
args=()
for w in "${words[@]:1}"; do
	[ "$w" = "$dir" ] && w=$tmp/textfile
	args+=("$w")
	# this machine's kernel log and result store are not the test's
	[ "$w" = metrics ] && args+=(--kmsg /dev/null --db "$tmp/none.db")
done
# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
if ! timeout 20 $run "$bin" --sysroot "$tmp/root" "${args[@]}" ||
	! grep -q '^sbcdisk_device_info{device="sda"' "$tmp/textfile/sbcdisk.prom"; then
	echo "FAIL: the service's command did not write sbcdisk.prom"
	status=1
fi

if ! command -v systemd-analyze >/dev/null; then
	[ "$status" -eq 0 ] && echo "SKIP: systemd-analyze not found (package systemd); the rest held" && exit 77
	exit "$status"
fi
mkdir "$tmp/units"
sed "s|/usr/bin/sbcdisk|$bin|" "$units/sbcdisk-metrics.service" >"$tmp/units/sbcdisk-metrics.service"
cp "$units/sbcdisk-metrics.timer" "$tmp/units/"
if ! systemd-analyze verify --man=no "$tmp/units/sbcdisk-metrics.service" \
	"$tmp/units/sbcdisk-metrics.timer" >"$tmp/verify" 2>&1 || [ -s "$tmp/verify" ]; then
	echo "FAIL: systemd-analyze verify:"
	cat "$tmp/verify"
	status=1
fi
exit "$status"
