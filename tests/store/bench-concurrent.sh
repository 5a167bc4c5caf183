#!/bin/bash
# bench-concurrent.sh - 10 processes running 20 benches each in one directory, all saving to
# one database: 200 runs stored under 200 ids, no "already exists" for the test file, and
# no test file left behind. Each bench is a new measurement, however alike the figures.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

procs=10
each=20
dir=$tmp/dir
mkdir "$dir"
# a tmpfs of our own when we may mount one: the benches then share nothing with the system
if [ "$(id -u)" = 0 ] && mkdir "$tmp/mnt" && mount -t tmpfs -o size=64m tmpfs "$tmp/mnt"; then
	at_exit "umount '$tmp/mnt'"
	dir=$tmp/mnt
fi
db=$tmp/results.db

worker() {
	local p=$1 i
	for ((i = 1; i <= each; i++)); do
		${SBCDISK_RUN:-} "$SBCDISK" bench "$dir" --engine null --test rw=read,bs=4k,time=0.01s \
			--runs 1 --size 1m --db "$db" >"$tmp/w$p.$i.out" 2>"$tmp/w$p.$i.err" ||
			echo "worker $p bench $i: exit $?: $(head -2 "$tmp/w$p.$i.err")" >>"$tmp/failed"
	done
}
for ((p = 1; p <= procs; p++)); do
	worker "$p" &
done
wait

[ -s "$tmp/failed" ] && fail "benches failed: $(head -5 "$tmp/failed")"
cat "$tmp"/w*.err >"$tmp/all.err"
grep -q "not saved" "$tmp/all.err" && fail "a run was not saved: $(grep -m3 "not saved" "$tmp/all.err")"
ids=$(grep -o "saved as run [0-9]*" "$tmp/all.err" | sort -u | wc -l)
sb history --db "$db" --json
expect_rc 0
stored=$(grep -c '"started_at"' "$tmp/out")
echo "$((procs * each)) benches: $stored runs stored, $ids distinct ids reported"
[ "$stored" = $((procs * each)) ] || fail "$stored runs stored, expected $((procs * each))"
[ "$ids" = $((procs * each)) ] || fail "$ids distinct ids reported, expected $((procs * each))"
left=$(find "$dir" -name 'sbcdisk-bench*' | wc -l)
[ "$left" = 0 ] || fail "$left test files left behind"
finish
