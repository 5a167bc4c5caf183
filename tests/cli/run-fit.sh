#!/bin/bash
# run-fit.sh - every table fits the terminal it is shown on: the commands run on a
# pseudo-terminal of 80 and 120 columns (ptyrun.py --cols) on the sysroot trees and a store of
# the seed results; no line is longer than the terminal, each device is one line of the
# table, and the same commands through a pipe print the full width as before.
set -u
. "$SBCDISK_SRCDIR/tests/cli/lib.sh"

trees="pi4-sd-jms567-usb2 pi5-nvme-gen2 pi5-usb-asm-sandisk x86-sata-nvme jetson-orin-emmc-nvme"
for t in $trees; do
	python3 "$src/tools/mksysroot" "$src/tests/sysroots/$t.desc" "$tmp/$t" || exit 1
done
klog=$src/tests/diag/klog/03_rpi3814_uas_abort_reset_success_hub.log

# tty COLS NAME ARGS...: sbcdisk ARGS on a terminal of COLS; what it showed in $tmp/NAME.COLS
tty() {
	local cols=$1 name=$2
	shift 2
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	timeout 120 python3 "$src/tests/bench/ptyrun.py" "$tmp" --cols "$cols" -- \
		$run "$bin" "$@" 2>"$tmp/err"
	rc=$?
	mv "$tmp/tty" "$tmp/$name.$cols"
	if [ "$rc" = 90 ]; then
		fail "$name at $cols columns: lines longer than the terminal"
		sed 's/^/  /' "$tmp/err" | head -5
	else
		ok
	fi
}

# table_rows FILE: the lines of the first table in FILE (from its header to a blank line)
table_rows() { awk 'NR > 1 && /^$/ { exit } NR > 1 { n++ } END { print n + 0 }' "$1"; }

for cols in 80 120; do
	for t in $trees; do
		# one line a device: as many rows as `list -o NAME` (one name a line) has
		sb --sysroot "$tmp/$t" list -o NAME
		want=$(($(wc -l <"$tmp/out") - 1))
		tty "$cols" "list-$t" --sysroot "$tmp/$t" list
		got=$(table_rows "$tmp/list-$t.$cols")
		[ "$got" = "$want" ] && ok || fail "list $t at $cols: $got rows for $want devices"
		tty "$cols" "health-$t" --sysroot "$tmp/$t"
		got=$(table_rows "$tmp/health-$t.$cols")
		[ "$got" = "$want" ] && ok || fail "health $t at $cols: $got rows for $want devices"
		tty "$cols" "doctor-$t" --sysroot "$tmp/$t" doctor --kmsg "$klog"
		# -o names the columns: kept in their long form, only cut
		tty "$cols" "list-o-$t" --sysroot "$tmp/$t" list -o NAME,SIZE,ATTACHMENT
	done
done

# without root the kernel log cannot be read (/dev/kmsg: EPERM or EACCES): the health check
# and doctor say to run as root, and the all-clear says what it covered. As root, the file's
# mode is enforced by dropping the capabilities that override it.
asuser=()
if [ "$(id -u)" = 0 ]; then
	asuser=(setpriv --bounding-set -dac_override,-dac_read_search)
fi
cp -a "$tmp/pi5-nvme-gen2" "$tmp/noroot"
mkdir -p "$tmp/noroot/dev" "$tmp/noroot-empty/dev"
: >"$tmp/noroot/dev/kmsg"
: >"$tmp/noroot-empty/dev/kmsg"
chmod 000 "$tmp/noroot/dev/kmsg" "$tmp/noroot-empty/dev/kmsg"
for cols in 80 120; do
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	run="${asuser[*]} $run" tty "$cols" noroot --sysroot "$tmp/noroot"
	run="${asuser[*]} $run" tty "$cols" noroot-doctor --sysroot "$tmp/noroot-empty" doctor
	for n in noroot noroot-doctor; do
		tr '\n' ' ' <"$tmp/$n.$cols" | grep -q "Kernel log: not read (cannot open /dev/kmsg: .* run *as *root *(sudo)" &&
			ok || fail "$n at $cols: no word of root: $(cat "$tmp/$n.$cols")"
	done
	tr '\n' ' ' <"$tmp/noroot-doctor.$cols" | grep -q "No problems found; the kernel log was not *read" &&
		ok || fail "the all-clear at $cols does not say what it covered: $(cat "$tmp/noroot-doctor.$cols")"
done

