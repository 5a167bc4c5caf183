#!/bin/bash
# smartctl-stub.sh - stands in for smartctl first on PATH: records its arguments and replays a
# captured `smartctl --json` output. $SMARTCTL_STUB_DIR/DEV.json answers for /dev/DEV (or
# $SMARTCTL_STUB_DIR/any.json); each call appends its arguments to $SMARTCTL_STUB_DIR/args.
set -u
dir=${SMARTCTL_STUB_DIR:?}
printf '%s\n' "$*" >>"$dir/args"
dev=${!#}
f=$dir/${dev##*/}.json
[ -f "$f" ] || f=$dir/any.json
[ -f "$f" ] || { echo "smartctl stub: no output for $dev" >&2; exit 2; }
cat "$f"
# smartctl's exit status is a bit mask the JSON carries too
st=$(sed -n 's/^ *"exit_status": *\([0-9]*\).*/\1/p' "$f" | head -n 1)
exit "${st:-0}"
