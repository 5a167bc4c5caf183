#!/usr/bin/env python3
"""ptyrun.py TMP [ACTION CGROUP PHASE] -- CMD...: CMD with its stderr on a pseudo-terminal (so
that sbcdisk shows its progress line), stdout in TMP/out, what the terminal got in TMP/tty;
exits with CMD's status.

With ACTION CGROUP PHASE: CMD runs in the cgroup v1 group CGROUP (its blkio throttle keeps a
copy running long enough), and once the terminal shows PHASE at some MB/s, ACTION: a signal
name (SIGINT, SIGTERM), or cut:FILE:DEV (FILE, a target's backing file, cut to nothing and
its loop device DEV told, as a disk that is pulled). Then 99 when that was never seen, 98
when CMD took more than 15 s to end after ACTION (a stop must come between two chunks, not at
the end of the copy).

With --cols N: stdout too on the terminal, which is N columns wide (TIOCSWINSZ; COLUMNS
removed from CMD's environment); TMP/tty holds what it showed as text (CR LF as LF, terminal
escapes removed); a line longer than N is printed to stderr and the status is then 90."""
import fcntl
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import time

sep = sys.argv.index("--")
tmp, opts, cmd = sys.argv[1], sys.argv[2:sep], sys.argv[sep + 1:]
cols = int(opts[1]) if opts[:1] == ["--cols"] else None
action, cg, phase = opts if opts and cols is None else (None, None, None)


def enter():
    with open(cg + "/cgroup.procs", "w") as f:
        f.write(str(os.getpid()))


master, slave = pty.openpty()
env = dict(os.environ)
if cols:
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
    env.pop("COLUMNS", None)
with open(tmp + "/out", "wb") as out:
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=slave if cols else out,
                         stderr=slave, env=env, preexec_fn=enter if cg else None)
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
if cols:
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "",
                  got.decode("utf-8", "replace").replace("\r\n", "\n"))
    with open(tmp + "/tty", "w") as f:
        f.write(text)
    # a progress line is rewritten in place after a CR: each piece is a line shown
    long_ = [l for line in text.split("\n") for l in line.split("\r") if len(l) > cols]
    for l in long_:
        sys.stderr.write("%d > %d: %s\n" % (len(l), cols, l))
    sys.exit(90 if long_ else rc)
if phase:
    if sent is None:
        sys.exit(99)
    if time.monotonic() - sent > 15:
        sys.exit(98)
sys.exit(rc)
