/* t-order.c - BOOT_ORDER decoding (every nibble), the order from names and its refusals, the
 * EEPROM configuration text (parse and BOOT_ORDER rewrite), extlinux.conf and grub.cfg. */
#include <errno.h>

#include "boot/boot.h"
#include "common/sbuf.h"
#include "t.h"

static void test_nibbles(void)
{
	/* eeprom-bootloader.adoc's table: every nibble on its own, then restart */
	static const struct {
		unsigned nibble;
		const char *name;
	} want[] = {
		{ 0x0, "sd-detect" }, { 0x1, "sd" },	  { 0x2, "network" }, { 0x3, "rpiboot" },
		{ 0x4, "usb-msd" },   { 0x5, "bcm-usb-msd" }, { 0x6, "nvme" },	  { 0x7, "http" },
	};
	struct boot_order bo;
	unsigned i;
	char text[16];

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		T_EQ_STR(boot_mode_name(want[i].nibble), want[i].name);
		T_CHECK(boot_mode_words(want[i].nibble) != NULL);
		snprintf(text, sizeof(text), "0xf%x", want[i].nibble);
		T_EQ_INT(boot_order_parse(text, &bo), 0);
		T_EQ_INT(bo.n, 1);
		T_EQ_INT(bo.modes[0], want[i].nibble);
		T_EQ_INT(bo.then, BOOT_THEN_RESTART);
		T_CHECK(!bo.has_unknown);
	}
	/* 8-d are no modes: skipped and flagged; e stops, f restarts */
	for (i = 0x8; i <= 0xd; i++) {
		T_CHECK(boot_mode_name(i) == NULL);
		snprintf(text, sizeof(text), "0xf1%x", i);
		T_EQ_INT(boot_order_parse(text, &bo), 0);
		T_CHECK(bo.has_unknown);
		T_EQ_INT(bo.n, 1);
		T_EQ_INT(bo.modes[0], 1);
	}
	T_CHECK(boot_mode_name(0xe) == NULL);
	T_CHECK(boot_mode_name(0xf) == NULL);
	T_EQ_INT(boot_order_parse("0xe41", &bo), 0);
	T_EQ_INT(bo.then, BOOT_THEN_STOP);
	T_EQ_INT(bo.n, 2);
	/* modes after the restart are never reached */
	T_EQ_INT(boot_order_parse("0x4f1", &bo), 0);
	T_EQ_INT(bo.n, 1);
	T_EQ_INT(bo.then, BOOT_THEN_RESTART);
}

static void test_orders(void)
{
	struct boot_order bo;
	char words[256];

	/* the example and the documented ones */
	T_EQ_INT(boot_order_parse("0xf461", &bo), 0);
	T_EQ_INT(bo.value, 0xf461);
	T_EQ_INT(bo.n, 3);
	T_EQ_INT(bo.modes[0], BOOT_MODE_SD);
	T_EQ_INT(bo.modes[1], BOOT_MODE_NVME);
	T_EQ_INT(bo.modes[2], BOOT_MODE_USB_MSD);
	boot_order_describe(&bo, words, sizeof(words));
	T_EQ_STR(words, "SD card, then NVMe, then USB mass storage, then start again");
	T_EQ_INT(boot_order_parse("F14", &bo), 0);
	T_EQ_INT(bo.modes[0], BOOT_MODE_USB_MSD);
	T_EQ_INT(boot_order_parse(" 0xf416 ", &bo), 0);
	T_EQ_INT(bo.modes[0], BOOT_MODE_NVME);
	/* no restart digit: the list just ends */
	T_EQ_INT(boot_order_parse("0x41", &bo), 0);
	T_EQ_INT(bo.n, 2);
	T_EQ_INT(bo.then, BOOT_THEN_NONE);
	boot_order_describe(&bo, words, sizeof(words));
	T_EQ_STR(words, "SD card, then USB mass storage");
	/* written leading zeros are SD-detect modes; a value's own zeros are not written */
	T_EQ_INT(boot_order_parse("0x041", &bo), 0);
	T_EQ_INT(bo.n, 3);
	T_EQ_INT(bo.modes[2], BOOT_MODE_SD_DETECT);
	boot_order_decode(0x41, &bo);
	T_EQ_INT(bo.n, 2);
	T_EQ_INT(boot_order_parse("0x0", &bo), 0);
	T_EQ_INT(bo.n, 1);
	T_EQ_INT(bo.modes[0], BOOT_MODE_SD_DETECT);
	/* a comment after the value: the value is read, not the default */
	T_EQ_INT(boot_order_parse("0xf14 # usb", &bo), 0);
	T_EQ_INT(bo.value, 0xf14);
	T_EQ_INT(boot_order_parse("0xf41\t# SD first, then USB mass storage, then again", &bo), 0);
	T_EQ_INT(bo.value, 0xf41);
	T_EQ_INT(boot_order_parse("0xf14#usb", &bo), 0);
	T_EQ_INT(bo.value, 0xf14);
	T_EQ_INT(boot_order_parse("0xf14 usb", &bo), -EINVAL);
	T_EQ_INT(boot_order_parse("# 0xf14", &bo), -EINVAL);
	/* garbage */
	T_EQ_INT(boot_order_parse("", &bo), -EINVAL);
	T_EQ_INT(boot_order_parse("0x", &bo), -EINVAL);
	T_EQ_INT(boot_order_parse("0xf4g1", &bo), -EINVAL);
	T_EQ_INT(boot_order_parse("0x123456789", &bo), -EINVAL);
	T_EQ_INT(boot_order_parse("-1", &bo), -EINVAL);
	/* eight digits, all used */
	T_EQ_INT(boot_order_parse("0x76543210", &bo), 0);
	T_EQ_INT(bo.n, 8);
	T_EQ_INT(bo.modes[7], BOOT_MODE_HTTP);
	boot_order_describe(&bo, words, 20);
	T_CHECK(strlen(words) < 20);
}

