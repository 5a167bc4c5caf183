# sysroot_tree.py - mksysroot's tree writer and its generic statements: files, links, FIFOs,
# kernel release, device tree, udev database, mount tables. Device statements: sysroot_devices.py.
import codecs
import os
import re
import shutil
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)  # "\\ " in escape_decode


class DescError(Exception):
    pass


def unescape(text):
    """Description strings use C/Python escapes (\\n, \\t, \\0, \\xff) and become bytes."""
    return codecs.escape_decode(text.encode("utf-8"))[0]


def pad(value, width):
    """Fixed-width fields (SCSI inquiry, NVMe identify) are space padded to the full width."""
    return value[:width].ljust(width, b" ")


def kernfs_relpath(linkdir, target):
    """The link text sysfs writes: up from the link's directory to the deepest common ancestor
    of the link's directory and the target's PARENT, then down. So a link to an ancestor reads
    "../../../0:0:0:0", never "../..", as kernfs_get_target_path() builds it."""
    common = os.path.commonpath([linkdir, os.path.dirname(target)])
    ups = len([c for c in linkdir[len(common):].split("/") if c])
    return "../" * ups + os.path.relpath(target, common)


class Tree:
    def __init__(self, root):
        self.root = root
        self.vars = {}
        self.mounts = []  # (id, target, mountinfo line, /proc/mounts line)
        self.mount_id = 21
        self.last_disk = None  # (path, name, major, minor)
        self.devnum = {}
        self.diskseq = 1
        self.noroot = False
        self.rootfile = None
        self.checked = set()  # host directories known to be real directories
        self.made = set()  # host directories created (a "remove" of a directory resets it)
        self.kver = (6, 6)  # set by "kernel"; decides version-dependent attributes
        self.usbdev = None  # (dir, vid, pid, bcd, class) of the last usb device

    # ---- low-level file system helpers; every path is absolute inside the root ----
    def host(self, path):
        if not path.startswith("/"):
            raise DescError("path must be absolute: %r" % path)
        norm = os.path.normpath(path)
        if norm.startswith("//"):
            norm = norm[1:]
        return self.root + norm

    def safe(self, path):
        """Host path for PATH after checking that no existing directory on the way is a
        symlink: trees contain absolute links (/proc/device-tree) that would lead a write out
        of the root."""
        h = self.host(path)
        d = os.path.dirname(h)
        todo = []
        while d not in self.checked and len(d) > len(self.root):
            todo.append(d)
            d = os.path.dirname(d)
        for d in todo:
            if os.path.islink(d):
                raise DescError("%s goes through the symlink %s" % (path, d[len(self.root):]))
        self.checked.update(d for d in todo if os.path.isdir(d))
        return h

    def mkdir(self, path):
        os.makedirs(self.safe(path + "/x")[:-2], exist_ok=True)

    def write(self, path, data, newline=True, append=False):
        if isinstance(data, str):
            data = data.encode("utf-8")
        if newline:
            data += b"\n"
        h = self.safe(path)
        self.makedirs(os.path.dirname(h))
        if not append:
            try:  # the common case: a new file
                fd = os.open(h, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                return
            except FileExistsError:
                if not os.path.isdir(h) or os.path.islink(h):
                    os.unlink(h)  # replace files, links and FIFOs, never write through them
        with open(h, "ab" if append else "wb") as f:
            f.write(data)

    def makedirs(self, h):
        if h not in self.made:
            os.makedirs(h, exist_ok=True)
            self.made.add(h)

    def attrs(self, dirpath, mapping):
        for k, v in mapping.items():
            if v is not None:
                self.write(dirpath + "/" + k, v)

    def symlink(self, path, target):
        """A link to TARGET, a path inside the root, written relative as sysfs writes it
        (symlink_raw writes any text)."""
        self.symlink_raw(path, kernfs_relpath(os.path.dirname(path), target))

    def symlink_raw(self, path, text):
        h = self.safe(path)
        self.makedirs(os.path.dirname(h))
        if os.path.lexists(h):
            os.unlink(h)
        os.symlink(text, h)

    # ---- kernel objects ----
    def subsystem(self, dev, kind, name):
        """kind 'bus' or 'class'; creates the subsystem link and the listing link."""
        base = "/sys/bus/%s" % name if kind == "bus" else "/sys/class/%s" % name
        self.mkdir(base)
        self.symlink(dev + "/subsystem", base)
        leaf = os.path.basename(dev)
        if kind == "bus":
            self.symlink(base + "/devices/" + leaf, dev)
        else:
            self.symlink(base + "/" + leaf, dev)

    def driver(self, dev, bus, drv):
        if not drv:
            return
        ddir = "/sys/bus/%s/drivers/%s" % (bus, drv)
        self.mkdir(ddir)
        self.symlink(dev + "/driver", ddir)
        self.symlink(ddir + "/" + os.path.basename(dev), dev)

    def uevent(self, dev, pairs):
        lines = ["%s=%s" % (k, v) for k, v in pairs if v is not None]
        self.write(dev + "/uevent", "\n".join(lines), newline=bool(lines))

    def power(self, dev, control="auto"):
        self.attrs(dev + "/power", {"control": control, "runtime_status": "active",
                                    "runtime_active_time": "0",
                                    "runtime_suspended_time": "0"})


def opt_bytes(opts, key, default=None):
    v = opts.get(key)
    if v is None:
        return default
    return unescape(v)


def need(opts, key, what):
    if key not in opts:
        raise DescError("%s needs %s=" % (what, key))
    return opts[key]


def parse_majmin(text):
    m = re.fullmatch(r"(\d+):(\d+)", text)
    if not m:
        raise DescError("bad MAJ:MIN %r" % text)
    return int(m.group(1)), int(m.group(2))


# Statement handlers. Each gets the tree, positional args and key=value options.

def st_set(t, args, opts):
    for k, v in opts.items():
        t.vars[k] = v


def st_noroot(t, args, opts):
    """noroot [file=TEXT]: leave no tree; with file=, a regular file where the root should be."""
    t.noroot = True
    t.rootfile = unescape(opts["file"]) if "file" in opts else None


def st_file(t, args, opts):
    path, content = args[0], unescape(args[1]) if len(args) > 1 else b""
    repeat = int(opts.get("repeat", "1"))
    t.write(path, content * repeat, newline=opts.get("newline", "1") == "1",
            append=opts.get("append", "0") == "1")


def st_mkdir(t, args, opts):
    for p in args:
        t.mkdir(p)


def st_symlink(t, args, opts):
    """symlink PATH TARGET: TARGET is written verbatim (hostile trees use absolute links)."""
    t.symlink_raw(args[0], args[1])


def st_link(t, args, opts):
    """link PATH TARGET: a kernel-style relative link to a path inside the root."""
    t.symlink(args[0], args[1])


def st_fifo(t, args, opts):
    h = t.safe(args[0])
    os.makedirs(os.path.dirname(h), exist_ok=True)
    if os.path.lexists(h):
        os.unlink(h)
    os.mkfifo(h)


def st_remove(t, args, opts):
    t.made.clear()
    t.checked.clear()
    for p in args:
        h = t.safe(p)
        if os.path.islink(h) or os.path.isfile(h):
            os.unlink(h)
        elif os.path.isdir(h):
            shutil.rmtree(h)  # removes links, never follows them


def st_procself(t, args, opts):
    """procself PID: /proc/self becomes the link "PID" to /proc/PID, as procfs shows it (the
    last statement touching /proc/self, since nothing is written through links)."""
    pid = str(int(args[0]))
    src, dst = t.safe("/proc/self"), t.safe("/proc/" + pid)
    os.rename(src, dst)
    t.symlink_raw("/proc/self", pid)
    t.checked.clear()


def st_kernel(t, args, opts):
    release = args[0]
    m = re.match(r"(\d+)\.(\d+)", release)
    t.kver = (int(m.group(1)), int(m.group(2))) if m else (6, 6)
    t.write("/proc/sys/kernel/osrelease", release)
    version = opts.get("version", "#1 SMP PREEMPT")
    builder = opts.get("builder", "(builder@buildhost) (gcc version 12.2.0 (Debian 12.2.0-14))")
    t.write("/proc/version", "Linux version %s %s %s" % (release, builder, version))


def st_cmdline(t, args, opts):
    t.write("/proc/cmdline", args[0])


def st_model(t, args, opts):
    """Device tree: /proc/device-tree is an absolute link to /sys/firmware/devicetree/base,
    exactly as procfs creates it; properties are NUL-terminated strings."""
    base = "/sys/firmware/devicetree/base"
    t.write(base + "/model", unescape(args[0]) + b"\0", newline=False)
    if "compatible" in opts:
        comp = b"".join(c.encode() + b"\0" for c in opts["compatible"].split())
        t.write(base + "/compatible", comp, newline=False)
    t.mkdir("/proc")
    t.symlink_raw("/proc/device-tree", base)


def st_dtprop(t, args, opts):
    """dtprop PATH u32:N | str:TEXT | hex:BYTES (PATH relative to the device-tree base)."""
    path = "/sys/firmware/devicetree/base/" + args[0]
    kind, _, val = args[1].partition(":")
    if kind == "u32":
        data = int(val, 0).to_bytes(4, "big")
    elif kind == "str":
        data = unescape(val) + b"\0"
    elif kind == "hex":
        data = bytes.fromhex(val)
    else:
        raise DescError("dtprop kind must be u32, str or hex")
    t.write(path, data, newline=False)


def st_module(t, args, opts):
    """module NAME param=value ...: /sys/module/NAME/parameters/*."""
    for k, v in opts.items():
        t.write("/sys/module/%s/parameters/%s" % (args[0], k), unescape(v))


def st_udev(t, args, opts):
    """udev MAJ:MIN KEY=VALUE ...: /run/udev/data/bMAJ:MIN as systemd-udevd writes it."""
    majmin = args[0]
    parse_majmin(majmin)
    lines = []
    for link in args[1:]:
        lines.append(b"S:" + unescape(link))
    lines.append(b"I:%d" % int(opts.pop("usec", "2886206")))
    for k, v in opts.items():  # verbatim: udev keeps "\x20" escapes as text in *_ENC
        lines.append(b"E:" + k.encode() + b"=" + v.encode())
    lines += [b"G:systemd", b"Q:systemd", b"V:1"]
    t.write("/run/udev/data/b" + majmin, b"\n".join(lines))


def mangle(path):
    """Octal escapes of mountinfo (fs/proc_namespace.c mangle: space, tab, newline, \\)."""
    out = bytearray()
    for b in unescape(path):
        out += b"\\%03o" % b if b in b" \t\n\\" else bytes([b])
    return bytes(out)


def st_mount(t, args, opts):
    """mount MAJ:MIN SOURCE TARGET FSTYPE [opts=...] [super=...] [root=/]."""
    majmin, source, target, fstype = args[:4]
    parent = 1
    best = -1
    for mid, tgt in ((m[0], m[1]) for m in t.mounts):
        if tgt == target:
            continue
        pre = tgt.rstrip("/") + "/"
        if (target.startswith(pre) or tgt == "/") and len(tgt) > best:
            parent, best = mid, len(tgt)
    mid = t.mount_id
    t.mount_id += 1
    o = opts.get("opts", "rw,relatime").encode()
    line = b"%d %d %s %s %s %s shared:%d - %s %s %s" % (
        mid, parent, majmin.encode(), mangle(opts.get("root", "/")), mangle(target), o,
        mid - 20, fstype.encode(), mangle(source), opts.get("super", "rw").encode())
    t.mounts.append((mid, target, line, b"%s %s %s %s 0 0" % (
        mangle(source), mangle(target), fstype.encode(), o)))
    # rewritten at every mount, so later statements can still damage or remove the files;
    # the root mount first, as in a real mountinfo, the rest in creation order
    ordered = sorted(t.mounts, key=lambda m: (m[1] != "/",))
    t.write("/proc/self/mountinfo", b"\n".join(m[2] for m in ordered))
    t.write("/proc/mounts", b"\n".join(m[3] for m in ordered))


def st_stdmounts(t, args, opts):
    """The pseudo file systems every booted system has (sysfs, proc, devtmpfs, /run ...)."""
    for majmin, src, tgt, fs, o, sup in (
            ("0:21", "sysfs", "/sys", "sysfs", "rw,nosuid,nodev,noexec,relatime", "rw"),
            ("0:22", "proc", "/proc", "proc", "rw,relatime", "rw"),
            ("0:5", "udev", "/dev", "devtmpfs", "rw,nosuid,relatime",
             "rw,size=1800000k,nr_inodes=450000,mode=755"),
            ("0:23", "devpts", "/dev/pts", "devpts", "rw,nosuid,noexec,relatime",
             "rw,gid=5,mode=620,ptmxmode=000"),
            ("0:24", "tmpfs", "/run", "tmpfs", "rw,nosuid,nodev,noexec,relatime",
             "rw,size=390000k,mode=755"),
            ("0:6", "securityfs", "/sys/kernel/security", "securityfs",
             "rw,nosuid,nodev,noexec,relatime", "rw"),
            ("0:25", "tmpfs", "/dev/shm", "tmpfs", "rw,nosuid,nodev", "rw"),
            ("0:26", "cgroup2", "/sys/fs/cgroup", "cgroup2", "rw,nosuid,nodev,noexec,relatime",
             "rw,nsdelegate,memory_recursiveprot"),
            ("0:7", "debugfs", "/sys/kernel/debug", "debugfs",
             "rw,nosuid,nodev,noexec,relatime", "rw")):
        if tgt == "/sys/kernel/debug" and opts.get("debugfs", "1") == "0":
            continue
        st_mount(t, [majmin, src, tgt, fs], {"opts": o, "super": sup})
