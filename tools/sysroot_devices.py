# sysroot_devices.py - mksysroot's device statements: platform, PCI, USB, SCSI, libata, NVMe,
# MMC/SD and block devices, with the attribute formats and padding the kernel prints.
import os
import re

from sysroot_tree import (DescError, need, opt_bytes, pad, parse_majmin, st_remove, unescape)

BLOCK_EXT_MAJOR = 259


def drop_attrs(t, dev, opts):
    """drop=a,b on a device statement: real devices miss attributes."""
    for k in opts.get("drop", "").split(","):
        if k:
            st_remove(t, [dev + "/" + k], {})


def st_platform(t, args, opts):
    dev = args[0]
    t.mkdir(dev)
    name = os.path.basename(dev)
    drv = opts.get("driver")
    compat = opts.get("of")
    t.uevent(dev, [("DRIVER", drv), ("OF_NAME", name.split(".")[-1] if compat else None),
                   ("OF_COMPATIBLE_0", compat), ("MODALIAS", "of:N%sT(null)C%s" %
                   (name.split(".")[-1], compat) if compat else "platform:" + name)])
    if "." in name or opts.get("bus", "1") == "1":
        t.subsystem(dev, "bus", "platform")
        t.driver(dev, "platform", drv)
    t.power(dev)


def st_node(t, args, opts):
    """A plain directory with an empty uevent (pci0000:00, mmc_host glue ...)."""
    t.mkdir(args[0])
    t.uevent(args[0], [])
    t.power(args[0])


def st_pci(t, args, opts):
    dev = args[0]
    name = os.path.basename(dev)
    vid, did = need(opts, "id", "pci").split(":")
    cls = int(need(opts, "class", "pci"), 16)
    drv = opts.get("driver")
    t.mkdir(dev)
    a = {
        "vendor": "0x%04x" % int(vid, 16), "device": "0x%04x" % int(did, 16),
        "subsystem_vendor": "0x%04x" % int(opts.get("subvendor", vid), 16),
        "subsystem_device": "0x%04x" % int(opts.get("subdevice", "0000"), 16),
        "class": "0x%06x" % cls, "revision": "0x%02x" % int(opts.get("rev", "0"), 16),
        "enable": "1", "irq": opts.get("irq", "0"), "numa_node": "-1", "local_cpus": "f",
        "local_cpulist": "0-3", "msi_bus": "1", "broken_parity_status": "0",
        "d3cold_allowed": "1", "dma_mask_bits": "64", "consistent_dma_mask_bits": "64",
        "ari_enabled": "0", "driver_override": "(null)",
        "modalias": "pci:v%08Xd%08Xsv%08Xsd%08Xbc%02Xsc%02Xi%02X" % (
            int(vid, 16), int(did, 16), int(opts.get("subvendor", vid), 16),
            int(opts.get("subdevice", "0000"), 16), cls >> 16, (cls >> 8) & 0xff, cls & 0xff),
    }
    # The link attributes print pci_speed_string() ("5.0 GT/s PCIe"); kernels <= 5.6 printed
    # the short form ("5 GT/s"); the description passes the exact text.
    if "link" in opts:
        speed, width = opts["link"].rsplit(",", 1)
        a["current_link_speed"], a["current_link_width"] = speed, width
    if "maxlink" in opts:
        speed, width = opts["maxlink"].rsplit(",", 1)
        a["max_link_speed"], a["max_link_width"] = speed, width
    if cls >> 8 == 0x0604:
        a["secondary_bus_number"] = opts.get("secondary", "1")
        a["subordinate_bus_number"] = opts.get("subordinate", "1")
    t.attrs(dev, a)
    t.uevent(dev, [("DRIVER", drv), ("PCI_CLASS", "%X" % cls),
                   ("PCI_ID", "%s:%s" % (vid.upper(), did.upper())),
                   ("PCI_SUBSYS_ID", "%s:%s" % (opts.get("subvendor", vid).upper(),
                                                opts.get("subdevice", "0000").upper())),
                   ("PCI_SLOT_NAME", name), ("MODALIAS", a["modalias"])])
    t.subsystem(dev, "bus", "pci")
    t.driver(dev, "pci", drv)
    t.power(dev)
    drop_attrs(t, dev, opts)


