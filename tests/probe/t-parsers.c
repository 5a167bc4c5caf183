/* t-parsers.c - every probe parser on real kernel formats, old and new, and on garbage:
 * PCIe/USB speeds, bcdUSB, bMaxPower, sysfs names, SSR, debugfs ios, mountinfo, udev, usb.ids. */
#include <errno.h>
#include <stdio.h>

#include "probe/probe.h"
#include "common/util.h"
#include "t.h"

static void test_pcie_speed(void)
{
	double g = 0;

	T_EQ_INT(probe_pcie_speed_parse("8.0 GT/s PCIe", &g), 0);
	T_NEAR(g, 8.0, 1e-9);
	T_EQ_INT(probe_pcie_speed_parse("2.5 GT/s PCIe\n", &g), 0);
	T_NEAR(g, 2.5, 1e-9);
	T_EQ_INT(probe_pcie_speed_parse("16.0 GT/s PCIe", &g), 0);
	T_NEAR(g, 16.0, 1e-9);
	/* kernels up to 5.6 */
	T_EQ_INT(probe_pcie_speed_parse("5 GT/s", &g), 0);
	T_NEAR(g, 5.0, 1e-9);
	T_EQ_INT(probe_pcie_speed_parse("2.5 GT/s", &g), 0);
	T_NEAR(g, 2.5, 1e-9);
	T_EQ_INT(probe_pcie_speed_parse("Unknown", &g), -EINVAL);
	T_EQ_INT(probe_pcie_speed_parse("Unknown speed", &g), -EINVAL);
	T_EQ_INT(probe_pcie_speed_parse("", &g), -EINVAL);
	T_EQ_INT(probe_pcie_speed_parse("8.0 GB/s", &g), -EINVAL);
	T_EQ_INT(probe_pcie_speed_parse("-8 GT/s", &g), -EINVAL);
	T_EQ_INT(probe_pcie_speed_parse("1e309 GT/s", &g), -EINVAL);
	T_EQ_INT(probe_pcie_speed_parse("nan GT/s", &g), -EINVAL);
}

static void test_usb_fields(void)
{
	unsigned bcd = 0, ma = 0;
	double m = 0;
	char text[16];

	T_EQ_INT(probe_usb_speed_parse("480\n", &m), 0);
	T_NEAR(m, 480, 0);
	T_EQ_INT(probe_usb_speed_parse("1.5", &m), 0);
	T_NEAR(m, 1.5, 0);
	T_EQ_INT(probe_usb_speed_parse("20000", &m), 0);
	T_NEAR(m, 20000, 0);
	T_EQ_INT(probe_usb_speed_parse("unknown", &m), -EINVAL);
	T_EQ_INT(probe_usb_speed_parse("481", &m), -EINVAL);

	T_EQ_INT(probe_usb_version_parse(" 2.10", &bcd, text, sizeof(text)), 0);
	T_EQ_INT(bcd, 0x0210);
	T_EQ_STR(text, "2.10");
	T_EQ_INT(probe_usb_version_parse(" 3.00\n", &bcd, text, sizeof(text)), 0);
	T_EQ_INT(bcd, 0x0300);
	T_EQ_INT(probe_usb_version_parse("10.00", &bcd, text, sizeof(text)), 0);
	T_EQ_INT(bcd, 0x1000);
	T_EQ_INT(probe_usb_version_parse("3.1", &bcd, text, sizeof(text)), -EINVAL);
	T_EQ_INT(probe_usb_version_parse("x.00", &bcd, text, sizeof(text)), -EINVAL);
	T_EQ_INT(probe_usb_version_parse("-1.00", &bcd, text, sizeof(text)), -EINVAL);
	T_EQ_INT(probe_usb_version_parse("3.00junk", &bcd, text, sizeof(text)), -EINVAL);
	T_EQ_INT(probe_usb_version_parse("0.-3", &bcd, text, sizeof(text)), -EINVAL);
	T_EQ_INT(probe_usb_version_parse(".00", &bcd, text, sizeof(text)), -EINVAL);

	T_EQ_INT(probe_usb_power_parse("896mA", &ma), 0);
	T_EQ_INT(ma, 896);
	T_EQ_INT(probe_usb_power_parse("0mA\n", &ma), 0);
	T_EQ_INT(ma, 0);
	T_EQ_INT(probe_usb_power_parse("896", &ma), -EINVAL);
	T_EQ_INT(probe_usb_power_parse("mA", &ma), -EINVAL);
	T_EQ_INT(probe_usb_power_parse("99999999999mA", &ma), -EINVAL);
}

