#!/bin/bash
# run-messages.sh - `sbcdisk metrics` refusals: one line naming the directory, a non-zero exit,
# nothing written; sbcdisk.prom as a symbolic link is neither followed nor replaced; --help
# needs no system.
. "$SBCDISK_SRCDIR/tests/cli/lib.sh"
python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi4-jms567-usb3-uas.desc" "$tmp/root" >/dev/null || exit 1
m() { sb --sysroot "$tmp/root" metrics --kmsg /dev/null --db "$tmp/none.db" "$@"; }

m --textfile "$tmp/missing"
expect_rc 1 "a missing directory"
grep_out "^sbcdisk: metrics: textfile directory '$tmp/missing': No such file or directory$" err \
	"the missing directory is named"
check "one line" [ "$(wc -l <"$tmp/err")" -eq 1 ]
check "nothing on stdout" [ ! -s "$tmp/out" ]
check "no directory made" [ ! -e "$tmp/missing" ]

echo keep >"$tmp/file"
m --textfile "$tmp/file"
expect_rc 1 "a file for the directory"
grep_out "textfile directory '$tmp/file': Not a directory" err "a file is not a directory"
check "the file is kept" [ "$(cat "$tmp/file")" = keep ]

mkdir "$tmp/tf"
echo secret >"$tmp/target"
ln -s "$tmp/target" "$tmp/tf/sbcdisk.prom"
m --textfile "$tmp/tf"
expect_rc 1 "sbcdisk.prom is a symbolic link"
grep_out "cannot write '$tmp/tf/sbcdisk.prom': it is a symbolic link" err "the link is refused"
check "the link is kept" [ -L "$tmp/tf/sbcdisk.prom" ]
check "its target is untouched" [ "$(cat "$tmp/target")" = secret ]
check "no temporary file left" [ "$(ls -A "$tmp/tf" | wc -l)" -eq 1 ]

m --textfile $'\e[2J'
expect_rc 1 "a hostile directory name"
grep_out "textfile directory '?\[2J'" err "the name is shown sanitised"

m --textfile ''
expect_rc 2 "an empty directory name"
grep_out "metrics: --textfile needs a directory" err "an empty name is a usage error"

sb --json metrics
expect_rc 2 "--json"
sb --sysroot "$tmp/nonexistent" metrics --help
expect_rc 0 "--help without a system"
grep_out "^Usage: sbcdisk metrics" out "the usage"
finish
