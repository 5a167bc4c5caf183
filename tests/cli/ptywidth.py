#!/usr/bin/env python3
"""ptywidth.py COLS OUT -- CMD...: CMD with stdout and stderr on a pseudo-terminal of COLS
columns (set with TIOCSWINSZ, COLUMNS removed from its environment), what the terminal got in
OUT (CR LF as LF, terminal escapes removed); exits with CMD's status. A line longer than COLS
characters is printed to stderr with its length, and the status is then 90."""
import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

cols, out = int(sys.argv[1]), sys.argv[2]
cmd = sys.argv[sys.argv.index("--") + 1:]
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
env = dict(os.environ)
env.pop("COLUMNS", None)
p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env)
os.close(slave)
got = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO: the child has closed the terminal
        break
    if not chunk:
        break
    got += chunk
rc = p.wait()
text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "",
              got.decode("utf-8", "replace").replace("\r\n", "\n"))
with open(out, "w") as f:
    f.write(text)
# a progress line is rewritten in place after a CR: each piece is a line shown
long_ = [l for line in text.split("\n") for l in line.split("\r") if len(l) > cols]
for l in long_:
    sys.stderr.write("%d > %d: %s\n" % (len(l), cols, l))
sys.exit(90 if long_ else rc)