def st_usb(t, args, opts):
    """A USB device dir (root hubs 'usbN' too). version is bcdUSB as text ("2.10")."""
    dev = args[0]
    name = os.path.basename(dev)
    vid, pid = need(opts, "id", "usb").split(":")
    speed = need(opts, "speed", "usb")
    if name.startswith("usb"):
        busnum, devpath, devnum = int(name[3:]), "0", 1
    else:
        busnum = int(name.split("-")[0])
        devpath = name.split("-", 1)[1]
        t.devnum[busnum] = t.devnum.get(busnum, 1) + 1
        devnum = int(opts.get("devnum", t.devnum[busnum]))
    ver = opts.get("version", "2.00")
    major, minor = ver.split(".")
    bcd = opts.get("bcd", "0100")
    cls = opts.get("class", "00")
    maxchild = opts.get("maxchild", "0")
    t.mkdir(dev)
    a = {
        "idVendor": "%04x" % int(vid, 16), "idProduct": "%04x" % int(pid, 16),
        "bcdDevice": "%04x" % int(bcd, 16), "bDeviceClass": cls,
        "bDeviceSubClass": opts.get("subclass", "00"),
        "bDeviceProtocol": opts.get("protocol", "00"),
        "bMaxPacketSize0": opts.get("ep0", "9" if int(speed) >= 5000 else "64"),
        "bNumConfigurations": "1", "bConfigurationValue": "1",
        "bNumInterfaces": "%2d" % int(opts.get("interfaces", "1")),
        "bmAttributes": "%2x" % int(opts.get("attributes", "80"), 16),
        "bMaxPower": opts.get("power", "0mA"),
        "busnum": str(busnum), "devnum": str(devnum), "devpath": devpath,
        "maxchild": maxchild, "speed": speed,
        # "%2x.%02x": one-digit majors get a leading space (" 2.10").
        "version": "%2x.%02x" % (int(major, 16), int(minor, 16)),
        "rx_lanes": "1", "tx_lanes": "1", "quirks": "0x0", "avoid_reset_quirk": "0",
        "authorized": "1", "removable": opts.get("removable", "unknown"),
        "ltm_capable": "no", "urbnum": "120",
    }
    for key, attr in (("mfr", "manufacturer"), ("product", "product"), ("serial", "serial")):
        if key in opts:  # absent string descriptors have no file at all
            a[attr] = unescape(opts[key])
    t.attrs(dev, a)
    t.write(dev + "/descriptors", b"\x12\x01", newline=False)
    t.uevent(dev, [("MAJOR", "189"), ("MINOR", str((busnum - 1) * 128 + devnum - 1)),
                   ("DEVNAME", "bus/usb/%03d/%03d" % (busnum, devnum)),
                   ("DEVTYPE", "usb_device"), ("DRIVER", "usb"),
                   ("PRODUCT", "%x/%x/%x" % (int(vid, 16), int(pid, 16), int(bcd, 16))),
                   ("TYPE", "%d/%d/%d" % (int(cls, 16), int(opts.get("subclass", "00"), 16),
                                          int(opts.get("protocol", "00"), 16))),
                   ("BUSNUM", "%03d" % busnum), ("DEVNUM", "%03d" % devnum)])
    t.subsystem(dev, "bus", "usb")
    t.driver(dev, "usb", "usb")
    t.power(dev, "on" if name.startswith("usb") else "auto")
    if int(speed) >= 5000 and not name.startswith("usb"):
        t.attrs(dev + "/power", {"usb3_hardware_lpm_u1": "enabled",
                                 "usb3_hardware_lpm_u2": "enabled"})
    t.usbdev = (dev, vid, pid, bcd, cls)
    drop_attrs(t, dev, opts)


