#!/bin/bash
# run-power.sh - the power leg on trees: a Raspberry Pi 5 on a 3 A supply (the firmware's
# /chosen/power report: usb-current-limited, its fix usb_max_current_enable=1 written into
# config.txt with its warning, and undone byte for byte), a Pi 4 whose rpi_volt hwmon flags
# under-voltage (undervoltage-now), and the trees without those facts (no such finding).
# shellcheck source=tests/golden/lib.sh
. "$(dirname "$0")/lib.sh"

# finding TREE: doctor --json on the tree, with an empty log (only the system's facts)
findings() {
	rm -rf "$tmp/root"
	tree_build "$1"
	tree_run doctor --kmsg /dev/null --json
}
has() { # ID SEVERITY DESC
	json "any(f['id'] == '$1' and f['severity'] == '$2' for f in d['findings'])" "$3"
}
hasnt() { # ID DESC
	json "not any(f['id'] == '$1' for f in d['findings'])" "$2"
}

findings pi5-3a-supply
has usb-current-limited warning "Pi 5 on 3 A: usb-current-limited (warning: USB drives attached)"
json "[e['text'] for f in d['findings'] if f['id'] == 'usb-current-limited' for e in f['evidence']] == \
['/proc/device-tree/chosen/power/usb_max_current_enable = 0 (the low limit was set at boot)', \
'/proc/device-tree/chosen/power/max_current = 3000 mA (what the supply offered)']" \
	"usb-current-limited: the firmware's two values as evidence"
json "any('sbcdisk fix usb-current' in c for f in d['findings'] if f['id'] == 'usb-current-limited' for c in f['fix']['commands'])" \
	"usb-current-limited: names sbcdisk fix usb-current"
hasnt undervoltage-now "Pi 5 with in0_lcrit_alarm 0: no undervoltage-now"

# the fix: dry run writes nothing; --apply writes the line and a backup; undo restores
cfg=$tmp/root/boot/firmware/config.txt
cp "$cfg" "$tmp/config.orig"
tree_run fix usb-current
expect_rc 0 "fix usb-current dry run"
grep_out '^\+usb_max_current_enable=1$' out "the dry run shows the line added"
grep_out 'WARNING: this lets the USB ports draw up to 1600 mA' out "the warning"
check "dry run: config.txt unchanged" cmp -s "$tmp/config.orig" "$cfg"
tree_run fix usb-current --apply --no-save
expect_rc 0 "fix usb-current --apply"
check "config.txt ends with usb_max_current_enable=1" \
	test "$(tail -n 1 "$cfg")" = usb_max_current_enable=1
check "one line more, nothing else changed" \
	diff <(cat "$tmp/config.orig"; echo usb_max_current_enable=1) "$cfg"
tree_run fix usb-current
grep_out 'Nothing to change' out "a second run changes nothing"
tree_run fix undo --apply --no-save
expect_rc 0 "fix undo --apply"
check "undo restores config.txt byte for byte" cmp -s "$tmp/config.orig" "$cfg"

# a line that sets 0 under [pi5] is changed in place
printf '[pi5]\nusb_max_current_enable=0\n[all]\n' >"$cfg"
tree_run fix usb-current --apply --no-save
check "a 0 under [pi5] becomes 1 in place" \
	test "$(cat "$cfg")" = "$(printf '[pi5]\nusb_max_current_enable=1\n[all]')"

findings pi5-usb-asm-sandisk
hasnt usb-current-limited "Pi 5 without /chosen/power: no usb-current-limited"

findings pi4-undervoltage
has undervoltage-now error "Pi 4 with in0_lcrit_alarm 1: undervoltage-now"
json "[e['text'] for f in d['findings'] if f['id'] == 'undervoltage-now' for e in f['evidence']] == \
['/sys/class/hwmon/hwmon1/in0_lcrit_alarm = 1 (hwmon rpi_volt: the firmware\\'s under-voltage bit)']" \
	"undervoltage-now: the hwmon attribute as evidence"
hasnt usb-current-limited "a Pi 4 has no usb-current-limited"

findings pi4-jms567-usb3-uas
hasnt undervoltage-now "Pi 4 without rpi_volt: no undervoltage-now"
finish