static void test_sata_speed(void)
{
	double g = 0;

	T_EQ_INT(probe_sata_speed_parse("6.0 Gbps\n", &g), 0);
	T_NEAR(g, 6.0, 0);
	T_EQ_INT(probe_sata_speed_parse("1.5 Gbps", &g), 0);
	T_NEAR(g, 1.5, 0);
	T_EQ_INT(probe_sata_speed_parse("<unknown>", &g), -EINVAL);
	T_EQ_INT(probe_sata_speed_parse("6 Gbps", &g), -EINVAL);
}

static void test_names(void)
{
	T_CHECK(probe_usb_name_is_device("2-1"));
	T_CHECK(probe_usb_name_is_device("1-1.3"));
	T_CHECK(probe_usb_name_is_device("4-1.3.2"));
	T_CHECK(!probe_usb_name_is_device("usb2"));
	T_CHECK(!probe_usb_name_is_device("2-1:1.0"));
	T_CHECK(!probe_usb_name_is_device("2-"));
	T_CHECK(!probe_usb_name_is_device("2-1."));
	T_CHECK(probe_usb_name_is_interface("2-1:1.0"));
	T_CHECK(probe_usb_name_is_interface("1-1.3:1.0"));
	T_CHECK(!probe_usb_name_is_interface("1-1.3:1"));
	T_CHECK(!probe_usb_name_is_interface("2-0:1.0x"));
	T_CHECK(probe_usb_name_is_root_hub("usb2"));
	T_CHECK(probe_usb_name_is_root_hub("usb10"));
	T_CHECK(!probe_usb_name_is_root_hub("usb"));
	T_CHECK(!probe_usb_name_is_root_hub("usb2a"));
	T_CHECK(probe_pci_name_is_function("0000:01:00.0"));
	T_CHECK(probe_pci_name_is_function("0004:01:00.0"));
	T_CHECK(probe_pci_name_is_function("10000:00:1f.7"));
	T_CHECK(!probe_pci_name_is_function("pci0000:00"));
	T_CHECK(!probe_pci_name_is_function("0000:01:00.8"));
	T_CHECK(!probe_pci_name_is_function("0000:01:00"));
	T_CHECK(!probe_pci_name_is_function("nvme0"));
}

/* Put value into bits [hi:hi-width+1] of a 512-bit register kept as 64 bytes, bit 511 first. */
static void ssr_put(unsigned char *r, unsigned hi, unsigned width, unsigned value)
{
	unsigned i;

	for (i = 0; i < width; i++) {
		unsigned bit = hi - i, pos = 511 - bit;

		if ((value >> (width - 1 - i)) & 1)
			r[pos / 8] |= (unsigned char)(0x80 >> (pos % 8));
	}
}

static void ssr_hex(const unsigned char *r, char *hex)
{
	int i;

	for (i = 0; i < 64; i++)
		str_fmt(hex + 2 * i, 3, "%02x", r[i]);
}

