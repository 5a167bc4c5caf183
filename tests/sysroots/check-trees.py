#!/usr/bin/env python3
# check-trees.py - the generated sysroot trees keep the kernel's rules: relative links that
# stay inside the root, /sys/block, /sys/class/block and /sys/dev/block agreeing, attribute
# formats and padding as the kernel prints them, mount tables that parse.
"""usage: check-trees.py [TREE...]   (default: every tests/sysroots/*.desc)
Hostile trees (hostile-*) are only built: breaking these rules is their purpose."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MKSYSROOT = os.path.join(HERE, "..", "..", "tools", "mksysroot")
ABSOLUTE_OK = {"/proc/device-tree"}  # procfs makes this one absolute


def read(root, path):
    with open(root + path, "rb") as f:
        return f.read()


def check_links(root, errs):
    for dirpath, dirs, files in os.walk(root + "/sys"):
        for name in dirs + files:
            p = os.path.join(dirpath, name)
            if not os.path.islink(p):
                continue
            text = os.readlink(p)
            rel = p[len(root):]
            if text.startswith("/"):
                errs.append("%s: absolute link %s" % (rel, text))
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(p), text))
            if not (target + "/").startswith(root + "/"):
                errs.append("%s: link leaves the root (%s)" % (rel, text))
            elif not os.path.exists(target):
                errs.append("%s: dangling link %s" % (rel, text))
            elif not os.path.isdir(target):
                # every sysfs link is a kobject's: it leads to a directory
                errs.append("%s: link to something that is not a directory (%s)" % (rel, text))
    for link in ABSOLUTE_OK:
        if os.path.lexists(root + link) and not os.readlink(root + link).startswith("/"):
            errs.append("%s: procfs makes it absolute" % link)


def check_block(root, errs):
    sysblock = root + "/sys/block"
    for name in sorted(os.listdir(sysblock)):
        d = os.path.realpath(os.path.join(sysblock, name))
        rel = "/sys/block/" + name
        dev = read(root, d[len(root):] + "/dev").decode().strip()
        if not re.fullmatch(r"\d+:\d+", dev):
            errs.append("%s/dev: %r" % (rel, dev))
            continue
        for alias in ("/sys/class/block/" + name, "/sys/dev/block/" + dev):
            if os.path.realpath(root + alias) != d:
                errs.append("%s does not lead to %s" % (alias, d[len(root):]))
        uev = dict(line.split("=", 1) for line in
                   read(root, d[len(root):] + "/uevent").decode().split("\n") if "=" in line)
        if "%s:%s" % (uev.get("MAJOR"), uev.get("MINOR")) != dev or uev.get("DEVNAME") != name \
                or uev.get("DEVTYPE") != "disk":
            errs.append("%s/uevent disagrees with dev %s: %r" % (rel, dev, uev))
        size = read(root, d[len(root):] + "/size").decode()
        if not re.fullmatch(r"\d+\n", size):
            errs.append("%s/size: %r" % (rel, size))
        for sub in os.listdir(d):
            p = os.path.join(d, sub)
            if os.path.isfile(os.path.join(p, "partition")) and not os.path.islink(p):
                pdev = read(root, p[len(root):] + "/dev").decode().strip()
                if os.path.realpath(root + "/sys/dev/block/" + pdev) != p:
                    errs.append("%s/%s: /sys/dev/block/%s does not lead here" %
                                (rel, sub, pdev))
                if os.path.realpath(root + "/sys/class/block/" + sub) != p:
                    errs.append("%s/%s: /sys/class/block/%s does not lead here" %
                                (rel, sub, sub))


FORMATS = [  # (file name, parent dir test, exact regex of the whole file)
    ("vendor", "scsi", rb"[ -~]{8}\n"),
    ("model", "scsi", rb"[ -~]{16}\n"),
    ("rev", "scsi", rb"[ -~]{4}\n"),
    ("model", "nvme", rb"[ -~]{40}\n"),
    ("serial", "nvme", rb"[ -~]{20}\n"),
    ("firmware_rev", "nvme", rb"[ -~]{8}\n"),
    ("version", "usb", rb"[ 1-9][0-9]\.[0-9]{2}\n"),
    ("speed", "usb", rb"(1\.5|12|480|5000|10000|20000)\n"),
    ("idVendor", "usb", rb"[0-9a-f]{4}\n"),
    ("idProduct", "usb", rb"[0-9a-f]{4}\n"),
    ("bMaxPower", "usb", rb"\d+mA\n"),
    ("current_link_speed", "pci", rb"(\d+\.\d GT/s PCIe|\d+(\.5)? GT/s)\n"),
    ("max_link_speed", "pci", rb"(\d+\.\d GT/s PCIe|\d+(\.5)? GT/s)\n"),
    ("current_link_width", "pci", rb"\d+\n"),
    ("cid", "mmc", rb"[0-9a-f]{32}\n"),
    ("csd", "mmc", rb"[0-9a-f]{32}\n"),
    ("ssr", "mmc", rb"[0-9a-f]{128}\n"),
    ("manfid", "mmc", rb"0x[0-9a-f]{6}\n"),
    ("oemid", "mmc", rb"0x[0-9a-f]{4}\n"),
    ("serial", "mmc", rb"0x[0-9a-f]{8}\n"),
    ("date", "mmc", rb"(0[1-9]|1[0-2])/20\d\d\n"),
]


def subsystem_of(d):
    link = os.path.join(d, "subsystem")
    return os.path.basename(os.readlink(link)) if os.path.islink(link) else ""


def check_formats(root, release, errs):
    old_kernel = tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", release).groups()) < (5, 7) \
        if release else False
    for dirpath, dirs, files in os.walk(root + "/sys/devices"):
        sub = subsystem_of(dirpath)
        kind = {"scsi": "scsi", "nvme": "nvme", "usb": "usb", "pci": "pci", "mmc": "mmc"}.get(sub)
        if kind == "scsi" and not os.path.exists(os.path.join(dirpath, "vendor")):
            continue
        if kind == "usb" and re.search(r":\d+\.\d+$", dirpath):
            continue  # interfaces
        for fname, want, rx in FORMATS:
            if want != kind or fname not in files:
                continue
            data = read(root, os.path.join(dirpath, fname)[len(root):])
            if not re.fullmatch(rx, data):
                errs.append("%s/%s: %r" % (dirpath[len(root):], fname, data[:80]))
            if fname.endswith("link_speed") and (b"PCIe" in data) == old_kernel:
                errs.append("%s/%s: %r is not the form kernel %s prints" %
                            (dirpath[len(root):], fname, data, release))
        if kind == "mmc" and "cid" in files and read(root, dirpath[len(root):] + "/type") == \
                b"SD\n":
            cid = int(read(root, dirpath[len(root):] + "/cid"), 16)
            serial = int(read(root, dirpath[len(root):] + "/serial"), 16)
            manfid = int(read(root, dirpath[len(root):] + "/manfid"), 16)
            date = "%02d/%04d" % ((cid >> 8) & 0xf, 2000 + ((cid >> 12) & 0xff))
            if (cid >> 24) & 0xffffffff != serial or cid >> 120 != manfid or \
                    read(root, dirpath[len(root):] + "/date").decode().strip() != date:
                errs.append("%s: cid does not agree with serial/manfid/date" %
                            dirpath[len(root):])


def check_mounts(root, errs):
    path = root + "/proc/self/mountinfo"
    if not os.path.exists(path):
        return
    ids = set()
    for no, line in enumerate(read(root, "/proc/self/mountinfo").split(b"\n"), 1):
        if not line:
            continue
        f = line.split(b" ")
        if b"-" not in f or f.index(b"-") < 6 or len(f) - f.index(b"-") != 4:
            errs.append("mountinfo:%d: %r" % (no, line))
            continue
        mid, parent, majmin = int(f[0]), int(f[1]), f[2].decode()
        if parent != 1 and parent not in ids and parent != mid:
            errs.append("mountinfo:%d: parent %d comes later or not at all" % (no, parent))
        ids.add(mid)
        if not majmin.startswith("0:") and not os.path.lexists(root + "/sys/dev/block/" +
                                                                majmin):
            errs.append("mountinfo:%d: %s is no block device of the tree" % (no, majmin))


def check_tree(name, tmp):
    root = os.path.join(tmp, name)
    p = subprocess.run([sys.executable, MKSYSROOT, os.path.join(HERE, name + ".desc"), root],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return ["mksysroot failed: " + p.stderr.strip()]
    if name.startswith("hostile-"):
        return []
    errs = []
    release = ""
    if os.path.exists(root + "/proc/sys/kernel/osrelease"):
        release = read(root, "/proc/sys/kernel/osrelease").decode().strip()
    else:
        errs.append("no /proc/sys/kernel/osrelease")
    first = open(os.path.join(HERE, name + ".desc"), encoding="utf-8").readline()
    if not first.startswith("#"):
        errs.append("the description does not start with a comment naming what it mirrors")
    if os.path.exists(root + "/sys/firmware/devicetree/base/model") and \
            not read(root, "/sys/firmware/devicetree/base/model").endswith(b"\0"):
        errs.append("device-tree model is not NUL-terminated")
    check_links(root, errs)
    check_block(root, errs)
    check_formats(root, release, errs)
    check_mounts(root, errs)
    shutil.rmtree(root)
    return errs


def main(argv):
    names = argv[1:] or sorted(f[:-5] for f in os.listdir(HERE) if f.endswith(".desc"))
    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    failed = 0
    with tempfile.TemporaryDirectory(prefix="sbcdisk-trees.", dir=base) as tmp:
        for name in names:
            errs = check_tree(name, tmp)
            print("%s: %s" % (name, "ok" if not errs else "%d problem(s)" % len(errs)))
            for e in errs[:40]:
                print("  " + e)
            failed += bool(errs)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
