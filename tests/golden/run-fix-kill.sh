#!/bin/bash
# run-fix-kill.sh - `sbcdisk fix uas --apply` killed (KILL, TERM) at random moments, 25
# times each: cmdline.txt is always the original or the whole fixed file, a replacement
# always has its backup, TERM leaves no temporary file, and the next run leaves no temporary
# file and exactly one backup (the original) beside the fixed file. Prints the outcomes.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi4-jms567-usb3-uas.desc" "$tmp/root" \
	>/dev/null || exit 1
root=$tmp/root
boot=$root/boot
[ -f "$root/boot/firmware/config.txt" ] && boot=$root/boot/firmware
cp "$boot/cmdline.txt" "$tmp/orig"
fixit() { # the fix; in a subshell that becomes it, so that $! is the process to kill
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	exec $run "$bin" --sysroot "$root" fix uas 152d:0578 --apply >/dev/null 2>"$tmp/err"
}
# the fixed file, once
(fixit) || { echo "FAIL: the fix does not apply"; exit 1; }
cp "$boot/cmdline.txt" "$tmp/fixed"
cmp -s "$tmp/orig" "$tmp/fixed" && { echo "FAIL: the fix changed nothing"; exit 1; }
# 25 of each (KILLS=N for more); 20 under an emulator (SBCDISK_RUN), where one run takes
# far longer. The kills land 0 to 30 ms in, spread over before, during and after the write.
kills=${KILLS:-25}
[ -n "$run" ] && kills=${KILLS:-20}
backups() { find "$boot" -maxdepth 1 -name 'cmdline.txt.sbcdisk-*' | sort; }
temps() { find "$boot" -maxdepth 1 -name '.sbcdisk-*'; }

for sig in KILL TERM; do
	old=0 new=0 left=0 orphan=0
	for i in $(seq "$kills"); do
		rm -f "$boot"/cmdline.txt.sbcdisk-* "$boot"/.sbcdisk-*
		cp "$tmp/orig" "$boot/cmdline.txt"
		(fixit) &
		pid=$!
		# 0 to 30 ms: before, during and after the write
		sleep "0.$(printf '%03d' $((RANDOM % 31)))"
		kill -s "$sig" "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		if cmp -s "$boot/cmdline.txt" "$tmp/fixed"; then
			new=$((new + 1))
			[ "$(backups | wc -l)" = 1 ] && cmp -s "$(backups)" "$tmp/orig" ||
				fail "$sig $i: replaced without its backup: $(backups)"
		elif cmp -s "$boot/cmdline.txt" "$tmp/orig"; then
			old=$((old + 1))
			b=$(backups)
			if [ -n "$b" ]; then
				orphan=$((orphan + 1))
				[ "$sig" = KILL ] || fail "$sig $i: a backup without a change: $b"
			fi
		else
			fail "$sig $i: cmdline.txt is neither the original nor the fixed file"
		fi
		t=$(temps)
		if [ -n "$t" ]; then
			left=$((left + 1))
			[ "$sig" = KILL ] || fail "$sig $i: temporary file left: $t"
		fi
		# the next run cleans up and ends with one backup, the original
		(fixit) || fail "$sig $i: the next run failed: $(cat "$tmp/err")"
		[ -z "$(temps)" ] || fail "$sig $i: the next run left $(temps)"
		cmp -s "$boot/cmdline.txt" "$tmp/fixed" || fail "$sig $i: the next run did not fix"
		[ "$(backups | wc -l)" = 1 ] && cmp -s "$(backups)" "$tmp/orig" ||
			fail "$sig $i: after the next run the backups are: $(backups)"
	done
	echo "$sig: $kills kills: $old original, $new replaced; $left left a temporary file and" \
		"$orphan a backup of no change (both removed by the next run)"
done
finish
