#!/bin/bash
# run-tryboot-prefix.sh - move's trial boot on a Pi 5 tree whose config.txt sets os_prefix
# only under [tryboot]: the trial boot reads tryboot.txt with [tryboot] holding, so the
# firmware would look for the trial's command line file under that prefix, not beside
# config.txt where move writes it (the trial would boot with no root=). No trial is set up
# then: the reason is said and neither tryboot.txt nor the trial line is written. The same
# tree without the [tryboot] section still gets its trial. No trial either with an
# autoboot.txt beside config.txt (a tryboot starts the partition its [tryboot] names).
. "${SBCDISK_SRCDIR:?}/tests/lib.sh"
root=$tmp/root fw=$tmp/root/boot/firmware

python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi5-usb-asm-sandisk.desc" "$root" \
	>/dev/null || { echo "FAIL: mksysroot"; exit 1; }
printf '\000\000\000\177' >"$root/sys/firmware/devicetree/base/chosen/bootloader/capabilities"
sb() { bin_run 60 --sysroot "$root" "$@"; }

cp "$fw/config.txt" "$tmp/config.orig"
printf '[tryboot]\nos_prefix=tb/\n[all]\n' >>"$fw/config.txt"
mkdir -p "$fw/tb"
cp "$fw/cmdline.txt" "$fw/tb/cmdline.txt"
sb move /dev/sda --no-copy --apply --db "$tmp/db"
grep_out "^No trial boot: config.txt sets os_prefix for the trial boot (config.txt line" out \
	"[tryboot] os_prefix: the reason"
check "[tryboot] os_prefix: no tryboot.txt" test ! -e "$fw/tryboot.txt"
check "[tryboot] os_prefix: no trial line beside config.txt" \
	test ! -e "$fw/cmdline-sbcdisk-trial.txt"
check "[tryboot] os_prefix: none under the prefix" test ! -e "$fw/tb/cmdline-sbcdisk-trial.txt"

# an autoboot.txt (the firmware's A/B switch): a tryboot starts the partition its [tryboot]
# names, and with tryboot_a_b=1 reads config.txt there, not tryboot.txt
cp "$tmp/config.orig" "$fw/config.txt"
printf '[all]\ntryboot_a_b=1\nboot_partition=2\n[tryboot]\nboot_partition=3\n' \
	>"$fw/autoboot.txt"
sb move /dev/sda --no-copy --apply --db "$tmp/db1"
grep_out "^No trial boot: the boot partition holds autoboot.txt" out "autoboot.txt: the reason"
check "autoboot.txt: no tryboot.txt" test ! -e "$fw/tryboot.txt"
check "autoboot.txt: no trial line" test ! -e "$fw/cmdline-sbcdisk-trial.txt"
rm "$fw/autoboot.txt"

# the same tree without either: the trial is set up
sb move /dev/sda --no-copy --apply --db "$tmp/db2"
expect_rc 0 "no [tryboot] os_prefix: the trial"
check "no [tryboot] os_prefix: tryboot.txt written" test -f "$fw/tryboot.txt"
finish
