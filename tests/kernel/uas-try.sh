#!/bin/bash
# uas-try.sh - case 7 of the kernel suite: `fix uas DISK --try --now` on the real kernel's
# drivers. QEMU's usb-uas (46f4:0003) has no Bulk-Only interface, so on usb-storage it does not
# come back; QEMU's usb-storage has no UAS interface, so on uas it does not either: each time the
# way back is what is tested. The tool says the disk did not come back, switches it back, says
# it did, exits 1; the disk is there again on its own driver, the quirks parameter is as it was,
# and the run on the first driver is stored with that driver.
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"
kernel_prepare

truncate -s 96M "$tmp/uas.img"
truncate -s 48M "$tmp/bot.img"
q_xhci x
q_uas uas1 x "$tmp/uas.img"
q_bot bot1 x "$tmp/bot.img"
# the store in the guest's tmpfs: SQLite cannot lock a file over 9p
mkdir -p "$tmp/try"
cat >"$tmp/try/run.sh" <<'G'
. $K/guest-lib.sh
wait_blocks 2 || exit 1
q=/sys/module/usb_storage/parameters/quirks
# drv DISK: the driver of the USB interface the disk hangs below
drv() { basename "$(readlink -f /sys/block/$1/device/../../../driver)"; }
# try SERIAL FROM TO
try() {
	local d q0 n
	d=$(blk_serial $1)
	t "$1: found on $2 as '$d'" test -n "$d" -a "$(drv $d)" = $2
	q0=$(cat $q)
	"$SBCDISK" fix uas $d --try --now --db /tmp/r.db >$K/$1.out 2>$K/$1.err
	echo $? >$K/$1.rc
	t "$1: exit 1 (not back on $3)" test "$(cat $K/$1.rc)" = 1
	t "$1: said it did not come back on $3" grep -q "did not come back on $3" $K/$1.out
	t "$1: said it is on $2 again" grep -q "is on $2 again" $K/$1.out
	n=$(blk_serial $1)
	t "$1: the disk is there again ('$n')" test -n "$n" -a -b /dev/$n
	t "$1: on $2 again" test "$(drv $n)" = $2
	t "$1: the quirks parameter as before ('$q0', now '$(cat $q)')" test "$(cat $q)" = "$q0"
}
try uas1 uas usb-storage
try bot1 usb-storage uas
"$SBCDISK" --json history --db /tmp/r.db >$K/history.json 2>$K/history.err
t "history: read ($(cat $K/history.err))" test -s $K/history.json
ok "the end"
G
kboot try || finish
kresults try "the end"
# the first driver's run of each disk is stored with its driver
got=$(python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["runs"]:
    print(r["device"]["usb"]["serial"], r["device"]["usb"]["driver"], r["profile"])' \
	"$tmp/try/history.json" 2>&1 | sort | tr '\n' ' ')
check "stored: one quick run per disk with its driver (got '$got')" \
	test "$got" = "bot1 usb-storage quick uas1 uas quick "
[ "$failures" = 0 ] || for f in uas1.out uas1.err bot1.out bot1.err; do
	echo "--- $f"; tail -30 "$tmp/try/$f"
done
finish