def st_usbif(t, args, opts):
    dev = args[0]
    udev, vid, pid, bcd, dcls = t.usbdev
    c, s, p = opts.get("class", "08"), opts.get("sub", "06"), opts.get("proto", "50")
    num = int(dev.rsplit(".", 1)[1])
    t.mkdir(dev)
    modalias = "usb:v%04Xp%04Xd%04Xdc%02Xdsc%02Xdp%02Xic%02Xisc%02Xip%02Xin%02X" % (
        int(vid, 16), int(pid, 16), int(bcd, 16), int(dcls, 16), 0, 0,
        int(c, 16), int(s, 16), int(p, 16), num)
    t.attrs(dev, {"bInterfaceNumber": "%02x" % num,
                  "bAlternateSetting": "%2d" % int(opts.get("alt", "0")),
                  "bNumEndpoints": "%02x" % int(opts.get("eps", "2")),
                  "bInterfaceClass": c, "bInterfaceSubClass": s, "bInterfaceProtocol": p,
                  "supports_autosuspend": "1", "authorized": "1", "modalias": modalias})
    drv = opts.get("driver")
    t.uevent(dev, [("DEVTYPE", "usb_interface"), ("DRIVER", drv),
                   ("PRODUCT", "%x/%x/%x" % (int(vid, 16), int(pid, 16), int(bcd, 16))),
                   ("TYPE", "%d/0/0" % int(dcls, 16)),
                   ("INTERFACE", "%d/%d/%d" % (int(c, 16), int(s, 16), int(p, 16))),
                   ("MODALIAS", modalias)])
    t.subsystem(dev, "bus", "usb")
    t.driver(dev, "usb", drv)
    t.power(dev)


def st_scsihost(t, args, opts):
    dev = args[0]
    t.mkdir(dev)
    t.uevent(dev, [("DEVTYPE", "scsi_host")])
    t.subsystem(dev, "bus", "scsi")
    cls = dev + "/scsi_host/" + os.path.basename(dev)
    t.mkdir(cls)
    t.attrs(cls, {"proc_name": opts.get("proc", "uas"), "unique_id": "0",
                  "can_queue": opts.get("can_queue", "65000"), "state": "running",
                  "host_busy": "0", "sg_tablesize": "2048"})
    t.uevent(cls, [])
    t.subsystem(cls, "class", "scsi_host")
    t.power(dev)


def st_scsitarget(t, args, opts):
    dev = args[0]
    t.mkdir(dev)
    t.uevent(dev, [("DEVTYPE", "scsi_target")])
    t.subsystem(dev, "bus", "scsi")
    t.power(dev)


def st_scsidev(t, args, opts):
    dev = args[0]
    typ = int(opts.get("type", "0"))
    t.mkdir(dev)
    a = {"vendor": pad(opt_bytes(opts, "vendor", b""), 8),
         "model": pad(opt_bytes(opts, "model", b""), 16),
         "rev": pad(opt_bytes(opts, "rev", b""), 4),
         "type": str(typ), "scsi_level": opts.get("level", "7"), "state": "running",
         "queue_depth": opts.get("queue_depth", "1"), "queue_type": "none",
         "timeout": "30", "eh_timeout": "10", "device_blocked": "0", "device_busy": "0",
         "iocounterbits": "32", "iodone_cnt": "0x1f3", "ioerr_cnt": "0x2",
         "iorequest_cnt": "0x1f3", "modalias": "scsi:t-0x%02x" % typ,
         "evt_media_change": "0", "blacklist": ""}
    t.attrs(dev, a)
    drv = opts.get("driver", "sd" if typ == 0 else "sr")
    t.uevent(dev, [("DEVTYPE", "scsi_device"), ("DRIVER", drv),
                   ("MODALIAS", "scsi:t-0x%02x" % typ)])
    t.subsystem(dev, "bus", "scsi")
    t.driver(dev, "scsi", drv)
    if typ == 0:
        sd = dev + "/scsi_disk/" + os.path.basename(dev)
        t.mkdir(sd)
        t.attrs(sd, {"cache_type": opts.get("cache", "write back"), "FUA": opts.get("fua", "0"),
                     "protection_type": "0", "manage_start_stop": "1",
                     "max_medium_access_timeouts": "2"})
        t.uevent(sd, [])
        t.subsystem(sd, "class", "scsi_disk")
    t.power(dev)
    drop_attrs(t, dev, opts)


def st_ata(t, args, opts):
    """ata port dir plus its ata_port class dir (libata layout)."""
    dev = args[0]
    t.mkdir(dev)
    t.uevent(dev, [])
    name = os.path.basename(dev)
    port = dev + "/ata_port/" + name
    t.mkdir(port)
    t.attrs(port, {"port_no": name[3:], "nr_pmp_links": "0", "idle_irq": "0"})
    t.uevent(port, [])
    t.subsystem(port, "class", "ata_port")
    link = dev + "/link%s" % name[3:]
    t.mkdir(link)
    t.uevent(link, [])
    lc = link + "/ata_link/link%s" % name[3:]
    t.mkdir(lc)
    t.attrs(lc, {"sata_spd": opts.get("spd", "6.0 Gbps"), "sata_spd_limit": "<unknown>",
                 "hw_sata_spd_limit": "<unknown>"})
    t.uevent(lc, [])
    t.subsystem(lc, "class", "ata_link")
    t.power(dev)