static void test_ssr(void)
{
	unsigned char r[64] = { 0 };
	struct probe_mmc m = { .has_speed_class = false };
	char hex[129], spaced[200];
	int i;

	ssr_put(r, 447, 8, 4);  /* Class 10 */
	ssr_put(r, 399, 4, 3);  /* U3 */
	ssr_put(r, 391, 8, 30); /* V30 */
	ssr_put(r, 339, 4, 2);  /* A2 */
	ssr_put(r, 431, 4, 9);  /* AU_SIZE, must not leak into the others */
	ssr_hex(r, hex);
	T_EQ_INT(probe_mmc_ssr_decode(hex, &m), 0);
	T_CHECK(m.has_speed_class && m.speed_class == 10);
	T_CHECK(m.has_uhs_grade && m.uhs_grade == 3);
	T_CHECK(m.has_video_class && m.video_class == 30);
	T_CHECK(m.has_app_class && m.app_class == 2);

	/* the kernel's 16 x %08x, here with separators as some tools print it */
	for (i = 0; i < 16; i++)
		str_fmt(spaced + 9 * i, 10, "%.8s ", hex + 8 * i);
	memset(&m, 0, sizeof(m));
	T_EQ_INT(probe_mmc_ssr_decode(spaced, &m), 0);
	T_EQ_INT(m.speed_class, 10);

	/* reserved codes stay unknown */
	memset(r, 0, sizeof(r));
	memset(&m, 0, sizeof(m));
	ssr_put(r, 447, 8, 7);
	ssr_put(r, 399, 4, 2);
	ssr_put(r, 391, 8, 5);
	ssr_put(r, 339, 4, 9);
	ssr_put(r, 7, 8, 1); /* not all zero */
	ssr_hex(r, hex);
	T_EQ_INT(probe_mmc_ssr_decode(hex, &m), 0);
	T_CHECK(!m.has_speed_class && !m.has_uhs_grade && !m.has_video_class && !m.has_app_class);

	/* all zero: the host could not read the register */
	memset(hex, '0', 128);
	hex[128] = '\0';
	T_EQ_INT(probe_mmc_ssr_decode(hex, &m), -ENODATA);
	T_EQ_INT(probe_mmc_ssr_decode("1234", &m), -EINVAL);
	hex[5] = 'g';
	T_EQ_INT(probe_mmc_ssr_decode(hex, &m), -EINVAL);
}

static void test_ios(void)
{
	struct probe_mmc m = { .has_clock = false };
	const char *ios = "clock:\t\t50000000 Hz\nactual clock:\t49999999 Hz\n"
			  "vdd:\t\t21 (3.3 ~ 3.4 V)\nbus mode:\t2 (push-pull)\n"
			  "bus width:\t2 (4 bits)\ntiming spec:\t7 (sd uhs DDR50)\n"
			  "signal voltage:\t1 (1.80 V)\n";

	T_EQ_INT(probe_mmc_ios_parse(ios, &m), 0);
	T_EQ_STR(m.timing, "sd uhs DDR50");
	T_CHECK(m.has_clock && m.clock_hz == 50000000);
	T_CHECK(m.has_bus_width && m.bus_width == 4);
	memset(&m, 0, sizeof(m));
	T_EQ_INT(probe_mmc_ios_parse("timing spec:\t9 (mmc HS200)", &m), 0);
	T_EQ_STR(m.timing, "mmc HS200");
	memset(&m, 0, sizeof(m));
	T_EQ_INT(probe_mmc_ios_parse("garbage\n\n:::\ntiming spec: ()", &m), -EINVAL);
	T_EQ_STR(m.timing, "");
}

