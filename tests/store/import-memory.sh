#!/bin/bash
# import-memory.sh - an import's peak memory stays within 4x the file's size: a 63 MB and a
# 20 MB file holding one long array under a key nobody reads (at the top, in a run, in a
# test), and a 10 MB file of real runs. Measured with GNU time's maximum resident set size.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

gnutime=/usr/bin/time
[ -x "$gnutime" ] || skip "no GNU time (/usr/bin/time) to measure the peak RSS"

# ASan's shadow memory and quarantine are not the program's: the imports still run there
sanitized=false
ldd "$SBCDISK" 2>/dev/null | grep -q 'lib[at]san\|libubsan' && sanitized=true

python3 - "$tmp" <<'PY'
import json, os, sys
tmp = sys.argv[1]
run = {"started_at": "2026-11-30T10:00:00Z", "profile": "default", "engine": "io_uring",
       "tests": [{"name": "SEQ1M Q8T1", "rw": "read", "bw_bytes_per_s": 36000000}]}
def junk_doc(path, mb, where):
    n = mb * 1000000 // 2
    head = '{"schema": 1, '
    body = "[" + ",".join(["1"] * n) + "]"
    r = json.dumps(run)
    if where == "top":
        doc = head + '"junk": ' + body + ', "runs": [' + r + "]}"
    elif where == "run":
        doc = head + '"runs": [' + r[:-1] + ', "junk": ' + body + "}]}"
    else:
        t = json.dumps(run["tests"][0])
        doc = head + '"runs": [' + r.replace(t, t[:-1] + ', "junk": ' + body + "}") + "]}"
    open(path, "w").write(doc)
junk_doc(f"{tmp}/top63.json", 63, "top")
junk_doc(f"{tmp}/run20.json", 20, "run")
junk_doc(f"{tmp}/test20.json", 20, "test")
# real runs: 1000 of them, 32 tests each, every figure set
tests = [{"name": f"T{k} Q1T1", "rw": ["read", "write", "randread", "randwrite"][k % 4],
          "block_bytes": 4096, "queue_depth": 1, "threads": 1, "runs": 5, "ios": 123456,
          "bw_bytes_per_s": 1000000 + k, "bw_bytes_per_s_min": 900000,
          "bw_bytes_per_s_max": 1100000, "bw_cv": 0.01, "iops": 244.1, "lat_mean_us": 4000.5,
          "lat_p50_us": 3900, "lat_p90_us": 4500, "lat_p99_us": 6000, "lat_p999_us": 9000,
          "lat_max_us": 12000, "cpu_user_s": 0.1, "cpu_sys_s": 0.2} for k in range(32)]
runs = [dict(run, started_at=f"2026-11-{1 + i % 28:02d}T10:{i % 60:02d}:00Z", tests=tests,
             board=f"board {i}") for i in range(1000)]
json.dump({"schema": 1, "runs": runs}, open(f"{tmp}/real.json", "w"), indent=1)
PY

for f in top63 run20 test20 real; do
	size_kb=$(($(stat -c %s "$tmp/$f.json") / 1024))
	$gnutime -f %M -o "$tmp/rss" ${SBCDISK_RUN:-} "$SBCDISK" history --db "$tmp/$f.db" \
		--import "$tmp/$f.json" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	rss_kb=$(tail -1 "$tmp/rss")
	echo "$f: $((size_kb / 1024)) MiB file, peak RSS $((rss_kb / 1024)) MiB ($((rss_kb * 100 / size_kb)) % of the file)"
	expect_rc 0
	$sanitized || [ "$rss_kb" -le $((4 * size_kb)) ] ||
		fail "$f: peak RSS ${rss_kb} KiB > 4 x ${size_kb} KiB"
done
grep -qx "imported 1000 runs as 1-1000" "$tmp/out" || fail "real runs: $(cat "$tmp/out" "$tmp/err")"
sb history --db "$tmp/test20.db" --json
grep -q '"engine": "io_uring"' "$tmp/out" || fail "the run beside the junk was not stored"
if $sanitized && [ "$failures" = 0 ]; then
	echo "skip: a sanitizer build: its peak RSS is not the program's, the bound is not checked"
	exit 77
fi
finish
