#!/bin/bash
# run-fix-config.sh - `fix pcie-gen` says what is wrong with a config.txt it cannot edit, in
# the user's terms (too large, with the limit; a symbolic link, never followed), writes
# nothing then; and after an include whose file ends inside [cm4] it adds [all] first.
. "$(dirname "$0")/lib.sh"
python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi5-nvme-gen2.desc" "$tmp/root" || exit 1
fw=$tmp/root/boot/firmware
cp "$fw/config.txt" "$tmp/config.orig"

# refused COND TEXT: fix pcie-gen 3 --apply exits 1 with TEXT, one line, nothing written
refused() {
	sb --sysroot "$tmp/root" fix pcie-gen 3 --apply
	expect_rc 1 "$1"
	grep_out "$2" err "$1"
	check "$1: one line" [ "$(wc -l <"$tmp/err")" -eq 1 ]
	check "$1: not 'Argument list too long'" not_in "Argument list too long" err
	check "$1: not 'there is no config.txt'" not_in "there is no config.txt" err
	check "$1: no backup written" [ -z "$(find "$fw" -name '*sbcdisk*')" ]
}
not_in() { ! grep -q -- "$1" "$tmp/$2"; }

# 300 KB of lines: more lines than are read
python3 -c 'import sys; open(sys.argv[1], "w").write("# x\n" * 75000)' "$fw/config.txt"
refused "a 300 KB config.txt" "it is too large: it has more than 20000 lines"
# more bytes than are read
python3 -c 'import sys; open(sys.argv[1], "w").write("#" * 1100000)' "$fw/config.txt"
refused "a 1.1 MB config.txt" "it is 1100000 bytes, more than the 1024 KiB"
# a link that leads nowhere, and one to a file beside it: said, not followed
rm "$fw/config.txt"
ln -s /nowhere/config.txt "$fw/config.txt"
refused "a dangling config.txt link" "config.txt': it is a symbolic link"
rm "$fw/config.txt"
cp "$tmp/config.orig" "$fw/real-config.txt"
ln -s real-config.txt "$fw/config.txt"
refused "a config.txt link" "config.txt': it is a symbolic link"
check "the link's target is unchanged" cmp -s "$tmp/config.orig" "$fw/real-config.txt"
rm "$fw/config.txt" "$fw/real-config.txt"

# an include whose file ends inside [cm4]: its lines stand in place of the include line
# (Raspberry Pi documentation, config.txt, "include"), so the setting goes after an [all]
{ grep -v pciex1_gen "$tmp/config.orig"; echo "[all]"; echo "include extra.txt"; } >"$fw/config.txt"
printf '[cm4]\notg_mode=1\n' >"$fw/extra.txt"
sb --sysroot "$tmp/root" fix pcie-gen 3
expect_rc 0 "fix pcie-gen 3 after an include"
check "no claim that no filter is in force" not_in "no filter is in force" out
tail_diff=$(grep '^+' "$tmp/out" | grep -v '^+++' | tr '\n' ' ')
check "[all] comes before the setting (diff: $tail_diff)" \
	[ "$tail_diff" = "+[all] +dtparam=pciex1_gen=3 " ]
# the file's own bytes in the diff: an escape sequence, a C1 CSI and a byte that is not UTF-8
# in config.txt are shown as '?', in the text and in the JSON (valid UTF-8); the tab stays
{ grep -v pciex1_gen "$tmp/config.orig"; printf '# \033]0;pwn\a\033[2J \302\233 \377\tx\n'; } >"$fw/config.txt"
rm -f "$fw/extra.txt"
sb --sysroot "$tmp/root" fix pcie-gen 3
expect_rc 0 "fix pcie-gen 3 with escapes in config.txt"
check "no ESC, BEL, C1 or bad byte in the diff" python3 -c '
import sys; b = open(sys.argv[1], "rb").read()
sys.exit(any(x in b for x in (b"\x1b", b"\x07", b"\xc2\x9b", b"\xff")))' "$tmp/out"
grep_out "^ # ?]0;pwn??\[2J ?? ?	x$" out "the line is shown with '?' and its tab"
sb --sysroot "$tmp/root" --json fix pcie-gen 3
expect_rc 0 "fix pcie-gen 3 --json with escapes in config.txt"
check "the JSON is valid UTF-8" python3 -c '
import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$tmp/out"
finish
