#!/bin/bash
# run-real.sh - real I/O on small test files with each engine that can run here, every
# profile shrunk to a fraction of a second, and an existing file that must stay untouched.
. "$(dirname "$0")/lib.sh"

engines=(psync)
have_uring && engines+=(io_uring)
d=$tmp/d
mkdir "$d"

for e in "${engines[@]}"; do
	sb bench "$d" --engine "$e" --json --size 8m --test rw=randread,bs=4k,qd=4,time=0.2s \
		--test rw=write,bs=64k,qd=2,time=0.2s --test rw=read,bs=1m,qd=8,threads=2,time=0.2s
	expect_rc 0 "$e: custom tests"
	json "d['engine'] == '$e' and d['schema'] == 1 and d['profile'] == 'custom'" "$e: header"
	json "d['target']['kind'] == 'dir' and d['file_size_bytes'] == 8 << 20" "$e: target"
	json "len(d['tests']) == 3 and all(t['ios'] > 0 and t['bw_bytes_per_s'] > 0 and
	      t['engine'] == '$e' for t in d['tests'])" "$e: every test measured"
	json "all(t['lat_p50_us'] <= t['lat_p99_us'] <= t['lat_p999_us'] <= t['lat_max_us']
	      for t in d['tests'])" "$e: percentiles in order"
	json "all(abs(t['iops'] * t['block_bytes'] - t['bw_bytes_per_s']) <= 0.001 *
	      t['bw_bytes_per_s'] + 1 for t in d['tests'])" "$e: iops and bytes agree"
	json "d['tests'][0]['name'] == 'RND4K Q4T1' and d['tests'][0]['rw'] == 'randread'" \
		"$e: test names"
	json "all(t['cpu_user_s'] is not None and t['cpu_sys_s'] >= 0 for t in d['tests'])" \
		"$e: CPU time"
	check "$e: nothing left in the directory" [ -z "$(ls -A "$d")" ]
done

# buffered reads cover the file once: coming round again would read the page cache
for e in "${engines[@]}"; do
	sb bench "$d" --engine "$e" --json --size 4m --test rw=read,bs=64k,qd=2,time=5s,direct=0 \
		--test rw=randread,bs=4k,qd=4,time=5s,direct=0
	expect_rc 0 "$e: buffered reads"
	json "all(not t['direct'] and 0 < t['ios'] * t['block_bytes'] <= 4 << 20
	      for t in d['tests'])" "$e: buffered reads stop after one pass"
	json "all(t['measured_s'] < 4 for t in d['tests'])" "$e: and do not run out the clock"
done

# the automatic choice names the engine it took
sb bench "$d" --json --size 4m --test rw=randread,bs=4k,qd=2,time=0.1s
expect_rc 0 "automatic engine"
json "d['engine'] in ('io_uring', 'psync')" "automatic engine named"
[ -z "$run" ] || json "d['engine'] == 'psync'" "psync under qemu-user"

# io_uring unavailable: the automatic choice falls back to psync; forcing it is an error
SBCDISK_NO_IO_URING=1 sb bench "$d" --json --size 4m --test rw=randread,bs=4k,time=0.1s
expect_rc 0 "fallback to psync"
json "d['engine'] == 'psync'" "psync when io_uring is unavailable"
if ! have_uring; then
	sb bench "$d" --engine io_uring --size 4m --test rw=randread,bs=4k,time=0.1s
	expect_rc 1 "forcing io_uring where it cannot run"
	grep_out "io_uring is not there\|io_uring is refused here" err "io_uring refusal message"
	sb bench "$d" --json --size 4m --test rw=randread,bs=4k,time=0.1s
	json "any('the psync engine measures instead' in n for n in d['notes'])" \
		"the automatic choice says why it is psync"
else
	# a seccomp filter that refuses io_uring, as container runtimes' default profiles do
	nouring="$src/tests/bench/seccomp-no-uring.py"
	"$nouring" "$bin" bench "$d" --no-save --json --size 4m \
		--test rw=randread,bs=4k,time=0.1s >"$tmp/out" 2>"$tmp/err"
	rc=$?
	expect_rc 0 "io_uring refused by seccomp: psync"
	json "d['engine'] == 'psync' and d['tests'][0]['ios'] > 0" "psync ran under seccomp"
	json "'io_uring is refused here (kernel.io_uring_disabled or a seccomp filter): the psync engine measures instead' in d['notes']" \
		"the note says why"
	"$nouring" "$bin" bench "$d" --no-save --engine io_uring --size 4m \
		--test rw=randread,bs=4k,time=0.1s >"$tmp/out" 2>"$tmp/err"
	rc=$?
	expect_rc 1 "forcing io_uring under seccomp"
	check "forcing io_uring under seccomp: one line saying why" \
		[ "$(cat "$tmp/err")" = "sbcdisk: bench: io_uring is refused here (kernel.io_uring_disabled or a seccomp filter)" ]
	sb bench "$d" --json --size 4m --test rw=randread,bs=4k,time=0.1s
	json "not any('measures instead' in n for n in d['notes'])" "no note when io_uring ran"