# the messages on stderr fit too, folded at a space with the lines after the first indented
# (piped, each stays one line: tests/cli/run-messages.sh): a warning of a hostile tree, an
# error naming a path the user gave
python3 "$src/tools/mksysroot" "$src/tests/sysroots/hostile-manyparts.desc" "$tmp/many" || exit 1
for cols in 80 120; do
	tty "$cols" "warn" --sysroot "$tmp/many"
	grep -q "^sbcdisk: warning: health: only the first 16384 block devices" "$tmp/warn.$cols" &&
		grep -q "^  .*cover them$" "$tmp/warn.$cols" && ok ||
		fail "the warning at $cols, folded: $(grep -A2 warning "$tmp/warn.$cols")"
	tty "$cols" "err" --sysroot "$tmp/a directory that is not there, named with spaces" list
	grep -q "^  .*directory$" "$tmp/err.$cols" && ok ||
		fail "the error at $cols, folded: $(cat "$tmp/err.$cols")"
done
sb --sysroot "$tmp/many"
[ "$(grep -c 'only the first 16384 block devices.*what follows does not cover them$' "$tmp/err")" = 1 ] &&
	ok || fail "piped, the warning is one line: $(cat "$tmp/err")"

# every --help fits 80 columns wherever it is read (a pipe, a pager, the console): the
# commands listed by `sbcdisk --help`, and the subcommands boot and fix take
# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
cmds=$($run "$bin" --help | awk '/^Commands:/ { c = 1; next } c && /^$/ { exit } c { print $1 }')
[ -n "$cmds" ] && ok || fail "no commands in sbcdisk --help"
for c in "" $cmds "boot order" "boot check" "boot time" "fix uas" "fix verify" "history --boot"; do
	# shellcheck disable=SC2086 # the qemu-user prefix; a command and its subcommand
	$run "$bin" $c --help >"$tmp/help" 2>&1 || fail "sbcdisk $c --help: exit $?"
	long=$(python3 -c 'import sys
print("".join("  %d: %s\n" % (len(l), l) for l in open(sys.argv[1], encoding="utf-8").read().split("\n") if len(l) > 80), end="")' "$tmp/help")
	[ -z "$long" ] && ok || fail "sbcdisk $c --help: lines over 80 columns:
$long"
done

# the stored results: the seed runs
sb history --db "$tmp/r.db" --import "$src/data/seed-results/seed-runs.json"
expect_rc 0 "import the seed runs"
nruns=$(grep -c '"started_at"' "$src/data/seed-results/seed-runs.json")
mkdir "$tmp/bd"
for cols in 80 120; do
	tty "$cols" history history --db "$tmp/r.db"
	# one line a run
	got=$(table_rows "$tmp/history.$cols")
	[ "$got" = "$nruns" ] && ok || fail "history at $cols: $got rows for $nruns runs"
	# two runs of one drive, on USB 3 and on USB 2: the attachment and the limit tell them apart
	grep -q "^   1  2020-09-26 .* usb3 .* device$" "$tmp/history.$cols" &&
		grep -q "^   2  2020-09-26 .* usb2 .* link$" "$tmp/history.$cols" && ok ||
		fail "history at $cols: the attachment and the limit: $(cat "$tmp/history.$cols")"
	grep -q " usb3 uas .* device$" "$tmp/history.$cols" && ok ||
		fail "history at $cols: the driver: $(cat "$tmp/history.$cols")"
	tty "$cols" compare compare --db "$tmp/r.db" 6 7 8 9
	# each row whole: once a block of runs, its ratios on its own line
	blocks=$(grep -cE "^ +#[0-9]+( |$)" "$tmp/compare.$cols")
	got=$(grep -c "^RND4K Q32T1 read IOPS .*x$" "$tmp/compare.$cols")
	[ "$got" = "$blocks" ] && ok || fail "compare at $cols: a row wrapped: $(cat "$tmp/compare.$cols")"
	# four hdparm runs: the heads whole, no orphan ratio, memory not ranked, no empty row
	tty "$cols" compare-hdparm compare --db "$tmp/r.db" 10 11 12 13
	f=$tmp/compare-hdparm.$cols
	! grep -qE "^ *[0-9.]+x$|^ +[0-9.-]+ *$" "$f" && ok || fail "compare at $cols: orphan lines: $(cat "$f")"
	grep -q "ESSENCORE K032GUSD6U" "$f" && grep -q "2023-02-04 hdparm" "$f" && ok ||
		fail "compare at $cols: heads cut: $(cat "$f")"
	grep "^cached reads" "$f" | grep -q "x" && fail "compare at $cols ranks memory: $(cat "$f")" || ok
	! grep -qE "^boot-drive score[ -]*$" "$f" && ok || fail "compare at $cols: an empty row: $(cat "$f")"
	[ "$(grep -c "^buffered disk reads .*x$" "$f")" -ge 1 ] && ok || fail "compare at $cols: $(cat "$f")"
	tty "$cols" bench bench "$tmp/bd" --engine null --runs 1 --time 100ms --interval 0 \
		--size 8m --no-save
	got=$(grep -c "^RND4K Q32T1 .*randread  *[0-9.]* " "$tmp/bench.$cols")
	[ "$got" = 1 ] && ok || fail "bench at $cols: a row wrapped: $(cat "$tmp/bench.$cols")"
	for t in pi4-sd-jms567-usb2 pi5-nvme-gen2; do
		tty "$cols" "boot-$t" --sysroot "$tmp/$t" boot
		tty "$cols" "boot-check-$t" --sysroot "$tmp/$t" boot check
	done
done
# history --boot: boot times as `boot time --record` stores them (written straight into the
# store here: reading them back needs no systemd), two boots of each of three drives
python3 - "$tmp/r.db" <<'PY' || fail "boot times into the store"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = [("mmcblk0", "SC64G", "0x8c1f2e3d", "mmc", "mmc sd uhs SDR104 200 MHz 4 bit", 7.1, 30.9),
        ("sda", "Samsung SSD 870 EVO 500GB", "S6PXNM0T123456", "usb",
         "usb 5000M uas JMS583 152d:0583 hub 2109:0817 VIA Labs VL817", 6.9, 27.7),
        ("nvme0n1", "WDC WDS500G2B0C-00PXH0", "21034A800123", "nvme",
         "nvme pcie 5 GT/s x1 (device max 8 GT/s x4, port max 5 GT/s x1)", 5.2, 19.4)]
for i, (name, model, serial, tr, att, k, total) in enumerate(rows * 2):
    db.execute("INSERT INTO boot_times (boot_id, recorded_at, kernel_s, userspace_s, total_s,"
               " dev_name, dev_model, dev_serial, dev_transport, dev_label, attachment)"
               " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               ("b%d" % i, "2026-11-2%dT10:00:00Z" % i, k, total - k, total + i * 0.1, name,
                model, serial, tr, model, att))
