/* t-sysroot.c - reads stay inside the sysroot, whatever the tree's symlinks say, and hostile
 * files (FIFOs, loops, overlong values) give an error instead of a hang or a guess. */
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sysroot.h"
#include "common/util.h"
#include "t.h"

static char root[PATH_MAX];

static void put_bytes(const char *rel, const char *text, size_t n)
{
	char p[PATH_MAX];
	FILE *f;

	str_fmt(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	if (!f) {
		perror(p);
		exit(1);
	}
	fwrite(text, 1, n, f);
	fclose(f);
}

static void put(const char *rel, const char *text)
{
	put_bytes(rel, text, strlen(text));
}

static void dir(const char *rel)
{
	char p[PATH_MAX];

	str_fmt(p, sizeof(p), "%s/%s", root, rel);
	mkdir(p, 0755);
}

static void link_(const char *target, const char *rel)
{
	char p[PATH_MAX];

	str_fmt(p, sizeof(p), "%s/%s", root, rel);
	if (symlink(target, p)) {
		perror(p);
		exit(1);
	}
}

static void build_tree(void)
{
	char big[8192];

	str_copy(root, sizeof(root), "/tmp/t-sysroot.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		exit(1);
	}
	dir("sys");
	dir("sys/devices");
	dir("sys/devices/pci0000:00");
	dir("sys/devices/pci0000:00/0000:00:1d.0");
	dir("sys/devices/pci0000:00/0000:00:1d.0/usb2");
	dir("sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1");
	dir("sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/block");
	dir("sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/block/sda");
	put("sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/block/sda/size", "250069680\n");
	put("sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/idVendor", "152d\n");
	put("sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/model", "Generic         \n");
	dir("sys/bus");
	dir("sys/bus/usb");
	dir("sys/bus/usb/drivers");
	dir("sys/bus/usb/drivers/uas");
	link_("../../../../bus/usb/drivers/uas", "sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1/driver");
	dir("sys/block");
	link_("../devices/pci0000:00/0000:00:1d.0/usb2/2-1/block/sda", "sys/block/sda");
	/* absolute link: must resolve inside the root, not on the host */
	link_("/sys/devices/pci0000:00/0000:00:1d.0/usb2/2-1", "sys/abs");
	/* escapes upward: clamped at the root */
	link_("../../../../../../../../etc", "sys/escape");
	dir("etc");
	put("etc/hostname", "inside\n");
	link_("loop2", "sys/loop1");
	link_("loop1", "sys/loop2");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put("sys/big", big);
	put("sys/empty", "  \n");
	put("sys/garbage", "12abc\n");
	put_bytes("sys/nul", "a\0b", 3);
	{
		char p[PATH_MAX];

		str_fmt(p, sizeof(p), "%s/sys/fifo", root);
		mkfifo(p, 0600);
	}
}

static void check_tree(bool manual)
{
	struct sysroot *sr;
	char buf[256];
	uint64_t v;
	DIR *d;

	T_EQ_INT(sysroot_open(root, &sr), 0);
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

int main(void)
{
	struct sysroot *sr;
	char cmd[PATH_MAX + 16];

	build_tree();
	check_tree(false);
	check_tree(true);

	T_EQ_INT(sysroot_open("/nonexistent/sysroot", &sr), -ENOENT);
	T_EQ_INT(sysroot_open("/", &sr), 0);
	T_CHECK(sysroot_is_live(sr));
	T_EQ_STR(sysroot_dir(sr), "/");
	sysroot_free(sr);

	str_fmt(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", root);
	return t_done();
}
