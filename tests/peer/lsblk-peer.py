#!/usr/bin/env python3
# lsblk-peer.py - `sbcdisk list --json` on util-linux's lsblk test dumps must agree with lsblk's
# expected outputs on NAME, MAJ:MIN, RM, SIZE, TYPE, MOUNTPOINT(S), MODEL, VENDOR, REV, RO (and
# FSTYPE, ROTA, LOG-SEC, PHY-SEC, RA where a sub-test shows them).
"""usage: lsblk-peer.py [DUMP...]   (default: every tests/peer/lsblk/*.tar.xz)

Like util-linux's tests/ts/lsblk/lsblk: each dump is extracted, its *.cols files say which
columns each sub-test shows, tests/peer/lsblk/expected/lsblk-DUMP-SUB holds lsblk's output.
sbcdisk runs once per dump as `sbcdisk --sysroot DUMP list --json` (the same sysroot lsblk
reads: sys/, proc/self/mountinfo, dev/NAME udev property files). Rows are matched by
MAJ:MIN; the parent/child edges of the two trees and the sets of devices must be equal too.
Every difference is printed with lsblk's line and sbcdisk's values. Exit 0 or 1."""

import json
import os
import subprocess
import sys
import tarfile
import tempfile

# the columns compared, with how sbcdisk's JSON record renders in lsblk's text form
# (the issue asks for the first twelve; ROTA, LOG-SEC, PHY-SEC and RA agree as well. SCHED is
# left out on purpose: a bio-based dm device's queue/scheduler reads a bare "none", which lsblk
# shows as nothing, as it shows only a bracketed choice, and sbcdisk as "none".)
CHECKED = ("NAME", "MAJ:MIN", "RM", "RO", "SIZE", "TYPE", "MOUNTPOINT", "MOUNTPOINTS",
           "MODEL", "VENDOR", "REV", "FSTYPE", "ROTA", "LOG-SEC", "PHY-SEC", "RA")
QUEUE = {"LOG-SEC": "logical_block_bytes", "PHY-SEC": "physical_block_bytes",
         "RA": "read_ahead_kib"}