db.commit()
PY
for cols in 80 120; do
	tty "$cols" history-boot history --boot --db "$tmp/r.db"
	# one line a drive
	got=$(table_rows "$tmp/history-boot.$cols")
	[ "$got" = 3 ] && ok || fail "history --boot at $cols: $(cat "$tmp/history-boot.$cols")"
	grep -q "^SC64G .* 2  *31\.050 " "$tmp/history-boot.$cols" && ok ||
		fail "history --boot at $cols: the SD card's row: $(cat "$tmp/history-boot.$cols")"
done

# the bench table at 80 is CrystalDiskMark's: MB/s and its verdict (limit), IOPS, how sure
# each figure is (+/-% and the seconds it took: docs/early-stop.md) and the latency, no MiB/s
head -n 20 "$tmp/bench.80" | grep -q "^Test  *R/W  *MB/s  *limit  *IOPS  *+/-%  *secs  *mean us" && ok ||
	fail "bench at 80: $(cat "$tmp/bench.80")"
# and how far the runs differ (CV %): "-" for a single run, a figure for several
for cols in 80 120; do
	grep -q "^Test .* CV%$" "$tmp/bench.$cols" && grep -q "^RND4K Q1T1 .*randread .*  -$" \
		"$tmp/bench.$cols" && ok || fail "bench at $cols: no CV column: $(cat "$tmp/bench.$cols")"
done
tty 80 bench3 bench "$tmp/bd" --engine null --runs 3 --time 100ms --interval 0 --size 8m \
	--db "$tmp/cv.db"
grep -q "^RND4K Q1T1 .*randread .* [0-9]*\.[0-9]$" "$tmp/bench3.80" && ok ||
	fail "bench --runs 3 at 80: no CV figure: $(cat "$tmp/bench3.80")"
# the page of one run has no "CV 0.0%" either: its CV cells are "-"
sb bench "$tmp/bd" --engine null --runs 1 --time 100ms --interval 0 --size 8m --db "$tmp/cv.db"
sb report --db "$tmp/cv.db" --last 1 -o "$tmp/one.html"
n=$(grep -o '<td class="num">[^<]*</td><td><span' "$tmp/one.html" | grep -c '">-</td>')
[ "$n" = 8 ] && ok || fail "the page of one run: $n of 8 CV cells are '-'"
# report on a terminal: no HTML on the screen, a file, and where it is
(cd "$tmp/bd" && tty 80 report report --db "$tmp/cv.db" --last 1)
page=$(ls "$tmp"/bd/sbcdisk-report-*.html 2>/dev/null | head -1)
! grep -q "<html" "$tmp/report.80" && grep -q "^wrote sbcdisk-report-.*\.html (1 run)" "$tmp/report.80" &&
	[ -n "$page" ] && grep -q "<html" "$page" && ok ||
	fail "report on a terminal: $(head -c 300 "$tmp/report.80")"
