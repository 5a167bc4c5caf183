#!/bin/bash
# run-time.sh - `sbcdisk boot time` against a private D-Bus (dbus-daemon on a socket of our
# own) where fake-systemd.py owns org.freedesktop.systemd1: the figures systemd-analyze would
# print for it, the slowest units, JSON. Skips when dbus-daemon or python3-dbus is missing.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
. "$src/tests/boot/fake-bus.sh"
at_exit fake_bus_stop

fake_bus_start "$tmp"
case $? in
0) ;;
77) skip "$fake_bus_skip" ;;
*) exit 1 ;;
esac
addr=$fake_bus_addr

# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
DBUS_SYSTEM_BUS_ADDRESS=$addr timeout 20 $run "$bin" boot time >"$tmp/out" 2>&1 ||
	fail "boot time: exit $?"
cat "$tmp/out"
# systemd-analyze: kernel = userspace start (no initrd), userspace = finish - userspace
grep -qF "Startup finished in 6.912s (kernel) + 20.931s (userspace) = 27.843s" "$tmp/out" ||
	fail "boot time: the sums"
grep -qF "graphical.target reached after 20.931s in userspace." "$tmp/out" || fail "target"
grep -qF "not visible" "$tmp/out" || grep -qF "cannot see" "$tmp/out" || fail "firmware note"
# blame: the slowest first, a unit that never ran is left out
sed -n '/Slowest units/,$p' "$tmp/out" | sed -n 2,4p | awk '{print $2}' >"$tmp/units"
printf '%s\n' NetworkManager-wait-online.service dev-sda2.device \
	systemd-fsck@dev-sda1.service | cmp -s - "$tmp/units" || fail "slowest units order"
grep -q apt-daily "$tmp/out" && fail "a unit that never ran is listed"

# shellcheck disable=SC2086
DBUS_SYSTEM_BUS_ADDRESS=$addr timeout 20 $run "$bin" --json boot time >"$tmp/out" 2>&1 ||
	fail "boot time --json: exit $?"
python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["boot_time"]
assert abs(t["kernel_s"] - 6.912345) < 1e-6 and abs(t["userspace_s"] - 20.930865) < 1e-6, t
assert abs(t["total_s"] - 27.84321) < 1e-6 and t["initrd_s"] is None, t
assert t["firmware_s"] is None and t["target"] == "graphical.target", t
assert [u["unit"] for u in t["slowest_units"]][0] == "NetworkManager-wait-online.service", t
assert abs(t["slowest_units"][0]["time_s"] - 8.3) < 1e-6, t' "$tmp/out" || fail "json"

# no systemd on the bus: said, exit 1; a sysroot: refused
kill "${fake_bus_pids[1]}"; wait "${fake_bus_pids[1]}" 2>/dev/null
# shellcheck disable=SC2086
DBUS_SYSTEM_BUS_ADDRESS=$addr timeout 20 $run "$bin" boot time >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -qF "no systemd on the system D-Bus" "$tmp/out" || fail "no systemd: exit $rc: $(cat "$tmp/out")"
mkdir -p "$tmp/root/sys/block"
# shellcheck disable=SC2086
timeout 20 $run "$bin" --sysroot "$tmp/root" boot time >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -qF "belong to the running system" "$tmp/out" || fail "sysroot: exit $rc"
[ "$failures" -eq 0 ] && echo "ok: boot time"
finish
