#!/bin/bash
# run-needed.sh - what every command loads at start: libsystemd (and the compression and
# crypto libraries it pulls in) serves only `boot time`, which opens it then; so the program
# does not name it among the libraries it needs, and `boot time` still reads the bus where
# one is (tests/boot/ run it on a private bus).
. "$(dirname "$0")/lib.sh"
command -v readelf >/dev/null || skip "readelf (binutils) is not installed"
readelf -d "$bin" 2>&1 | grep NEEDED >"$tmp/needed"
lacks() { ! grep -Eq "$1" "$tmp/needed"; }
check "the program needs libc (readelf read its dynamic section)" grep -q 'libc\.so' "$tmp/needed"
check "the program does not need libsystemd at start" lacks 'libsystemd'
check "nor gcrypt, lzma, zstd, lz4 or cap" lacks 'libgcrypt|liblzma|libzstd|liblz4|libcap\.'
finish
