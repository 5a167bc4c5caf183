/* t-inventory.c - probe_inventory_load() on small trees laid out as the kernel does: eMMC boot
 * areas nested in mmcblk0, NVMe under nvme-subsystem, USB behind two hubs, dm over a partition,
 * loop devices, and hostile entries (loops, garbage, overlong and non-UTF-8 values, a FIFO);
 * and what uses a device (probe_blkdev_in_use()). */
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "probe/probe.h"
#include "report/list.h"
#include "common/util.h"
#include "t.h"
#include "t-tree.h"

/* t_tree_put(dir + "/" + name, text) */
static void attr(const char *dir, const char *name, const char *text)
{
	char p[PATH_MAX];

	str_fmt(p, sizeof(p), "%s/%s", dir, name);
	t_tree_put(p, text);
}

static void block(const char *dir, const char *dev, const char *sectors)
{
	attr(dir, "dev", dev);
	attr(dir, "size", sectors);
	attr(dir, "ro", "0\n");
	attr(dir, "removable", "0\n");
	attr(dir, "queue/rotational", "0\n");
	attr(dir, "queue/logical_block_size", "512\n");
	attr(dir, "queue/physical_block_size", "4096\n");
	attr(dir, "queue/max_sectors_kb", "1280\n");
	attr(dir, "queue/read_ahead_kb", "128\n");
	attr(dir, "queue/scheduler", "[mq-deadline] none \n");
}

static void part(const char *dir, const char *n, const char *dev, const char *sectors)
{
	attr(dir, "dev", dev);
	attr(dir, "size", sectors);
	attr(dir, "partition", n);
	attr(dir, "ro", "0\n");
}

#define MMC  "sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:0001"
#define PCI  "sys/devices/platform/14100000.pcie/pci0004:00/0004:00:00.0"
#define USB3 "sys/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb3"
#define UDEV USB3 "/3-1/3-1.2/3-1.2.4"
#define SDA  UDEV "/3-1.2.4:1.0/host0/target0:0:0/0:0:0:0/block/sda"

