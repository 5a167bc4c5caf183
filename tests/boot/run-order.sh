#!/bin/bash
# run-order.sh - `sbcdisk boot order`: the dry run (diff, no tool started), --apply through a
# stub rpi-eeprom-config on PATH that records its arguments and the file it was given, the
# tool missing, the tool failing, refused orders, and a board whose configuration is unknown.
. "${SBCDISK_SRCDIR:?}/tests/lib.sh"

# the program that runs sbcdisk (qemu under the arm64 pass) by absolute path, so that PATH
# can hold only the stub
runner=()
if [ -n "$run" ]; then
	read -r -a runner <<<"$run"
	runner[0]=$(command -v "${runner[0]}") || skip "${runner[0]} not found"
fi

mkdir -p "$tmp/bin" "$tmp/nobin"
cat >"$tmp/bin/rpi-eeprom-config" <<STUB
#!/bin/sh
# stub: records its arguments and the configuration file it was handed
printf '%s\n' "\$@" >"$tmp/args"
[ -f "\$2" ] && /bin/cp "\$2" "$tmp/applied"
echo "Updating bootloader EEPROM (stub)"
exit \${STUB_EXIT:-0}
STUB
chmod +x "$tmp/bin/rpi-eeprom-config"

for t in pi5-nvme-probe pi4-usb-boot pi4-usb-root-oldbl; do
	python3 "$src/tools/mksysroot" "$src/tests/sysroots/$t.desc" "$tmp/$t" || exit 1
done

sbc() { # PATHDIR TREE ARGS...: sbcdisk with PATH=PATHDIR; output in $tmp/out, code in $rc
	local p=$1 t=$2
	shift 2
	rm -f "$tmp/args" "$tmp/applied"
	timeout 20 env PATH="$p" "${runner[@]}" "$bin" --sysroot "$tmp/$t" "$@" >"$tmp/out" 2>&1
	rc=$?
}
want_rc() { [ "$rc" -eq "$1" ] || { fail "$2: exit $rc, expected $1"; cat "$tmp/out"; }; }
want_out() { grep -qF -- "$1" "$tmp/out" || { fail "$2: no '$1' in:"; cat "$tmp/out"; }; }

# dry run: the new value, the diff, the manual commands; the tool is not started
sbc "$tmp/bin" pi5-nvme-probe boot order nvme,usb,sd
want_rc 0 dry-run
want_out "BOOT_ORDER new: 0xf146 (NVMe, then USB mass storage, then SD card, then start again)" dry-run
want_out "-BOOT_ORDER=0xf416" dry-run
want_out "+BOOT_ORDER=0xf146" dry-run
want_out " PCIE_PROBE=1" dry-run
want_out "sudo raspi-config nonint do_boot_order B2" dry-run
[ -e "$tmp/args" ] && fail "dry-run: rpi-eeprom-config was started"

# --apply: the stub gets --apply FILE, FILE holds the whole new configuration
sbc "$tmp/bin" pi5-nvme-probe boot order nvme,usb,sd --apply
want_rc 0 apply
want_out "Updating bootloader EEPROM (stub)" apply
want_out "Applied: BOOT_ORDER=0xf146" apply
if [ "$(head -1 "$tmp/args" 2>/dev/null)" != --apply ] || [ "$(wc -l <"$tmp/args")" -ne 2 ]; then
	fail "apply: rpi-eeprom-config got '$(tr '\n' ' ' <"$tmp/args" 2>/dev/null)'"
fi
printf '[all]\nBOOT_UART=1\nPOWER_OFF_ON_HALT=0\nBOOT_ORDER=0xf146\nPCIE_PROBE=1\n' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/applied" || { fail "apply: the configuration handed over differs"; diff "$tmp/want" "$tmp/applied"; }
[ -e "$(sed -n 2p "$tmp/args")" ] && fail "apply: the temporary file was left behind"

# the tool fails: its exit code is reported
STUB_EXIT=3 sbc "$tmp/bin" pi5-nvme-probe boot order sd,nvme --apply
want_rc 1 tool-fails
want_out "rpi-eeprom-config --apply failed (exit 3)" tool-fails

