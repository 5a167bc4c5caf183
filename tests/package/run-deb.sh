#!/bin/bash
# run-deb.sh - the Debian package end to end: tools/build-debs amd64 (dpkg-buildpackage -us
# -uc -b on a copy of the source, the package inspected, lintian at error level) and, with
# SBCDISK_DEB_CROSS=1, arm64
# (cross-built, its binary run under qemu-aarch64), then in a pristine Debian 12 chroot
# (debootstrap minbase, with man-db and bash-completion): install with apt, `sbcdisk
# --version` (the package version), `sbcdisk list`, a golden sysroot test, `man sbcdisk` and
# Tab completion with the installed files, a result store made as a user would, purge, and
# nothing left but that store.
# Everything, the debootstrap base included (made once, ~1-3 min), stays in BUILDDIR/deb.
# Native pass only (meson defines it neither under a sanitizer nor in a cross build).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
builddir=${SBCDISK_BUILDDIR:?}
work=$builddir/deb
base=$work/bookworm-base
tree=pi4-sd-jms567-usb2
step() { echo "[$SECONDS s] $*"; }

[ "$(id -u)" = 0 ] || skip "not root: debootstrap and chroot need root"
for t in dpkg-buildpackage dh lintian debootstrap chroot python3; do
	command -v "$t" >/dev/null || skip "no '$t' (tools/setup test installs it)"
done
[ -f "$src/debian/changelog" ] || { echo "FAIL: no debian/changelog"; exit 1; }
version=$(cd "$src" && dpkg-parsechangelog -S Version)
mkdir -p "$work" || exit 1

root=
chroot_remove() {
	local m
	[ -n "$root" ] || return
	for m in sys proc; do
		mountpoint -q "$root/$m" && umount -l "$root/$m"
	done
	rm -rf --one-file-system "$root"
}
at_exit chroot_remove
trap 'exit 1' INT TERM

# 1. the package, by tools/build-debs (a copy of the source, dpkg-buildpackage -us -uc -b
# with nocheck; the package's fields, files and ELF header checked; the unpacked binary's
# --version and a golden test; lintian at error level, its warnings printed)
step "building the package $version (tools/build-debs amd64)"
if ! "$src/tools/build-debs" -o "$work/debs" amd64 >"$work/build-debs.log" 2>&1; then
	tail -40 "$work/build-debs.log"
	echo "FAIL: tools/build-debs amd64 (log: $work/build-debs.log)"
	exit 1