static void build_tree(void)
{
	char big[6000];

	/* eMMC: boot areas are gendisks nested inside mmcblk0, without a "partition" file */
	attr(MMC, "type", "MMC\n");
	attr(MMC, "name", "BJTD4R\n");
	attr(MMC, "manfid", "0x000015\n");
	attr(MMC, "oemid", "0x0100\n");
	attr(MMC, "date", "01/2021\n");
	attr(MMC, "serial", "0x12345678\n");
	block(MMC "/block/mmcblk0", "179:0\n", "61071360\n");
	part(MMC "/block/mmcblk0/mmcblk0p1", "1\n", "179:1\n", "524288\n");
	part(MMC "/block/mmcblk0/mmcblk0p2", "2\n", "179:2\n", "60000000\n");
	block(MMC "/block/mmcblk0/mmcblk0boot0", "179:8\n", "8192\n");
	attr(MMC "/block/mmcblk0/mmcblk0boot0", "ro", "1\n");
	block(MMC "/block/mmcblk0/mmcblk0boot1", "179:16\n", "8192\n");
	t_tree_link(
	    "../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0",
	    "sys/block/mmcblk0");
	t_tree_link(
	    "../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0/"
	    "mmcblk0boot0",
	    "sys/block/mmcblk0boot0");
	t_tree_link(
	    "../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0/"
	    "mmcblk0boot1",
	    "sys/block/mmcblk0boot1");
	t_tree_put("sys/kernel/debug/mmc0/ios", "clock:\t\t200000000 Hz\nbus width:\t3 (8 bits)\n"
						"timing spec:\t9 (mmc HS200)\n");

	/* NVMe with multipath: the namespace lives under nvme-subsystem, the controller does not */
	attr(PCI, "max_link_speed", "16.0 GT/s PCIe\n");
	attr(PCI, "max_link_width", "4\n");
	attr(PCI "/0004:01:00.0", "current_link_speed", "2.5 GT/s PCIe\n");
	attr(PCI "/0004:01:00.0", "current_link_width", "1\n");
	attr(PCI "/0004:01:00.0", "max_link_speed", "8.0 GT/s PCIe\n");
	attr(PCI "/0004:01:00.0", "max_link_width", "4\n");
	attr(PCI "/0004:01:00.0/nvme/nvme0", "model", "Samsung SSD 970 EVO Plus 500GB          \n");
	attr(PCI "/0004:01:00.0/nvme/nvme0", "serial", "S4EVNF0M123456      \n");
	attr(PCI "/0004:01:00.0/nvme/nvme0", "firmware_rev", "2B2QEXM7\n");
	attr(PCI "/0004:01:00.0/nvme/nvme0", "transport", "pcie\n");
	t_tree_link(
	    "../../devices/platform/14100000.pcie/pci0004:00/0004:00:00.0/0004:01:00.0/nvme/nvme0",
	    "sys/class/nvme/nvme0");
	block("sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1", "259:0\n", "976773168\n");
	t_tree_link("../devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1", "sys/block/nvme0n1");
	t_tree_put("run/udev/data/b259:0",
		   "S:disk/by-id/nvme-x\nI:123\nE:ID_FS_TYPE=ext4\n"
		   "E:ID_FS_UUID=1111-2222\nE:ID_FS_LABEL_ENC=data\\x20disk\n");

	/* USB: an ASMedia bridge behind two hubs on a USB 3 root hub */
	attr(USB3, "speed", "5000\n");
	attr(USB3 "/3-1", "idVendor", "05e3\n");
	attr(USB3 "/3-1", "idProduct", "0626\n");
	attr(USB3 "/3-1", "bDeviceClass", "09\n");
	attr(USB3 "/3-1", "speed", "5000\n");
	attr(USB3 "/3-1", "version", " 3.20\n");
	attr(USB3 "/3-1", "product", "USB3.1 Hub\n");
	attr(USB3 "/3-1/3-1.2", "idVendor", "2109\n");
	attr(USB3 "/3-1/3-1.2", "idProduct", "0817\n");
	attr(USB3 "/3-1/3-1.2", "speed", "5000\n");
	attr(USB3 "/3-1/3-1.2", "version", " 3.10\n");
	attr(UDEV, "idVendor", "174c\n");
	attr(UDEV, "idProduct", "55aa\n");
	attr(UDEV, "manufacturer", "ASMedia\n");
	attr(UDEV, "product", "ASM1153E\n");
	attr(UDEV, "speed", "5000\n");
	attr(UDEV, "version", " 3.20\n");
	attr(UDEV, "bMaxPower", "0mA\n");
	t_tree_mkdirs("sys/bus/usb/drivers/uas");
	t_tree_link("../../../../../../../../../../bus/usb/drivers/uas",
		    UDEV "/3-1.2.4:1.0/driver");
	attr(SDA "/../../", "vendor", "ASMT    \n");
	attr(SDA "/../../", "model", "2115            \n");
	attr(SDA "/../../", "rev", "0   \n");
	attr(SDA "/../../", "type", "0\n");
	block(SDA, "8:0\n", "234441648\n");
	t_tree_link("../../../0:0:0:0", SDA "/device");
	part(SDA "/sda1", "1\n", "8:1\n", "234440000\n");
	attr(SDA "/sda1", "holders/.keep", "");
	t_tree_link(
	    "../devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb3/3-1/"
	    "3-1.2/3-1.2.4/3-1.2.4:1.0/host0/target0:0:0/0:0:0:0/block/sda",
	    "sys/block/sda");

	/* dm over sda1 */
	block("sys/devices/virtual/block/dm-0", "253:0\n", "234000000\n");
	attr("sys/devices/virtual/block/dm-0", "dm/name", "vg-root\n");
	attr("sys/devices/virtual/block/dm-0", "dm/uuid", "LVM-abcdef\n");
	t_tree_link(
	    "../../../../platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb3/"
	    "3-1/3-1.2/3-1.2.4/3-1.2.4:1.0/host0/target0:0:0/0:0:0:0/block/sda/sda1",
	    "sys/devices/virtual/block/dm-0/slaves/sda1");
	t_tree_link("../devices/virtual/block/dm-0", "sys/block/dm-0");

	/* loop devices: one used, one unused (hidden like lsblk does), one "hidden" attribute */
	block("sys/devices/virtual/block/loop0", "7:0\n", "2048\n");
	attr("sys/devices/virtual/block/loop0", "loop/backing_file", "/srv/disk image.img\n");
	t_tree_link("../devices/virtual/block/loop0", "sys/block/loop0");
	block("sys/devices/virtual/block/loop1", "7:1\n", "0\n");
	t_tree_link("../devices/virtual/block/loop1", "sys/block/loop1");
	block("sys/devices/virtual/block/nvme0c0n1", "259:9\n", "976773168\n");
	attr("sys/devices/virtual/block/nvme0c0n1", "hidden", "1\n");
	t_tree_link("../devices/virtual/block/nvme0c0n1", "sys/block/nvme0c0n1");

	/* hostile: a link loop, garbage and overlong values, bytes that are not UTF-8 */
	t_tree_link("evil2", "sys/block/evil1");
	t_tree_link("evil1", "sys/block/evil2");
	block("sys/devices/virtual/block/sdz", "garbage\n", "-5\n");
	memset(big, 'M', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	attr("sys/devices/virtual/block/sdz", "device/model", big);
	attr("sys/devices/virtual/block/sdz", "device/vendor",
	     "\xff\xfe"
	     "AB\n");
	attr("sys/devices/virtual/block/sdz", "ro", "7\n");
	t_tree_link("../devices/virtual/block/sdz", "sys/block/sdz");

	t_tree_put("proc/self/mountinfo",
		   "22 1 0:21 / /proc rw - proc proc rw\n"
		   "30 1 253:0 / / rw,relatime shared:1 - ext4 /dev/mapper/vg-root rw\n"
		   "31 30 179:1 / /boot/firmware rw - vfat /dev/mmcblk0p1 rw\n"
		   "32 30 259:0 / /srv/my\\040data rw - ext4 /dev/nvme0n1 rw\n"
		   "33 30 0:45 / /mnt/nfs rw - nfs server:/x rw\n"
		   "34 30 0:52 / /srv/btrfs rw - btrfs /dev/mmcblk0p2 rw\n"
		   "garbage line\n");
	t_tree_put("proc/swaps",
		   "Filename\tType\tSize\tUsed\tPriority\n/dev/loop0 partition 1020 0 -2\n");
	t_tree_put_n("proc/device-tree/model", "Raspberry Pi Compute Module 4 Rev 1.0\0", 38);
	t_tree_put("proc/sys/kernel/osrelease", "6.6.51+rpt-rpi-v8\n");
	t_tree_put("boot/firmware/config.txt", "[all]\n");
	/* Fedora's place for usb.ids (Debian's /usr/share/misc is tried first) */
	t_tree_put("usr/share/hwdata/usb.ids", "# usb.ids\n05e3  Genesys Logic, Inc.\n\t0626  Hub\n"
					       "174c  ASMedia Technology Inc.\n"
					       "\t55aa  ASM1051E SATA 6Gb/s bridge\n");
}

static void check_inventory(struct inventory *inv)
{
	struct blkdev *d, *p;
	char buf[256];
	size_t i;

	/* top level: dm-0 hangs below sda1; hidden, unused and looping entries are out; sdz
	 * with its garbage stays, its values unknown */
	T_EQ_INT(inv->n_top, 7);
	if (inv->n_top == 7) {
		T_EQ_STR(inv->top[0]->name, "loop0");
		T_EQ_STR(inv->top[1]->name, "mmcblk0");
		T_EQ_STR(inv->top[2]->name, "mmcblk0boot0");
		T_EQ_STR(inv->top[3]->name, "mmcblk0boot1");
		T_EQ_STR(inv->top[4]->name, "nvme0n1");
		T_EQ_STR(inv->top[5]->name, "sda");
		T_EQ_STR(inv->top[6]->name, "sdz");
	}
	T_CHECK(probe_inventory_find(inv, "evil1") == NULL);
	T_CHECK(probe_inventory_find(inv, "loop1") == NULL);
	T_CHECK(probe_inventory_find(inv, "nvme0c0n1") == NULL);

	d = probe_inventory_find(inv, "mmcblk0");
	T_CHECK(d && d->mmc);
	if (d && d->mmc) {
		T_EQ_INT(d->n_children, 2);
		T_EQ_STR(d->mmc->type, "MMC");
		T_EQ_STR(d->mmc->manufacturer, "Samsung");
		T_EQ_STR(d->mmc->host, "mmc0");
		T_EQ_STR(d->mmc->timing, "mmc HS200");
		T_CHECK(!d->mmc->has_speed_class);
		T_EQ_INT(d->transport, PROBE_TRAN_MMC);
		T_EQ_INT(probe_blkdev_attachment(d, buf, sizeof(buf)), 0);
		T_EQ_STR(buf, "emmc Samsung BJTD4R 01/2021 HS200");
	}
	d = probe_inventory_find(inv, "mmcblk0boot0");
	T_CHECK(d && !d->is_partition && d->mmc && d->read_only && !strcmp(d->type, "disk"));
	T_CHECK(d && d->size_bytes == 8192ull * 512);

	d = probe_inventory_find_devno(inv, 259, 0);
	T_CHECK(d && d->nvme && d->pcie);
	if (d && d->nvme && d->pcie) {
		T_EQ_STR(d->nvme->model, "Samsung SSD 970 EVO Plus 500GB");
		T_EQ_STR(d->nvme->serial, "S4EVNF0M123456");
		T_EQ_STR(d->model, "Samsung SSD 970 EVO Plus 500GB");
		T_EQ_STR(d->pcie->address, "0004:01:00.0");
		T_EQ_STR(d->pcie->port_address, "0004:00:00.0");
		T_EQ_INT(probe_blkdev_attachment(d, buf, sizeof(buf)), 0);
		T_EQ_STR(buf, "nvme pcie 2.5 GT/s x1 (device max 8 GT/s x4, port max 16 GT/s x4)");
		T_EQ_STR(d->fstype, "ext4");
		T_EQ_STR(d->label, "data disk");
		T_EQ_INT(d->n_mountpoints, 1);
		if (d->n_mountpoints)
			T_EQ_STR(d->mountpoints[0], "/srv/my data");
	}

	d = probe_inventory_find(inv, "sda");
	T_CHECK(d && d->usb);
	if (d && d->usb) {
		T_EQ_STR(d->usb->port, "3-1.2.4");
		T_EQ_STR(d->usb->driver, "uas");
		T_EQ_STR(d->usb->ids_vendor, "ASMedia Technology Inc.");
		T_EQ_STR(d->usb->ids_product, "ASM1051E SATA 6Gb/s bridge");
		T_EQ_INT(d->usb->n_hubs, 2);
		T_EQ_STR(d->usb->hubs[0].port, "3-1.2");
		T_EQ_STR(d->usb->hubs[1].port, "3-1");
		T_EQ_STR(d->usb->usb_version, "3.20");
		T_EQ_INT(d->usb->usb_version_bcd, 0x0320);
		T_CHECK(d->usb->has_max_power && d->usb->max_power_ma == 0);
		T_CHECK(d->usb->has_root_hub_speed && d->usb->root_hub_speed_mbps == 5000);
		T_EQ_STR(d->vendor, "ASMT");
		T_EQ_STR(d->model, "2115");
		T_EQ_STR(d->rev, "0");
		T_EQ_INT(probe_blkdev_attachment(d, buf, sizeof(buf)), 0);
		T_EQ_STR(buf, "usb 5000M uas 174c:55aa ASMedia ASM1051E/ASM1053E/ASM1153E via hubs "
			      "2109:0817, 05e3:0626");
		T_EQ_INT(d->n_children, 1);
	}
	p = probe_inventory_find(inv, "sda1");
	T_CHECK(p && p->disk == d && p->n_children == 1);
	T_CHECK(p && probe_blkdev_usb(p) == (d ? d->usb : NULL));
	d = probe_inventory_find(inv, "vg-root");
	T_CHECK(d && !strcmp(d->kname, "dm-0") && !strcmp(d->type, "lvm") && d->is_root);
	T_CHECK(inv->root == d);
	T_CHECK(probe_blkdev_disk(d) == probe_inventory_find(inv, "sda"));
	T_CHECK(p && p->n_children == 1 && p->children[0] == d);
	d = probe_inventory_find(inv, "mmcblk0p2");
	T_CHECK(d && probe_inventory_find_dev(inv, makedev(0, 52)) == d);
	T_CHECK(d && probe_inventory_find_dev(inv, makedev(179, 2)) == d);
	T_CHECK(probe_inventory_find_dev(inv, makedev(0, 45)) == NULL);
	d = probe_inventory_find(inv, "mmcblk0p1");
	T_CHECK(d && d->is_boot && inv->boot == d);

	/* sda holds the root through dm-0 over sda1; nvme0n1 is mounted; loop0 is swap */
	{
		struct probe_inuse use;

		T_CHECK(probe_blkdev_in_use(inv, probe_inventory_find(inv, "sda"), &use));
		T_CHECK(use.what == PROBE_INUSE_HELD && !strcmp(use.dev->kname, "sda1") &&
			!strcmp(use.holder->kname, "dm-0"));
		T_CHECK(probe_blkdev_in_use(inv, probe_inventory_find(inv, "dm-0"), &use));
		T_CHECK(use.what == PROBE_INUSE_ROOT);
		T_CHECK(probe_blkdev_in_use(inv, probe_inventory_find(inv, "nvme0n1"), &use));
		T_CHECK(use.what == PROBE_INUSE_MOUNTED && !strcmp(use.mountpoint, "/srv/my data"));
	}
	d = probe_inventory_find(inv, "loop0");
	T_CHECK(d && !strcmp(d->backing_file, "/srv/disk image.img"));
	T_CHECK(d && d->n_mountpoints == 1 && !strcmp(d->mountpoints[0], "[SWAP]"));

	T_EQ_STR(inv->board.model, "Raspberry Pi Compute Module 4 Rev 1.0");
	T_EQ_STR(inv->board.kernel, "6.6.51+rpt-rpi-v8");
	T_EQ_STR(inv->cmdline_txt, "/boot/firmware/cmdline.txt");

	/* hostile values are unknown, never garbage in the output */
	for (i = 0; i < inv->n_all; i++) {
		d = inv->all[i];
		T_CHECK(str_is_clean_utf8(d->name) && str_is_clean_utf8(d->model) &&
			str_is_clean_utf8(d->vendor) && str_is_clean_utf8(d->serial));
		if (!strcmp(d->kname, "sdz")) {
			T_CHECK(!d->has_size && !d->has_devno && !d->has_read_only);
			T_EQ_STR(d->model, "");
			T_EQ_STR(d->vendor, "??AB");
		}
	}
}

static void check_json(struct inventory *inv)
{
	struct json_object *doc = list_inventory_to_json(inv), *o, *dev;

	T_CHECK(json_object_object_get_ex(doc, "schema", &o) && json_object_get_int(o) == 1);
	T_CHECK(json_object_object_get_ex(doc, "root", &o) &&
		!strcmp(json_object_get_string(json_object_object_get(o, "device")), "vg-root"));
	T_CHECK(json_object_object_get_ex(doc, "devices", &o) &&
		json_object_array_length(o) == inv->n_top);
	dev = list_device_to_json(probe_inventory_find(inv, "sda"));
	T_CHECK(json_object_object_get_ex(dev, "usb", &o) &&
		json_object_get_int(json_object_object_get(o, "speed_mbps")) == 5000 &&
		json_object_array_length(json_object_object_get(o, "hubs")) == 2);
	T_CHECK(json_object_object_get_ex(dev, "mmc", &o) && o == NULL);
	T_CHECK(json_object_object_get_ex(dev, "children", &o) && json_object_array_length(o) == 1);
	json_object_put(dev);
	json_object_put(doc);
}

/* Holders in 16 layers of two, each holding both of the layer below: 2^16 paths through the
 * tree. The renderers must stop at their caps instead of running for minutes. */
static void build_fanout_tree(void)
{
	char dir[PATH_MAX], val[64], lnk[PATH_MAX];
	int layer, i, j;

	for (layer = 0; layer < 16; layer++) {
		for (i = 0; i < 2; i++) {
			int n = layer * 2 + i;

			str_fmt(dir, sizeof(dir), "sys/devices/virtual/block/dm-%d", n);
			str_fmt(val, sizeof(val), "253:%d\n", n);
			block(dir, val, "2048\n");
			str_fmt(val, sizeof(val), "layer%d-%d\n", layer, i);
			attr(dir, "dm/name", val);
			str_fmt(lnk, sizeof(lnk), "sys/block/dm-%d", n);
			str_fmt(val, sizeof(val), "../devices/virtual/block/dm-%d", n);
			t_tree_link(val, lnk);
			for (j = 0; layer && j < 2; j++) {
				str_fmt(lnk, sizeof(lnk), "%s/slaves/dm-%d", dir,
					(layer - 1) * 2 + j);
				str_fmt(val, sizeof(val), "../../dm-%d", (layer - 1) * 2 + j);
				t_tree_link(val, lnk);
			}
		}
	}
}

/* In use: the root's disk through its partition's holder, swap, a mount, and a loop device
 * over a partition (no holder: only its backing file names the partition); a loop device
 * that nothing uses leaves its disk free. */
static void check_in_use(void)
{
	const char *v = "sys/devices/virtual/block";
	struct inventory *inv = NULL;
	struct probe_inuse use;
	struct sysroot *sr;
	char d[PATH_MAX];

	t_tree_new("t-inventory");
	str_fmt(d, sizeof(d), "%s/sdb", v);
	block(d, "8:16\n", "2097152\n");
	str_fmt(d, sizeof(d), "%s/sdb/sdb1", v);
	part(d, "1\n", "8:17\n", "1048576\n");
	str_fmt(d, sizeof(d), "%s/sdc", v);
	block(d, "8:32\n", "2097152\n");
	str_fmt(d, sizeof(d), "%s/loop2", v);
	block(d, "7:2\n", "1048576\n");
	attr(d, "loop/backing_file", "/dev/sdb1\n");
	str_fmt(d, sizeof(d), "%s/loop3", v);
	block(d, "7:3\n", "2097152\n");
	attr(d, "loop/backing_file", "/dev/sdc\n");
	str_fmt(d, sizeof(d), "%s/loop4", v);
	block(d, "7:4\n", "2048\n");
	attr(d, "loop/backing_file", "/srv/swap.img\n");
	t_tree_link("../devices/virtual/block/sdb", "sys/block/sdb");
	t_tree_link("../devices/virtual/block/sdc", "sys/block/sdc");
	t_tree_link("../devices/virtual/block/loop2", "sys/block/loop2");
	t_tree_link("../devices/virtual/block/loop3", "sys/block/loop3");
	t_tree_link("../devices/virtual/block/loop4", "sys/block/loop4");
	t_tree_put("proc/self/mountinfo", "40 1 7:2 / /mnt/over rw - ext4 /dev/loop2 rw\n");
	t_tree_put("proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n"
				 "/dev/loop4 partition 1020 0 -2\n");
	T_EQ_INT(sysroot_open(t_root, &sr), 0);
	T_EQ_INT(probe_inventory_load(sr, &inv), 0);
	if (inv) {
		T_CHECK(probe_blkdev_in_use(inv, probe_inventory_find(inv, "sdb"), &use));
		T_CHECK(use.what == PROBE_INUSE_MOUNTED && !strcmp(use.dev->kname, "loop2") &&
			!strcmp(use.mountpoint, "/mnt/over"));
		T_CHECK(probe_blkdev_in_use(inv, probe_inventory_find(inv, "loop4"), &use));
		T_CHECK(use.what == PROBE_INUSE_SWAP && !strcmp(use.dev->kname, "loop4"));
		T_CHECK(!probe_blkdev_in_use(inv, probe_inventory_find(inv, "sdc"), &use));
		T_CHECK(use.what == PROBE_INUSE_NONE);
	}
	probe_inventory_free(inv);
	sysroot_free(sr);
	t_tree_remove();
}

int main(void)
{
	struct inventory *inv = NULL;
	struct sysroot *sr;
	char p[PATH_MAX];
	int manual;

	t_tree_new("t-inventory");
	/* an empty directory is no usable sysroot */
	T_EQ_INT(sysroot_open(t_root, &sr), 0);
	T_EQ_INT(probe_inventory_load(sr, &inv), -ENOENT);
	T_CHECK(inv == NULL);
	sysroot_free(sr);

	build_tree();
	for (manual = 0; manual <= 1; manual++) {
		T_EQ_INT(sysroot_open(t_root, &sr), 0);
		sysroot_set_manual_resolve(sr, manual);
		T_EQ_INT(probe_inventory_load(sr, &inv), 0);
		if (inv) {
			check_inventory(inv);
			check_json(inv);
		}
		probe_inventory_free(inv);
		inv = NULL;
		sysroot_free(sr);
	}

	/* a FIFO where mountinfo and usb.ids belong must not block */
	t_tree_path("proc/self/mountinfo", p, sizeof(p));
	unlink(p);
	mkfifo(p, 0600);
	t_tree_mkdirs("usr/share/misc");
	t_tree_path("usr/share/misc/usb.ids", p, sizeof(p));
	mkfifo(p, 0600);
	T_EQ_INT(sysroot_open(t_root, &sr), 0);
	T_EQ_INT(probe_inventory_load(sr, &inv), 0);
	T_CHECK(inv && !inv->root);
	if (inv) {
		struct blkdev *d = probe_inventory_find(inv, "sda");

		T_CHECK(d && d->usb && !strcmp(d->usb->ids_vendor, "ASMedia Technology Inc."));
	}
	probe_inventory_free(inv);
	sysroot_free(sr);
	t_tree_remove();

	t_tree_new("t-inventory");
	build_fanout_tree();
	T_EQ_INT(sysroot_open(t_root, &sr), 0);
	T_EQ_INT(probe_inventory_load(sr, &inv), 0);
	T_CHECK(inv && inv->n_all == 32 && inv->n_top == 2);
	if (inv) {
		struct json_object *doc = list_inventory_to_json(inv);
		FILE *devnull = fopen("/dev/null", "w");
		int ids[LIST_COLUMNS_MAX];
		size_t n = list_columns_default(ids, LIST_COLUMNS_MAX);

		T_CHECK(doc != NULL);
		json_object_put(doc);
		T_EQ_INT(list_table_print(inv, ids, n, false, false, devnull), 0);
		fclose(devnull);
	}
	probe_inventory_free(inv);
	sysroot_free(sr);
	t_tree_remove();
	check_in_use();
	return t_done();
}