static void test_mountinfo(void)
{
	struct probe_mountinfo_entry e;
	char s[64];

	T_EQ_INT(probe_mountinfo_parse_line("79 2 8:4 / / rw,relatime shared:1 - ext4 /dev/sda4 rw\n",
					    &e),
		 0);
	T_EQ_INT(e.major, 8);
	T_EQ_INT(e.minor, 4);
	T_EQ_STR(e.mountpoint, "/");
	T_EQ_STR(e.fstype, "ext4");
	T_EQ_STR(e.source, "/dev/sda4");
	T_EQ_STR(e.super_opts, "rw");
	/* an overlay's directories are in its super options */
	T_EQ_INT(probe_mountinfo_parse_line("40 1 0:45 / /ov rw - overlay overlay "
					    "rw,lowerdir=/l1:/l2,upperdir=/u,workdir=/w\n", &e),
		 0);
	T_EQ_INT(e.major, 0);
	T_EQ_INT(e.minor, 45);
	T_EQ_STR(e.fstype, "overlay");
	T_EQ_STR(e.super_opts, "rw,lowerdir=/l1:/l2,upperdir=/u,workdir=/w");
	/* no optional fields; an escaped space in the mount point */
	T_EQ_INT(probe_mountinfo_parse_line(
			 "30 25 179:1 / /media/My\\040Disk rw - vfat /dev/mmcblk0p1 rw", &e),
		 0);
	T_EQ_STR(e.mountpoint, "/media/My Disk");
	T_EQ_INT(probe_mountinfo_parse_line(
			 "861 79 8:33 / /mnt/test rw shared:994 master:3 - bcachefs "
			 "/dev/sdc1:/dev/sdc2 rw",
			 &e),
		 0);
	T_EQ_STR(e.source, "/dev/sdc1:/dev/sdc2");
	T_EQ_INT(probe_mountinfo_parse_line("1 2 8:4 / /", &e), -EINVAL);
	T_EQ_INT(probe_mountinfo_parse_line("1 2 x:y / / rw - ext4 /dev/sda rw", &e), -EINVAL);
	T_EQ_INT(probe_mountinfo_parse_line("1 2 8:4 / / rw shared:1 ext4 /dev/sda", &e), -EINVAL);
	T_EQ_INT(probe_mountinfo_parse_line("", &e), -EINVAL);

	str_copy(s, sizeof(s), "a\\011b\\012c\\134d\\0");
	probe_mount_unescape(s);
	T_EQ_STR(s, "a\tb\nc\\d\\0");
	str_copy(s, sizeof(s), "x\\000y\\9");
	probe_mount_unescape(s);
	T_EQ_STR(s, "x\\000y\\9"); /* a NUL would cut the string: kept as text */
}

static void test_udev(void)
{
	struct probe_udev_props p = { .any = false };
	char s[64];

	probe_udev_parse_line("E:ID_FS_TYPE=vfat\n", &p);
	probe_udev_parse_line("E:ID_FS_LABEL=My_Disk", &p);
	probe_udev_parse_line("E:ID_FS_LABEL_ENC=My\\x20Disk", &p);
	probe_udev_parse_line("E:ID_FS_LABEL=later_worse", &p);
	probe_udev_parse_line("E:ID_FS_UUID=592B-C92C", &p);
	probe_udev_parse_line("E:ID_PART_ENTRY_UUID=738a4d67-01", &p);
	probe_udev_parse_line("S:disk/by-label/My\\x20Disk", &p);
	probe_udev_parse_line("I:2886206", &p);
	/* the KEY=VALUE form of util-linux's captured trees */
	probe_udev_parse_line("ID_MODEL=KINGSTON_SH103S3240G", &p);
	T_EQ_STR(p.model, "KINGSTON_SH103S3240G");
	probe_udev_parse_line("ID_MODEL_ENC=KINGSTON\\x20SH103S3240G\\x20\\x20\\x20", &p);
	probe_udev_parse_line("ID_SERIAL=KINGSTON_SH103S3240G_50026B724B09A1FF", &p);
	probe_udev_parse_line("ID_SERIAL_SHORT=50026B724B09A1FF", &p);
	probe_udev_parse_line("ID_REVISION=580ABBF0", &p);
	T_CHECK(p.any);
	T_EQ_STR(p.fstype, "vfat");
	T_EQ_STR(p.label, "My Disk");
	T_EQ_STR(p.uuid, "592B-C92C");
	T_EQ_STR(p.partuuid, "738a4d67-01");
	T_EQ_STR(p.model, "KINGSTON SH103S3240G");
	T_EQ_STR(p.serial, "50026B724B09A1FF");
	T_EQ_STR(p.revision, "580ABBF0");

	memset(&p, 0, sizeof(p));
	probe_udev_parse_line("E:ID_FS_LABEL_ENC=bad\\xff\\xfeutf8", &p);
	T_EQ_STR(p.label, "bad??utf8");
	probe_udev_parse_line("E:ID_FS_TYPE=", &p);
	T_EQ_STR(p.fstype, "");
	probe_udev_parse_line("no equals sign", &p);

	memset(&p, 0, sizeof(p));
	probe_udev_parse_line("E:ID_MODEL=WDC\\x20WDS500G2B0C-00PXH0", &p);
	T_EQ_STR(p.model, "WDC WDS500G2B0C-00PXH0");

	str_copy(s, sizeof(s), "a\\x2fb\\x00c\\xzz");
	probe_udev_unhex(s);
	T_EQ_STR(s, "a/b\\x00c\\xzz");
}

