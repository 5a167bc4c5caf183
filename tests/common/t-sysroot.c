/* t-sysroot.c - reads stay inside the sysroot, whatever the tree's symlinks say, and hostile
 * files (FIFOs, loops, overlong values) give an error instead of a hang or a guess. */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/sysroot.h"
#include "common/util.h"
#include "t.h"
#include "t-tree.h"

static void build_tree(void)
{
	char big[8192];

	t_tree_new("t-sysroot");
	t_tree_mkdirs("sys");
	t_tree_mkdirs("sys/devices");
	t_tree_mkdirs("sys/devices/pci0000:00");
	t_tree_mkdirs("sys/devices/pci0000:00/0000:00:1d.0");
	t_tree_mkdirs("sys/devices/pci0000:00/0000:00:1d.0/usb2");
	t_tree_mkdirs("sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1");
	t_tree_mkdirs("sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/block");
	t_tree_mkdirs("sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/block/sda");
	t_tree_put("sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/block/sda/size", "250069680\n");
	t_tree_put("sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/idVendor", "152d\n");
	t_tree_put("sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/model", "Generic         \n");
	t_tree_mkdirs("sys/bus");
	t_tree_mkdirs("sys/bus/usb");
	t_tree_mkdirs("sys/bus/usb/drivers");
	t_tree_mkdirs("sys/bus/usb/drivers/uas");
	t_tree_link("../../../../bus/usb/drivers/uas", "sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/driver");
	t_tree_mkdirs("sys/block");
	t_tree_link("../devices/pci0000:00/0000:00:1d.0/usb2/2-1/block/sda", "sys/block/sda");
	/* absolute link: must resolve inside the root, not on the host */
	t_tree_link("/sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1", "sys/abs");
	/* escapes upward: clamped at the root */
	t_tree_link("../../../../../../../../etc", "sys/escape");
	t_tree_mkdirs("etc");
	t_tree_put("etc/hostname", "inside\n");
	t_tree_link("loop2", "sys/loop1");
	t_tree_link("loop1", "sys/loop2");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	t_tree_put("sys/big", big);
	t_tree_put("sys/empty", "  \n");
	t_tree_put("sys/garbage", "12abc\n");
	t_tree_put_n("sys/nul", "a\0b", 3);
	{
		char p[PATH_MAX];

		mkfifo(t_tree_path("sys/fifo", p, sizeof(p)), 0600);
	}
}

static void check_tree(bool manual)
{
	struct sysroot *sr;
	char buf[256];
	uint64_t v;
	DIR *d;

	T_EQ_INT(sysroot_open(t_root, &sr), 0);
	T_CHECK(!sysroot_is_live(sr));
	sysroot_set_manual_resolve(sr, manual);

	T_EQ_INT(sysroot_read_u64(sr, "/sys/block/sda/size", &v), 0);
	T_EQ_INT(v, 250069680);
	T_EQ_INT(sysroot_read_str(sr, "/sys/block/sda/../../idVendor", buf, sizeof(buf)), 4);
	T_EQ_STR(buf, "152d");
	T_EQ_INT(sysroot_realpath(sr, "/sys/block/sda", buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "/sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/block/sda");
	T_EQ_INT(sysroot_realpath(sr, "/sys/block/sda/../..", buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "/sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1");
	T_EQ_INT(sysroot_read_str(sr, "/sys/abs/model", buf, sizeof(buf)), 7);
	T_EQ_STR(buf, "Generic");
	T_EQ_INT(sysroot_read_str(sr, "/sys/escape/hostname", buf, sizeof(buf)), 6);
	T_EQ_STR(buf, "inside");
	T_EQ_INT(sysroot_realpath(sr, "/../../../sys/../etc", buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "/etc");
	T_EQ_INT(sysroot_link_basename(sr, "/sys/block/sda/../../driver", buf, sizeof(buf)), 3);
	T_EQ_STR(buf, "uas");
	T_EQ_INT(sysroot_read_str(sr, "/sys/loop1", buf, sizeof(buf)), -ELOOP);
	T_EQ_INT(sysroot_realpath(sr, "/sys/loop1", buf, sizeof(buf)), -ELOOP);
	T_EQ_INT(sysroot_read(sr, "/sys/big", buf, sizeof(buf)), -E2BIG);
	T_EQ_INT(sysroot_read_str(sr, "/sys/empty", buf, sizeof(buf)), -ENODATA);
	T_EQ_INT(sysroot_read_u64(sr, "/sys/garbage", &v), -EINVAL);
	T_EQ_INT(sysroot_read(sr, "/sys/nul", buf, sizeof(buf)), 3);
	T_EQ_STR(buf, "a?b");
	T_EQ_INT(sysroot_read(sr, "/sys/fifo", buf, sizeof(buf)), -EINVAL);
	T_EQ_INT(sysroot_read(sr, "/sys/missing", buf, sizeof(buf)), -ENOENT);
	T_EQ_INT(sysroot_read(sr, "/sys", buf, sizeof(buf)), -EINVAL);
	T_CHECK(sysroot_exists(sr, "/sys/block/sda"));
	T_CHECK(!sysroot_exists(sr, "/sys/block/sdz"));
	T_EQ_INT(sysroot_opendir(sr, "/sys/block", &d), 0);
	if (d)
		closedir(d);
	sysroot_free(sr);
}

/* openat2 fails a ".." with EAGAIN when a rename anywhere on the system races it: with
 * another process renaming all the while, every read of a path with ".." still works. */
static void check_rename_race(void)
{
	char a[PATH_MAX], b[PATH_MAX], buf[64];
	struct sysroot *sr;
	int bad = 0, i;
	pid_t pid;

	t_tree_put("race", "x");
	t_tree_path("race", a, sizeof(a));
	t_tree_path("race2", b, sizeof(b));
	pid = fork();
	if (pid == 0) {
		for (;;) {
			rename(a, b);
			rename(b, a);
		}
	}
	T_CHECK(pid > 0);
	T_EQ_INT(sysroot_open(t_root, &sr), 0);
	for (i = 0; i < 20000 && pid > 0; i++)
		if (sysroot_read_str(sr, "/sys/block/sda/../../idVendor", buf, sizeof(buf)) != 4)
			bad++;
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	T_EQ_INT(bad, 0);
	sysroot_free(sr);
}

int main(void)
{
	struct sysroot *sr;
	build_tree();
	check_tree(false);
	check_tree(true);
	check_rename_race();

	T_EQ_INT(sysroot_open("/nonexistent/sysroot", &sr), -ENOENT);
	T_EQ_INT(sysroot_open("/", &sr), 0);
	T_CHECK(sysroot_is_live(sr));
	T_EQ_STR(sysroot_dir(sr), "/");
	sysroot_free(sr);

	t_tree_remove();
	return t_done();
}
