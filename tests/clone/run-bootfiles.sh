#!/bin/bash
# run-bootfiles.sh - clone and the boot partition's files: mtools missing stops the plan with
# one line naming the package and nothing written (it was exit 0 with the source's root=);
# paths holding "@@" (mtools' IMAGE@@OFFSET) are read and written; config.txt's cmdline=
# names the file that is rewritten; a loop device over an image whose cmdline.txt says
# root=/dev/mmcblk0p2 is rewritten as the image is. About 20 s.
. "$(dirname "$0")/lib.sh"
clone_need

p1off=$((8192 * 512))
# fat IMG FILE: FILE of IMG's first partition, read through a copy (the path may hold "@@")
fat() { cp "$1" "$tmp/read.img" && mtype -i "$tmp/read.img@@$p1off" "::$2"; rm -f "$tmp/read.img"; }
export -f fat; export p1off tmp

mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
before=$(sum_of "$tmp/src.img")

# --- mtools missing: PATH has every other program ------------------------------------------
mkdir "$tmp/bin"
for f in /usr/local/sbin/* /usr/local/bin/* /usr/sbin/* /usr/bin/* /sbin/* /bin/*; do
	n=${f##*/}
	[ -e "$tmp/bin/$n" ] && continue
	case $(readlink -f "$f") in */mtools) continue ;; esac
	ln -s "$f" "$tmp/bin/$n"
done
check "the PATH without mtools has none of it" sh -c "! PATH='$tmp/bin' command -v mcopy"
for mode in "" --apply; do
	PATH="$tmp/bin" sbc clone "$tmp/src.img" "$tmp/nomt.img" $mode
	expect_rc 1 "no mtools ${mode:-dry run}"
	if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "install the package mtools" "$tmp/err"
	then ok; else fail "no mtools ${mode:-dry run}: one line naming the package"; cat "$tmp/err"; fi
	check "no mtools ${mode:-dry run}: nothing written" test ! -e "$tmp/nomt.img"
done

# --- "@@" in the paths of the source and the target ----------------------------------------
mkdir "$tmp/a@@1"
cp "$tmp/src.img" "$tmp/a@@1/src.img"
sbc --json clone "$tmp/a@@1/src.img" "$tmp/a@@1/dst.img" --apply
expect_rc 0 "@@ in the paths"
json "[r['file'] for r in d['rewrites']][:1] == ['cmdline.txt'] and all(r['done'] for r in d['rewrites'])" \
	"@@: cmdline.txt rewritten"
id=$(python3 -c "import json; print(json.load(open('$tmp/out'))['target']['disk_id'][2:])" 2>/dev/null)
check "@@: the target's root= is its own" bash -c "fat '$tmp/a@@1/dst.img' cmdline.txt | grep -q 'root=PARTUUID=$id-02 '"
check "@@: no file made at the path before the @@" test ! -e "$tmp/a"
rm -f "$tmp/a@@1/dst.img"

# --- config.txt's cmdline= names the file the firmware reads --------------------------------
cp "$tmp/src.img" "$tmp/cl.img"
printf '[all]\nkernel=kernel8.img\narm_64bit=1\ncmdline=boot-args.txt\n' >"$tmp/config.txt"
printf 'console=tty1 root=PARTUUID=0badc0de-02 rootwait\n' >"$tmp/boot-args.txt"
mcopy -o -i "$tmp/cl.img@@$p1off" "$tmp/config.txt" "$tmp/boot-args.txt" :: || fail "mcopy"
fat "$tmp/cl.img" cmdline.txt >"$tmp/unused.before"
sbc --json clone "$tmp/cl.img" "$tmp/cl-dst.img" --apply
expect_rc 0 "cmdline="; [ -s "$tmp/err" ] && cat "$tmp/err"
json "[r['file'] for r in d['rewrites']][:1] == ['boot-args.txt']" "cmdline=: the file config.txt names is the one rewritten"
id=$(python3 -c "import json; print(json.load(open('$tmp/out'))['target']['disk_id'][2:])" 2>/dev/null)
check "cmdline=: boot-args.txt has the target's root=" bash -c "fat '$tmp/cl-dst.img' boot-args.txt | grep -q 'root=PARTUUID=$id-02 '"
fat "$tmp/cl-dst.img" cmdline.txt >"$tmp/unused.after"
check "cmdline=: the unused cmdline.txt left as it was" cmp -s "$tmp/unused.before" "$tmp/unused.after"
rm -f "$tmp/cl.img" "$tmp/cl-dst.img"

