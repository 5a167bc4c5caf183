/* t-ref.c - probe_ref_resolve() on a captured tree: a bare kernel name, /dev/NAME and a
 * /dev/disk/by-id/ link name one object; equality, the running disk and partitions by
 * identity, never by spelling (issue 34, 3); names are never cut (issue 34, 10). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "probe/probe.h"
#include "probe/ref.h"
#include "t.h"
#include "t-tree.h"

#define MMC "sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0"
#define NVME "sys/devices/platform/14100000.pcie/pci0004:00/0004:00:00.0/0004:01:00.0/nvme/nvme0/nvme0n1"

static void build_tree(void)
{
	t_tree_put(MMC "/dev", "179:0\n");
	t_tree_put(MMC "/size", "62333952\n");
	t_tree_put(MMC "/mmcblk0p1/dev", "179:1\n");
	t_tree_put(MMC "/mmcblk0p1/partition", "1\n");
	t_tree_put(MMC "/mmcblk0p1/size", "1048576\n");
	t_tree_put(MMC "/mmcblk0p2/dev", "179:2\n");
	t_tree_put(MMC "/mmcblk0p2/partition", "2\n");
	t_tree_put(MMC "/mmcblk0p2/size", "61000000\n");
	t_tree_link("../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:0001/block/"
		    "mmcblk0", "sys/block/mmcblk0");
	t_tree_put(NVME "/dev", "259:0\n");
	t_tree_put(NVME "/size", "976773168\n");
	t_tree_link("../devices/platform/14100000.pcie/pci0004:00/0004:00:00.0/0004:01:00.0/"
		    "nvme/nvme0/nvme0n1", "sys/block/nvme0n1");
	t_tree_put("dev/mmcblk0", "");
	t_tree_link("../../nvme0n1", "dev/disk/by-id/nvme-Samsung_SSD_980_S1234");
	t_tree_link("../../mmcblk0p2", "dev/disk/by-partuuid/0badc0de-02");
	t_tree_put("proc/self/mountinfo",
		   "30 1 179:2 / / rw,relatime shared:1 - ext4 /dev/mmcblk0p2 rw\n"
		   "31 30 179:1 / /boot/firmware rw - vfat /dev/mmcblk0p1 rw\n");
}

static int resolve(struct sysroot *sr, struct inventory *inv, const char *name,
		   struct probe_ref *r)
{
	char why[512];

	return probe_ref_resolve(sr, inv, name, 0, r, why, sizeof(why));
}

static void check_tree(struct sysroot *sr, struct inventory *inv)
{
	static struct probe_ref a, b, c, d, e;

	/* the running disk by its bare name (as clone's help spells disks), by /dev/ path */
	T_EQ_INT(resolve(sr, inv, "mmcblk0", &a), 0);
	T_EQ_INT(a.kind, PROBE_REF_BLOCK);
	T_EQ_STR(a.path, "/dev/mmcblk0");
	T_CHECK(probe_ref_is_running_disk(inv, &a));
	T_EQ_INT(resolve(sr, inv, "/dev/mmcblk0", &b), 0);
	T_CHECK(probe_ref_same(&a, &b));
	T_CHECK(probe_ref_is_running_disk(inv, &b));
	/* its root partition through a by-partuuid link: a partition of the same disk */
	T_EQ_INT(resolve(sr, inv, "/dev/disk/by-partuuid/0badc0de-02", &c), 0);
	T_CHECK(c.is_partition);
	T_EQ_INT(c.partn, 2);
	T_CHECK(!probe_ref_same(&a, &c));
	T_CHECK(probe_ref_same_disk(&a, &c));
	T_CHECK(probe_ref_is_running_disk(inv, &c));
	/* the NVMe drive by name and by its by-id link (no node in the tree) */
	T_EQ_INT(resolve(sr, inv, "nvme0n1", &d), 0);
	T_EQ_INT(resolve(sr, inv, "/dev/disk/by-id/nvme-Samsung_SSD_980_S1234", &e), 0);
	T_EQ_INT(e.kind, PROBE_REF_BLOCK);
	T_CHECK(probe_ref_same(&d, &e));
	T_EQ_STR(e.path, "/dev/nvme0n1");
	T_CHECK(!probe_ref_is_running_disk(inv, &e));
	T_CHECK(!probe_ref_same(&a, &e));
	T_CHECK(!probe_ref_same_disk(&a, &e));
	/* a link to no disk of the tree, and an empty name */
	T_CHECK(resolve(sr, inv, "/dev/disk/by-id/nothing", &e) != 0);
	T_EQ_INT(resolve(sr, inv, "", &e), -EINVAL);
}

/* Files on this machine: a name over 127 bytes is kept whole; a relative name and a symlink
 * are the same file; a bare name that is also a disk is ambiguous. */
static void check_files(struct sysroot *sr, struct inventory *inv)
{
	static struct probe_ref a, b, c;
	char dir[PATH_MAX], longname[PATH_MAX], lnk[PATH_MAX], why[512];
	int fd;

	t_tree_path("files", dir, sizeof(dir));
	mkdir(dir, 0755);
	str_fmt(longname, sizeof(longname), "%s/%0200d.img", dir, 7);
	fd = open(longname, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	T_CHECK(fd >= 0);
	if (fd >= 0) {
		T_CHECK(write(fd, "x", 1) == 1);
		close(fd);
	}
	T_EQ_INT(resolve(sr, inv, longname, &a), 0);
	T_EQ_INT(a.kind, PROBE_REF_FILE);
	T_EQ_STR(a.path, longname);
	T_EQ_INT(a.size, 1);
	str_fmt(lnk, sizeof(lnk), "%s/link.img", dir);
	T_CHECK(symlink(longname, lnk) == 0);
	T_EQ_INT(resolve(sr, inv, lnk, &b), 0);
	T_CHECK(probe_ref_same(&a, &b));
	T_CHECK(chdir(dir) == 0);
	T_EQ_INT(resolve(sr, inv, strrchr(longname, '/') + 1, &c), 0);
	T_CHECK(probe_ref_same(&a, &c));
	/* not there: an error, or a file to make in its directory */
	T_EQ_INT(resolve(sr, inv, "new.img", &c), -ENOENT);
	T_EQ_INT(probe_ref_resolve(sr, inv, "new.img", PROBE_REF_MAY_BE_NEW, &c, why,
				   sizeof(why)), 0);
	T_EQ_INT(c.kind, PROBE_REF_NEW);
	/* "nvme0n1" is a disk of the tree and a file here: refused, not guessed */
	fd = open("nvme0n1", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0)
		close(fd);
	T_EQ_INT(probe_ref_resolve(sr, inv, "nvme0n1", 0, &c, why, sizeof(why)), -EINVAL);
	T_CHECK(strstr(why, "./nvme0n1") != NULL);
	T_CHECK(chdir("/") == 0);
}

int main(void)
{
	struct inventory *inv = NULL;
	struct sysroot *sr;
	int manual;

	t_tree_new("t-ref");
	build_tree();
	for (manual = 0; manual <= 1; manual++) {
		T_EQ_INT(sysroot_open(t_root, &sr), 0);
		sysroot_set_manual_resolve(sr, manual);
		T_EQ_INT(probe_inventory_load(sr, &inv), 0);
		if (inv) {
			check_tree(sr, inv);
			if (!manual)
				check_files(sr, inv);
		}
		probe_inventory_free(inv);
		inv = NULL;
		sysroot_free(sr);
	}
	t_tree_remove();
	return t_done();
}