fi

# every profile, tiny
for p in quick default peak real nvme extended hdparm sdcard dd sustained; do
	sb bench "$d" --profile "$p" --size 8m --time 0.1s --runs 1 --interval 0 --engine psync
	expect_rc 0 "profile $p"
	grep_out "profile $p, engine psync" out "profile $p header"
	check "profile $p: nothing left" [ -z "$(ls -A "$d")" ]
	cp "$tmp/out" "$tmp/$p.out"
done
cp "$tmp/hdparm.out" "$tmp/out"
grep_out "Timing cached reads:" out "hdparm cached line"
grep_out "Timing buffered disk reads:" out "hdparm buffered line"
grep_out "Timing O_DIRECT disk reads:" out "hdparm O_DIRECT line"
grep_out "a memory figure" out "hdparm -T is labelled a memory figure"
# hdparm's pause between flushing and timing each disk read (3 s; --interval sets it)
t0=$(date +%s.%N)
sb bench "$d" --profile hdparm --size 8m --time 0.1s --interval 1s --engine psync --json
t1=$(date +%s.%N)
expect_rc 0 "hdparm with a 1 s pause"
json "d['interval_s'] == 1 and all(t['ios'] > 0 for t in d['tests'])" "hdparm pause recorded"
check "hdparm pauses before both disk reads" \
	python3 -c "import sys; sys.exit(0 if $t1 - $t0 >= 2 else 1)"
sb bench "$d" --profile hdparm --size 8m --time 0.1s --interval 0 --json
json "d['engine'] == 'psync' and all(t['engine'] == 'psync' for t in d['tests'])" \
	"hdparm names the engine that ran, psync, not the one that would be picked"
if have_uring; then
	sb bench "$d" --profile hdparm --size 8m --time 0.1s --interval 0 --engine io_uring
	grep_out "engine psync" out "hdparm with --engine io_uring still reads with psync"
	grep_out "--engine io_uring does not apply" out "and says --engine does not apply"
fi
sb bench "$d" --profile hdparm --size 8m --time 0.1s --engine psync --json
json "d['interval_s'] == 3" "hdparm's own pause is 3 s"
sb bench "$d" --profile dd --size 8m --engine psync
grep_out "8388608 bytes (8.4 MB, 8.0 MiB) copied, .* s, .* [MG]B/s" out "dd line"
sb bench "$d" --profile sdcard --size 8m --engine psync --json
json "len(d['checks']) == 6 and all(c['measured'] > 0 for c in d['checks'])" "sdcard checks"
json "[c['required'] for c in d['checks']] == [1500, 500, 10, 4000, 2000, 10]" \
	"sdcard thresholds"
sb bench "$d" --profile sustained --size 8m --engine psync --json
json "d['tests'][0]['ios'] == 8 and d['tests'][0]['series'] == []" "sustained writes --size"
sb bench "$d" --profile sustained --size 8m --engine psync --runs 2 --json
json "d['tests'][0]['runs'] == 1 and d['tests'][0]['ios'] == 8" "sustained writes once"
json "'the sustained profile writes once: --runs does not apply' in d['notes']" \
	"sustained says --runs does not apply"

# the footer tells what the custom tests asked for
sb bench "$d" --engine psync --size 4m --test rw=randread,bs=4k,time=0.2s,runs=2
grep_out "(x2) \[Measure: 0.2 s / Interval: 0 s\]" out "footer: the tests' time and runs"
sb bench "$d" --engine psync --size 4m --test rw=randread,bs=4k,time=0.2s,runs=2 \
	--test rw=read,bs=1m,time=0.1s
grep_out "(runs per test) \[Measure: per test" out "footer: tests that differ"

# an existing file is read, never written
head -c 4194304 /dev/urandom >"$tmp/file"
sum1=$(sha256sum <"$tmp/file")
sb bench "$tmp/file" --profile quick --time 0.1s --engine psync --json
expect_rc 0 "existing file"
json "d['target']['kind'] == 'file'" "file kind"
json "all(t['skipped'] == (t['rw'] in ('write', 'randwrite')) for t in d['tests'])" \
	"writes skipped on a file"
json "all(t['ios'] > 0 for t in d['tests'] if not t['skipped'])" "reads measured on a file"
check "the file is unchanged" [ "$sum1" = "$(sha256sum <"$tmp/file")" ]
check "the file is still there" [ -f "$tmp/file" ]

# a file smaller than some block sizes: those tests are skipped, the others run
head -c 65536 /dev/urandom >"$tmp/small"
sb bench "$tmp/small" --profile quick --time 0.1s --engine psync --json
expect_rc 0 "small file"
json "[t['skipped'] for t in d['tests']] == [True, True, False, True, False, True]" \
	"tests larger than a small file are skipped"
json "d['tests'][0]['skip_reason'] == 'the target is smaller than the block size'" \
	"small file skip reason"

finish