def st_nvme(t, args, opts):
    """NVMe controller: PCIFUNC/nvme/nvmeN with class nvme. model/serial/firmware_rev are
    printed with the full identify field width (40/20/8), space padded."""
    dev = args[0]
    name = os.path.basename(dev)
    t.mkdir(dev)
    a = {"model": pad(opt_bytes(opts, "model", b""), 40),
         "serial": pad(opt_bytes(opts, "serial", b""), 20),
         "firmware_rev": pad(opt_bytes(opts, "firmware", b""), 8),
         "transport": opts.get("transport", "pcie"), "state": opts.get("state", "live"),
         "cntlid": "1", "numa_node": "-1", "queue_count": opts.get("queues", "5"),
         "sqsize": "1023", "kato": "0", "address": os.path.basename(os.path.dirname(
             os.path.dirname(dev))),
         "subsysnqn": opts.get("nqn", "nqn.2014.08.org.nvmexpress:%s" % name),
         "dev": opts.get("dev", "241:0")}
    t.attrs(dev, a)
    mj, mn = opts.get("dev", "241:0").split(":")
    t.uevent(dev, [("MAJOR", mj), ("MINOR", mn), ("DEVNAME", name),
                   ("NVME_TRTYPE", "pcie")])
    t.symlink(dev + "/device", os.path.dirname(os.path.dirname(dev)))
    t.subsystem(dev, "class", "nvme")
    t.power(dev)
    drop_attrs(t, dev, opts)


def st_mmchost(t, args, opts):
    dev = args[0]  # .../mmc_host/mmcN
    t.mkdir(dev)
    t.uevent(dev, [])
    t.subsystem(dev, "class", "mmc_host")
    t.symlink(dev + "/device", os.path.dirname(os.path.dirname(dev)))
    t.power(dev)


def bits_put(value, nbits, pos_hi, field, width):
    """Store field (width bits) with its top bit at pos_hi in a big integer of nbits."""
    shift = pos_hi - width + 1
    mask = ((1 << width) - 1) << shift
    return (value & ~mask) | ((field & ((1 << width) - 1)) << shift)


def sd_cid(mid, oid, pnm, prv, psn, year, month):
    v = 0
    v = bits_put(v, 128, 127, mid, 8)
    v = bits_put(v, 128, 119, int.from_bytes(oid.encode().ljust(2, b" ")[:2], "big"), 16)
    v = bits_put(v, 128, 103, int.from_bytes(pnm.encode().ljust(5, b" ")[:5], "big"), 40)
    v = bits_put(v, 128, 63, prv, 8)
    v = bits_put(v, 128, 55, psn, 32)
    v = bits_put(v, 128, 19, year - 2000, 8)
    v = bits_put(v, 128, 11, month, 4)
    v = bits_put(v, 128, 7, 0x01, 8)  # CRC7 placeholder + stop bit
    return v


def mmc_cid(mid, cbx, oid, pnm, prv, psn, year, month):
    """eMMC 4.41+ CID: MDT year counts from 2013 when EXT_CSD_REV > 4 and the field < 2010
    offset; we encode years 2013..2028 as (year - 2013)."""
    v = 0
    v = bits_put(v, 128, 127, mid, 8)
    v = bits_put(v, 128, 113, cbx, 2)
    v = bits_put(v, 128, 111, oid, 8)
    v = bits_put(v, 128, 103, int.from_bytes(pnm.encode().ljust(6, b" ")[:6], "big"), 48)
    v = bits_put(v, 128, 55, prv, 8)
    v = bits_put(v, 128, 47, psn, 32)
    v = bits_put(v, 128, 15, month, 4)
    v = bits_put(v, 128, 11, (year - 2013) & 0xf, 4)
    v = bits_put(v, 128, 7, 0x01, 8)
    return v


