#!/usr/bin/env python3
"""mkruns.py OUT PROFILE TREE:NAME:SEQ:RND... - a runs document (history --import) with one run
per argument: the drive NAME as `sbcdisk --sysroot TREE list --json` shows it, measured at SEQ
MB/s (SEQ1M Q8T1 read) and RND MB/s (RND4K Q1T1 randread), started 2026-11-20T10:00:00Z."""
import json, os, subprocess, sys

run = os.environ.get("SBCDISK_RUN", "").split()
out, profile, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
runs = []
for spec in specs:
    tree, name, seq, rnd = spec.rsplit(":", 3)
    lst = json.loads(subprocess.run(run + [os.environ["SBCDISK"], "--sysroot", tree, "list",
                                           "--json"], capture_output=True, check=True).stdout)
    dev = next(d for d in lst["devices"] if d["name"] == name)
    runs.append({"started_at": "2026-11-20T10:00:00Z", "profile": profile,
                 "board": lst["board"]["model"], "device": dev, "tests": [
                     {"name": "SEQ1M Q8T1", "rw": "read", "block_bytes": 1048576,
                      "queue_depth": 8, "bw_bytes_per_s": float(seq) * 1e6},
                     {"name": "RND4K Q1T1", "rw": "randread", "block_bytes": 4096,
                      "queue_depth": 1, "bw_bytes_per_s": float(rnd) * 1e6}]})
json.dump({"schema": 1, "runs": runs}, open(out, "w"))