def lsblk_size(n):
    """util-linux size_to_human_string() without SIZE_SUFFIX_SPACE/3LETTER/DECIMAL_2DIGITS,
    in the C locale: 1024-based, one decimal rounded, "1024M" rather than "1G" below 1 GiB."""
    exp = 0
    for shift in range(10, 70, 10):
        if n < (1 << shift):
            exp = shift - 10
            break
    else:
        exp = 60
    letters = "BKMGTPE"
    suffix = letters[exp // 10] if exp else "B"
    dec = n >> exp if exp else n
    frac = n % (1 << exp) if exp else 0
    if frac:
        frac = (frac // (1 << (exp - 10)) + 50) // 100
        if frac == 10:
            dec, frac = dec + 1, 0
    return "%d.%d%s" % (dec, frac, suffix) if frac else "%d%s" % (dec, suffix)


def render(rec, col):
    """sbcdisk's value of COL as lsblk prints it (trimmed)."""
    if col == "NAME":
        return rec["name"] or ""
    if col == "MAJ:MIN":
        return rec["maj_min"] or ""
    if col in ("RM", "RO", "ROTA"):
        v = rec[{"RM": "removable", "RO": "read_only", "ROTA": "rotational"}[col]]
        return "" if v is None else ("1" if v else "0")
    if col in QUEUE:
        v = (rec.get("queue") or {}).get(QUEUE[col])
        return "" if v is None else str(v)
    if col == "SIZE":
        return "" if rec["size_bytes"] is None else lsblk_size(rec["size_bytes"])
    if col == "TYPE":
        return rec["type"] or ""
    if col == "MOUNTPOINT":
        return rec["mountpoints"][0] if rec["mountpoints"] else ""
    if col == "MOUNTPOINTS":
        return "\n".join(rec["mountpoints"] or [])
    key = {"MODEL": "model", "VENDOR": "vendor", "REV": "rev", "FSTYPE": "fstype"}[col]
    return (rec[key] or "").strip()


def split_table(lines):
    """Columns of an lsblk text table. The header gives the columns' order and rough places;
    a cell may run past its header word on either side (alignment), so the cut between two
    columns is any character position, between the two header words, that is a blank in
    every line. With trimmed values all such cuts give the same cells."""
    header = lines[0]
    words, pos = [], 0
    for w in header.split():
        start = header.index(w, pos)
        words.append((w, start, start + len(w)))
        pos = start + len(w)
    width = max(len(line) for line in lines)
    padded = [line.ljust(width) for line in lines]
    cuts = []
    for (_, _, end), (_, nstart, _) in zip(words, words[1:]):
        blank = [p for p in range(end, nstart) if all(line[p] == " " for line in padded)]
        if not blank:
            raise ValueError("no column boundary between header words in %r" % header)
        cuts.append(blank[0])
    rows = []
    for line in padded[1:]:
        bounds = [0] + cuts + [width]
        cells = [line[a:b].strip() for a, b in zip(bounds, bounds[1:])]
        rows.append(dict(zip((w for w, _, _ in words), cells)))
    return [w for w, _, _ in words], rows


def tree_name(cell):
    """Strip lsblk's ASCII tree prefix ("|-", "`-", "  ") and return (depth, name)."""
    depth = 0
    while cell[:2] in ("|-", "`-", "| ", "  "):
        cell, depth = cell[2:], depth + 1
    return depth, cell


def safe_extract(tarball, dest):
    with tarfile.open(tarball, "r:xz") as tar:
        for m in tar.getmembers():
            parts = m.name.split("/")
            if m.name.startswith("/") or ".." in parts or not (m.isfile() or m.isdir() or
                                                               m.issym()):
                raise ValueError("%s: refusing member %r" % (tarball, m.name))
        if hasattr(tarfile, "fully_trusted_filter"):  # checked above; newer Pythons ask
            tar.extractall(dest, filter="fully_trusted")
        else:
            tar.extractall(dest)


def our_rows(doc):
    """(records by MAJ:MIN, set of (parent MAJ:MIN, child MAJ:MIN), problems)."""
    recs, edges, problems = {}, set(), []

    def walk(devs, parent):
        for d in devs:
            mm = d.get("maj_min")
            if mm in recs and {k: v for k, v in recs[mm].items() if k != "children"} != \
                    {k: v for k, v in d.items() if k != "children"}:
                problems.append("sbcdisk shows %s (%s) twice with different values" %
                                (mm, d.get("name")))
            recs[mm] = d
            if parent:
                edges.add((parent, mm))
            walk(d.get("children") or [], mm)
    walk(doc["devices"], None)
    return recs, edges, problems


def check_dump(tarball, expected_dir, sbcdisk, runner):
    name = os.path.basename(tarball)[:-len(".tar.xz")]
    out = []
    with tempfile.TemporaryDirectory(prefix="sbcdisk-peer.") as tmp:
        safe_extract(tarball, tmp)
        root = os.path.join(tmp, name)
        cmd = runner + [sbcdisk, "--sysroot", root, "list", "--json"]
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            return ["%s: sbcdisk list --json did not finish in 60 s" % name]
        if p.returncode != 0:
            return ["%s: sbcdisk exit %d: %s" % (name, p.returncode,
                                                 p.stderr.decode(errors="replace").strip())]
        try:
            doc = json.loads(p.stdout)
        except ValueError as e:
            return ["%s: sbcdisk printed no JSON: %s" % (name, e)]
        recs, our_edges, out = our_rows(doc)
        subs = sorted(f[:-len(".cols")] for f in os.listdir(root) if f.endswith(".cols"))

    tables = {}
    for sub in subs:
        path = os.path.join(expected_dir, "lsblk-%s-%s" % (name, sub))
        with open(path, encoding="utf-8") as f:
            lines = [line.rstrip("\n") for line in f if line.strip()]
        tables[sub] = (lines, split_table(lines))
    if "basic" not in tables:
        return out + ["%s: no basic sub-test (it carries MAJ:MIN)" % name]
    blines, (_, basic) = tables["basic"]

    # rows of every sub-test are in the same order as "basic": MAJ:MIN and depth from there
    majmins, lsblk_edges, stack = [], set(), []
    for row in basic:
        depth, _ = tree_name(row["NAME"])
        del stack[depth:]
        if stack:
            lsblk_edges.add((stack[-1], row["MAJ:MIN"]))
        stack.append(row["MAJ:MIN"])
        majmins.append(row["MAJ:MIN"])

    for mm in sorted(set(majmins) - set(recs)):
        out.append("%s: lsblk shows %s, sbcdisk does not" % (name, mm))
    for mm in sorted(set(recs) - set(majmins)):
        out.append("%s: sbcdisk shows %s (%s), lsblk does not" % (name, mm, recs[mm]["name"]))
    for parent, child in sorted(lsblk_edges - our_edges):
        out.append("%s: lsblk shows %s under %s, sbcdisk does not" % (name, child, parent))
    for parent, child in sorted(our_edges - lsblk_edges):
        out.append("%s: sbcdisk shows %s under %s, lsblk does not" % (name, child, parent))

    for sub, (lines, (cols, rows)) in tables.items():
        if len(rows) != len(basic):
            out.append("%s-%s: %d rows, basic has %d" % (name, sub, len(rows), len(basic)))
            continue
        for i, row in enumerate(rows):
            mm = majmins[i]
            rec = recs.get(mm)
            if rec is None:
                continue
            diffs = []
            for col in cols:
                if col not in CHECKED:
                    continue
                want = tree_name(row[col])[1] if col == "NAME" else row[col]
                got = render(rec, col)
                if want != got:
                    diffs.append("%s: lsblk %r, sbcdisk %r" % (col, want, got))
            if diffs:
                out.append("%s-%s: %s (%s) differs\n  lsblk:   %s\n  sbcdisk: %s" % (
                    name, sub, rec["name"], mm, lines[i + 1], "; ".join(diffs)))
    return out


def main(argv):
    src = os.environ.get("SBCDISK_SRCDIR") or os.path.join(os.path.dirname(__file__), "..", "..")
    sbcdisk = os.environ.get("SBCDISK")
    if not sbcdisk:
        sys.stderr.write("lsblk-peer: set SBCDISK to the sbcdisk binary\n")
        return 2
    runner = os.environ.get("SBCDISK_RUN", "").split()
    peer = os.path.join(src, "tests", "peer", "lsblk")
    dumps = argv[1:] or sorted(os.path.join(peer, f) for f in os.listdir(peer)
                               if f.endswith(".tar.xz"))
    failed = 0
    for tarball in dumps:
        problems = check_dump(tarball, os.path.join(peer, "expected"), sbcdisk, runner)
        name = os.path.basename(tarball)
        print("%s: %s" % (name, "agrees with lsblk" if not problems else
                          "%d difference(s)" % len(problems)))
        for p in problems:
            print("  " + p.replace("\n", "\n  "))
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