def sd_ssr(speed_class, uhs, video, app, au=9):
    """SD Status (512 bits, bit 511 = first hex digit): SPEED_CLASS [447:440] as the code
    (0,1,2,3,4 = class 0,2,4,6,10), AU_SIZE [431:428], UHS_SPEED_GRADE [399:396],
    VIDEO_SPEED_CLASS [391:384], APP_PERF_CLASS [339:336]."""
    code = {0: 0, 2: 1, 4: 2, 6: 3, 10: 4}[speed_class]
    v = 0
    v = bits_put(v, 512, 511, 0b10, 2)  # DAT_BUS_WIDTH = 4 bit
    v = bits_put(v, 512, 479, 0x00100000, 32)  # SIZE_OF_PROTECTED_AREA
    v = bits_put(v, 512, 447, code, 8)
    v = bits_put(v, 512, 439, 0, 8)
    v = bits_put(v, 512, 431, au, 4)
    v = bits_put(v, 512, 423, 0x5a, 16)  # ERASE_SIZE
    v = bits_put(v, 512, 407, 0x0a, 6)   # ERASE_TIMEOUT
    v = bits_put(v, 512, 401, 1, 2)      # ERASE_OFFSET
    v = bits_put(v, 512, 399, uhs, 4)
    v = bits_put(v, 512, 395, 9 if uhs else 0, 4)  # UHS_AU_SIZE
    v = bits_put(v, 512, 391, video, 8)
    v = bits_put(v, 512, 339, app, 4)
    return v


def st_mmc(t, args, opts):
    """An MMC/SD card dir mmcN:RCA. cid/ssr are built from the human fields so they agree."""
    dev = args[0]
    typ = opts.get("type", "SD")
    t.mkdir(dev)
    year, month = int(opts.get("year", "2020")), int(opts.get("month", "6"))
    mid = int(opts.get("manfid", "0x03"), 16)
    serial = int(opts.get("serial", "0x12345678"), 16)
    prv = int(opts.get("prv", "0x80"), 16)
    if typ == "SD":
        oid = opts.get("oemid", "SD")
        oid_num = int.from_bytes(oid.encode().ljust(2)[:2], "big")
        cid = sd_cid(mid, oid, opts.get("name", "SC64G"), prv, serial, year, month)
    else:
        oid_num = int(opts.get("oemid", "0x00"), 16)
        cid = mmc_cid(mid, 1, oid_num, opts.get("name", "DG4032"), prv, serial, year, month)
    a = {"type": typ, "cid": "%032x" % cid, "csd": opts.get("csd",
         "400e00325b590001dbd37f800a404000" if typ == "SD" else
         "d0270132075b590083ffffff16400000"),
         "date": "%02d/%04d" % (month, year), "manfid": "0x%06x" % mid,
         "oemid": "0x%04x" % oid_num, "name": unescape(opts.get("name", "SC64G")),
         "serial": "0x%08x" % serial, "fwrev": "0x0", "hwrev": "0x%x" % (prv >> 4),
         "erase_size": "512", "preferred_erase_size": opts.get("pref_erase", "4194304"),
         "ocr": "0x00300000", "rca": "0x%s" % dev.rsplit(":", 1)[1], "dsr": "0x404"}
    if typ == "SD":
        a["scr"] = opts.get("scr", "0235800300000000")
        if "speed_class" in opts:
            a["ssr"] = "%0128x" % sd_ssr(int(opts["speed_class"]), int(opts.get("uhs", "0")),
                                         int(opts.get("video", "0")),
                                         int(opts.get("app", "0")))
    else:
        a.update({"rev": "0x8", "life_time": opts.get("life_time", "0x01 0x01"),
                  "pre_eol_info": "0x01", "enhanced_area_offset": "18446744073709551594",
                  "enhanced_area_size": "4294967274", "raw_rpmb_size_mult": "0x20",
                  "rel_sectors": "0x1", "ffu_capable": "0", "cmdq_en": "1",
                  "enhanced_rpmb_supported": "0"})
    t.attrs(dev, a)
    t.uevent(dev, [("DRIVER", "mmcblk"), ("MMC_TYPE", typ), ("MMC_NAME", opts.get("name",
                   "SC64G")), ("MODALIAS", "mmc:block")])
    t.subsystem(dev, "bus", "mmc")
    t.driver(dev, "mmc", "mmcblk")
    t.power(dev)
    drop_attrs(t, dev, opts)


