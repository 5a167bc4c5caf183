#!/bin/bash
# run-health.sh - drive health end to end: a captured `smartctl --json` output replayed by a stub
# smartctl first on PATH, on a sysroot tree, through `list -o +HEALTH,WEAR,TEMP`, the health
# objects of `list --json`, `doctor` and the health check; diffed with tests/golden/health/.
# usage: run-health.sh CASE TREE FIXTURE DEV DTYPE   (DTYPE: the -d type smartctl must get)
#        run-health.sh CASE TREE missing              (no smartctl on PATH)
# UPDATE_GOLDEN=1 rewrites the goldens.
set -u
case_=${1:?} tree=${2:?} fixture=${3:?} dev=${4:-} dtype=${5:-}
. "$(dirname "$0")/lib.sh"
golden=$src/tests/golden/health
tree_build "$tree"

mkdir -p "$tmp/bin" "$tmp/stub"
if [ "$fixture" = missing ]; then
	# PATH without smartctl: only what the tools below need
	for t in timeout ${run%% *}; do ln -s "$(command -v "$t")" "$tmp/bin/${t##*/}"; done
	path=$tmp/bin
else
	ln -s "$src/tests/golden/smartctl-stub.sh" "$tmp/bin/smartctl"
	cp "$src/tests/probe/smartctl/$fixture.json" "$tmp/stub/$dev.json"
	path=$tmp/bin:$PATH
fi

status=0
# hrun NAME ARGS...: run sbcdisk with the stub, keep stdout (and stderr) as NAME
hrun() {
	local name=$1
	shift
	: >"$tmp/stub/args"
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	PATH=$path SMARTCTL_STUB_DIR=$tmp/stub SBCDISK_SMARTCTL_SYSROOT=1 timeout 20 $run "$bin" \
		--sysroot "$tmp/root" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error:' \
		"$tmp/err"; then
		echo "FAIL: $case_ $name: sanitizer report"
		cat "$tmp/err"
		status=1
	fi
	{
		echo "# exit $rc"
		cat "$tmp/out"
		[ -s "$tmp/err" ] && echo "# stderr" && cat "$tmp/err"
		if [ -s "$tmp/stub/args" ]; then
			echo "# smartctl called with"
			cat "$tmp/stub/args"
		fi
	} | sed "s|$tmp/root|SYSROOT|g" >"$tmp/$name"
}

# compare NAME: $tmp/NAME against tests/golden/health/CASE.NAME (UPDATE_GOLDEN=1 rewrites)
compare() {
	local want=$golden/$case_.$1
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		mkdir -p "$golden"
		cp "$tmp/$1" "$want"
		echo "updated ${want#"$src"/}"
	elif [ ! -f "$want" ]; then
		echo "FAIL: no golden file ${want#"$src"/} (create it with UPDATE_GOLDEN=1, review it)"
		status=1
	elif ! diff -u --label "expected $case_.$1" --label actual "$want" "$tmp/$1"; then
		echo "FAIL: $case_ $1 differs from its golden file"
		status=1
	fi
}

hrun list.txt list -o +HEALTH,WEAR,TEMP
compare list.txt
# the stub must have been asked with the -d type chosen from the attachment
if [ -n "$dtype" ] && ! grep -qx -- "--json -a -d $dtype $tmp/root/dev/$dev" "$tmp/stub/args"; then
	echo "FAIL: $case_: smartctl not called with '-d $dtype' for /dev/$dev:"
	cat "$tmp/stub/args"
	status=1
fi
# list --json: only the health objects (the rest is the list goldens' business)
hrun list.json list --json
python3 - "$tmp/list.json" >"$tmp/health.json" <<'PY' || status=1
import json, sys
text = open(sys.argv[1]).read()
head, _, rest = text.partition("\n")
body = rest.split("\n# ")[0]
doc = json.loads(body)
print(head)
for d in doc["devices"]:
    print(d["name"], json.dumps(d.get("health", "ABSENT"), indent=2, sort_keys=False))
PY
cp "$tmp/health.json" "$tmp/list.json"
compare list.json
hrun doctor.txt doctor --kmsg /dev/null
compare doctor.txt
hrun check.txt
compare check.txt
exit "$status"
