#!/usr/bin/env python3
"""ptyrun.py TMP [ACTION CGROUP PHASE] -- CMD...: CMD with its stderr on a pseudo-terminal (so
that sbcdisk shows its progress line), stdout in TMP/out, what the terminal got in TMP/tty;
exits with CMD's status.

With ACTION CGROUP PHASE: CMD runs in the cgroup v1 group CGROUP (its blkio throttle keeps a
copy running long enough), and once the terminal shows PHASE at some MB/s, ACTION: a signal
name (SIGINT, SIGTERM), or cut:FILE:DEV (FILE, a target's backing file, cut to nothing and
its loop device DEV told, as a disk that is pulled). Then 99 when that was never seen, 98
when CMD took more than 15 s to end after ACTION (a stop must come between two chunks, not at
the end of the copy)."""
import os
import pty
import signal
import subprocess
import sys
import time

sep = sys.argv.index("--")
tmp, opts, cmd = sys.argv[1], sys.argv[2:sep], sys.argv[sep + 1:]
action, cg, phase = opts if opts else (None, None, None)


def enter():
    with open(cg + "/cgroup.procs", "w") as f:
        f.write(str(os.getpid()))


master, slave = pty.openpty()
with open(tmp + "/out", "wb") as out:
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=slave,
                         preexec_fn=enter if cg else None)
os.close(slave)
got, sent = b"", None
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:  # EIO: the child has closed the terminal
        break
    if not chunk:
        break
    got += chunk
    if phase and sent is None and phase.encode() in got and b"MB/s" in got:
        if action.startswith("cut:"):
            _, path, dev = action.split(":", 2)
            os.truncate(path, 0)
            subprocess.run(["losetup", "-c", dev], check=True)
        else:
            p.send_signal(getattr(signal, action))
        sent = time.monotonic()
with open(tmp + "/tty", "wb") as f:
    f.write(got)
rc = p.wait()
if phase:
    if sent is None:
        sys.exit(99)
    if time.monotonic() - sent > 15:
        sys.exit(98)
sys.exit(rc)