def queue_attrs(opts, virtual=False):
    lbs = opts.get("lbs", "512")
    maxhw = opts.get("hwmaxkb", "32767" if not virtual else "128")
    return {
        "add_random": "0", "chunk_sectors": "0", "dax": "0",
        "discard_granularity": opts.get("discard_gran", "0"),
        "discard_max_bytes": opts.get("discard_max", "0"),
        "discard_max_hw_bytes": opts.get("discard_max", "0"), "discard_zeroes_data": "0",
        "fua": opts.get("fua", "0"), "hw_sector_size": lbs, "io_poll": "0",
        "io_poll_delay": "-1", "io_timeout": "30000", "iostats": "1",
        "logical_block_size": lbs, "max_discard_segments": "1",
        "max_hw_sectors_kb": maxhw, "max_integrity_segments": "0",
        "max_sectors_kb": opts.get("maxkb", "1280" if not virtual else "128"),
        "max_segment_size": "65536", "max_segments": opts.get("segments", "128"),
        "minimum_io_size": opts.get("pbs", "512"), "nomerges": "0",
        "nr_requests": opts.get("nr_requests", "64"), "nr_zones": "0",
        "optimal_io_size": opts.get("optimal", "0"), "physical_block_size": opts.get("pbs",
                                                                                     "512"),
        "read_ahead_kb": opts.get("ra", "128"), "rotational": opts.get("rota", "0"),
        "rq_affinity": "1", "scheduler": opts.get("sched", "[mq-deadline] kyber bfq none"),
        "stable_writes": "0", "virt_boundary_mask": "0", "wbt_lat_usec": "2000",
        "write_cache": opts.get("wcache", "write back"), "write_same_max_bytes": "0",
        "write_zeroes_max_bytes": "0", "zone_append_max_bytes": "0",
        "zone_write_granularity": "0", "zoned": "none",
    }


def blk_common(t, dev, name, major, minor, sectors, devtype, extra_uevent=()):
    t.mkdir(dev)
    t.attrs(dev, {"dev": "%d:%d" % (major, minor), "size": str(sectors),
                  "alignment_offset": "0", "discard_alignment": "0", "inflight":
                  "       0        0",
                  "stat": "%8d %8d %8d %8d %8d %8d %8d %8d %8d %8d %8d %8d %8d %8d %8d %8d %8d"
                  % (1520, 208, 97232, 1030, 42, 17, 474, 51, 0, 1436, 1082, 0, 0, 0, 0, 0,
                     0)})
    t.uevent(dev, [("MAJOR", str(major)), ("MINOR", str(minor)), ("DEVNAME", name),
                   ("DEVTYPE", devtype)] + list(extra_uevent))
    t.subsystem(dev, "class", "block")
    if devtype == "disk":
        t.symlink("/sys/block/" + name, dev)
    t.symlink("/sys/dev/block/%d:%d" % (major, minor), dev)
    t.mkdir(dev + "/holders")
    t.power(dev)