# --- cmdline= under [pi5] in an included file (issue 34 item 2) -----------------------------
cp "$tmp/src.img" "$tmp/p5.img"
printf '[all]\nkernel=kernel8.img\narm_64bit=1\ninclude extra.txt\n[all]\n' >"$tmp/config.txt"
printf '[pi4]\ncmdline=args4.txt\n[pi5]\ncmdline=args5.txt\n' >"$tmp/extra.txt"
printf 'console=tty1 root=PARTUUID=0badc0de-02 rootwait\n' >"$tmp/args5.txt"
mcopy -o -i "$tmp/p5.img@@$p1off" "$tmp/config.txt" "$tmp/extra.txt" "$tmp/args5.txt" :: ||
	fail "mcopy"
# this machine is no Raspberry Pi: which section holds is not known, and not guessed
sbc clone "$tmp/p5.img" "$tmp/p5-dst.img"
expect_rc 1 "[pi5] cmdline=, no --board"
grep_out "cmdline= under \[pi4\]\|cmdline= under \[pi5\]" err "[pi5] cmdline=: the filter named"
grep_out "with --board" err "[pi5] cmdline=: --board suggested"
# a dry run (the --apply path is the cmdline= case above): the plan rewrites args5.txt for a
# Pi 5, the base cmdline.txt for a Pi 3 (no section of extra.txt holds there)
sbc --json clone "$tmp/p5.img" "$tmp/p5-dst.img" --board pi5
expect_rc 0 "[pi5] cmdline=, --board pi5"; [ -s "$tmp/err" ] && cat "$tmp/err"
json "[r['file'] for r in d['rewrites']][:1] == ['args5.txt']" "[pi5] cmdline=: args5.txt rewritten"
sbc --json clone "$tmp/p5.img" "$tmp/p5-dst.img" --board pi3
expect_rc 0 "[pi5] cmdline=, --board pi3"; [ -s "$tmp/err" ] && cat "$tmp/err"
json "[r['file'] for r in d['rewrites']][:1] == ['cmdline.txt']" "[pi5] cmdline=: a Pi 3 reads cmdline.txt"
sbc clone "$tmp/p5.img" "$tmp/p5-dst.img" --board pi9
expect_rc 2 "--board pi9"
grep_out "bad --board 'pi9'" err "--board pi9: said"
check "[pi5] cmdline=: no target written" test ! -e "$tmp/p5-dst.img"
rm -f "$tmp/p5.img"

# --- root=/dev/mmcblk0p2: an image and a loop device over it, one rule ----------------------
mkimage "$tmp/mmc.img" dos 200 /dev/mmcblk0p2 || { fail "mkimage mmc"; finish; }
sbc --json clone "$tmp/mmc.img" "$tmp/x.img"
expect_rc 0 "mmcblk0p2 image: dry run"
json "d['rewrites'][0]['before'] == 'root=/dev/mmcblk0p2'" "mmcblk0p2 image: root= rewritten"
loop_attach "$tmp/mmc.img"
sbc --json clone "$loopdev" "$tmp/x.img"
expect_rc 0 "mmcblk0p2 loop device: dry run"
json "d['rewrites'][0]['before'] == 'root=/dev/mmcblk0p2'" "mmcblk0p2 loop device: root= rewritten"

check "the source unchanged" test "$(sum_of "$tmp/src.img")" = "$before"
finish
