#!/bin/bash
# run-fds.sh - the programs clone runs (mtools, e2fsprogs) get stdin, stdout and stderr, no
# other descriptor of ours (but the image mtools are told to open as /proc/self/fd/N): each
# is wrapped by a script that lists what it was given.
. "$(dirname "$0")/lib.sh"
clone_need

mkdir -p "$tmp/bin" "$tmp/fds"
for t in mcopy mtype mdir minfo e2fsck resize2fs tune2fs mke2fs debugfs dumpe2fs; do
	real=$(command -v "$t") || continue
	# the list made by a child of the wrapper given the same descriptors (ls opens one
	# more, for the directory it reads)
	printf '#!/bin/sh\necho "args: $*" >"%s/%s.$$"\nls -l /proc/self/fd/ >>"%s/%s.$$" 2>&1\nexec "%s" "$@"\n' \
		"$tmp/fds" "$t" "$tmp/fds" "$t" "$real" >"$tmp/bin/$t"
	chmod +x "$tmp/bin/$t"
done
# what a wrapped tool gets from this script's own environment, not from clone: the baseline
"$tmp/bin/mtype" -V >/dev/null 2>&1
mv "$tmp"/fds/mtype.* "$tmp/base"
mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
PATH="$tmp/bin:$PATH" sbc clone "$tmp/src.img" "$tmp/t.img" --apply
expect_rc 0 "a clone with its tools wrapped"
check "the wrapped tools ran" sh -c "ls '$tmp/fds' | grep -q mcopy"
for f in "$tmp"/fds/*; do
	# mtools get the image open, named /proc/self/fd/N@@OFFSET in their arguments
	extra=$(awk 'NR == FNR { base[$9 " " $11]; next }
		FNR == 1 { own = ""; if (match($0, /\/proc\/self\/fd\/[0-9]+@@/))
			own = substr($0, RSTART + 14, RLENGTH - 16) }
		$9 ~ /^[0-9]+$/ && $9 > 2 && $9 != own && $11 !~ /^\/proc\/[0-9]+\/fd$/ &&
		!(($9 " " $11) in base) { print $9 " -> " $11 }' "$tmp/base" "$f")
	if [ -n "$extra" ]; then
		fail "$(basename "$f"): descriptors given to the child: $extra"
	else ok; fi
done
finish