def st_disk(t, args, opts):
    """disk BLOCKDIR MAJ:MIN SECTORS: the block device dir itself (…/block/sda, nvme0/nvme0n1,
    virtual/block/loop0, …/block/mmcblk0/mmcblk0boot0)."""
    dev, majmin, sectors = args[0], args[1], int(args[2])
    name = os.path.basename(dev)
    major, minor = parse_majmin(majmin)
    virtual = "/devices/virtual/" in dev
    seq = t.diskseq if t.kver >= (5, 15) else None  # diskseq appeared in 5.15
    t.diskseq += 1
    blk_common(t, dev, name, major, minor, sectors, "disk",
               [("DISKSEQ", str(seq) if seq else None)])
    t.attrs(dev, {"ro": opts.get("ro", "0"), "removable": opts.get("removable", "0"),
                  "range": opts.get("range", "16" if not virtual else "1"),
                  "ext_range": opts.get("ext_range", "256" if not virtual else "1"),
                  "capability": opts.get("capability", "50" if not virtual else "10"),
                  "hidden": "0", "events": opts.get("events", ""), "events_async": "",
                  "events_poll_msecs": "-1", "diskseq": str(seq) if seq else None})
    t.attrs(dev + "/queue", queue_attrs(opts, virtual))
    t.mkdir(dev + "/slaves")
    parent = os.path.dirname(dev)
    if os.path.basename(parent) == "block":
        parent = os.path.dirname(parent)
    if not virtual:
        t.symlink(dev + "/device", parent)
    if re.fullmatch(r"nvme\d+", os.path.basename(parent)):  # namespace attributes
        t.attrs(dev, {"nsid": opts.get("nsid", "1"), "wwid": opts.get("wwid", "eui.%016x" %
                      (0xe8238fa6bf530001 + minor)), "csi": "0", "nuse": str(sectors),
                      "metadata_bytes": "0"})
    if "loop" in opts:
        t.attrs(dev + "/loop", {"backing_file": unescape(opts["loop"]), "offset": "0",
                                "sizelimit": "0", "autoclear": opts.get("autoclear", "0"),
                                "partscan": "0", "dio": "0"})
    if "dm" in opts:
        dmname, _, uuid = opts["dm"].partition(",")
        t.attrs(dev + "/dm", {"name": dmname, "uuid": uuid, "suspended": "0",
                              "use_blk_mq": "1", "rq_based_seq_io_merge_deadline": "0"})
    if "md" in opts:
        level, _, ndisks = opts["md"].partition(",")
        t.attrs(dev + "/md", {"level": level, "raid_disks": ndisks or "2",
                              "array_state": "clean", "metadata_version": "1.2",
                              "chunk_size": "0" if level == "raid1" else "524288",
                              "degraded": "0", "sync_action": "idle"})
    if "zram" in opts:
        t.attrs(dev, {"disksize": str(sectors * 512), "comp_algorithm":
                      "lzo lzo-rle lz4 [zstd]", "max_comp_streams": "4",
                      "mm_stat": "  4096   74  12288        0    12288        0        0"
                                 "        0        0", "initstate": "1"})
    t.last_disk = (dev, name, major, minor)
    drop_attrs(t, dev, opts)


def part_name(disk, n):
    return "%sp%d" % (disk, n) if disk[-1].isdigit() else "%s%d" % (disk, n)


def st_part(t, args, opts):
    """part N MAJ:MIN START SECTORS: partition N of the last disk."""
    if not t.last_disk:
        raise DescError("part before any disk")
    ddev, dname, _, _ = t.last_disk
    n, majmin, start, sectors = int(args[0]), args[1], int(args[2]), int(args[3])
    name = part_name(dname, n)
    dev = ddev + "/" + name
    major, minor = parse_majmin(majmin)
    extra = [("PARTN", str(n))]
    if "partname" in opts:
        extra.append(("PARTNAME", opts["partname"]))
    blk_common(t, dev, name, major, minor, sectors, "partition", extra)
    t.attrs(dev, {"partition": str(n), "start": str(start), "ro": opts.get("ro", "0")})
    drop_attrs(t, dev, opts)


def st_manyparts(t, args, opts):
    """manyparts COUNT SECTORS: COUNT partitions on the last disk, minors on 259 (blkext)."""
    count, sectors = int(args[0]), int(args[1])
    first_minor = int(opts.get("first_minor", "100"))
    ddev, dname, _, _ = t.last_disk
    start = 2048
    for n in range(1, count + 1):
        name = part_name(dname, n)
        dev = ddev + "/" + name
        major, minor = BLOCK_EXT_MAJOR, first_minor + n - 1
        t.mkdir(dev)
        t.attrs(dev, {"dev": "%d:%d" % (major, minor), "size": str(sectors),
                      "partition": str(n), "start": str(start), "ro": "0"})
        t.uevent(dev, [("MAJOR", str(major)), ("MINOR", str(minor)), ("DEVNAME", name),
                       ("DEVTYPE", "partition"), ("PARTN", str(n))])
        t.symlink(dev + "/subsystem", "/sys/class/block")
        t.symlink("/sys/class/block/" + name, dev)
        t.symlink("/sys/dev/block/%d:%d" % (major, minor), dev)
        start += sectors


def st_holder(t, args, opts):
    """holder LOWER UPPER: UPPER (dm/md) is built on LOWER (names as in /sys/class/block)."""
    lower = os.path.realpath(t.host("/sys/class/block/" + args[0]))[len(t.root):]
    upper = os.path.realpath(t.host("/sys/class/block/" + args[1]))[len(t.root):]
    t.symlink(upper + "/slaves/" + args[0], lower)
    t.symlink(lower + "/holders/" + args[1], upper)
