/* t-tryboot.c - whether a bootloader has tryboot (the SoC and the capabilities bit), and the
 * tryboot.txt and trial command line a move writes. */
#include <errno.h>
#include <string.h>

#include "boot/boot.h"
#include "common/sbuf.h"
#include "t.h"

static void test_offered(void)
{
	struct boot_facts f = { .soc = BOOT_SOC_2711, .has_caps = true, .caps = 0x7f };
	char why[256];

	T_CHECK(boot_tryboot_offered(&f, why, sizeof(why)));
	f.caps = 0x77; /* everything but tryboot */
	T_CHECK(!boot_tryboot_offered(&f, why, sizeof(why)));
	T_CHECK(strstr(why, "lack tryboot") != NULL);
	f.has_caps = false;
	T_CHECK(!boot_tryboot_offered(&f, why, sizeof(why)));
	T_CHECK(strstr(why, "no capabilities") != NULL);
	f = (struct boot_facts){ .soc = BOOT_SOC_OLDER_PI, .has_caps = true, .caps = 0xff };
	T_CHECK(!boot_tryboot_offered(&f, why, sizeof(why)));
	f.soc = BOOT_SOC_2712;
	T_CHECK(boot_tryboot_offered(&f, why, sizeof(why)));
}

static void test_files(void)
{
	static const char line[] = "console=tty1 root=PARTUUID=b07e1308-02 rootfstype=ext4 "
				   "rootwait quiet\n";
	static const char quoted[] = "root=/dev/mmcblk0p2 panic=5 root=\"PARTUUID=aa-02\"";
	struct sbuf t = SBUF_INIT(4096), c = SBUF_INIT(4096);

	static const char config[] = "[pi4]\narm_boost=1\n[all]\narm_64bit=1";

	T_EQ_INT(boot_tryboot_files(line, strlen(line), config, strlen(config),
				    "PARTUUID=5487497e-02", 0, &t, &c), 0);
	T_EQ_STR(sbuf_str(&c), "console=tty1 root=PARTUUID=5487497e-02 rootfstype=ext4 "
			       "rootwait quiet panic=10\n");
	/* a kernel with rootwait=<seconds> gives up on a root that never comes */
	T_EQ_INT(boot_tryboot_files(line, strlen(line), config, strlen(config),
				    "PARTUUID=5487497e-02", 30, &t, &c), 0);
	T_EQ_STR(sbuf_str(&c), "console=tty1 root=PARTUUID=5487497e-02 rootfstype=ext4 "
			       "rootwait=30 quiet panic=10\n");
	T_EQ_INT(boot_tryboot_rootwait("6.6.51+rpt-rpi-v8"), 30);
	T_EQ_INT(boot_tryboot_rootwait("6.6.0"), 30);
	T_EQ_INT(boot_tryboot_rootwait("6.5.13"), 0);
	T_EQ_INT(boot_tryboot_rootwait("6.1.21-v8+"), 0);
	T_EQ_INT(boot_tryboot_rootwait("5.15.84-v8+"), 0);
	T_EQ_INT(boot_tryboot_rootwait(""), 0);
	/* config.txt copied (the EEPROM bootloader has no include), then the trial's cmdline= for
	 * every model */
	T_CHECK(strstr(sbuf_str(&t), "\n[pi4]\narm_boost=1\n[all]\narm_64bit=1\ncmdline="
				     BOOT_TRYBOOT_CMDLINE "\n") != NULL);
	/* [all] added only where the section in force at the end is another (or may be) */
	T_EQ_INT(boot_tryboot_files(line, strlen(line), "[all]\narm_64bit=1\n[pi4]\nx=1\n", 28,
				    "PARTUUID=5487497e-02", 0, &t, &c), 0);
	T_CHECK(strstr(sbuf_str(&t), "\n[pi4]\nx=1\n[all]\ncmdline=") != NULL);
	T_EQ_INT(boot_tryboot_files(line, strlen(line), "[all]\ninclude extra.txt\n", 24,
				    "PARTUUID=5487497e-02", 0, &t, &c), 0);
	T_CHECK(strstr(sbuf_str(&t), "\ninclude extra.txt\n[all]\ncmdline=") != NULL);
	T_EQ_INT(boot_tryboot_files(line, strlen(line), "arm_64bit=1\n", 12,
				    "PARTUUID=5487497e-02", 0, &t, &c), 0);
	T_CHECK(strstr(sbuf_str(&t), "[all]") == NULL);
	T_CHECK(strstr(sbuf_str(&t), "include") == NULL);
	/* one [all]: none added after Raspberry Pi OS's closing [all] (issue 34 item 10) */
	T_EQ_INT(boot_tryboot_files(line, strlen(line), "[cm5]\nx=1\n\n[all]\n", 17,
				    "PARTUUID=5487497e-02", 0, &t, &c), 0);
	T_CHECK(strstr(sbuf_str(&t), "[all]\n[all]") == NULL);
	T_CHECK(strstr(sbuf_str(&t), "\n[all]\ncmdline=" BOOT_TRYBOOT_CMDLINE "\n") != NULL);
	/* a section left open, or an include that may leave one open: [all] first */
	T_EQ_INT(boot_tryboot_files(line, strlen(line), "[all]\n[pi5]\nx=1\n", 16,
				    "PARTUUID=5487497e-02", 0, &t, &c), 0);
	T_CHECK(strstr(sbuf_str(&t), "x=1\n[all]\ncmdline=") != NULL);
	T_EQ_INT(boot_tryboot_files(line, strlen(line), "include extra.txt\n", 18,
				    "PARTUUID=5487497e-02", 0, &t, &c), 0);
	T_CHECK(strstr(sbuf_str(&t), "extra.txt\n[all]\ncmdline=") != NULL);
	/* the kernel takes the last root=; a panic= of the user's is kept */
	T_EQ_INT(boot_tryboot_files(quoted, strlen(quoted), "", 0, "PARTUUID=bb-02", 0, &t, &c), 0);
	T_EQ_STR(sbuf_str(&c), "root=/dev/mmcblk0p2 panic=5 root=PARTUUID=bb-02\n");
	/* refused: no root=, two lines, a root with a blank */
	T_EQ_INT(boot_tryboot_files("quiet", 5, "", 0, "PARTUUID=bb-02", 0, &t, &c), -EINVAL);
	T_EQ_INT(boot_tryboot_files("root=x\nroot=y", 13, "", 0, "PARTUUID=bb-02", 0, &t, &c),
		 -EINVAL);
	T_EQ_INT(boot_tryboot_files(line, strlen(line), "", 0, "PARTUUID=bb 02", 0, &t, &c), -EINVAL);
	sbuf_release(&t);
	sbuf_release(&c);
}

int main(void)
{
	test_offered();
	test_files();
	return t_done();
}
