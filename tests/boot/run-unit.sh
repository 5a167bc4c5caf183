#!/bin/bash
# run-unit.sh - the shipped sbcdisk-boot-time.service: systemd-analyze verify accepts it (the
# program at the path it names replaced by the one built here); it is not a oneshot that
# would wait for its own start job; its own command line, run with a stub systemctl on PATH
# and the program on a tree against a fake systemd (tests/boot/fake-bus.sh), waits for the
# boot to finish and then records the boot once. Skips without dbus-daemon or python3-dbus.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
unit=$src/data/systemd/sbcdisk-boot-time.service
. "$src/tests/boot/fake-bus.sh"
at_exit fake_bus_stop

grep -qx 'Type=exec' "$unit" || fail "not Type=exec: a oneshot waiting for the boot waits for itself"
grep -qx 'WantedBy=multi-user.target' "$unit" || fail "not wanted by multi-user.target"
script=$(sed -n "s/^ExecStart=\/bin\/sh -c '\(.*\)'\$/\1/p" "$unit")
case $script in
*"systemctl is-system-running --wait"*"; exec /usr/bin/sbcdisk "*"boot time --record") ;;
*) fail "ExecStart is '$(grep ^ExecStart= "$unit")'" ;;
esac

if command -v systemd-analyze >/dev/null; then
	mkdir "$tmp/units"
	sed "s|/usr/bin/sbcdisk|$bin|" "$unit" >"$tmp/units/sbcdisk-boot-time.service"
	if ! systemd-analyze verify --man=no "$tmp/units/sbcdisk-boot-time.service" \
		>"$tmp/verify" 2>&1 || [ -s "$tmp/verify" ]; then
		fail "systemd-analyze verify:"
		cat "$tmp/verify"
	fi
else
	echo "systemd-analyze not found (package systemd): the unit is not verified"
fi

fake_bus_start "$tmp"
case $? in
0) ;;
77) echo "SKIP: $fake_bus_skip (the rest held: $failures failed)"; [ "$failures" = 0 ] && exit 77
	exit 1 ;;
*) exit 1 ;;
esac
python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi4-jms567-usb3-uas.desc" "$tmp/root" \
	>/dev/null || { echo "FAIL: mksysroot"; exit 1; }
mkdir -p "$tmp/root/proc/sys/kernel/random" "$tmp/stub"
echo 5b00f1e0-0000-4000-8000-000000000001 >"$tmp/root/proc/sys/kernel/random/boot_id"
# systemctl as the unit calls it: say the boot is over, and how it was asked
cat >"$tmp/stub/systemctl" <<STUB
#!/bin/sh
echo "\$*" >>"$tmp/systemctl.args"
echo running
STUB
chmod +x "$tmp/stub/systemctl"
# the unit's command, the program on the tree, into a database of ours
script=${script//\/usr\/bin\/sbcdisk/$run $bin --sysroot $tmp/root}
script="$script --db $tmp/results.db"
for _ in 1 2; do
	PATH=$tmp/stub:$PATH DBUS_SYSTEM_BUS_ADDRESS=$fake_bus_addr SBCDISK_BOOT_TIME_SYSROOT=1 \
		timeout 60 sh -c "$script" >>"$tmp/out" 2>&1 || fail "the unit's command: exit $?"
done
cat "$tmp/out"
[ "$(cat "$tmp/systemctl.args" 2>/dev/null)" = "$(printf 'is-system-running --wait\nis-system-running --wait')" ] ||
	fail "systemctl was not asked to wait for the boot: $(cat "$tmp/systemctl.args" 2>/dev/null)"
grep -q "^Recorded boot 5b00f1e0-0000-4000-8000-000000000001 (27.843s from sda)" "$tmp/out" ||
	fail "the unit's command did not record the boot"
grep -q "was recorded at .* already: nothing was changed" "$tmp/out" ||
	fail "the second start in the same boot recorded again"
[ "$failures" -eq 0 ] && echo "ok: sbcdisk-boot-time.service"
finish