rm -f "$tmp"/bd/sbcdisk-report-*.html
sb report --db "$tmp/cv.db" --last 1
grep -q "^<!DOCTYPE html>" "$tmp/out" && ok || fail "report into a pipe: no HTML"

# a progress line rewritten in place leaves nothing in the scrollback of a terminal of 80
# columns (a line as wide as the terminal wraps, and its first part was never cleared):
# hdparm's settling line is the longest, 83 characters before it is cut
if command -v tmux >/dev/null; then
	sock=$tmp/tmux.sock
	tmux -S "$sock" -f /dev/null new-session -d -x 80 -y 24 \
		"tmux -S '$sock' wait-for go; $run '$bin' bench '$tmp/bd' --profile hdparm --runs 5 \
		--size 8m --interval 100ms --no-save; echo END-OF-BENCH; sleep 120"
	tmux -S "$sock" pipe-pane -o "cat >'$tmp/raw'"
	tmux -S "$sock" wait-for -S go
	for _ in $(seq 1 240); do
		tmux -S "$sock" capture-pane -p -S - -E - >"$tmp/pane"
		grep -q END-OF-BENCH "$tmp/pane" && break
		sleep 0.5
	done
	tmux -S "$sock" kill-server
	grep -q "letting I/O settle" "$tmp/raw" && ok || fail "no progress line was shown"
	grep -q "^Test .*R/W" "$tmp/pane" && ok || fail "bench in tmux: $(cat "$tmp/pane")"
	! grep -qE "settle|run [0-9]/5|s left" "$tmp/pane" && ok ||
		fail "progress lines left in the scrollback: $(grep -E "settle|run [0-9]/5|s left" "$tmp/pane")"
else
	echo "the progress lines not checked in a terminal's scrollback: tmux missing"
fi

# a clone plan (image files: no root needed for a dry run, only the image tools)
if command -v sfdisk >/dev/null && command -v mkfs.vfat >/dev/null && command -v mcopy \
	>/dev/null && command -v mke2fs >/dev/null; then
	export MTOOLS_SKIP_CHECK=1
	. "$src/tests/clone/lib.sh"
	mkimage "$tmp/src.img" dos 300 PARTUUID=0badc0de-02 >/dev/null 2>&1 ||
		fail "mkimage"
	for cols in 80 120; do
		tty "$cols" clone clone "$tmp/src.img" "$tmp/dst.img"
		# each new id whole (PARTUUID and the file system's id), in the table or below it
		got=$(grep -cE "^(p[12] .*->.* |  p[12]  )[0-9a-f]{8}-0[12] +[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}$|^(p[12] .*->.* |  p[12]  )[0-9a-f]{8}-0[12] +[0-9a-f-]{36}$" \
			"$tmp/clone.$cols")
		[ "$got" = 2 ] && ok || fail "clone plan at $cols: $(cat "$tmp/clone.$cols")"
	done
else
	echo "the clone plan not shown: sfdisk, mkfs.vfat, mcopy or mke2fs missing"
fi

# at 80 columns the attachment is the short form, at 120 the long one where it fits
grep -q "usb2 uas JMS567 152d:0578 +hub" "$tmp/list-pi4-sd-jms567-usb2.80" && ok ||
	fail "the short attachment at 80: $(cat "$tmp/list-pi4-sd-jms567-usb2.80")"
grep -q "pcie 5GT/s x1 max 8GT/s x4" "$tmp/list-pi5-nvme-gen2.80" && ok ||
	fail "the short PCIe attachment at 80: $(cat "$tmp/list-pi5-nvme-gen2.80")"
grep -q "nvme pcie 5 GT/s x1 (device max 8 GT/s x4" "$tmp/list-o-pi5-nvme-gen2.120" && ok ||
	fail "-o keeps the long form: $(cat "$tmp/list-o-pi5-nvme-gen2.120")"
# the words a user reads: no names from inside the project, a ceiling with its unit
# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
$run "$bin" bench --profile help >"$tmp/profiles" 2>&1
! grep -qi "seed" "$tmp/profiles" && ok || fail "bench --profile help: $(grep -i seed "$tmp/profiles")"
! grep -q "(max [0-9]* x[0-9]*)" "$tmp/list-pi5-nvme-gen2.80" && ok ||
	fail "a ceiling without its unit at 80: $(cat "$tmp/list-pi5-nvme-gen2.80")"
# a tree name is never cut
grep -q '^`-nvme0n1p2 ' "$tmp/list-pi5-nvme-gen2.80" && ok || fail "tree name cut at 80"

# piped: the full width, as the goldens have it
sb --sysroot "$tmp/pi5-nvme-gen2" list
grep -q "nvme pcie 5 GT/s x1 (device max 8 GT/s x4, port max 5 GT/s x1)" "$tmp/out" && ok ||
	fail "piped list is not the full width"

finish