static void test_usbids(void)
{
	static const char ids[] = "# usb.ids\n"
				  "#\tcomment\n"
				  "1d6b  Linux Foundation\n"
				  "\t0002  2.0 root hub\n"
				  "152d  JMicron Technology Corp. / JMicron USA Technology Corp.\n"
				  "\t0567  JMS567 SATA 6Gb/s bridge\n"
				  "\t0578  JMS567 SATA 6Gb/s bridge\n"
				  "\t\t00  an interface line\n"
				  "174c  ASMedia Technology Inc.\n"
				  "\t55aa  ASM1051E SATA 6Gb/s bridge\n"
				  "C 00  (Defined at Interface level)\n"
				  "\t01  Audio\n";
	char v[128], p[128];
	FILE *f;

	f = fmemopen((void *)ids, sizeof(ids) - 1, "r");
	T_EQ_INT(probe_usbids_lookup(f, 0x152d, 0x0578, v, sizeof(v), p, sizeof(p)), 0);
	T_EQ_STR(v, "JMicron Technology Corp. / JMicron USA Technology Corp.");
	T_EQ_STR(p, "JMS567 SATA 6Gb/s bridge");
	fclose(f);
	f = fmemopen((void *)ids, sizeof(ids) - 1, "r");
	T_EQ_INT(probe_usbids_lookup(f, 0x152d, 0x9999, v, sizeof(v), p, sizeof(p)), 0);
	T_EQ_STR(p, "");
	fclose(f);
	f = fmemopen((void *)ids, sizeof(ids) - 1, "r");
	T_EQ_INT(probe_usbids_lookup(f, 0xdead, 0x0001, v, sizeof(v), p, sizeof(p)), -ENOENT);
	T_EQ_STR(v, "");
	fclose(f);
}

static void test_tables(void)
{
	T_EQ_STR(probe_bridge_name(0x152d, 0x0578), "JMicron JMS567/JMS578");
	T_CHECK(probe_bridge_name(0x174c, 0x55aa) != NULL);
	T_CHECK(probe_bridge_name(0x1d6b, 0x0002) == NULL);
	T_EQ_STR(probe_mmc_maker_name(PROBE_MMC_SD, 0x03), "SanDisk");
	T_EQ_STR(probe_mmc_maker_name(PROBE_MMC_MMC, 0x15), "Samsung");
	T_CHECK(probe_mmc_maker_name(PROBE_MMC_SD, 0x15) == NULL);
	T_CHECK(probe_mmc_maker_name(PROBE_MMC_UNKNOWN, 0x03) == NULL);
	T_EQ_STR(probe_transport_name(PROBE_TRAN_USB), "usb");
	T_CHECK(probe_transport_name(PROBE_TRAN_UNKNOWN) == NULL);
}

