#!/usr/bin/env python3
# expect.py - check "# expect: PATH = JSON" lines of a tree description against the
# `sbcdisk list --json` output: the values a hostile tree must produce (null, never a guess).
"""usage: expect.py DESC JSONFILE
PATH is dotted: the first part is a top-level key (board, root, boot_config) or a device
name found anywhere in the tree of devices, e.g. "sda.usb.speed_mbps = null"."""

import json
import re
import sys


def find_device(devs, name):
    for d in devs or []:
        if d.get("name") == name:
            return d
        hit = find_device(d.get("children"), name)
        if hit is not None:
            return hit
    return None


def lookup(doc, path):
    parts = path.split(".")
    if parts[0] in doc:
        node = doc[parts[0]]
    else:
        node = find_device(doc.get("devices"), parts[0])
        if node is None:
            raise KeyError("no device or key %r" % parts[0])
    for p in parts[1:]:
        if not isinstance(node, dict) or p not in node:
            raise KeyError("no %r in %s" % (p, path))
        node = node[p]
    return node


def main(argv):
    desc, out = argv[1], argv[2]
    try:
        doc = json.loads(open(out, "rb").read().decode("utf-8"))
    except ValueError:
        return 1  # run-hostile.sh has said why already
    failed = 0
    for line in open(desc, encoding="utf-8"):
        m = re.match(r"#\s*expect:\s*(\S+)\s*=\s*(.+?)\s*$", line)
        if not m:
            continue
        want = json.loads(m.group(2))
        try:
            got = lookup(doc, m.group(1))
        except KeyError as e:
            print("FAIL: expect %s: %s" % (m.group(1), e))
            failed = 1
            continue
        if got != want:
            print("FAIL: expect %s = %s, sbcdisk gives %s" % (m.group(1), json.dumps(want),
                                                            json.dumps(got)))
            failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv))
