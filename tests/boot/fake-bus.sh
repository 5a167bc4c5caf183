# fake-bus.sh - sourced: a private D-Bus (dbus-daemon on a socket of our own) where
# fake-systemd.py owns org.freedesktop.systemd1. fake_bus_start DIR [FIGURES] starts both
# (FIGURES: FAKE_SYSTEMD_FIGURES, see fake-systemd.py) and sets fake_bus_addr; it returns 77
# with the reason in fake_bus_skip when dbus-daemon or python3-dbus is missing, 1 when they do
# not start. fake_bus_pids holds what the caller stops (fake_bus_stop).
fake_bus_pids=()
fake_bus_addr=
fake_bus_skip=

fake_bus_start() {
	local dir=$1 figures=${2:-} py=python3
	command -v dbus-daemon >/dev/null || { fake_bus_skip="dbus-daemon not installed"; return 77; }
	# python3-dbus belongs to the system's python3 (another python3 may come first on PATH)
	/usr/bin/python3 -c 'import dbus, gi' 2>/dev/null && py=/usr/bin/python3
	$py -c 'import dbus, gi' 2>/dev/null ||
		{ fake_bus_skip="python3-dbus or python3-gi not installed"; return 77; }
	cat >"$dir/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$dir/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
	dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile &
	fake_bus_pids+=($!)
	for _ in $(seq 100); do [ -S "$dir/bus" ] && break; sleep 0.1; done
	[ -S "$dir/bus" ] || { echo "FAIL: dbus-daemon did not start"; return 1; }
	fake_bus_addr=unix:path=$dir/bus
	DBUS_SESSION_BUS_ADDRESS=$fake_bus_addr FAKE_SYSTEMD_FIGURES=$figures \
		$py "$SBCDISK_SRCDIR/tests/boot/fake-systemd.py" "$dir/ready" &
	fake_bus_pids+=($!)
	for _ in $(seq 200); do [ -e "$dir/ready" ] && break; sleep 0.1; done
	[ -e "$dir/ready" ] || { echo "FAIL: the fake systemd did not start"; return 1; }
	return 0
}

fake_bus_stop() {
	local p
	for p in "${fake_bus_pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	fake_bus_pids=()
}
