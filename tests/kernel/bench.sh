#!/bin/bash
# bench.sh - case 5 of the kernel suite: bench on real block devices. An NVMe drive and a UAS
# disk that QEMU's I/O throttle holds to a steady speed (8 MB/s, 400 IOPS; a drive's own speed
# holds the same way); in the guest, sbcdisk's sequential and random reads and its random
# writes (--destructive: the disks are scratch) next to fio running the same jobs, twice: the
# better of each tool's two figures within 5 % of fio's.
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
kernel_prepare

truncate -s 256M "$tmp/nvme.img" "$tmp/uas.img"
thr=throttling.bps-total=8000000,throttling.iops-total=400
q_xhci x
q_uas buas x "$tmp/uas.img" "$thr"
q_nvme bnvme "$tmp/nvme.img" '' '' "$thr"

mkdir -p "$tmp/bench"
cat >"$tmp/bench/run.sh" <<'G'
. $K/guest-lib.sh
wait_blocks 2 || exit 1
for s in buas bnvme; do echo "$s=$(blk_serial $s)"; done >$K/serials
. $K/serials
# TEST DEV RW BS QD: sbcdisk's figure, then fio's, of the same job: 5 s measured after 1 s
# of ramp (sbcdisk's own ramp for a 5 s test), which also leaves out the burst QEMU's
# throttle lets through at the start
t() {
	local n=$1 dev=$2 rw=$3 bs=$4 qd=$5
	"$SBCDISK" --json bench /dev/$dev --test rw=$rw,bs=$bs,qd=$qd,threads=1,time=5s,runs=1 \
		--destructive --no-save >$K/$n.sbcdisk.json 2>$K/$n.sbcdisk.err ||
		echo "$n: sbcdisk exit $?"
	fio --name=$n --filename=/dev/$dev --rw=$rw --bs=$bs --iodepth=$qd --direct=1 \
		--ioengine=io_uring --time_based --ramp_time=1 --runtime=5 --output-format=json \
		>$K/$n.fio.json 2>$K/$n.fio.err || echo "$n: fio exit $?"
}
# twice: a loaded host slows either tool's guest now and then, and the better of two runs
# of each is what the device does
for r in 1 2; do
	for d in bnvme buas; do
		t $d-seqread.$r ${!d} read 1m 1
		t $d-randread.$r ${!d} randread 4k 32
		t $d-randwrite.$r ${!d} randwrite 4k 32
	done
done
G
kboot bench || finish
cat "$tmp/bench/out"
check "the guest script ran" [ "$(cat "$tmp/bench/rc")" = 0 ]
for d in bnvme buas; do
	for k in seqread randread randwrite; do
		r=$(python3 - "$tmp/bench/$d-$k" <<'P'
import json, sys
p = sys.argv[1]
try:
    ss = [json.load(open(f"{p}.{r}.sbcdisk.json"))["tests"][0] for r in (1, 2)]
    jj = [json.load(open(f"{p}.{r}.fio.json"))["jobs"][0] for r in (1, 2)]
except (OSError, ValueError, KeyError, IndexError) as e:
    print(f"unreadable: {e}")
    sys.exit(1)
# the better of the two runs of each tool
s = max(ss, key=lambda x: x["bw_bytes_per_s"])
side = max((j["write" if "write" in s["rw"] else "read"] for j in jj), key=lambda x: x["bw_bytes"])
a, b = s["bw_bytes_per_s"], side["bw_bytes"]
print(f"sbcdisk {a / 1e6:.3f} MB/s {s['iops']:.1f} IOPS, fio {b / 1e6:.3f} MB/s "
      f"{side['iops']:.1f} IOPS: {100 * (a / b - 1):+.1f} %")
sys.exit(0 if b > 0 and abs(a / b - 1) <= 0.05 else 1)
P
)
		rc=$?
		echo "$d $k: $r"
		check "$d $k within 5 % of fio: $r" [ $rc -eq 0 ]
	done
done
echo "bench: $(($(date +%s) - start)) s"
finish
