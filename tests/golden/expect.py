#!/usr/bin/env python3
# expect.py - check "# expect: PATH = JSON" lines of a tree description against the
# `sbcdisk list --json` output: the values a hostile tree must produce (null, never a guess).
"""usage: expect.py DESC JSONFILE
PATH is dotted: the first part is a top-level key (board, root, boot_config) or a device
name found anywhere in the tree of devices, e.g. "sda.usb.speed_mbps = null"; a number
indexes a list ("sda.usb.hubs.0.product"). A description without expect lines fails: every
hostile tree states its expected result, so this check cannot pass by having nothing to do."""

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
        if isinstance(node, list) and p.isdigit() and int(p) < len(node):
            node = node[int(p)]
            continue
        if not isinstance(node, dict) or p not in node:
            raise KeyError("no %r in %s" % (p, path))
        node = node[p]
    return node


def main(argv):
    desc, out = argv[1], argv[2]
    try:
        doc = json.loads(open(out, "rb").read().decode("utf-8"))
    except ValueError as e:
        print("FAIL: expect: the output is not UTF-8 JSON (%s), so no value can be checked" % e)
        return 1
    failed = 0
    checked = 0
    for line in open(desc, encoding="utf-8"):
        m = re.match(r"#\s*expect:\s*(\S+)\s*=\s*(.+?)\s*$", line)
        if not m:
            if re.match(r"#\s*expect\b", line):
                print("FAIL: expect: not 'PATH = JSON': %s" % line.strip())
                failed = 1
            continue
        checked += 1
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
    if not checked:
        print("FAIL: expect: %s has no '# expect: PATH = JSON' line: a hostile tree states "
              "its expected result" % desc)
        failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv))
