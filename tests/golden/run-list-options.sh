#!/bin/bash
# run-list-options.sh - `sbcdisk list` options and usage errors on one tree, as one golden
# transcript (tests/golden/list/options.txt): -o help, -o COLS, -o +COLS, -b, bad columns,
# missing values, extra arguments, each with its exit code. UPDATE_GOLDEN=1 rewrites it.
set -u
# shellcheck source=tests/golden/lib.sh
. "$(dirname "$0")/lib.sh"
tree_build pi4-sd-jms567-usb2

want=$golden/options.txt
out=$tmp/transcript
: >"$out"
step() { # args...: one command of the transcript
	echo "\$ sbcdisk list $*" >>"$out"
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	timeout 20 $run "$bin" --sysroot "$tmp/root" list "$@" >"$tmp/o" 2>"$tmp/e"
	echo "[exit $?]" >>"$out"
	cat "$tmp/o" "$tmp/e" >>"$out"
	if grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error:' \
		"$tmp/e"; then
		echo "FAIL: sanitizer report for 'list $*'"
		cat "$tmp/e"
		exit 1
	fi
}
step -o help
step -b -o NAME,SIZE,LOG-SEC,PHY-SEC,RA,MAX-SECT,SCHED
step -o +KNAME,PKNAME,FSTYPE,LABEL,UUID,PARTUUID
step --output=name,vendor,rev,serial,rota,mountpoint
step -o NAME,bogus
step -o
step -o ,
step extra
step -x
step --help
sed -i "s|$tmp/root|SYSROOT|g" "$out"

if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
	cp "$out" "$want"
	echo "updated ${want#"$src"/}"
	exit 0
fi
diff -u --label "expected options.txt" --label actual "$want" "$out" || {
	echo "FAIL: list options differ from their golden transcript"
	exit 1
}
