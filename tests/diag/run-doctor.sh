#!/bin/bash
# run-doctor.sh - golden tests of `sbcdisk doctor`: every log of tests/diag/klog alone (an empty
# sysroot), text and JSON; the seed's logs together with the Pi 4 trees of tests/sysroots; the
# health check on those trees; and the command's errors. UPDATE_GOLDEN=1 rewrites the goldens.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
golden=$src/tests/golden/doctor
[ "${UPDATE_GOLDEN:-}" = 1 ] && mkdir -p "$golden"
mkdir -p "$tmp/empty"

# doctor_case NAME EXPECTED_RC ARGS... : run, compare stdout+stderr with tests/golden/doctor/NAME
doctor_case() {
	local name=$1 want_rc=$2 rc
	shift 2
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	timeout 20 $run "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	sed -i -e "s|$tmp|TMP|g" -e "s|$src/||g" "$tmp/out" "$tmp/err"
	if grep -q -e 'AddressSanitizer' -e 'LeakSanitizer' -e 'runtime error:' "$tmp/err"; then
		fail "$name: sanitizer report"; cat "$tmp/err"
	fi
	if [ "$rc" -ne "$want_rc" ]; then
		fail "$name: exit $rc, expected $want_rc"; cat "$tmp/err"
	fi
	cat "$tmp/err" >>"$tmp/out"
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$tmp/out" "$golden/$name"
	elif ! diff -u --label "expected $name" --label actual "$golden/$name" "$tmp/out"; then
		fail "$name differs from its golden file"
	fi
}

cd "$src" || exit 1
# doctor exits 3 from a warning, as the health check (the man page's EXIT STATUS): the
# worst severity of the reviewed golden JSON says which
worst_rc() {
	grep -q '"severity": *"\(warning\|error\)"' "$golden/$1" 2>/dev/null && echo 3 || echo 0
}
for f in tests/diag/klog/*.log; do
	n=$(basename "$f" .log)
	want=$(worst_rc "$n.json")
	doctor_case "$n.txt" "$want" --sysroot "$tmp/empty" doctor --kmsg "$f"
	doctor_case "$n.json" "$want" --sysroot "$tmp/empty" --json doctor --kmsg "$f"
done
for t in pi4-sd-jms567-usb2 pi4-jms567-usb3-uas pi4-jms567-usb3-quirk; do
	python3 tools/mksysroot "tests/sysroots/$t.desc" "$tmp/$t" >/dev/null || exit 1
	doctor_case "health-$t.txt" "$([ $t = pi4-sd-jms567-usb2 ] && echo 3 || echo 0)" --sysroot "$tmp/$t"
	doctor_case "health-$t.json" "$([ $t = pi4-sd-jms567-usb2 ] && echo 3 || echo 0)" --sysroot "$tmp/$t" --json
done
doctor_case "tree-usb2-log-usb2.txt" 3 --sysroot "$tmp/pi4-sd-jms567-usb2" doctor \
	--kmsg tests/diag/klog/seed000-jms567-usb2-port-boot.log
doctor_case "tree-usb3-uas-log-resets.txt" 3 --sysroot "$tmp/pi4-jms567-usb3-uas" doctor \
	--kmsg tests/diag/klog/seed000-jms567-uas-resets-usb3.log --fail-on error
doctor_case "tree-usb3-quirk-log-quirk.txt" 0 --sysroot "$tmp/pi4-jms567-usb3-quirk" doctor \
	--kmsg tests/diag/klog/seed000-jms567-quirk-applied.log --fail-on warning
# boards with NVMe and eMMC: the inventory alone, and with a log from such a board
for t in pi5-nvme-gen2 cm4-emmc-nvme jetson-orin-emmc-nvme visionfive2-sd-nvme x86-sata-nvme; do
	python3 tools/mksysroot "tests/sysroots/$t.desc" "$tmp/$t" >/dev/null || exit 1
	doctor_case "tree-$t.txt" "$([ $t = jetson-orin-emmc-nvme ] && echo 3 || echo 0)" \
		--sysroot "$tmp/$t" doctor
done
doctor_case "tree-pi5-nvme-gen2.json" 0 --sysroot "$tmp/pi5-nvme-gen2" --json doctor
doctor_case "tree-pi5-log-nvme-down.txt" 3 --sysroot "$tmp/pi5-nvme-gen2" doctor \
	--kmsg tests/diag/klog/14_rpi6661_pi5_nvme_controller_down_csts.log
doctor_case "tree-cm4-log-not-ready.txt" 3 --sysroot "$tmp/cm4-emmc-nvme" doctor \
	--kmsg tests/diag/klog/16_geerling48_cm4_nvme_device_not_ready.log
# the system's own log: /dev/kmsg of the tree holds the seed's records (as the kernel gives them)
mkdir -p "$tmp/pi4-jms567-usb3-uas/dev"
awk '/^\[/ { ts = $0; sub(/^\[ */, "", ts); sub(/\].*/, "", ts); msg = $0; sub(/^\[[^]]*\] /, "", msg);
	split(ts, p, "."); printf "6,%d,%d%s,-;%s\n", NR, p[1], p[2], msg }' \
	tests/diag/klog/seed000-jms567-uas-resets-usb3.log >"$tmp/pi4-jms567-usb3-uas/dev/kmsg"
