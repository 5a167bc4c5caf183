#!/bin/bash
# run-many-ios.sh - a bench run of more than 2^31 I/Os, counted exactly, on a file of 1 TiB:
# the counters, rates and offsets must not wrap where long and size_t have 32 bits (armhf).
# The null engine does no I/O on a virtual clock (20 us per I/O, qd 32: 1.6 M I/Os per
# virtual second), so 1342.2 s make 2147520000 I/Os, 2^31 + 36352. It costs the CPU time of
# the runner alone: about 45 s natively, 6 min under qemu-arm (160 ns an I/O); tools/test-all
# runs it natively, and in the armhf pass with SBCDISK_SLOW32=1.
. "$(dirname "$0")/lib.sh"

# sparse: nothing is read or written, but the region and the offsets in it pass 4 GiB
truncate -s 1T "$tmp/big" || skip "no sparse file of 1 TiB in $tmp"
# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
timeout 1500 $run "$bin" --json bench "$tmp/big" --engine null \
	--test rw=read,bs=512,qd=32,time=1342.2s,size=1t --runs 1 --no-save >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc 0 "a run of 2^31 + 36352 I/Os"
json "d['file_size_bytes'] == 1 << 40" "the file's size is exact: $(grep -o '"file_size_bytes": [0-9]*' "$tmp/out")"
json "d['tests'][0]['ios'] == 2147520000" \
	"the I/Os are counted exactly: $(grep -o '"ios": [0-9]*' "$tmp/out")"
json "d['tests'][0]['bw_bytes_per_s'] == 819200000" \
	"the rate is exact: $(grep -o '"bw_bytes_per_s": [0-9.e+]*' "$tmp/out")"
json "d['tests'][0]['iops'] == 1600000" "the I/O rate is exact"
json "d['tests'][0]['measured_s'] == 1342.2" "the measured time is exact"
finish