static void test_attachment(void)
{
	struct probe_usb u = { .has_ids = true, .has_speed = true, .speed_mbps = 480 };
	struct probe_pcie p = {
		.has_link_speed = true, .link_speed_gts = 2.5, .has_link_width = true,
		.link_width = 1, .has_max_link_speed = true, .max_link_speed_gts = 8,
		.has_max_link_width = true, .max_link_width = 4, .has_port_max_link_speed = true,
		.port_max_link_speed_gts = 16, .has_port_max_link_width = true,
		.port_max_link_width = 4,
	};
	struct probe_nvme n = { .transport = "pcie" };
	struct probe_mmc m = {
		.type_id = PROBE_MMC_SD, .manufacturer = "SanDisk", .name = "SC64G",
		.date = "06/2020", .has_speed_class = true, .speed_class = 10,
		.has_uhs_grade = true, .uhs_grade = 1, .has_app_class = true, .app_class = 1,
	};
	struct blkdev d = { .is_partition = false };
	char buf[256];

	str_copy(u.vid, sizeof(u.vid), "152d");
	str_copy(u.pid, sizeof(u.pid), "0578");
	str_copy(u.driver, sizeof(u.driver), "uas");
	str_copy(u.bridge, sizeof(u.bridge), "JMicron JMS567/JMS578");
	u.n_hubs = 1;
	str_copy(u.hubs[0].vid, sizeof(u.hubs[0].vid), "2109");
	str_copy(u.hubs[0].pid, sizeof(u.hubs[0].pid), "3431");
	d.usb = &u;
	T_EQ_INT(probe_blkdev_attachment(&d, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "usb 480M uas 152d:0578 JMicron JMS567/JMS578 via hub 2109:3431");

	d.usb = NULL;
	d.nvme = &n;
	d.pcie = &p;
	T_EQ_INT(probe_blkdev_attachment(&d, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "nvme pcie 2.5 GT/s x1 (device max 8 GT/s x4, port max 16 GT/s x4)");
	p.has_port_max_link_speed = p.has_port_max_link_width = false;
	p.has_link_width = false;
	T_EQ_INT(probe_blkdev_attachment(&d, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "nvme pcie 2.5 GT/s (device max 8 GT/s x4)");

	d.nvme = NULL;
	d.pcie = NULL;
	d.mmc = &m;
	T_EQ_INT(probe_blkdev_attachment(&d, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "sd SanDisk SC64G 06/2020 class 10 U1 A1");
	str_copy(m.timing, sizeof(m.timing), "sd uhs DDR50");
	T_EQ_INT(probe_blkdev_attachment(&d, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "sd SanDisk SC64G 06/2020 class 10 U1 A1 DDR50");

	d.mmc = NULL;
	d.transport = PROBE_TRAN_LOOP;
	str_copy(d.backing_file, sizeof(d.backing_file), "/var/tmp/disk.img");
	T_EQ_INT(probe_blkdev_attachment(&d, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "loop /var/tmp/disk.img");
	/* a line that does not fit is cut and says so, never cut silently */
	T_EQ_INT(probe_blkdev_attachment(&d, buf, 16), 0);
	T_EQ_STR(buf, "loop /var/tm...");
	str_copy(d.backing_file, sizeof(d.backing_file), "/var/tmp/\xc3\xa9t\xc3\xa9.img");
	T_EQ_INT(probe_blkdev_attachment(&d, buf, 19), 0);
	T_EQ_STR(buf, "loop /var/tmp/?..."); /* half a character is no character */
	T_EQ_INT(probe_blkdev_attachment(&d, buf, 0), -EINVAL);
	d.is_partition = true;
	T_EQ_INT(probe_blkdev_attachment(&d, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "");
}

int main(void)
{
	test_pcie_speed();
	test_usb_fields();
	test_sata_speed();
	test_names();
	test_ssr();
	test_ios();
	test_mountinfo();
	test_udev();
	test_usbids();
	test_tables();
	test_attachment();
	return t_done();
}