static void test_from_names(void)
{
	struct boot_order bo;
	char why[200];

	T_EQ_INT(boot_order_from_names("nvme,usb,sd", BOOT_SOC_2712, false, false, 0, &bo, why,
				       sizeof(why)), 0);
	T_EQ_INT(bo.value, 0xf146); /* raspi-config's "NVMe/USB" on a Pi 5 */
	T_EQ_INT(boot_order_from_names("sd,usb", BOOT_SOC_2711, false, true, 0x7f, &bo, why,
				       sizeof(why)), 0);
	T_EQ_INT(bo.value, 0xf41);
	T_EQ_INT(boot_order_from_names("usb,sd", BOOT_SOC_2711, false, false, 0, &bo, why,
				       sizeof(why)), 0);
	T_EQ_INT(bo.value, 0xf14);
	T_EQ_INT(boot_order_from_names("nvme,sd,usb", BOOT_SOC_2711, true, true, 0x7f, &bo, why,
				       sizeof(why)), 0);
	T_EQ_INT(bo.value, 0xf416);
	/* refusals */
	T_EQ_INT(boot_order_from_names("nvme,usb,sd", BOOT_SOC_2711, false, true, 0x7f, &bo, why,
				       sizeof(why)), -EINVAL);
	T_CHECK(strstr(why, "Pi 4") != NULL);
	T_EQ_INT(boot_order_from_names("nvme,sd", BOOT_SOC_2711, true, true, 0x3f, &bo, why,
				       sizeof(why)), -EINVAL);
	T_CHECK(strstr(why, "capabilities") != NULL);
	T_EQ_INT(boot_order_from_names("bcm-usb,sd", BOOT_SOC_2712, false, false, 0, &bo, why,
				       sizeof(why)), -EINVAL);
	T_CHECK(strstr(why, "Pi 5") != NULL);
	T_EQ_INT(boot_order_from_names("sd,floppy", BOOT_SOC_2712, false, false, 0, &bo, why,
				       sizeof(why)), -EINVAL);
	T_CHECK(strstr(why, "floppy") != NULL);
	T_EQ_INT(boot_order_from_names("sd,usb,sd", BOOT_SOC_2712, false, false, 0, &bo, why,
				       sizeof(why)), -EINVAL);
	T_EQ_INT(boot_order_from_names("", BOOT_SOC_2712, false, false, 0, &bo, why,
				       sizeof(why)), -EINVAL);
	T_EQ_INT(boot_order_from_names("sd,", BOOT_SOC_2712, false, false, 0, &bo, why,
				       sizeof(why)), -EINVAL);
	T_EQ_INT(boot_order_from_names("sd", BOOT_SOC_NONE, false, false, 0, &bo, why,
				       sizeof(why)), -EINVAL);
	T_EQ_INT(boot_order_from_names("sd,usb,nvme,network,http,rpiboot,bcm-usb",
				       BOOT_SOC_2711, true, true, 0xff, &bo, why, sizeof(why)), 0);
	T_EQ_INT(bo.value, 0xf5372641u);
}