doctor_case "tree-usb3-uas-dev-kmsg.txt" 3 --sysroot "$tmp/pi4-jms567-usb3-uas" doctor
doctor_case "tree-usb3-uas-dev-kmsg.json" 3 --sysroot "$tmp/pi4-jms567-usb3-uas" --json doctor
# the old resets on a board where the quirk is now in effect: history, no command
doctor_case "tree-usb3-quirk-log-resets.txt" 3 --sysroot "$tmp/pi4-jms567-usb3-quirk" doctor \
	--kmsg tests/diag/klog/seed000-jms567-uas-resets-usb3.log
# a file that is no kernel log: said so, not "No problems found"
doctor_case "not-a-kernel-log.txt" 0 --sysroot "$tmp/empty" doctor \
	--kmsg tests/diag/not-klog/other-programs-syslog.log
# exit codes and errors
doctor_case "fail-on-info.txt" 3 --sysroot "$tmp/empty" doctor --fail-on info \
	--kmsg tests/diag/klog/seed000-jms567-quirk-applied.log
doctor_case "fail-on-error.txt" 0 --sysroot "$tmp/empty" doctor --fail-on error \
	--kmsg tests/diag/klog/07_rpi3981_set_tr_deq_ptr_reset_loop.log
doctor_case "fail-on-bad.txt" 2 --sysroot "$tmp/empty" doctor --fail-on bad
doctor_case "kmsg-missing.txt" 1 --sysroot "$tmp/empty" doctor --kmsg "$tmp/no-such-log"
doctor_case "kmsg-dir.txt" 1 --sysroot "$tmp/empty" doctor --kmsg "$tmp/empty"
doctor_case "no-kmsg.txt" 0 --sysroot "$tmp/empty" doctor
doctor_case "extra-arg.txt" 2 --sysroot "$tmp/empty" doctor foo
doctor_case "kmsg-no-value.txt" 2 --sysroot "$tmp/empty" doctor --kmsg
doctor_case "unknown-option.txt" 2 --sysroot "$tmp/empty" doctor --bogus
# on an 80-column terminal the evidence shows the line number and the kernel's message, its
# syslog prefix left out (JSON keeps it), cut to the width: a syslog paste of a drive gone
if command -v script >/dev/null; then
	log=tests/diag/klog/f03_merlin379_syslog_offlined_after_resets.log
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	COLUMNS=80 script -qec "$run $bin --sysroot $tmp/empty doctor --kmsg $log" /dev/null |
		tr -d '\r' >"$tmp/tty.txt"
	grep -qx '    line 9: sd 0:0:0:0: Device offlined - not ready after error recovery' \
		"$tmp/tty.txt" && ok || fail "80 columns: line 9 is not its kernel message"
	grep -q '^    line [0-9]*: Nov ' "$tmp/tty.txt" &&
		fail "80 columns: an evidence line starts with its syslog prefix" || ok
	python3 -c '
import re, sys
for l in open(sys.argv[1], encoding="utf-8"):
    assert len(re.sub("\x1b\\[[0-9;]*m", "", l.rstrip("\n"))) <= 80, l' "$tmp/tty.txt" && ok ||
		fail "80 columns: a line is wider than the terminal"
	grep -q '"text": "Nov 18 10:34:27 kernel: sd 0:0:0:0: Device offlined' \
		"$golden/f03_merlin379_syslog_offlined_after_resets.json" && ok ||
		fail "JSON: the evidence lost its prefix"
else
	echo "NOTE: script (util-linux) is not installed: the 80-column evidence is not checked"
fi
finish
