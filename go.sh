#!/bin/sh
# ./go.sh run   - install what is missing, build, then the health check and `sbcdisk list`
# ./go.sh test  - install what is missing, build, then the whole test suite
# Run as root on Debian 12 or Raspberry Pi OS (bookworm).
set -eu
cd "$(dirname "$0")"
case "${1:-}" in
run)
	tools/setup run
	build/sbcdisk || [ $? -eq 3 ]
	echo
	exec build/sbcdisk list
	;;
test)
	SBCDISK_CROSS_LATER=1 tools/setup test
	exec tools/test-all
	;;
*)
	echo "usage: ./go.sh run | ./go.sh test" >&2
	exit 2
	;;
esac
