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
        same(f"{w} usb port", u["port"], f["usb_port"])
        same(f"{w} usb vid", u["vid"], f["usb_vid"])
        same(f"{w} usb pid", u["pid"], f["usb_pid"])
        same(f"{w} usb serial", u["serial"], f["usb_serial"])
        same(f"{w} usb product", u["product"], f["usb_product"])
        same(f"{w} usb speed", u["speed_mbps"], int(f["usb_speed"]))
        same(f"{w} usb version", u["usb_version"], f["usb_version"])
        same(f"{w} usb driver (interface)", u["driver"], f["usb_interface_driver"])
        # uas sets no proc_name in its host template ("(null)"); the host's parent then
        host = f["scsi_host_proc_name"]
        if host == "(null)":
            host = f["scsi_host_parent_driver"]
        same(f"{w} usb driver (SCSI host)", u["driver"], host)
        same(f"{w} root hub speed", u["root_hub_speed_mbps"], int(f["usb_root_hub_speed"]))
        hubs = [h.split(":") for h in (f["usb_hubs"] or "").split()]
        same(f"{w} hubs", [(h["port"], h["vid"], h["pid"], h["speed_mbps"]) for h in u["hubs"]],
             [(p, v, i, int(s)) for p, v, i, s in hubs])
        t = tree.get(u["port"])
        same(f"{w} lsusb -t driver and speed", (u["driver"], u["speed_mbps"]), t)
    else:
        same(f"{w} usb", u, None)
    p = d["pcie"]
    if "pcie_speed" in f:
        if p is None:
            fails.append(f"{w}: sbcdisk has no PCIe link, the kernel has {f['pcie_address']}")
            continue
        same(f"{w} pcie address", p["address"], f["pcie_address"])
        same(f"{w} pcie link speed", p["link_speed_gts"], gts(f["pcie_speed"]))
        same(f"{w} pcie link width", p["link_width"], int(f["pcie_width"]))
        same(f"{w} pcie max speed", p["max_link_speed_gts"], gts(f["pcie_max_speed"]))
        same(f"{w} pcie max width", p["max_link_width"], int(f["pcie_max_width"]))
        same(f"{w} port max speed", p["port_max_link_speed_gts"], gts(f["pcie_port_max_speed"]))
        same(f"{w} port max width", p["port_max_link_width"], int(f["pcie_port_max_width"]))
    else:
        same(f"{w} pcie", p, None)
    m = d["mmc"]
    if "mmc_type" in f:
        if m is None:
            fails.append(f"{w}: sbcdisk has no card facts, the kernel has {f['mmc_type']}")
            continue
        for a in ("type", "name", "manfid", "oemid", "date", "serial"):
            same(f"{w} card {a}", m[a], f["mmc_" + a])
    else:
        same(f"{w} mmc", m, None)
    print(f"{name}: {d['transport']} "
          + (f"{u['speed_mbps']}M {u['driver']} {u['port']}" if u else "")
          + (f"{p['link_speed_gts']} GT/s x{p['link_width']}" if p else "")
          + (f"{m['type']} {m['name']}" if m else ""))
for x in fails:
    print("FAIL: " + x)
print(f"{checks} fields compared, {len(fails)} differ")
sys.exit(1 if fails else 0)