static void test_eeprom(void)
{
	static const char text[] = "[all]\nBOOT_UART=0\nBOOT_ORDER=0xf41\n\n[pi5]\n"
				   "BOOT_ORDER=0xf2\n[all]\n PCIE_PROBE = 1 \n# BOOT_ORDER=0x1\n";
	struct boot_eeprom e;
	struct sbuf out = SBUF_INIT(4096);
	size_t line;
	bool replaced;

	boot_eeprom_parse(text, sizeof(text) - 1, &e);
	T_EQ_STR(boot_eeprom_get(&e, "BOOT_ORDER"), "0xf41"); /* [pi5] is conditional */
	T_EQ_STR(boot_eeprom_get(&e, "PCIE_PROBE"), "1");
	T_CHECK(!e.order.is_default);
	T_EQ_INT(e.order.value, 0xf41);
	T_CHECK(boot_eeprom_key_help("PCIE_PROBE") != NULL);
	T_CHECK(boot_eeprom_key_help("BOOT_UART") == NULL);
	boot_eeprom_parse("BOOT_UART=0\n", 12, &e);
	T_CHECK(e.order.is_default);
	T_EQ_INT(e.order.value, BOOT_ORDER_DEFAULT);
	boot_eeprom_parse("BOOT_ORDER=banana\n", 18, &e);
	T_CHECK(e.order.is_default);
	T_CHECK(e.bad_order);

	/* the BOOT_ORDER in force is replaced, the conditional one is left alone */
	T_EQ_INT(boot_eeprom_set_order(text, sizeof(text) - 1, 0xf146, &out, &line, &replaced),
		 0);
	T_CHECK(replaced);
	T_EQ_INT(line, 2);
	T_EQ_STR(sbuf_str(&out), "[all]\nBOOT_UART=0\nBOOT_ORDER=0xf146\n\n[pi5]\n"
				 "BOOT_ORDER=0xf2\n[all]\n PCIE_PROBE = 1 \n# BOOT_ORDER=0x1\n");
	/* none yet: added at the end of [all], before a conditional section */
	T_EQ_INT(boot_eeprom_set_order("[all]\nBOOT_UART=0\n[pi4]\nX=1\n", 28, 0xf14, &out, &line,
				       &replaced), 0);
	T_CHECK(!replaced);
	T_EQ_INT(line, 2);
	T_EQ_STR(sbuf_str(&out), "[all]\nBOOT_UART=0\nBOOT_ORDER=0xf14\n[pi4]\nX=1\n");
	/* no final newline, no section */
	T_EQ_INT(boot_eeprom_set_order("BOOT_UART=0", 11, 0xf14, &out, &line, &replaced), 0);
	T_EQ_STR(sbuf_str(&out), "BOOT_UART=0\nBOOT_ORDER=0xf14\n");
	T_EQ_INT(boot_eeprom_set_order("", 0, 0xf41, &out, &line, &replaced), 0);
	T_EQ_STR(sbuf_str(&out), "[all]\nBOOT_ORDER=0xf41\n");
	sbuf_release(&out);
}

static void test_loaders(void)
{
	static const char ext[] = "TIMEOUT 30\nDEFAULT primary\n\nLABEL backup\n APPEND "
				  "root=/dev/mmcblk0p1 rw\nLABEL primary\n      LINUX /boot/Image\n"
				  "      APPEND ${cbootargs} root=PARTUUID=abcd-02 rw rootwait\n";
	static const char grub[] = "menuentry 'Debian' {\n\tlinux\t/vmlinuz-6.1 "
				   "root=UUID=0d4a0c5e-aaaa ro quiet\n\tinitrd /initrd.img\n}\n";
	char root[128];

	T_EQ_INT(boot_extlinux_root(ext, sizeof(ext) - 1, root, sizeof(root)), 0);
	T_EQ_STR(root, "PARTUUID=abcd-02");
	T_EQ_INT(boot_extlinux_root("LABEL a\nAPPEND quiet root=/dev/sda2\n", 36, root,
				    sizeof(root)), 0);
	T_EQ_STR(root, "/dev/sda2");
	T_EQ_INT(boot_extlinux_root("TIMEOUT 3\n", 10, root, sizeof(root)), -ENOENT);
	T_EQ_INT(boot_extlinux_root("APPEND quiet\n", 13, root, sizeof(root)), 0);
	T_EQ_STR(root, "");
	T_EQ_INT(boot_grub_root(grub, sizeof(grub) - 1, root, sizeof(root)), 0);
	T_EQ_STR(root, "UUID=0d4a0c5e-aaaa");
	T_EQ_INT(boot_grub_root("set default=0\n", 14, root, sizeof(root)), -ENOENT);
}

int main(void)
{
	bool cm;

	test_nibbles();
	test_orders();
	test_from_names();
	test_eeprom();
	test_loaders();
	T_EQ_INT(boot_soc_from_model("Raspberry Pi 5 Model B Rev 1.0", &cm), BOOT_SOC_2712);
	T_EQ_INT(boot_soc_from_model("Raspberry Pi Compute Module 4 Rev 1.1", &cm), BOOT_SOC_2711);
	T_CHECK(cm);
	T_EQ_INT(boot_soc_from_model("Raspberry Pi 3 Model B Plus Rev 1.3", &cm),
		 BOOT_SOC_OLDER_PI);
	T_EQ_INT(boot_soc_from_model("Jetson AGX Orin", &cm), BOOT_SOC_NONE);
	return t_done();
}
