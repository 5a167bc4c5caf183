/* t-bootloc.c - where the boot files are: one answer (common/bootloc.c) for the inventory and
 * for fix, honouring config.txt's os_prefix and cmdline= and the firmware's os_prefix. */
#include "common/bootloc.h"
#include "common/util.h"
#include "probe/probe.h"
#include "t.h"
#include "t-tree.h"

static void check(const char *want_loc, const char *want_inv)
{
	struct inventory *inv = NULL;
	struct sysroot *sr = NULL;
	struct boot_loc loc;

	T_EQ_INT(sysroot_open(t_root, &sr), 0);
	if (!sr)
		return;
	T_EQ_INT(boot_loc_find(sr, &loc), 0);
	T_EQ_STR(loc.cmdline, want_loc);
	T_EQ_INT(probe_inventory_load(sr, &inv), 0);
	if (inv)
		T_EQ_STR(inv->cmdline_txt, want_inv);
	probe_inventory_free(inv);
	sysroot_free(sr);
}

int main(void)
{
	struct sysroot *sr = NULL;
	struct boot_loc loc;

	t_tree_new("t-bootloc");
	t_tree_mkdirs("sys/block");
	t_tree_put("boot/cmdline.txt", "root=/dev/mmcblk0p2\n");
	check("/boot/cmdline.txt", "/boot/cmdline.txt");
	/* Bookworm: /boot/firmware has config.txt */
	t_tree_put("boot/firmware/config.txt", "arm_64bit=1\n");
	t_tree_put("boot/firmware/cmdline.txt", "root=/dev/mmcblk0p2\n");
	check("/boot/firmware/cmdline.txt", "/boot/firmware/cmdline.txt");
	/* cmdline= and os_prefix in config.txt, read for this board (a Pi 5) */
	t_tree_put("boot/firmware/config.txt", "os_prefix=next/\n[pi4]\nos_prefix=pi4/\n[all]\n"
					       "cmdline=cl.txt\n");
	t_tree_put("boot/firmware/next/cl.txt", "root=/dev/sda2\n");
	/* no model published: whether [pi4] holds is not known, and nothing is guessed */
	T_EQ_INT(sysroot_open(t_root, &sr), 0);
	if (sr) {
		T_EQ_INT(boot_loc_find(sr, &loc), -EAGAIN);
		T_CHECK(strstr(loc.why, "[pi4]") != NULL);
		sysroot_free(sr);
	}
	t_tree_put_n("proc/device-tree/model", "Raspberry Pi 4 Model B Rev 1.4\0", 31);
	check("/boot/firmware/pi4/cl.txt", "/boot/firmware/pi4/cl.txt");
	t_tree_put_n("proc/device-tree/model", "Raspberry Pi 5 Model B Rev 1.0\0", 31);
	check("/boot/firmware/next/cl.txt", "/boot/firmware/next/cl.txt");
	/* cmdline= under [pi5] in an included file (issue 34 item 2) */
	t_tree_put("boot/firmware/config.txt", "include extra.txt\n[all]\n");
	t_tree_put("boot/firmware/extra.txt", "[pi4]\ncmdline=four.txt\n[pi5]\ncmdline=five.txt\n");
	t_tree_put("boot/firmware/five.txt", "root=/dev/nvme0n1p2\n");
	check("/boot/firmware/five.txt", "/boot/firmware/five.txt");
	t_tree_put("boot/firmware/config.txt", "os_prefix=next/\n[pi4]\nos_prefix=pi4/\n[all]\n"
					       "cmdline=cl.txt\n");
	/* the firmware's published os_prefix wins over config.txt */
	t_tree_put_n("proc/device-tree/chosen/os_prefix", "alt/\0", 5);
	check("/boot/firmware/alt/cl.txt", "/boot/firmware/alt/cl.txt");
	/* a name that leaves the boot directory is refused, and shown nowhere */
	t_tree_put_n("proc/device-tree/chosen/os_prefix", "../../etc/\0", 11);
	T_EQ_INT(sysroot_open(t_root, &sr), 0);
	if (sr) {
		T_EQ_INT(boot_loc_find(sr, &loc), -EINVAL);
		T_EQ_STR(loc.prefix, "../../etc/");
		sysroot_free(sr);
	}
	t_tree_remove();
	return t_done();
}
