#!/bin/bash
# run-node-exporter.sh - one scrape through a real node_exporter: `sbcdisk metrics --textfile`
# writes into a directory, Debian's prometheus-node-exporter serves it with its textfile
# collector on a free loopback port, and its /metrics must carry the sbcdisk series (a model
# with a quote, a backslash and a line feed among them) and no textfile scrape error.
set -u
. "$SBCDISK_SRCDIR/tests/golden/lib.sh"
ne=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -z "$ne" ]; then
	echo "SKIP: prometheus-node-exporter not found (Debian package prometheus-node-exporter)"
	exit 77
fi
if ! command -v curl >/dev/null; then
	echo "SKIP: curl not found"
	exit 77
fi
if [ -n "$run" ]; then
	echo "SKIP: node_exporter runs natively; this run uses an emulator ($run)"
	exit 77
fi

tree_build pi4-jms567-usb3-uas
sed -i 's/^E:ID_MODEL_ENC=.*/E:ID_MODEL_ENC=Evil\\x22Mo\\x5cdel\\x0aline2\\x5c/' \
	"$tmp/root/run/udev/data/b8:0"
mkdir "$tmp/textfile"
if ! timeout 20 "$bin" --sysroot "$tmp/root" metrics --textfile "$tmp/textfile" \
	--kmsg "$src/tests/diag/klog/seed000-jms567-uas-resets-usb3.log" --db "$tmp/none.db"; then
	echo "FAIL: sbcdisk metrics --textfile failed"
	exit 1
fi

pid=
# only the script itself cleans up, and only the exporter it started
trap '[ "$BASHPID" = "$$" ] && { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }' EXIT
# a free port: bind port 0, let the kernel choose, close it again; retried if taken meanwhile
for attempt in 1 2 3; do
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$ne" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$tmp/textfile" \
		>"$tmp/ne.log" 2>&1 &
	pid=$!
	# wait for it to listen (at most 10 s), not for any timing of ours
	for _ in $(seq 100); do
		curl -sf "http://127.0.0.1:$port/metrics" -o "$tmp/scrape" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	[ -s "$tmp/scrape" ] && break
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	pid=
done
if [ ! -s "$tmp/scrape" ]; then
	echo "FAIL: node_exporter did not serve /metrics:"
	cat "$tmp/ne.log"
	exit 1
fi

status=0
# expect REGEX WHAT: a line of the scrape matches
expect() {
	if ! grep -qE -- "$1" "$tmp/scrape"; then
		echo "FAIL: the scrape has no $2 (/$1/)"
		status=1
	fi
}
expect '^node_textfile_scrape_error 0$' "textfile scrape without error"
expect '^sbcdisk_finding\{.*id="uas-errors".*\} 1$' "uas-errors finding"
expect '^sbcdisk_finding\{device="sda",id="uas-errors",severity="error"\} 1$' "finding labels"
expect '^sbcdisk_usb_speed_mbps\{.*driver="uas".*\} 5000$' "USB speed with the driver"
expect '^sbcdisk_uas_resets\{device="sda"\} 2$' "UAS resets"
expect '^sbcdisk_device_info\{.*model="Evil\\"Mo\\\\del\?line2\\\\".*\} 1$' "hostile model, escaped"
expect '^node_textfile_mtime_seconds\{file=".*sbcdisk.prom"\}' "the file's mtime"
if [ "$status" -ne 0 ]; then
	grep -E '^(sbcdisk|node_textfile)' "$tmp/scrape" | head -40
	cat "$tmp/ne.log"
fi
exit "$status"
