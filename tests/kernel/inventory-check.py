#!/usr/bin/python3
"""inventory-check.py FACTS LIST.JSON: `sbcdisk list --json` against what the guest kernel
said (tests/kernel/facts.sh), field by field. One line per disk and 'FAIL: ...' per
disagreement; exit 1 on any."""
import json
import re
import sys

facts_dir, list_json = sys.argv[1], sys.argv[2]
fails = []
checks = 0


def same(what, got, want):
    global checks
    checks += 1
    if got != want:
        fails.append(f"{what}: sbcdisk says {got!r}, the kernel {want!r}")


def facts(name):
    d = {}
    with open(f"{facts_dir}/{name}.txt") as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            d[k] = None if v == "none" else v
    return d


def gts(s):
    m = re.match(r"([0-9.]+) GT/s", s or "")
    return float(m.group(1)) if m else None


def strip(s):
    return s.strip() if isinstance(s, str) and s.strip() else None


# (sbcdisk's key, the fact's key, the fact's conversion)
USB_FIELDS = [("port", "usb_port", str), ("vid", "usb_vid", str), ("pid", "usb_pid", str),
              ("serial", "usb_serial", str), ("product", "usb_product", str),
              ("speed_mbps", "usb_speed", int), ("usb_version", "usb_version", str),
              ("driver", "usb_interface_driver", str),
              ("root_hub_speed_mbps", "usb_root_hub_speed", int)]
PCIE_FIELDS = [("address", "pcie_address", str), ("link_speed_gts", "pcie_speed", gts),
               ("link_width", "pcie_width", int), ("max_link_speed_gts", "pcie_max_speed", gts),
               ("max_link_width", "pcie_max_width", int),
               ("port_max_link_speed_gts", "pcie_port_max_speed", gts),
               ("port_max_link_width", "pcie_port_max_width", int)]

MMC_FIELDS = [(a, "mmc_" + a, str) for a in ("type", "name", "manfid", "oemid", "date", "serial")]


def compare(what, obj, fact, fields):
    for key, fkey, conv in fields:
        v = fact.get(fkey)
        same(f"{what} {key}", obj[key], None if v is None else conv(v))


def lsusb_tree(path):
    """{'BUS-PORT.PORT': (driver, speed)} from lsusb -t's indentation"""
    out, bus, stack = {}, None, []
    for line in open(path):
        m = re.match(r"/:  Bus (\d+)\.", line)
        if m:
            bus, stack = int(m.group(1)), []
            continue
        m = re.match(r"( *)\|__ Port (\d+): Dev \d+, If \d+, Class=.*, Driver=([^,]*), (\d+)M",
                     line)
        if not m or bus is None:
            continue
        depth = (len(m.group(1)) - 4) // 4
        stack = stack[:depth] + [m.group(2)]
        drv = m.group(3).split("/")[0]
        out[f"{bus}-{'.'.join(stack)}"] = (drv, int(m.group(4)))
    return out


lsblk = {d["name"]: d for d in json.load(open(f"{facts_dir}/lsblk.json"))["blockdevices"]}
tree = lsusb_tree(f"{facts_dir}/lsusb-t.txt")
doc = json.load(open(list_json))
sb = {d["name"]: d for d in doc["devices"]}
same("the disks", sorted(sb), sorted(n for n, d in lsblk.items() if d["type"] == "disk"))
for name in sorted(sb):
    d, k, f = sb[name], lsblk.get(name), facts(name)
    if k is None:
        continue
    w = f"{name}"
    same(f"{w} maj:min", d["maj_min"], k["maj:min"])
    same(f"{w} size", d["size_bytes"], int(k["size"]))
    same(f"{w} read-only", d["read_only"], bool(k["ro"]))
    same(f"{w} removable", d["removable"], bool(k["rm"]))
    same(f"{w} rotational", d["rotational"], bool(k["rota"]))
    # an SD card has no model in sysfs: sbcdisk names it by the card's name
    model = f.get("mmc_name") if "mmc_type" in f else strip(k["model"])
    same(f"{w} model", strip(d["model"]), model)
    same(f"{w} vendor", strip(d["vendor"]), strip(k["vendor"]))
    same(f"{w} rev", strip(d["rev"]), strip(k["rev"]))
    same(f"{w} serial", strip(d["serial"]), strip(k["serial"]))
    if k["tran"]:
        same(f"{w} transport", d["transport"], k["tran"])
    u = d["usb"]
    if "usb_port" in f:
        if u is None:
            fails.append(f"{w}: sbcdisk has no USB attachment, the kernel has {f['usb_port']}")
            continue
        compare(w, u, f, USB_FIELDS)
        # uas sets no proc_name in its host template ("(null)"); the host's parent then
        host = f["scsi_host_proc_name"]
        if host == "(null)":
            host = f["scsi_host_parent_driver"]
        same(f"{w} usb driver (SCSI host)", u["driver"], host)
        hubs = [h.split(":") for h in (f["usb_hubs"] or "").split()]
        same(f"{w} hubs", [(h["port"], h["vid"], h["pid"], h["speed_mbps"]) for h in u["hubs"]],
             [(p, v, i, int(s)) for p, v, i, s in hubs])
        t = tree.get(u["port"])
        same(f"{w} lsusb -t driver and speed", (u["driver"], u["speed_mbps"]), t)
    else:
        same(f"{w} usb", u, None)
    p, m = d["pcie"], d["mmc"]
    for key, fkey, fields in (("pcie", "pcie_speed", PCIE_FIELDS), ("mmc", "mmc_type", MMC_FIELDS)):
        if fkey not in f:
            same(f"{w} {key}", d[key], None)
        elif d[key] is None:
            fails.append(f"{w}: sbcdisk has no {key} facts, the kernel has {f[fkey]}")
        else:
            compare(w, d[key], f, fields)
    print(f"{name}: {d['transport']} "
          + (f"{u['speed_mbps']}M {u['driver']} {u['port']}" if u else "")
          + (f"{p['link_speed_gts']} GT/s x{p['link_width']}" if p else "")
          + (f"{m['type']} {m['name']}" if m else ""))
for x in fails:
    print("FAIL: " + x)
print(f"{checks} fields compared, {len(fails)} differ")
sys.exit(1 if fails else 0)
