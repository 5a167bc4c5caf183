#!/bin/bash
# run-names.sh - paths that a child program could misread: an image in a directory whose
# name holds '?' (debugfs reads "NAME?offset=N" in a build without libext2fs, which reads
# the source's fstab through it) is planned as any other; one whose name holds '@@' (mtools
# read "FILE@@OFFSET") is verified as any other. A missing file is missing, not empty.
# Run it in a build without libext2fs too (meson setup -Dext2fs=disabled).
. "$(dirname "$0")/lib.sh"
clone_need
command -v debugfs >/dev/null || skip "debugfs missing"

mkdir -p "$tmp/q?offset=0"
mkimage "$tmp/q?offset=0/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
sbc clone "$tmp/q?offset=0/src.img" "$tmp/t.img"
expect_rc 0 "a source in a directory named 'q?offset=0'"
grep_out "/etc/fstab:3" out "'?' in the source's path: its fstab read and rewritten"

# '@@' in the source's path, which mtools read as "FILE@@OFFSET": the FAT tree still compared
# by verify (it copies both sides out with mcopy), without MTOOLS_SKIP_CHECK from outside
mkdir -p "$tmp/a@@0"
mkimage "$tmp/plain.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
mv "$tmp/plain.img" "$tmp/a@@0/src.img"
env -u MTOOLS_SKIP_CHECK "$bin" clone "$tmp/a@@0/src.img" "$tmp/t2.img" --apply \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc 0 "a source in a directory named 'a@@0'"
if grep -q "PASS *tree p1" "$tmp/out"; then ok; else
	fail "'@@' in the source's path: the FAT tree not compared:"
	grep "tree p1" "$tmp/out" | sed 's/^/  out: /'
fi

# a source with no /etc/fstab: debugfs (which reads it in a build without libext2fs) exits 0
# when a file is not found, printing nothing, as for an empty file; the check must not pass
mkimage "$tmp/nofstab.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
debugfs -w -R "rm /etc/fstab" "$tmp/nofstab.img?offset=$((139264 * 512))" >/dev/null 2>&1
sbc clone "$tmp/nofstab.img" "$tmp/t3.img" --apply
expect_rc 0 "a source without /etc/fstab"
grep_out "WARN *fstab-resolves" out "no /etc/fstab on the source: fstab-resolves warns"
finish
