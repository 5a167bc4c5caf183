#!/bin/bash
# run-metrics.sh - `sbcdisk metrics` end to end on a sysroot tree: stdout diffed with
# tests/metrics/golden/CASE.prom (the bench age, which depends on the clock, as AGE), the same
# text written by --textfile into a directory with no temporary file left, and `promtool check
# metrics` on it (Debian's prometheus package; without it the rest is checked, then SKIP).
# usage: run-metrics.sh CASE TREE KMSG [SMARTCTL_FIXTURE|-] [RUNS_JSON|-] [hostile-model]
# UPDATE_GOLDEN=1 rewrites the golden file.
set -u
case_=${1:?} tree=${2:?} kmsg=${3:?} fixture=${4:--} runs=${5:--} hostile=${6:-}
. "$SBCDISK_SRCDIR/tests/golden/lib.sh"
golden=$src/tests/metrics/golden
tree_build "$tree"
[ "$kmsg" != /dev/null ] && kmsg=$src/$kmsg

if [ "$hostile" = hostile-model ]; then
	# a model with a quote, a backslash and a line feed, as udev encodes it
	sed -i 's/^E:ID_MODEL_ENC=.*/E:ID_MODEL_ENC=Evil\\x22Mo\\x5cdel\\x0aline2\\x5c/' \
		"$tmp/root/run/udev/data/b8:0"
fi

env=(SBCDISK_SMARTCTL_SYSROOT=0)
if [ "$fixture" != - ]; then
	mkdir -p "$tmp/bin" "$tmp/stub"
	ln -s "$src/tests/golden/smartctl-stub.sh" "$tmp/bin/smartctl"
	cp "$src/tests/probe/smartctl/$fixture.json" "$tmp/stub/sda.json"
	env=(SBCDISK_SMARTCTL_SYSROOT=1 "PATH=$tmp/bin:$PATH" "SMARTCTL_STUB_DIR=$tmp/stub")
fi
db=$tmp/results.db
if [ "$runs" != - ]; then
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	timeout 20 $run "$bin" history --db "$db" --import "$src/$runs" >/dev/null ||
		{ echo "FAIL: cannot import $runs"; exit 1; }
fi

status=0
# mrun ARGS...: sbcdisk metrics on the tree; stdout in $tmp/out, stderr in $tmp/err, $rc
mrun() {
	# shellcheck disable=SC2086
	env "${env[@]}" timeout 20 $run "$bin" --sysroot "$tmp/root" metrics --kmsg "$kmsg" \
		--db "$db" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error:' \
		"$tmp/err"; then
		echo "FAIL: $case_: sanitizer report"
		cat "$tmp/err"
		status=1
	fi
}

mrun
if [ "$rc" -ne 0 ]; then
	echo "FAIL: $case_: exit $rc"
	cat "$tmp/err"
	exit 1
fi
# the age is now minus the run's start: at least what it was when this was written
if grep -q '^sbcdisk_bench_age_seconds' "$tmp/out"; then
	age=$(sed -n 's/^sbcdisk_bench_age_seconds{[^}]*} \([0-9]*\)$/\1/p' "$tmp/out" | head -1)
	start=$(sed -n 's/^sbcdisk_bench_run_timestamp_seconds{[^}]*} \([0-9]*\)$/\1/p' "$tmp/out" | head -1)
	now=$(date +%s)
	if [ -z "$age" ] || [ -z "$start" ] || [ $((now - start - age)) -lt 0 ] ||
		[ $((now - start - age)) -gt 60 ]; then
		echo "FAIL: $case_: bench age '$age' is not now - start ($now - $start)"
		status=1
	fi
fi
sed 's/^\(sbcdisk_bench_age_seconds{[^}]*}\) [0-9]*$/\1 AGE/' "$tmp/out" >"$tmp/got"
{ [ -s "$tmp/err" ] && echo "# stderr" && sed "s|$tmp|TMP|g" "$tmp/err"; } >>"$tmp/got"
want=$golden/$case_.prom
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
	cp "$tmp/got" "$want"
	echo "updated ${want#"$src"/}"
elif [ ! -f "$want" ]; then
	echo "FAIL: no golden file ${want#"$src"/} (create it with UPDATE_GOLDEN=1, review it)"
	status=1
elif ! diff -u --label "expected $case_.prom" --label actual "$want" "$tmp/got"; then
	echo "FAIL: $case_ differs from its golden file"
	status=1
fi
cp "$tmp/out" "$tmp/stdout.prom"

# --textfile: the same text in DIR/sbcdisk.prom, nothing else left in DIR, stdout empty
mkdir "$tmp/textfile"
echo stale >"$tmp/textfile/sbcdisk.prom"
mrun --textfile "$tmp/textfile"
if [ "$rc" -ne 0 ] || [ -s "$tmp/out" ]; then
	echo "FAIL: $case_: --textfile: exit $rc, stdout '$(head -c 200 "$tmp/out")'"
	cat "$tmp/err"
	status=1
fi
left=$(cd "$tmp/textfile" && ls -A | grep -vx sbcdisk.prom)
if [ -n "$left" ]; then
	echo "FAIL: $case_: --textfile left: $left"
	status=1
fi
if ! diff <(grep -v '^sbcdisk_bench_age_seconds' "$tmp/stdout.prom") \
	<(grep -v '^sbcdisk_bench_age_seconds' "$tmp/textfile/sbcdisk.prom"); then
	echo "FAIL: $case_: --textfile wrote other text than stdout"
	status=1
fi

if [ "$status" -eq 0 ] && [ -n "$run" ]; then
	exit 0 # promtool is a host program: the native run checks the text
fi
promtool=$(command -v promtool)
if [ -z "$promtool" ]; then
	[ "$status" -eq 0 ] && echo "SKIP: promtool not found (Debian package prometheus); the golden text matched" && exit 77
	exit "$status"
fi
if ! "$promtool" check metrics <"$tmp/stdout.prom" >"$tmp/promtool" 2>&1; then
	echo "FAIL: $case_: promtool check metrics:"
	cat "$tmp/promtool"
	status=1
fi
exit "$status"