fi
grep '^build-debs: amd64: ' "$work/build-debs.log"
ok
deb=$work/debs/amd64/sbcdisk_${version#*:}_amd64.deb
[ -f "$deb" ] || { echo "FAIL: no sbcdisk_${version}_amd64.deb was built"; exit 1; }

# 2. with SBCDISK_DEB_CROSS=1, the arm64 package, cross-built (--host-arch arm64, multiarch
# build dependencies), inspected and its binary run under qemu-aarch64; about a minute of
# CPU, which CI's 30 minutes do not have. All four architectures: tools/build-debs.
if [ "${SBCDISK_DEB_CROSS:-}" != 1 ]; then
	echo "SKIP (part): the arm64 package (SBCDISK_DEB_CROSS=1 builds it; tools/build-debs all four)"
elif [ "$(dpkg --print-architecture)" != amd64 ]; then
	echo "SKIP (part): the arm64 cross package is built on amd64 only"
elif ! command -v aarch64-linux-gnu-gcc >/dev/null || ! command -v qemu-aarch64 >/dev/null ||
	! command -v aarch64-linux-gnu-pkg-config >/dev/null; then
	echo "SKIP (part): no aarch64-linux-gnu-gcc, pkgconf:arm64 or qemu-aarch64 (tools/setup test)"
else
	step "building the arm64 package (tools/build-debs --no-lintian arm64)"
	if "$src/tools/build-debs" -o "$work/debs" --no-lintian arm64 >"$work/build-debs-arm64.log" 2>&1
	then
		ok
		grep '^build-debs: arm64: ' "$work/build-debs-arm64.log"
	else
		tail -40 "$work/build-debs-arm64.log"
		fail "tools/build-debs arm64 (log: $work/build-debs-arm64.log)"
	fi
fi

# 3. a pristine Debian 12: debootstrap once into the build dir, a throw-away copy per run;
# with man-db and bash-completion, which a user who reads `man` and presses Tab has (minbase
# has neither). .complete holds the list: a base made with another is made again.
include=man-db,bash-completion
if [ "$(cat "$base/.complete" 2>/dev/null)" != "$include" ]; then
	rm -rf --one-file-system "$base"
	step "debootstrap bookworm (minbase)"
	mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
	[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $3 ~ /^bookworm/ { print $2; exit }' \
		/etc/apt/sources.list 2>/dev/null)
	[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
	rm -rf --one-file-system "$base.tmp"
	if ! timeout 1200 debootstrap --variant=minbase --include=$include bookworm "$base.tmp" \
		"$mirror" \
		>"$work/debootstrap.log" 2>&1; then
		tail -5 "$work/debootstrap.log"
		rm -rf --one-file-system "$base.tmp"
		skip "cannot make a Debian 12 chroot: debootstrap from $mirror failed" \
			"(log: $work/debootstrap.log)"
	fi
	echo "$include" >"$base.tmp/.complete" && mv "$base.tmp" "$base" || exit 1
fi
root=$(mktemp -d "$work/root.XXXXXX") || exit 1
cp -a "$base/." "$root/" || exit 1
rm -f "$root/.complete"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
mount -t proc proc "$root/proc" && mount -t sysfs sysfs "$root/sys" || exit 1
# in_root [-t SECONDS] COMMAND...: run in the chroot (bounded: 120 s unless told)
in_root() {
	local t=120
	[ "$1" = -t ] && { t=$2; shift 2; }
	timeout "$t" chroot "$root" /usr/bin/env -i HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

# what is on the system, but for what apt, dpkg and the kernel keep changing
snapshot() {
	(cd "$root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o \
		-path ./run -o -path ./tmp -o -path ./var/log -o -path ./var/cache \
		-o -path ./var/lib/apt -o -path ./var/lib/dpkg \) -prune -o -print) | sort
}
snapshot >"$work/before"

# 4. install with apt (which brings the libraries), run, use
step "apt-get install"
cp "$deb" "$root/tmp/" || exit 1
if ! in_root -t 900 apt-get install -y -q --no-install-recommends \
	"/tmp/$(basename "$deb")" >"$work/install.log" 2>&1; then
	if grep -q -e 'Temporary failure resolving' -e 'Could not connect' -e 'Unable to fetch' \
		"$work/install.log"; then
		skip "the chroot's apt reaches no mirror (log: $work/install.log)"
	fi
	tail -20 "$work/install.log"
	echo "FAIL: apt-get install of the package in the chroot"
	exit 1
fi
step "installed"
out=$(in_root sbcdisk --version 2>&1)
check "sbcdisk --version is 'sbcdisk $version' (got '$out')" [ "$out" = "sbcdisk $version" ]
in_root sbcdisk list >"$work/list.out" 2>"$work/list.err"
rc=$?
check "sbcdisk list exits 0 (got $rc: $(head -2 "$work/list.err"))" [ "$rc" -eq 0 ]
check "sbcdisk list prints the device table" grep -q '^NAME ' "$work/list.out"

# the golden sysroot test, with the installed program
python3 "$src/tools/mksysroot" "$src/tests/sysroots/$tree.desc" "$root/tmp/tree" >/dev/null ||
	exit 1
for mode in txt json; do
	args=(list)
	[ "$mode" = json ] && args+=(--json)
	in_root sbcdisk --sysroot /tmp/tree "${args[@]}" 2>&1 | sed "s|/tmp/tree|SYSROOT|g" \
		>"$work/golden.$mode"
	if diff -u --label "expected $tree.$mode" --label "installed sbcdisk" \
		"$src/tests/golden/list/$tree.$mode" "$work/golden.$mode"; then ok; else
		fail "the installed sbcdisk differs from the golden file $tree.$mode"
	fi
done

# `man sbcdisk` and Tab, as a user of the chroot meets them
out=$(in_root env MANWIDTH=200 man -P cat sbcdisk 2>&1)
check "man sbcdisk shows the page: $(head -3 <<<"$out" | tr '\n' ' ')" \
	grep -q 'storage inspector, benchmark and doctor for single-board computers' <<<"$out"
check "man sbcdisk has the EXIT STATUS section" grep -q '^EXIT STATUS' <<<"$out"
# bash-completion loads /usr/share/bash-completion/completions/sbcdisk on the first Tab (its
# _completion_loader); then `sbcdisk be<Tab>` and `sbcdisk <Tab>`
tab() { # WORD...: COMPREPLY for the last word, after bash_completion is sourced
	in_root bash -c '. /usr/share/bash-completion/bash_completion
		_completion_loader sbcdisk
		complete -p sbcdisk || exit 1
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_sbcdisk sbcdisk "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		echo "${COMPREPLY[*]}"' tab "$@" 2>&1
}
out=$(tab sbcdisk be)
check "bash completion is loaded for sbcdisk (got '$(head -1 <<<"$out")')" \
	[ "$(head -1 <<<"$out")" = "complete -F _sbcdisk sbcdisk" ]
check "sbcdisk be<Tab> gives bench (got '$(tail -1 <<<"$out")')" [ "$(tail -1 <<<"$out")" = bench ]
out=$(tab sbcdisk "" | tail -1)
check "sbcdisk <Tab> offers the commands (got '$out')" \
	[ "$out" = "$(in_root sbcdisk __complete commands | tr '\n' ' ' | sed 's/ $//')" ]

# a result store, made as a user would (root: /var/lib/sbcdisk/results.db)
cp "$src/data/seed-results/seed-runs.json" "$root/tmp/" || exit 1
out=$(in_root sbcdisk history --import /tmp/seed-runs.json 2>&1)
check "history --import in the chroot (got '$out')" [ "$out" = "imported 18 runs as 1-18" ]
check "the result store is /var/lib/sbcdisk/results.db" [ -f "$root/var/lib/sbcdisk/results.db" ]

# 5. purge: nothing left but the user's result store
step "apt-get purge"
if ! in_root -t 600 apt-get purge -y -q --autoremove sbcdisk >"$work/purge.log" 2>&1; then
	tail -20 "$work/purge.log"
	fail "apt-get purge sbcdisk"
fi
check "dpkg knows no sbcdisk after the purge" \
	sh -c "! chroot '$root' dpkg-query -W -f='\${Status}' sbcdisk 2>/dev/null | grep -q ."
snapshot >"$work/after"
comm -13 "$work/before" "$work/after" | grep -vx -e ./var/lib/sbcdisk \
	-e ./var/lib/sbcdisk/results.db >"$work/left"
comm -23 "$work/before" "$work/after" >"$work/gone"
check "the purge left nothing but the result store: $(tr '\n' ' ' <"$work/left")" \
	[ ! -s "$work/left" ]
check "the purge took nothing that was there before: $(tr '\n' ' ' <"$work/gone")" \
	[ ! -s "$work/gone" ]
check "the user's result store is kept" [ -f "$root/var/lib/sbcdisk/results.db" ]

step "done"
finish
