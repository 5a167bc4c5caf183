#!/bin/bash
# compare.sh - `sbcdisk compare` on the seed figures: the tables the seed authors typed by
# hand (microSD vs SSD of seed 001, four USB drives of seed 003) against golden files.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

db=$tmp/results.db
sb history --db "$db" --import "$SBCDISK_SRCDIR/data/seed-results/seed-runs.json"
expect_rc 0

sb compare --db "$db" 3 4
expect_rc 0
golden compare-seed001.txt
sb compare --db "$db" 6 7 8 9
expect_rc 0
golden compare-seed003.txt
sb compare --db "$db" --json 6 7 8 9
expect_rc 0
golden compare-seed003.json
# USB 2.0 against USB 3.0 (seed 000), and the NVMe drive on two boards (seed 002)
sb compare --db "$db" 1 2
golden compare-seed000.txt
sb compare --db "$db" --device LEGEND
golden compare-seed002.txt

sb compare --db "$db"
expect_rc 2
sb compare --db "$db" 3 x
expect_rc 2
sb compare --db "$db" 3 999
expect_rc 1
grep -q "no run with id 999" "$tmp/err" || fail "missing run: $(cat "$tmp/err")"
sb compare --db "$db" 1 2 3 4 5 6 7 8 9
expect_rc 2
sb compare --db "$tmp/none.db" 1 2
expect_rc 1
finish