# the tool missing: said, and the exact commands
sbc "$tmp/nobin" pi4-usb-boot boot order sd,usb --apply
want_rc 1 no-tool
want_out "'rpi-eeprom-config' not found" no-tool
want_out "sudo raspi-config nonint do_boot_order B1" no-tool
want_out "sudo -E rpi-eeprom-config --edit     (set BOOT_ORDER=0xf41" no-tool

# JSON
sbc "$tmp/bin" pi4-usb-boot --json boot order sd,usb
want_rc 0 json
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 1 and d["boot_order"] == "0xf41" and d["current"] == "0xf14", d
assert d["modes"] == ["sd", "usb-msd"] and d["applied"] is False, d
assert "BOOT_ORDER=0xf41\n" in d["config_new"], d' "$tmp/out" || fail json

# refused: NVMe on a Pi 4, mode 5 on a Pi 5, unknown and repeated names
sbc "$tmp/bin" pi4-usb-boot boot order nvme,usb
want_rc 2 pi4-nvme
want_out "a Raspberry Pi 4 or 400 cannot boot from NVMe" pi4-nvme
sbc "$tmp/bin" pi5-nvme-probe boot order bcm-usb,sd
want_rc 2 pi5-mode5
want_out "does not exist on a Raspberry Pi 5" pi5-mode5
sbc "$tmp/bin" pi5-nvme-probe boot order sd,tape
want_rc 2 unknown
want_out "unknown boot medium 'tape'" unknown
sbc "$tmp/bin" pi5-nvme-probe boot order sd,usb,sd
want_rc 2 twice
sbc "$tmp/bin" pi5-nvme-probe boot order
want_rc 2 no-list

# the configuration is not readable: --apply would replace it blindly, so it is refused
sbc "$tmp/bin" pi4-usb-root-oldbl boot order usb,sd --apply
want_rc 1 unknown-config
want_out "not applied" unknown-config
[ -e "$tmp/args" ] && fail "unknown-config: rpi-eeprom-config was started"

# the order the board has already (0xf14): nothing to apply, the tool not started
sbc "$tmp/bin" pi4-usb-boot boot order usb,sd --apply
want_rc 0 unchanged
want_out "Unchanged: BOOT_ORDER is 0xf14 already; nothing to apply." unchanged
[ -e "$tmp/args" ] && fail "unchanged: rpi-eeprom-config was started"

# bytes the display sanitises (a Latin-1 comment, a lone CR, a control byte) are handed to
# rpi-eeprom-config as they were; the diff shows them as '?'. BOOT_ORDER=0xf14 # usb is read
# as 0xf14, not as the default.
nv=$tmp/pi4-usb-boot/sys/devices/platform/reserved-memory/nvram@0/rmem0/nvmem
printf '[all]\n# caf\xe9 cr\rhere\nBOOT_UART=0\x01\nBOOT_ORDER=0xf14 # usb\nPOWER_OFF_ON_HALT=0\n\0\0\0\0' >"$nv"
printf '[all]\n# caf\xe9 cr\rhere\nBOOT_UART=0\x01\nBOOT_ORDER=0xf41\nPOWER_OFF_ON_HALT=0\n' >"$tmp/want"
sbc "$tmp/bin" pi4-usb-boot boot order sd,usb --apply
want_rc 0 raw-bytes
want_out "BOOT_ORDER now: 0xf14 (USB mass storage, then SD card, then start again)" raw-bytes
want_out "-BOOT_ORDER=0xf14 # usb" raw-bytes
want_out " # caf? cr?here" raw-bytes
want_out " BOOT_UART=0?" raw-bytes
cmp -s "$tmp/want" "$tmp/applied" || {
	fail "raw-bytes: the configuration handed over is not the bytes read with BOOT_ORDER changed"
	od -c "$tmp/applied" | head -20
}

[ "$failures" -eq 0 ] && echo "ok: boot order"
finish
